"""What a change of the contact decoder's settings does, on recorded climbs.

    python -m vision.bench_decoder CLIP_DIR [CLIP_DIR ...] --cache DIR \
        [--set NAME=VALUE ...] [--jobs 2]

Each rendered climb (``arbitre synth grimpe`` or :mod:`vision.bench_judge`'s folders) is
recorded once through the referee's front end (route, MediaPipe, smoothing, occlusion:
:func:`vision.bench_ceiling.record_all`, kept in ``--cache``), then its contact events are
decoded again by :class:`vision.contact.ContactDetector` with the shipped settings and with
the settings of ``--set`` (fields of :class:`vision.contact.ContactParams`), and judged as
``arbitre grimpe judge-video`` does (event arbiter, then the climb judge). Prints, for both,
the verdicts right and the contact events F1, the verdicts by camera and script, then the
climbs won and lost by the change. The recordings take about 3 s a climb once; a replay of
144 climbs about 1.5 minutes (2026-12-05). With the shipped settings the figures are those
of :mod:`vision.bench_judge` on the same clips, up to the live referee's event order.

Settings are chosen on climbs judged before; their worth is told by climbs rendered after
the choice (a new ``vision.bench_judge`` run), not by the ones they were chosen on.
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
from typing import Any

from vision.contact import ContactDetector, ContactParams

__all__ = ["compare_settings", "judge_with", "main", "parse_settings"]


def parse_settings(items: list[str]) -> dict[str, Any]:
    """``NAME=VALUE`` strings -> {name: value} for :class:`ContactParams`, each value of its
    field's type (a switch: 1/0, true/false, yes/no, on/off). Raises ValueError naming the
    setting and the fix."""
    fields = {f.name: f for f in dataclasses.fields(ContactParams)}
    defaults = ContactParams()
    out: dict[str, Any] = {}
    for item in items:
        name, sep, text = item.partition("=")
        name, text = name.strip(), text.strip()
        if not sep or not name or not text:
            raise ValueError(f"setting {item!r}: write it NAME=VALUE, e.g. start_min_conf=0.6")
        if name not in fields:
            raise ValueError(f"setting {name!r} is not a contact decoder setting; the settings are the "
                             f"fields of vision.contact.ContactParams: {', '.join(sorted(fields))}")
        kind = type(getattr(defaults, name))
        if kind is bool:
            low = text.lower()
            if low not in ("1", "0", "true", "false", "yes", "no", "on", "off"):
                raise ValueError(f"setting {name!r} is a switch: give 1 or 0 (true/false), not {text!r}")
            out[name] = low in ("1", "true", "yes", "on")
            continue
        try:
            out[name] = kind(text)
        except ValueError:
            raise ValueError(f"setting {name!r} takes a {kind.__name__} (now {getattr(defaults, name)!r}), "
                             f"not {text!r}") from None
    return out


def judge_with(clips: list[dict[str, Any]], settings: dict[str, Any], stride: int = 2) -> dict[str, Any]:
    """Decode and judge recorded clips with the decoder's settings changed by ``settings``:
    {"tp", "pred", "truth", "right", "precision", "recall", "f1", "clips": [(name, script,
    camera, verdict right, verdict text, result and score right)]}."""
    from vision.bench_ceiling import _verdict_text
    from vision.bench_judge import _colour_map, score_right
    from vision.train_contact import judge_recordings

    params = ContactParams(**settings)
    out = judge_recordings(clips, lambda i, clip: ContactDetector(params, colour_map=_colour_map(clip["gt"])),
                           stride)
    out["clips"] = [(clip.get("name", "?"), str(clip["gt"].get("script", "?")),
                     str(clip["gt"].get("camera_kind", "?")), bool(ok), _verdict_text(v),
                     score_right(v, clip["gt"]["expected_verdict"]))
                    for clip, _, ok, v in out.pop("judged")]
    return out


def compare_settings(clips: list[dict[str, Any]], settings: dict[str, Any], stride: int = 2
                     ) -> tuple[dict[str, Any], dict[str, Any], list[tuple[str, str, str]], list[tuple[str, str, str]]]:
    """The shipped settings and ``settings`` on the same recorded clips (:func:`judge_with`):
    (shipped, changed, won, lost); won and lost: (clip name, verdict before, verdict after)."""
    base = judge_with(clips, {}, stride)
    new = judge_with(clips, settings, stride) if settings else base
    won, lost = [], []
    for a, b in zip(base["clips"], new["clips"]):
        if b[3] and not a[3]:
            won.append((a[0], a[4], b[4]))
        elif a[3] and not b[3]:
            lost.append((a[0], a[4], b[4]))
    return base, new, won, lost


def _figures(row: dict[str, Any], n: int) -> str:
    return (f"verdicts {row['right']}/{n} ({100 * row['right'] / max(n, 1):.1f} %), events F1 {row['f1']:.4f} "
            f"(P {row['precision']:.3f}, R {row['recall']:.3f})")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m vision.bench_decoder", description=__doc__.split("\n")[0])
    ap.add_argument("clips", nargs="+", help="rendered climb folders (video.mp4, route.json, ground_truth.json)")
    ap.add_argument("--cache", default=None, help="folder for the per-clip recordings (MediaPipe runs once)")
    ap.add_argument("--set", dest="settings", action="append", default=[], metavar="NAME=VALUE",
                    help="a setting of vision.contact.ContactParams to try (repeat for several)")
    ap.add_argument("--stride", type=int, default=2, help="frames per processed frame (as the referee)")
    ap.add_argument("--jobs", type=int, default=1, help="clips recorded at once, in separate processes")
    args = ap.parse_args(argv)
    try:
        settings = parse_settings(args.settings)
    except ValueError as exc:
        ap.error(str(exc))
    from vision.bench_ceiling import record_all
    from vision.bench_judge import verdict_breakdown

    try:
        clips = record_all(args.clips, args.stride, args.cache, args.jobs)
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    base, new, won, lost = compare_settings(clips, settings, args.stride)
    n = len(clips)
    print(f"The contact decoder on {n} recorded climbs (stride {args.stride}):")
    print(f"  shipped settings: {_figures(base, n)}")
    rows = [(script, cam, ok, score) for _, script, cam, ok, _, score in new["clips"]]
    if settings:
        shown = ", ".join(f"{k}={v}" for k, v in settings.items())
        print(f"  with {shown}: {_figures(new, n)}")
    for line in verdict_breakdown(rows)[:2]:
        print(f"    {line}")
    if settings:
        for what, rows_ in (("won", won), ("lost", lost)):
            print(f"  {what} ({len(rows_)}):" + ("" if rows_ else " none"))
            for name, before, after in rows_:
                print(f"    {name}: {before} -> {after}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
