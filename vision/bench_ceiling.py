"""How far better contact evidence could take the video judge: its decoder told the truth.

    python -m vision.bench_ceiling CLIP_DIR [CLIP_DIR ...] [--cache DIR] [--jobs 2]

Each rendered climb (``arbitre synth grimpe`` or :mod:`vision.bench_judge`'s folders) is
recorded once through the referee's front end (:func:`vision.train_contact.record_clip`: route,
MediaPipe, smoothing, occlusion; cached in ``--cache``), then judged four ways by the same
contact decoder, event arbiter and climb judge as ``arbitre grimpe judge-video``:

- ``as judged``: the shipped classifiers;
- ``true contact``: the contact classifier replaced by the ground truth (P 1 when the finger is
  down on the target the landmarks put under it, else 0);
- ``+ true lifts``: the still-down classifier too (1 while the finger is still down there);
- ``+ true holds``: and the choice of the target under each finger told the hold the finger is
  down on, when the landmarks put that hold under the finger at all.

The first row is the benchmark's figure (:mod:`vision.bench_judge` prints the same on the same
clips, up to the live referee's event order). What the last row still gets wrong lies beyond
the contact evidence: MediaPipe's landmarks putting the hold out of the finger's reach
(counted: the share of frames with a finger down on a hold where its landmarks do not reach
that hold), a card move or the other hand unseen, or the decoder's own rules. So the rows tell
where work pays: a better contact classifier can win at most the gap between the first two.

Then, per camera, how far MediaPipe's fingertip of a finger down on a hold lies from the
ground truth's (:func:`tip_errors`: median, p75, share within 8 mm, the median components along
the finger and away from the camera) and on how many frames with the hand in view MediaPipe
found no hand. On the 96 ``synth-3`` climbs of seeds 17100-17195 (2026-12-04): top-down
median 14.0 mm (p75 29.3, within 8 mm on 29 %), +11.3 mm along the finger (MediaPipe sees a
pressed finger longer than it is: it is bent down into the hold), +1.5 mm away from the camera;
oblique 18.4 mm (p75 40.0, 23 %), +4.6 along, +5.3 away (the tip read above the table);
no hand on 50 of 4,797 and 8 of 3,197 processed frames (46 of the 50 in one climb, 17111:
MediaPipe finds no hand on its first 92 frames; given its frame 40 alone, it finds none at 0.3
detection confidence however the frame is turned, one at 0.1 with the frame turned a quarter).
The verdicts on those climbs (the eighth contact model): as judged 54/96 (F1 0.800), contact
told 73, lifts told 74, holds told 83.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from vision.contact import ContactDetector, _Observed
from vision.landmarks import FINGERS

__all__ = ["TOLD", "TruthToldDetector", "ceiling", "main", "record_all", "tip_errors"]

#: the rows: (name, tell the contact evidence, the lifts, the holds)
TOLD: tuple[tuple[str, bool, bool, bool], ...] = (
    ("as judged", False, False, False),
    ("true contact", True, False, False),
    ("+ true lifts", True, True, False),
    ("+ true holds", True, True, True),
)


class TruthToldDetector(ContactDetector):
    """:class:`vision.contact.ContactDetector` whose classifiers (``contact``, ``lifts``) or
    target choice (``holds``) are replaced by the ground truth ``labels`` (per video frame, the
    target each finger is down on, or None: :func:`vision.train_contact._labels`). Everything
    else (landmarks, targets under the fingers, decoder rules, rescues) is the detector's own.
    Counts :attr:`pressing` (finger-frames down on a hold) and :attr:`out_of_reach` (of those,
    where the target under the finger is another one even when told)."""

    def __init__(self, labels: list[list[str | None]], *, contact: bool, lifts: bool, holds: bool,
                 **kw: Any) -> None:
        super().__init__(**kw)
        self._labels = labels
        self.tell_contact, self.tell_lifts, self.tell_holds = contact, lifts, holds
        self._frame = -1
        self.pressing = 0
        self.out_of_reach = 0

    def _truth(self, frame: int, k: int) -> str | None:
        return self._labels[frame][k] if 0 <= frame < len(self._labels) else None

    def update(self, lm: np.ndarray | None, t_s: float, frame_index: int, route: Any,
               occlusion: np.ndarray | None = None, view: Any = None, eye: Any = None) -> Any:
        self._frame = frame_index
        out = super().update(lm, t_s, frame_index, route, occlusion, view=view, eye=eye)
        ob = self._pending[-1] if self._pending else self._done[-1]
        if ob.lm is not None:
            for k in range(len(FINGERS)):
                truth = self._truth(frame_index, k)
                if truth is not None and truth not in ("start", "finish"):
                    self.pressing += 1
                    self.out_of_reach += ob.cands[k] != truth
        return out

    def colour_prior(self, route: Any) -> np.ndarray | None:
        prior = super().colour_prior(route)
        if not self.tell_holds or not len(route.holds):
            return prior
        told = np.ones((len(FINGERS), len(route.holds))) if prior is None else np.array(prior, np.float64)
        for k in range(len(FINGERS)):
            truth = self._truth(self._frame, k)
            if truth is not None and truth in route.holds.ids:
                told[k] = 1e-6
                told[k, route.holds.index(truth)] = 1.0
        return told

    def _evidence(self, ob: _Observed, at: Callable[[int], _Observed]) -> np.ndarray:
        if not self.tell_contact:
            return super()._evidence(ob, at)
        return np.array([1.0 if c is not None and self._truth(ob.frame_index, k) == c else 0.0
                         for k, c in enumerate(ob.cands)], np.float32)

    def _still_down(self, k: int, cur: str, ob: _Observed, p_on: float,
                    at: Callable[[int], _Observed]) -> float:
        if not self.tell_lifts:
            return super()._still_down(k, cur, ob, p_on, at)
        return 1.0 if self._truth(ob.frame_index, k) == cur else 0.0


def ceiling(clips: list[dict[str, Any]], stride: int = 2) -> list[dict[str, Any]]:
    """Judge recorded clips (:func:`vision.train_contact.record_clip`) the ways of :data:`TOLD`:
    per row, ``name``, events ``tp``/``pred``/``truth``, ``precision``, ``recall``, ``f1``,
    ``right`` (verdicts), ``misses`` [(clip name, verdict, expected)], and for the row with the
    holds told, ``pressing`` and ``out_of_reach`` finger-frames."""
    from vision.bench_judge import _colour_map
    from vision.train_contact import _labels, judge_recordings

    labels = [_labels(clip["gt"]) for clip in clips]
    rows = []
    for name, contact, lifts, holds in TOLD:
        def told(i: int, clip: dict[str, Any], contact: bool = contact, lifts: bool = lifts,
                 holds: bool = holds) -> TruthToldDetector:
            return TruthToldDetector(labels[i], contact=contact, lifts=lifts, holds=holds,
                                     colour_map=_colour_map(clip["gt"]))

        row = judge_recordings(clips, told, stride)
        judged = row.pop("judged")
        row.update(name=name, misses=[(clip.get("name", "?"), _verdict_text(v),
                                       _verdict_text(clip["gt"]["expected_verdict"]))
                                      for clip, _, ok, v in judged if not ok],
                   pressing=sum(det.pressing for _, det, _, _ in judged) if holds else 0,
                   out_of_reach=sum(det.out_of_reach for _, det, _, _ in judged) if holds else 0)
        rows.append(row)
    return rows


def tip_errors(clip: dict[str, Any], stride: int = 2) -> dict[str, Any]:
    """How far MediaPipe's fingertips (as the contact stage receives them: smoothed, in the
    table view on an oblique camera) lie from the ground truth's (in MediaPipe's convention,
    ``landmarks_mediapipe_px``), for every processed frame in which a finger is down on a
    hold (from 2 frames after its true down to its true up), both taken to the table plane
    through the route's homography. Returns ``camera``, ``err_mm`` (N,) distances, ``along_mm``
    (N,) the component along the finger (from its true knuckle, ``FINGER_JOINTS[finger].mcp``:
    the thumb's CMC, to its true tip: + = beyond the true tip, - = short of it, towards the
    knuckle), ``away_mm`` (N,) the component away from
    the camera (from the foot of the camera's perpendicular on the table to the hold),
    ``in_view`` (processed frames with at least 18 of the 21 true landmarks inside the image)
    and ``lost`` (of those, frames where MediaPipe found no climbing hand)."""
    from vision.camera import CameraModel, apply_homography
    from vision.landmarks import FINGER_JOINTS
    from vision.synth.bench_scene import hand_in_view
    from vision.train_contact import true_up_frame

    gt, route, view = clip["gt"], clip["route"], clip.get("view")
    H_route = route.H_route_from_image
    nadir = CameraModel.from_dict(gt["camera"]).centre_world_mm[:2]
    holds = {h["id"]: np.array([h["x_mm"], h["y_mm"]], np.float64) for h in gt["route"]["holds"]}
    downs = []
    for e in gt["events"]:
        if e["type"] == "down" and e["target"] in holds:
            joints = FINGER_JOINTS[e["finger"]]
            downs.append(((joints.tip, joints.mcp), holds[e["target"]], e["frame"] + 2,
                          true_up_frame(gt["events"], e)))
    w, h = gt["image_size"]

    def to_mm(px: np.ndarray, in_image: bool) -> np.ndarray:
        px = np.asarray(px, np.float64).reshape(-1, 2)
        if in_image and view is not None:
            px = view.to_view(px).astype(np.float64)
        return apply_homography(H_route, px)

    err, along, away = [], [], []
    in_view = lost = 0
    for lm, _t, f, _occ in clip["rec"]:
        if f % stride or f >= len(gt["frames"]):
            continue
        true = next((x for x in gt["frames"][f]["hands"] if x["role"] == "climbing"), None)
        if true is None:
            continue
        if hand_in_view(true["landmarks_px"], w, h):
            in_view += 1
            lost += lm is None
        if lm is None:
            continue
        for (tip, knuckle), hold, a, b in downs:
            if a <= f < b:
                seen = to_mm(lm[tip, :2], False)[0]
                t_tip, t_mcp = to_mm(np.asarray(true["landmarks_mediapipe_px"])[[tip, knuckle]], True)
                d = seen - t_tip
                u_f = (t_tip - t_mcp) / max(float(np.linalg.norm(t_tip - t_mcp)), 1e-6)
                u_c = (hold - nadir) / max(float(np.linalg.norm(hold - nadir)), 1e-6)
                err.append(float(np.linalg.norm(d)))
                along.append(float(d @ u_f))
                away.append(float(d @ u_c))
    return {"camera": gt.get("camera_kind", "?"), "err_mm": np.array(err), "along_mm": np.array(along),
            "away_mm": np.array(away), "in_view": in_view, "lost": lost}


def _verdict_text(v: dict[str, Any]) -> str:
    fault = (v.get("fault") or {}).get("code")
    return f"{v['result']} {fault}" if fault else f"{v['result']} {v['score']}"


def _record(job: tuple[str, int, str | None]) -> dict[str, Any]:
    from vision.train_contact import load_or_record

    folder, stride, cache = job
    return load_or_record(Path(folder), stride, cache)


def record_all(folders: list[str], stride: int, cache: str | None, jobs: int = 1) -> list[dict[str, Any]]:
    """Record each rendered climb folder once (:func:`vision.train_contact.load_or_record`,
    kept in ``cache``), ``jobs`` at a time, with a bar on stderr. Raises ValueError naming the
    folder and what to do when one is not a rendered climb or cannot be recorded (a corrupt
    video, a route it cannot read); the recordings already made stay in ``cache``."""
    from tqdm import tqdm

    for d in folders:
        folder = Path(d)
        missing = [n for n in ("video.mp4", "route.json", "ground_truth.json") if not (folder / n).is_file()]
        if missing:
            raise ValueError(f"{folder} is not a rendered climb (no {', '.join(missing)}); render one with "
                             f"'arbitre synth grimpe --out DIR' or 'python -m vision.bench_judge'")
    work = [(d, stride, cache) for d in folders]
    bar = tqdm(total=len(work), desc="recording", unit="clip", file=sys.stderr)
    clips: list[dict[str, Any]] = []
    try:
        if jobs > 1:
            from vision.bench_judge import worker_pool

            with worker_pool(jobs) as pool:
                for c in pool.map(_record, work):
                    clips.append(c)
                    bar.update()
        else:
            for j in work:
                clips.append(_record(j))
                bar.update()
    except (ValueError, RuntimeError, OSError) as exc:  # a corrupt video, a route it cannot read
        raise ValueError(f"could not record {folders[len(clips)]}: {exc}; render it again or leave it "
                         f"out (recordings already made are kept in --cache)") from exc
    finally:
        bar.close()
    return clips


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m vision.bench_ceiling", description=__doc__.split("\n")[0])
    ap.add_argument("clips", nargs="+", help="rendered climb folders (video.mp4, route.json, ground_truth.json)")
    ap.add_argument("--cache", default=None, help="folder for the per-clip recordings (MediaPipe runs once)")
    ap.add_argument("--stride", type=int, default=2, help="frames per processed frame (as the referee)")
    ap.add_argument("--jobs", type=int, default=1, help="clips recorded at once, in separate processes")
    args = ap.parse_args(argv)
    try:
        clips = record_all(args.clips, args.stride, args.cache, args.jobs)
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    rows = ceiling(clips, args.stride)
    n = len(clips)
    print(f"The video judge's decoder told the truth, on {n} recorded climbs (stride {args.stride}):")
    print(f"  {'':16s} {'events F1':>9s} {'P':>6s} {'R':>6s}  verdicts")
    for row in rows:
        print(f"  {row['name']:16s} {row['f1']:9.4f} {row['precision']:6.3f} {row['recall']:6.3f}  "
              f"{row['right']}/{n} ({100 * row['right'] / max(n, 1):.1f} %)")
    last = rows[-1]
    print(f"Finger-frames down on a hold whose landmarks do not reach it (even told): "
          f"{last['out_of_reach']} of {last['pressing']} "
          f"({100 * last['out_of_reach'] / max(last['pressing'], 1):.1f} %)")
    tips = [tip_errors(c, args.stride) for c in clips]
    print("MediaPipe's fingertip of a finger down on a hold, against the ground truth's (table mm):")
    for camera in sorted({t["camera"] for t in tips}):
        sel = [t for t in tips if t["camera"] == camera]
        e, a, w = (np.concatenate([t[k] for t in sel]) for k in ("err_mm", "along_mm", "away_mm"))
        in_view, lost = sum(t["in_view"] for t in sel), sum(t["lost"] for t in sel)
        if len(e):
            print(f"  {camera}: {len(e)} finger-frames, median {np.median(e):.1f} mm (p75 "
                  f"{np.percentile(e, 75):.1f}, within 8 mm on {100 * np.mean(e <= 8):.0f} %); along the "
                  f"finger median {np.median(a):+.1f} mm, away from the camera {np.median(w):+.1f} mm; "
                  f"no hand found on {lost} of {in_view} frames with the hand in view")
    if last["misses"]:
        print(f"Still wrong with everything told ({len(last['misses'])}):")
        for name, got, exp in last["misses"]:
            print(f"  {name}: {got}, expected {exp}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
