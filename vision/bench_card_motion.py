"""Benchmark of the card-motion stage (:mod:`vision.card_motion`) on rendered clips.

    python -m vision.bench_card_motion --clips /tmp/h11/{dev,dev2,bench,bench7}/climb_* \\
        [--cache /tmp/arbitre-bench-card-motion] [--show]

Each clip (a folder with ``video.mp4``, ``route.json``, ``ground_truth.json`` as written by
:mod:`vision.synth`) is first run once through :class:`vision.pipeline.GrimpeReferee` to record
what the card-motion stage receives (the empty-route reference, the route observation, and per
processed frame its time, index and the hands' landmarks); that recording is cached (pickle)
so later runs replay only the stage: frames are decoded again and the hand mask is rebuilt
with :func:`vision.hand_mask.hand_mask` exactly as the pipeline does. Prints:

- recall: nudged cards reported (right card, at or after the nudge's start);
- delay: detection frame minus the nudge's last frame (s), and the event's date minus the
  truth's (the judge's truth dates the fault to the nudge's first frame);
- false alarms: events on a card that was not nudged, or before its nudge; per clip and per
  minute of video;
- cost: ms per processed frame of the stage (the hand mask it asks for included), mean and
  95th percentile, per image size.

Measured 2026-11-29 (2 cores shared with other jobs, load 8-11, so costs are pessimistic) on
88 rendered clips, recorded through the referee as of this commit: the 64 climbs of seeds
5001-5032, 6001-6016, 7001-7016 (``bench_judge``'s dev and bench sets: 8 card_moved, 56
others), fresh seeds 9001-9008 card_moved top and oblique (16), 9009 card_moved oblique
1280x720, 9010 clean top 1280x720, 9011 other_hand, 9012 wrong_finger, and the 4 bundled
sample clips; 26 nudges, 62 clips without one, 8.4 min::

    python -m vision.bench_card_motion --render-seeds $(seq 9001 9008) --clips \
        /tmp/h11/{dev,dev2,bench,bench7}/climb_* VAL/climb_* \
        sample_videos/{card_moved_oblique,clean_top,clean_oblique,wrong_finger_top}

(``/tmp/h11/...``: the clips ``bench_judge --workdir`` rendered; ``VAL``: 9009-9012 rendered
with :func:`vision.bench_judge.render`, sizes as above)

- this stage, hands given as landmarks and the reference's hand-free mask passed (the
  wiring :class:`vision.pipeline.GrimpeReferee` should use): recall 24/26; 23 confirmed
  between 0.07 s before and 0.07 s after the nudge's end (median -0.07 s: during the slide),
  one 1.13 s after (a card 5-15 % visible under the forearm); dated 0.10 s after the truth's
  first nudge frame (median); motion measured at confirmation 1.7 mm / 1.0 deg from the final
  nudge (median; the card is often still sliding); 0 false alarms (on the 62 clips without a
  nudge no single check measured a motion; on 9009 the card beside the nudged one, its
  reference also showing the hand, did once); cost 1.35 ms per processed frame at 640x480
  (p95 3.3), 2.9 ms at 1280x720 (p95 5.9). The 2 misses: a card under the forearm from before
  its nudge to the clip's end (6013), and a 1280x720 clip whose empty-route reference shows
  the hand over the nudged card while ``reference_valid`` says all clear (9009: MediaPipe
  missed that hand when the reference was taken).
- the same, wired as the pipeline calls it today (``--mask full --no-reference-valid``):
  recall 23/26 (9003 oblique also missed: its reference shows the hand), 22 within 0.3 s
  (max +0.33 s), 0 false alarms (4 isolated single checks), 1.6 ms / 2.8 ms per frame.
- after the cost work (cards no hand comes near skipped, covered cards looked at every other
  call, unchanged card images keeping their answer, hopeless alignments stopped early; see
  :mod:`vision.card_motion`), same 88 clips, ``--cpu`` (the recordings of the /tmp/h11 clips
  made again through the referee of commit 2b4b3be): recall 24/26, the same delays (median
  -0.07 s, max +1.13 s, 23/26 within 0.3 s), 0 false alarms; 0.52 ms CPU per processed frame
  at 640x480 (p95 1.13), 0.70 ms at 1280x720 (p95 1.07), against 1.34 / 2.65 ms for commit
  2b4b3be's detector run alongside (``--detector-file``; load average ~8).
- 2026-11-30, the forearm band judged by colour (:meth:`CardMotionDetector._hand_in_rect`)
  and the reference checked for a hand MediaPipe missed (``GrimpeReferee._maybe_start_route``),
  recorded through the referee of commit 2e39149, ``--cpu``; before: ``--param
  forearm_colour=0`` on recordings made through 0ac8822. 208 clips (the 64 /tmp/h11 climbs
  and 144 bench_judge climbs of seeds 14401-14448, 14501-14548, 14601-14648: 26 nudges, 182
  clips without one): recall 22 -> 23/26, within 0.3 s 20 -> 22; fresh seeds 14701-14716
  (``--render-seeds``, 32 clips, all nudged): recall 26 -> 28/32, within 0.3 s 21 -> 22; 1
  false alarm on the 208 before and after (a second card reported on 14621), none on the 182
  clips without a nudge; 0.65 -> 0.87 ms CPU per processed frame at 640x480. Found now: 14445
  (at most 14 % of the card seen after the nudge), 7005 1.0 s sooner. Still missed: cards
  under the hand or forearm until the end (14541, 6013, 14701, 14713), and 14637 (its
  reference shows fingertips MediaPipe's landmarks fell short of, on a wood table the colour
  of the hand: the colour check adds nothing there).
- the previous detector (``--detector-file`` of ``git show af24ed0:vision/card_motion.py``):
  recall 14/26, 2 within 0.3 s (median +1.0 s, max +1.6 s after the nudge's end), 2 false
  alarms (another card reported on a card_moved clip), 0.1 ms per frame (one check in 4).
"""

from __future__ import annotations

import argparse
import json
import pickle
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np

__all__ = ["Recording", "record_clip", "replay", "main"]


class Recording(dict):  # type: ignore[type-arg]
    """What the card-motion stage received on one clip: ``ref`` (H, W, 3) uint8, ``route``
    (RouteObservation), ``ref_valid`` (H, W) bool (the reference's pixels not under a hand),
    ``calls`` [(t_s, frame_index, [(21, 2) float32 landmarks per hand])],
    ``fps``, ``num_frames``, ``nudges`` (ground truth), ``clip``."""


def record_clip(folder: Path) -> Recording | None:
    """Run the referee on a clip and record the card-motion stage's inputs (None: no route)."""
    import vision.pipeline as pipeline
    from vision.bench_judge import _colour_map
    from vision.video import VideoReader

    gt = json.loads((folder / "ground_truth.json").read_text())
    route = json.loads((folder / "route.json").read_text())
    rec = Recording(clip=str(folder), fps=float(gt["fps"]), num_frames=int(gt["num_frames"]),
                    nudges=gt.get("card_nudges", []), calls=[], image_size=gt["image_size"])
    holder: dict[str, Any] = {}

    class _Recorder:
        def __init__(self, reference_bgr: np.ndarray, route_obs: Any, **_: Any) -> None:
            rec["ref"] = reference_bgr.copy()
            rec["route"] = route_obs
            valid = holder["ref"].route_detector.reference_valid
            rec["ref_valid"] = None if valid is None else valid.copy()

        def update(self, frame: np.ndarray, t_s: float, frame_index: int,
                   hand_mask: Any) -> list[Any]:
            hands = holder["ref"]._hands
            lms = [np.asarray(h.landmarks_px, np.float32) for h in hands.hands] if hands else []
            rec["calls"].append((float(t_s), int(frame_index), lms))
            return []

    saved = pipeline.CardMotionDetector
    pipeline.CardMotionDetector = _Recorder  # type: ignore[misc,assignment]
    try:
        with VideoReader(folder / "video.mp4") as vr:
            ref = pipeline.GrimpeReferee(route, fps=vr.fps, colour_map=_colour_map(gt))
            holder["ref"] = ref
            pipeline.feed_video(ref, vr)
            ref.close()
    finally:
        pipeline.CardMotionDetector = saved  # type: ignore[misc]
    return rec if "ref" in rec else None


def load_or_record(folder: Path, cache: Path) -> Recording | None:
    key = cache / (folder.resolve().as_posix().strip("/").replace("/", "__") + ".pkl")
    if key.is_file():
        with key.open("rb") as f:
            return Recording(pickle.load(f))
    rec = record_clip(folder)
    if rec is not None:
        cache.mkdir(parents=True, exist_ok=True)
        with key.open("wb") as f:
            pickle.dump(dict(rec), f)
    return rec


def replay(rec: Recording, *, mask: str = "landmarks", reference_valid: bool = True,
           detector: Any = None, clock: Any = time.perf_counter, **params: Any
           ) -> tuple[list[dict[str, Any]], list[float]]:
    """Run a fresh :class:`vision.card_motion.CardMotionDetector` over a recording: its events
    and the cost of each ``update`` call in ms (the hand mask it asks for included).

    ``mask``: ``"landmarks"`` (the hands' landmarks are passed, masks drawn per card) or
    ``"full"`` (a callable making :func:`vision.hand_mask.hand_mask` of the whole frame);
    ``reference_valid``: pass the route detector's mask of the reference's hand-free pixels;
    ``detector``: another detector class with the same ``update`` (e.g. an older version);
    ``clock``: what the cost is measured with (``time.thread_time``: CPU time of this thread,
    steadier on a shared machine)."""
    from vision.card_motion import CardMotionDetector
    from vision.hand_mask import hand_mask
    from vision.video import VideoReader

    if detector is None:
        valid = rec.get("ref_valid") if reference_valid else None
        det = CardMotionDetector(rec["ref"], rec["route"], reference_valid=valid, **params)
    else:
        import inspect

        if reference_valid and "reference_valid" in inspect.signature(detector).parameters:
            params = dict(params, reference_valid=rec.get("ref_valid"))
        det = detector(rec["ref"], rec["route"], **params)
    calls = {fi: (t, lms) for t, fi, lms in rec["calls"]}
    events: list[dict[str, Any]] = []
    cost_ms: list[float] = []
    with VideoReader(Path(rec["clip"]) / "video.mp4") as vr:
        while True:
            fi = vr.next_index
            if fi not in calls:
                if not vr.skip():
                    break
                continue
            item = vr.read()
            if item is None:
                break
            frame = item[2]
            t_s, lms = calls[fi]

            def full_mask(lms: list[np.ndarray] = lms, shape: tuple[int, int] = frame.shape[:2]
                     ) -> np.ndarray | None:
                ms = [hand_mask(shape, lm, fast=True) for lm in lms]
                return np.logical_or.reduce(ms) if ms else None

            arg: Any = [lm for lm in lms] if mask == "landmarks" else full_mask
            t0 = clock()
            events += det.update(frame, t_s, fi, arg)
            cost_ms.append(1000 * (clock() - t0))
    return events, cost_ms


def score(rec: Recording, events: list[dict[str, Any]]) -> dict[str, Any]:
    """Match the events of one clip with its nudges: found, delays, false alarms."""
    fps = rec["fps"]
    out: dict[str, Any] = {"nudges": len(rec["nudges"]), "found": 0, "delay_s": [],
                           "date_err_s": [], "false": [], "duration_s": rec["num_frames"] / fps}
    used: set[int] = set()
    for n in rec["nudges"]:
        for j, e in enumerate(events):
            if j in used or e.get("card") != n["card"]:
                continue
            if e.get("frame_detected", e["frame"]) < n["frame0"]:
                continue
            used.add(j)
            out["found"] += 1
            out["delay_s"].append((e.get("frame_detected", e["frame"]) - n["frame1"]) / fps)
            out["date_err_s"].append(e["t"] - (n["frame0"] + 1) / fps)
            if "shift_mm" in e:
                dx, dy = e["shift_mm"][0] - n["dx_mm"], e["shift_mm"][1] - n["dy_mm"]
                out["shift_err_mm"] = float(np.hypot(dx, dy))
                out["rot_err_deg"] = abs(e["rot_deg"] - n["drot_deg"])
            break
    out["false"] = [e for j, e in enumerate(events) if j not in used]
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m vision.bench_card_motion",
                                 description=__doc__.split("\n")[0])
    ap.add_argument("--clips", nargs="*", default=[], help="rendered clip folders")
    ap.add_argument("--render-seeds", type=int, nargs="*", default=[],
                    help="render (or reuse) a card_moved clip, top and oblique, for each seed")
    tmp = Path(tempfile.gettempdir())
    ap.add_argument("--workdir", default=str(tmp / "arbitre-bench-card-motion-clips"),
                    help="where --render-seeds clips go")
    ap.add_argument("--cache", default=str(tmp / "arbitre-bench-card-motion"),
                    help="folder of the recorded stage inputs (reused between runs)")
    ap.add_argument("--show", action="store_true", help="print every event")
    ap.add_argument("--mask", choices=("landmarks", "full"), default="landmarks",
                    help="hands given to the stage as landmarks (default) or as a callable "
                         "making the full-frame mask")
    ap.add_argument("--no-reference-valid", action="store_true",
                    help="do not tell the stage which reference pixels were under a hand")
    ap.add_argument("--detector-file", default=None,
                    help="benchmark the CardMotionDetector of this .py file instead (e.g. an "
                         "older version: git show REV:vision/card_motion.py > old.py); one "
                         "without reference_valid (af24ed0 and before) gets --mask full")
    ap.add_argument("--param", action="append", default=[], metavar="NAME=VALUE",
                    help="a CardMotionDetector keyword argument (number), e.g. coarse_zncc=-1")
    ap.add_argument("--cpu", action="store_true",
                    help="cost in CPU time of the stage's thread (steadier on a busy machine)")
    args = ap.parse_args(argv)
    params = {k: float(v) for k, v in (p.split("=", 1) for p in args.param)}
    cache = Path(args.cache)
    detector = None
    if args.detector_file:
        import importlib.util
        import inspect

        spec = importlib.util.spec_from_file_location("card_motion_under_test", args.detector_file)
        assert spec is not None and spec.loader is not None
        mod = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = mod
        spec.loader.exec_module(mod)
        detector = mod.CardMotionDetector
        if "reference_valid" not in inspect.signature(detector).parameters:
            args.mask = "full"  # an old detector: it takes a full-frame hand mask only
    clips = list(args.clips)
    if args.render_seeds:
        from vision.bench_judge import render

        for seed in args.render_seeds:
            for cam in ("top", "oblique"):
                out = Path(args.workdir) / f"climb_{seed}_card_moved_{cam}"
                f = render(seed, cam, "card_moved", out)
                if f is not None:
                    clips.append(str(f))
    if not clips:
        ap.error("give --clips and/or --render-seeds")
    rows = []
    costs: dict[tuple[int, int], list[float]] = {}
    for c in clips:
        folder = Path(c)
        if not (folder / "ground_truth.json").is_file():
            print(f"  {folder}: no ground_truth.json, skipped", file=sys.stderr)
            continue
        rec = load_or_record(folder, cache)
        if rec is None:
            print(f"  {folder}: no route found, skipped")
            continue
        events, cost = replay(rec, mask=args.mask, reference_valid=not args.no_reference_valid,
                              detector=detector,
                              clock=time.thread_time if args.cpu else time.perf_counter, **params)
        r = score(rec, events)
        rows.append((folder, r))
        costs.setdefault(tuple(rec["image_size"]), []).extend(cost)  # type: ignore[arg-type]
        desc = ", ".join(f"card {n['card']} {np.hypot(n['dx_mm'], n['dy_mm']):.1f} mm "
                         f"{n['drot_deg']:+.1f} deg frames {n['frame0']}-{n['frame1']}"
                         for n in rec["nudges"]) or "no nudge"
        found = ""
        if r["nudges"]:
            found = f"found {r['found']}/{r['nudges']}"
            if r["delay_s"]:
                found += f", delay {r['delay_s'][0]:+.2f} s"
            if "shift_err_mm" in r:
                found += f", measured {r['shift_err_mm']:.1f} mm / {r['rot_err_deg']:.1f} deg off"
            found += ";"
        print(f"  {folder.parent.name}/{folder.name}: {desc}; {found} "
              f"false alarms {len(r['false'])}; {np.mean(cost):.2f} ms/frame")
        if args.show:
            for e in events:
                print("      ", e)
    n_nudge = sum(r["nudges"] for _, r in rows)
    n_found = sum(r["found"] for _, r in rows)
    delays = np.array([d for _, r in rows for d in r["delay_s"]])
    dates = np.array([d for _, r in rows for d in r["date_err_s"]])
    n_false = sum(len(r["false"]) for _, r in rows)
    minutes = sum(r["duration_s"] for _, r in rows) / 60
    clean = [r for _, r in rows if not r["nudges"]]
    print(f"== {len(rows)} clips ({len(rows) - len(clean)} with a nudge), "
          f"{minutes:.1f} min of video ==")
    print(f"  recall {n_found}/{n_nudge}" + (f" = {n_found / n_nudge:.2f}" if n_nudge else ""))
    if len(delays):
        print(f"  delay after the nudge's end: median {np.median(delays):+.2f} s, "
              f"max {delays.max():+.2f} s, within 0.3 s: {int((delays <= 0.3).sum())}/{n_nudge}")
        print(f"  event date minus truth date (nudge start): median {np.median(dates):+.2f} s, "
              f"range {dates.min():+.2f}..{dates.max():+.2f} s")
        se = np.array([r["shift_err_mm"] for _, r in rows if "shift_err_mm" in r])
        re_ = np.array([r["rot_err_deg"] for _, r in rows if "rot_err_deg" in r])
        if len(se):
            print(f"  measured motion vs truth: shift error median {np.median(se):.2f} mm "
                  f"(max {se.max():.2f}), turn error median {np.median(re_):.2f} deg "
                  f"(max {re_.max():.2f})")
    print(f"  false alarms: {n_false} in {len(rows)} clips "
          f"({n_false / max(len(rows), 1):.3f} per clip, "
          f"{n_false / max(minutes, 1e-9):.2f} per minute); on clips without a nudge: "
          f"{sum(len(r['false']) for r in clean)} in {len(clean)}")
    for size, c in sorted(costs.items()):
        a = np.array(c)
        print(f"  cost at {size[0]}x{size[1]}: {a.mean():.2f} ms {'CPU ' if args.cpu else ''}per processed frame "
              f"(p95 {np.percentile(a, 95):.2f}, max {a.max():.1f}; hand mask included)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
