"""Benchmark: does MediaPipe find the synthetic hand, and where does it put the landmarks?

    python -m vision.synth.bench_hand --seeds 100-159
    python -m vision.synth.bench_hand --seeds 1000-1079 --fit-offsets

Each seed renders one hand (random handedness, skin, size, light, fingers down on table
points or lifted or resting) on a textured table with a few cards, seen by a 640×480 camera
straight from above and again tilted 30–45°, at a webcam-like scale (palm ~90–130 px). It runs
:class:`vision.hands.HandTracker` on each image and prints the detection rate, landmark and
fingertip errors (px and % of palm size, against the ground truth in MediaPipe's convention),
handedness accuracy and render time, and saves a contact sheet to ``out/hand_contact_sheet.png``.
It also times :meth:`HandModel.place` on random target sets. ``--fit-offsets`` prints the
per-landmark offset tables ``_MP_OFFSETS`` (resting/lifted fingers) and ``_MP_OFFSETS_DOWN``
(fingers pressing the table) of :mod:`vision.synth.hand`, medians measured on the given seeds;
fit on other seeds than the ones you evaluate on (tables in the code: fit on 1000-1079).
Render times: wall time on a busy machine is noisy; the CPU time is the cost.

Measured here (2 cores, mediapipe 0.10.21 legacy model_complexity=1, static images), on seeds
not used for fitting: 100-159 → detected 98.3 % (118/120), landmarks 4.4 px mean (4.4 % of
the palm), fingertips 4.3 px (4.2 %), pressing fingertips 5.4 %, handedness 100 %;
200-299 → detected 99.0 % (198/200), landmarks 4.7 px (4.7 %), fingertips 4.2 px,
handedness 95.5 % (one left hand read as a mirrored right hand, 50 px off). render_hand
0.21–0.23 s CPU per frame (canvas 2 px/mm, shaded at 1.7 px/mm); place() 0.7 ms CPU.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from vision.landmarks import FINGER_JOINTS, FINGERTIPS
from vision.synth.seeds import parse_seeds
from vision.synth.hand import (
    FINGERS,
    _YAW_NEUTRAL_DEG,
    HandModel,
    HandStyle,
    Lifted,
    Rest,
    _offset_frames,
    finish_image,
    landmarks_to_canvas_px,
    mediapipe_landmarks_px,
    random_style,
    render_hand,
)

__all__ = ["Sample", "make_sample", "camera_homography", "table_canvas", "main"]

IMAGE_SIZE = (640, 480)
CANVAS_MM = (1000.0, 900.0)  # table area drawn, mm (x, y): larger than any view
PX_PER_MM = 2.0


@dataclass(frozen=True, eq=False)
class Sample:
    """One rendered test image and its ground truth (image px)."""

    image_bgr: np.ndarray  # (480, 640, 3) uint8
    gt_px: np.ndarray  # (21, 2) landmarks in MediaPipe's convention
    gt_raw_px: np.ndarray  # (21, 2) model landmarks (joint centres, contact points)
    handedness: str
    palm_px: float  # wrist → middle knuckle distance in the image
    render_s: float  # wall time spent in render_hand
    render_cpu_s: float  # CPU time spent in render_hand (robust to a busy machine)
    down: tuple[str, ...]  # fingers pressing the table
    oblique: bool


def camera_homography(tilt_deg: float, yaw_deg: float, target_mm: tuple[float, float],
                      distance_mm: float, focal_px: float,
                      image_size: tuple[int, int] = IMAGE_SIZE) -> np.ndarray:
    """H_image_from_table (3×3): a pinhole camera looking at ``target_mm`` on the table.

    The camera sits on the player's side (-y), ``tilt_deg`` from vertical, turned
    ``yaw_deg`` about the vertical; image x follows table x when yaw is 0.
    """
    t, y = math.radians(tilt_deg), math.radians(yaw_deg)
    back = np.array([-math.sin(t) * math.sin(y), -math.sin(t) * math.cos(y), math.cos(t)])
    centre = np.array([target_mm[0], target_mm[1], 0.0]) + distance_mm * back
    z_c = -back
    x_c = np.array([math.cos(y), -math.sin(y), 0.0])
    x_c -= z_c * (x_c @ z_c)
    x_c /= np.linalg.norm(x_c)
    y_c = np.cross(z_c, x_c)
    R = np.stack([x_c, y_c, z_c])
    tvec = -R @ centre
    K = np.array([[focal_px, 0, image_size[0] / 2], [0, focal_px, image_size[1] / 2], [0, 0, 1]])
    return K @ np.column_stack([R[:, 0], R[:, 1], tvec])


def table_canvas(rng: np.random.Generator, size_px: tuple[int, int]) -> np.ndarray:
    """A textured table top (wood, felt or plain) with a few cards ringed with coloured holds."""
    w, h = size_px
    kind = rng.integers(3)
    if kind == 0:  # wood
        base = np.array([60, 100, 150]) * rng.uniform(0.6, 1.3)
        yy = np.arange(h)[:, None] + 8 * _noise(rng, (h, w), 40)
        grain = np.sin(yy / rng.uniform(3, 9)) * 12 + _noise(rng, (h, w), 2) * 6
        img = base[None, None, :] + grain[..., None] * np.array([0.6, 0.8, 1.0])
    elif kind == 1:  # felt / cloth
        base = rng.uniform(40, 180, 3)
        img = base[None, None, :] + _noise(rng, (h, w), 1.0)[..., None] * 10
    else:  # plain light table
        base = rng.uniform(150, 235) * np.array([1.0, 1.0, 1.0]) + rng.normal(0, 8, 3)
        img = base[None, None, :] + _noise(rng, (h, w), 25)[..., None] * 8
    img = np.clip(img, 0, 255).astype(np.uint8)
    holds = [(30, 30, 30), (200, 90, 20), (40, 150, 40), (20, 200, 230), (30, 30, 200)]
    for _ in range(rng.integers(2, 6)):
        cw, ch = 63 * PX_PER_MM, 88 * PX_PER_MM
        cx, cy = rng.uniform(0, w), rng.uniform(0, h)
        ang = rng.choice([0.0, 90.0]) + rng.normal(0, 4)
        box = cv2.boxPoints(((cx, cy), (cw, ch), ang)).astype(np.int32)
        col = tuple(int(c) for c in rng.uniform(170, 250, 3))
        cv2.fillConvexPoly(img, box, col, cv2.LINE_AA)
        for _ in range(rng.integers(1, 4)):
            px = cx + rng.uniform(-0.3, 0.3) * cw
            py = cy + rng.uniform(-0.35, 0.35) * ch
            c = holds[int(rng.integers(len(holds)))]
            cv2.circle(img, (int(px), int(py)), int(11 * PX_PER_MM), c, int(3 * PX_PER_MM),
                       cv2.LINE_AA)
            cv2.circle(img, (int(px), int(py)), int(8 * PX_PER_MM), (35, 35, 35), -1, cv2.LINE_AA)
    return img


def _noise(rng: np.random.Generator, shape: tuple[int, int], sigma: float) -> np.ndarray:
    n = rng.standard_normal(shape).astype(np.float32)
    if sigma > 0.3:
        n = cv2.GaussianBlur(n, (0, 0), sigma)
        n /= max(float(n.std()), 1e-6)
    return n


def _random_pose(rng: np.random.Generator, model: HandModel
                 ) -> tuple[np.ndarray, tuple[str, ...]] | None:
    """A random plausible pose: some fingers down on reachable points, some lifted."""
    cx, cy = CANVAS_MM[0] / 2, CANVAS_MM[1] * 0.45
    wrist = np.array([cx + rng.uniform(-60, 60), cy + rng.uniform(-50, 30)])
    heading = float(rng.uniform(-45, 45))
    n_down = int(rng.choice([0, 1, 2, 2, 3, 3, 4, 5]))
    down = sorted(rng.choice(len(FINGERS), size=n_down, replace=False).tolist())
    names = [FINGERS[i] for i in down]
    if names:
        # Targets near where the fingers would comfortably press from a guessed wrist.
        s = model.scale
        targets = {}
        h = math.radians(heading)
        for f in names:
            u, v = model.root_uv_mm[f]
            yaw = math.radians(_YAW_NEUTRAL_DEG[f] + rng.uniform(-8, 8))
            reach = (rng.uniform(22, 50) if f != "thumb" else rng.uniform(35, 60)) * s
            lu, lv = u + reach * math.sin(yaw), v + reach * math.cos(yaw)
            lu *= model.mirror
            targets[f] = (wrist[0] + math.cos(h) * lu - math.sin(h) * lv,
                          wrist[1] + math.sin(h) * lu + math.cos(h) * lv)
        others = [f for f in FINGERS if f not in names]
        lifted = [f for f in others if rng.random() < 0.35]
        pl = model.place(targets, lifted, heading_hint_deg=heading,
                         near_wrist_xy_mm=(float(wrist[0]), float(wrist[1])))
        if pl is None:
            return None
        return pl.landmarks_mm, tuple(names)
    states = {f: (Lifted(float(rng.uniform(25, 45))) if rng.random() < 0.3 else Rest())
              for f in FINGERS}
    return model.pose((float(wrist[0]), float(wrist[1])), heading, states), ()


def make_sample(seed: int, oblique: bool, *, style: HandStyle | None = None) -> Sample:
    """Render the scene for ``seed`` (straight from above, or tilted 30–45° if ``oblique``)."""
    rng = np.random.default_rng(seed)
    style = style or random_style(rng)
    model = HandModel(style)
    for _ in range(50):
        got = _random_pose(rng, model)
        if got is not None:
            break
    else:  # pragma: no cover - _random_pose succeeds within a few tries
        raise RuntimeError(f"seed {seed}: no feasible random pose")
    lm_mm, down = got
    cw, ch = int(CANVAS_MM[0] * PX_PER_MM), int(CANVAS_MM[1] * PX_PER_MM)
    canvas = table_canvas(rng, (cw, ch))
    lm_px = landmarks_to_canvas_px(lm_mm, PX_PER_MM, ch)
    light = (rng.uniform(-0.7, 0.7), rng.uniform(-0.7, 0.7), 1.0)
    t0, c0 = time.perf_counter(), time.process_time()
    render_hand(canvas, lm_px, style, light_dir=light, rng=rng, px_per_mm=PX_PER_MM)
    render_s, render_cpu_s = time.perf_counter() - t0, time.process_time() - c0

    # Camera: palm ~90-130 px; aim near the hand so it is in view.
    palm_mm = float(np.linalg.norm(lm_mm[9, :2] - lm_mm[0, :2]))
    palm_px_want = rng.uniform(90, 130)
    focal = 600.0
    tilt = rng.uniform(30, 45) if oblique else rng.uniform(0, 5)
    yaw = rng.uniform(-20, 20) if oblique else rng.uniform(-5, 5)
    distance = focal * palm_mm / palm_px_want
    aim = lm_mm[[0, 9], :2].mean(0) + rng.uniform(-25, 25, 2)
    H_img_from_table = camera_homography(tilt, yaw, (aim[0], aim[1]), distance, focal)
    T_table_from_canvas = np.array([[1 / PX_PER_MM, 0, 0], [0, -1 / PX_PER_MM, ch / PX_PER_MM],
                                    [0, 0, 1]])
    H = H_img_from_table @ T_table_from_canvas
    border = tuple(int(v) for v in np.median(canvas.reshape(-1, 3)[::97], axis=0))
    img = cv2.warpPerspective(canvas, H, IMAGE_SIZE, flags=cv2.INTER_AREA,
                              borderMode=cv2.BORDER_CONSTANT, borderValue=border)
    img = finish_image(img, rng, blur_sigma_px=rng.uniform(0.3, 0.8),
                       noise_sigma=rng.uniform(1.0, 3.0), jpeg_quality=int(rng.integers(70, 95)))

    def warp(xy: np.ndarray) -> np.ndarray:
        return cv2.perspectiveTransform(xy[None].astype(np.float64), H)[0]

    gt_raw = warp(lm_px[:, :2])
    gt_mp = warp(mediapipe_landmarks_px(lm_px, down=down))
    return Sample(img, gt_mp, gt_raw, style.handedness,
                  float(np.linalg.norm(gt_raw[9] - gt_raw[0])), render_s, render_cpu_s, down,
                  oblique)


def _draw(img: np.ndarray, gt: np.ndarray, found: np.ndarray | None, label: str) -> np.ndarray:
    from vision.landmarks import HAND_CONNECTIONS

    out = img.copy()
    for p in gt:
        cv2.circle(out, (int(round(p[0])), int(round(p[1]))), 3, (0, 255, 0), 1, cv2.LINE_AA)
    if found is not None:
        pts = np.round(found).astype(int)
        for a, b in HAND_CONNECTIONS:
            cv2.line(out, tuple(pts[a]), tuple(pts[b]), (0, 0, 255), 1, cv2.LINE_AA)
    cv2.putText(out, label, (6, 18), cv2.FONT_HERSHEY_SIMPLEX, 0.5, (255, 255, 255), 2)
    cv2.putText(out, label, (6, 18), cv2.FONT_HERSHEY_SIMPLEX, 0.5, (0, 0, 0), 1)
    return out


def time_place(n: int = 300, seed: int = 0) -> dict[str, float]:
    """Time :meth:`HandModel.place` on random 1–4 finger target sets (some unreachable)."""
    rng = np.random.default_rng(seed)
    times, cpu, found = [], [], 0
    for _ in range(n):
        model = HandModel(random_style(rng))
        k = int(rng.integers(1, 5))
        names = sorted(rng.choice(len(FINGERS), size=k, replace=False).tolist())
        base = rng.uniform([-40, 120], [40, 170])
        targets = {FINGERS[i]: (float(base[0] + (i - 2) * model.mirror * rng.uniform(10, 35)),
                                float(base[1] + rng.uniform(-35, 25)))
                   for i in names}
        t0, c0 = time.perf_counter(), time.process_time()
        p = model.place(targets)
        times.append(time.perf_counter() - t0)
        cpu.append(time.process_time() - c0)
        found += p is not None
    ms = np.array(times) * 1000
    return {"mean_ms": float(ms.mean()), "p95_ms": float(np.percentile(ms, 95)),
            "max_ms": float(ms.max()), "cpu_mean_ms": float(np.mean(cpu) * 1000),
            "feasible": found / n}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m vision.synth.bench_hand", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seeds", default="100-159", help="seed list, e.g. 100-159 or 1,2,5-9")
    ap.add_argument("--straight-only", action="store_true", help="skip the oblique views")
    ap.add_argument("--fit-offsets", action="store_true",
                    help="print the per-landmark offset table fitted on these seeds")
    ap.add_argument("--sheet", default="out/hand_contact_sheet.png",
                    help="contact sheet path ('' for none)")
    args = ap.parse_args(argv)

    from vision.hands import HandTracker

    try:
        seeds = parse_seeds(args.seeds)
    except ValueError:
        ap.error(f"--seeds {args.seeds!r}: expected numbers and ranges like 100-159 or 1,2,5-9")
    if not seeds:
        ap.error("--seeds selects no seed")
    views = [False] if args.straight_only else [False, True]
    rows = []
    sheet_tiles = []
    # Per detection: (21, 2) residuals in the offset frames, palm units, and (21,) flags of
    # the joints of fingers pressing the table (for fitting the two offset tables).
    residuals: list[tuple[np.ndarray, np.ndarray]] = []
    with HandTracker(static_image_mode=True, max_num_hands=2) as tracker:
        for seed in seeds:
            for oblique in views:
                t0 = time.perf_counter()
                s = make_sample(seed, oblique)
                total_s = time.perf_counter() - t0
                hands = tracker.update(s.image_bgr)
                found = None
                if hands.hands:
                    found = min(hands.hands, key=lambda h: float(
                        np.linalg.norm(h.landmarks_px - s.gt_px, axis=1).mean()))
                row = {"seed": seed, "oblique": oblique, "detected": found is not None,
                       "render_s": s.render_s, "render_cpu_s": s.render_cpu_s,
                       "scene_s": total_s, "palm_px": s.palm_px,
                       "n_down": len(s.down)}
                if found is not None:
                    err = np.linalg.norm(found.landmarks_px - s.gt_px, axis=1)
                    tips = [FINGERTIPS[f] for f in FINGERS]
                    if s.down:
                        row["down_tip_px"] = float(err[[FINGERTIPS[f] for f in s.down]].mean())
                    row.update(mean_px=float(err.mean()), tip_px=float(err[tips].mean()),
                               hand_ok=found.handedness == s.handedness)
                    frames = _offset_frames(s.gt_raw_px)
                    d = (found.landmarks_px - s.gt_raw_px) / s.palm_px
                    flags = np.zeros(21, dtype=bool)
                    for f in s.down:
                        flags[list(FINGER_JOINTS[f][1:])] = True
                    residuals.append((np.einsum("nji,nj->ni", frames, d), flags))
                rows.append(row)
                if len(sheet_tiles) < 12:
                    lab = (f"{seed}{' obl' if oblique else ''} "
                           + (f"{row['mean_px']:.1f}px" if found is not None else "MISSED"))
                    sheet_tiles.append(_draw(s.image_bgr, s.gt_px,
                                             None if found is None else found.landmarks_px, lab))
                print(f"seed {seed} {'oblique ' if oblique else 'straight'} "
                      + (f"mean {row['mean_px']:5.1f}px tips {row['tip_px']:5.1f}px "
                         f"hand {'ok' if row['hand_ok'] else 'WRONG'}" if found is not None
                         else "not detected"), file=sys.stderr)

    _report(rows)
    tp = time_place()
    print(f"HandModel.place: {tp['mean_ms']:.2f} ms mean ({tp['cpu_mean_ms']:.2f} ms CPU), "
          f"{tp['p95_ms']:.2f} ms p95, "
          f"{tp['max_ms']:.2f} ms max over 300 random 1-4 finger target sets "
          f"({tp['feasible']:.0%} feasible)")
    if args.fit_offsets and residuals:
        res = np.stack([r for r, _ in residuals])
        flags = np.stack([f for _, f in residuals])
        for name, sel in (("_MP_OFFSETS", ~flags), ("_MP_OFFSETS_DOWN", flags)):
            print(f"\n{name} = np.array([")
            for i in range(21):
                rows = res[sel[:, i], i] if sel[:, i].any() else res[:, i]
                a, c = np.median(rows, axis=0)
                print(f"    ({a: .4f}, {c: .4f}),  # {i} (n={len(rows)})")
            print("])  # fmt: skip")
    if args.sheet and sheet_tiles:
        while len(sheet_tiles) % 4:
            sheet_tiles.append(np.zeros_like(sheet_tiles[0]))
        grid = np.vstack([np.hstack(sheet_tiles[i:i + 4]) for i in range(0, len(sheet_tiles), 4)])
        grid = cv2.resize(grid, None, fx=0.5, fy=0.5, interpolation=cv2.INTER_AREA)
        Path(args.sheet).parent.mkdir(parents=True, exist_ok=True)
        cv2.imwrite(args.sheet, grid)
        print(f"contact sheet: {args.sheet}")
    return 0


def _report(rows: list[dict]) -> None:
    for label, sel in (("straight", [r for r in rows if not r["oblique"]]),
                       ("oblique", [r for r in rows if r["oblique"]]),
                       ("all", rows)):
        if not sel:
            continue
        det = [r for r in sel if r["detected"]]
        print(f"{label:9s} images {len(sel):4d}  detected {len(det) / len(sel):6.1%}", end="")
        if det:
            mean = np.mean([r["mean_px"] for r in det])
            tip = np.mean([r["tip_px"] for r in det])
            pct = np.mean([r["mean_px"] / r["palm_px"] for r in det])
            tpct = np.mean([r["tip_px"] / r["palm_px"] for r in det])
            hand = np.mean([r["hand_ok"] for r in det])
            palm = np.mean([r["palm_px"] for r in sel])
            dt = [r["down_tip_px"] / r["palm_px"] for r in det if "down_tip_px" in r]
            print(f"  landmarks {mean:5.1f}px ({pct:5.1%} palm)  tips {tip:5.1f}px ({tpct:5.1%})"
                  f"  pressing tips {np.mean(dt) if dt else float('nan'):5.1%}"
                  f"  handedness {hand:6.1%}  palm {palm:5.0f}px", end="")
        print()
    print(f"render_hand {np.mean([r['render_s'] for r in rows]):.3f} s/frame wall, "
          f"{np.mean([r['render_cpu_s'] for r in rows]):.3f} s CPU "
          f"(whole scene {np.mean([r['scene_s'] for r in rows]):.3f} s), "
          f"canvas {int(CANVAS_MM[0] * PX_PER_MM)}x{int(CANVAS_MM[1] * PX_PER_MM)} px")


if __name__ == "__main__":
    raise SystemExit(main())
