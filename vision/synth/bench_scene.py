"""Benchmark of the synthetic Grimpe scenes: does MediaPipe see the rendered hand, how well do
its landmarks agree with the ground truth, and how fast do scenes render?

    python -m vision.synth.bench_scene --seeds 100-105 --cameras top oblique

For every seed and camera it renders a full scene through :func:`vision.synth.scene.write_scene`
(mp4v video, as ``arbitre synth grimpe`` does), reads the video back with OpenCV and runs the
project's :class:`vision.hands.HandTracker` (legacy MediaPipe, video mode) on every frame. It
prints, per scene and overall:

- detection rate: frames where the climbing hand is in view (≥ 18 of its 21 ground-truth
  landmarks inside the image) and MediaPipe reports a hand whose landmarks are on average
  within half a palm of it ("found" counts frames with any hand reported at all);
- landmark error of the matched hand against the ground truth in MediaPipe's convention
  (``landmarks_mediapipe_px``): mean over visible landmarks and over visible fingertips, in
  pixels and in % of the palm size (largest distance between palm landmarks, as
  :attr:`vision.hands.Hand.palm_size_px`);
- handedness: how often MediaPipe's label (swapped by :class:`HandTracker` for an un-mirrored
  camera) names the climbing hand correctly;
- render speed: frames per second of rendering + encoding, single process.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from vision.landmarks import FINGERTIPS, PALM_LANDMARKS
from vision.synth.seeds import parse_seeds

TIPS = list(FINGERTIPS.values())


def palm_size(px: np.ndarray) -> float:
    p = px[list(PALM_LANDMARKS)]
    return float(np.linalg.norm(p[:, None] - p[None], axis=-1).max())


def hand_in_view(landmarks_px: Any, w: int, h: int) -> bool:
    """A ground-truth hand is in view when at least 18 of its 21 landmarks (px) lie inside the
    ``w`` x ``h`` image."""
    px = np.asarray(landmarks_px, np.float64)
    return int(((px[:, 0] >= 0) & (px[:, 0] < w) & (px[:, 1] >= 0) & (px[:, 1] < h)).sum()) >= 18


def bench_scene(seed: int, camera: str, script: str, size: tuple[int, int],
                frames: int | None, workdir: Path) -> dict:
    from vision.hands import HandTracker
    from vision.synth.grimpe_scene import GrimpeScene, SceneConfig
    from vision.synth.scene import write_scene

    t0 = time.perf_counter()
    scene = GrimpeScene(SceneConfig(seed=seed, camera=camera, script=script, image_size=size,
                                    num_frames=frames))
    out = workdir / f"{seed}_{camera}_{script}"
    t1 = time.perf_counter()
    gt = write_scene(scene, out, progress=False)
    t2 = time.perf_counter()
    w, h = size
    cap = cv2.VideoCapture(str(out / "video.mp4"))
    in_view = detected = found = 0
    errs: list[float] = []
    tip_errs: list[float] = []
    errs_rel: list[float] = []
    tip_errs_rel: list[float] = []
    false_hands = 0
    handed_ok = 0
    with HandTracker(max_num_hands=2) as tracker:
        for fr in gt["frames"]:
            ok, img = cap.read()
            if not ok:
                break
            hands = tracker.update(img)
            truth = [hd for hd in fr["hands"] if hd["role"] == "climbing"]
            if not truth:
                false_hands += len(hands.hands)
                continue
            hd = truth[0]
            gt_mp = np.array(hd["landmarks_mediapipe_px"])
            vis = np.array(hd["visible"])
            if not hand_in_view(hd["landmarks_px"], w, h):
                continue
            in_view += 1
            found += int(len(hands.hands) > 0)
            palm = palm_size(gt_mp)
            best, best_d = None, np.inf
            for hand in hands.hands:
                d = float(np.linalg.norm(hand.landmarks_px - gt_mp, axis=1).mean())
                if d < best_d:
                    best, best_d = hand, d
            if best is None or best_d > 0.5 * palm:
                continue
            detected += 1
            handed_ok += int(best.handedness == hd["handedness"])
            e = np.linalg.norm(best.landmarks_px - gt_mp, axis=1)
            errs.append(float(e[vis].mean()))
            errs_rel.append(100 * float(e[vis].mean()) / palm)
            tv = [t for t in TIPS if vis[t]]
            if tv:
                tip_errs.append(float(e[tv].mean()))
                tip_errs_rel.append(100 * float(e[tv].mean()) / palm)
    cap.release()
    n = gt["num_frames"]
    return {
        "seed": seed, "camera": camera, "script": script, "frames": n,
        "hand": gt["hand"]["handedness"], "table": gt["table"]["kind"],
        "in_view": in_view, "detected": detected, "found": found,
        "err_px": errs, "tip_err_px": tip_errs, "err_pct": errs_rel, "tip_err_pct": tip_errs_rel,
        "build_s": t1 - t0, "render_s": t2 - t1, "render_fps": n / max(t2 - t1, 1e-9),
        "false_hands": false_hands, "handedness_ok": handed_ok,
    }


def _fmt(v: list[float]) -> str:
    return f"{np.mean(v):5.1f}" if v else "  n/a"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m vision.synth.bench_scene", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seeds", nargs="+", default=["100-103"], help="seeds, e.g. 100-105 7")
    ap.add_argument("--cameras", nargs="+", default=["top", "oblique"], choices=["top", "oblique"])
    ap.add_argument("--scripts", nargs="+", default=["clean"],
                    help="scripts to cycle through over the seeds (default: clean)")
    ap.add_argument("--size", default="640x480", choices=["640x480", "1280x720"])
    ap.add_argument("--frames", type=int, default=None, help="cut each scene to N frames")
    ap.add_argument("--keep", metavar="DIR", help="keep the rendered scenes in DIR")
    ap.add_argument("--json", metavar="FILE", help="also write every figure to FILE")
    args = ap.parse_args(argv)
    size = tuple(int(v) for v in args.size.split("x"))
    seeds = parse_seeds(args.seeds)
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(args.keep) if args.keep else Path(tmp)
        for i, seed in enumerate(seeds):
            for cam in args.cameras:
                script = args.scripts[i % len(args.scripts)]
                r = bench_scene(seed, cam, script, size, args.frames, work)  # type: ignore[arg-type]
                rows.append(r)
                rate = 100 * r["detected"] / max(r["in_view"], 1)
                print(f"seed {seed:5d} {cam:7s} {script:12s} {r['hand']:5s} {r['table']:9s} "
                      f"frames {r['frames']:4d} in view {r['in_view']:4d} "
                      f"found {100 * r['found'] / max(r['in_view'], 1):5.1f}% detected {rate:5.1f}% "
                      f"err {_fmt(r['err_px'])} px ({_fmt(r['err_pct'])}% palm) "
                      f"tips {_fmt(r['tip_err_px'])} px ({_fmt(r['tip_err_pct'])}% palm) "
                      f"handedness {100 * r['handedness_ok'] / max(r['detected'], 1):5.1f}% "
                      f"render {r['render_fps']:.2f} fps", flush=True)
    print()
    for cam in args.cameras + ["all"]:
        sel = [r for r in rows if cam == "all" or r["camera"] == cam]
        if not sel:
            continue
        inv = sum(r["in_view"] for r in sel)
        det = sum(r["detected"] for r in sel)
        fnd = sum(r["found"] for r in sel)
        err = [e for r in sel for e in r["err_px"]]
        tip = [e for r in sel for e in r["tip_err_px"]]
        errp = [e for r in sel for e in r["err_pct"]]
        tipp = [e for r in sel for e in r["tip_err_pct"]]
        frames = sum(r["frames"] for r in sel)
        hok = sum(r["handedness_ok"] for r in sel)
        secs = sum(r["render_s"] for r in sel)
        print(f"{cam:7s}: scenes {len(sel)}, in-view frames {inv}: a hand found in "
              f"{100 * fnd / max(inv, 1):.1f}%, the climbing hand detected (within half a palm) in "
              f"{det} = {100 * det / max(inv, 1):.1f}%; landmark error mean {_fmt(err)} px ({_fmt(errp)}% of palm), "
              f"median {np.median(err) if err else float('nan'):.1f} px; fingertips "
              f"{_fmt(tip)} px ({_fmt(tipp)}% of palm); handedness right in "
              f"{100 * hok / max(det, 1):.1f}%; render {frames / max(secs, 1e-9):.2f} "
              f"frames/s ({os.cpu_count()} cores, one process)")
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
