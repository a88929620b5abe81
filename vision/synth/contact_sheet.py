"""Save a contact sheet of synthetic Grimpe renders for a person to look at.

    python -m vision.synth.contact_sheet [--seeds 1-6] [--out out/synth_contact_sheet.png]

One tile per seed (cameras alternate top/oblique, scripts cycle), a frame from the middle of
the climb, with the ground-truth landmarks (MediaPipe convention: red visible, blue hidden) and
each hold's id drawn at its projected centre.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import cv2
import numpy as np

from vision.landmarks import HAND_CONNECTIONS
from vision.synth.seeds import parse_seeds

ROOT = Path(__file__).resolve().parents[2]
SCRIPTS = ("clean", "wrong_finger", "card_moved", "used_hold", "empty", "other_hand")


def tile(seed: int, camera: str, script: str, annotate: bool = True) -> np.ndarray:
    from vision.synth.grimpe_scene import GrimpeScene, SceneConfig

    scene = GrimpeScene(SceneConfig(seed=seed, camera=camera, script=script))
    events = [e for e in scene.events if e["type"] == "down"]
    frame = events[len(events) // 2]["frame"] if events else scene.num_frames // 2
    frame = min(frame, scene.num_frames - 1)
    img = scene.render_frame(frame)
    if annotate:
        for hand in scene.frame_truth(frame):
            pts = np.array(hand["landmarks_mediapipe_px"])
            for a, b in HAND_CONNECTIONS:
                cv2.line(img, tuple(int(v) for v in pts[a]), tuple(int(v) for v in pts[b]),
                         (255, 255, 255), 1, cv2.LINE_AA)
            for p, v in zip(pts, hand["visible"]):
                cv2.circle(img, (int(p[0]), int(p[1])), 2, (0, 0, 255) if v else (255, 0, 0), -1)
        for h in scene.route.holds():
            p = scene.camera.project(np.array([[h.x_mm, h.y_mm, 0.0]]))[0]
            cv2.putText(img, h.id, (int(p[0]) - 8, int(p[1]) + 4), cv2.FONT_HERSHEY_SIMPLEX, 0.3,
                        (255, 255, 255), 1, cv2.LINE_AA)
    label = f"seed {seed} {camera} {script} frame {frame} {scene.table_style.kind}"
    cv2.rectangle(img, (0, 0), (img.shape[1], 18), (0, 0, 0), -1)
    cv2.putText(img, label, (4, 13), cv2.FONT_HERSHEY_SIMPLEX, 0.45, (255, 255, 255), 1, cv2.LINE_AA)
    return img


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m vision.synth.contact_sheet", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seeds", nargs="+", default=["1-6"])
    ap.add_argument("--out", default=str(ROOT / "out" / "synth_contact_sheet.png"))
    ap.add_argument("--plain", action="store_true", help="no ground-truth overlay")
    args = ap.parse_args(argv)
    seeds = parse_seeds(args.seeds)
    tiles = [tile(s, ("top", "oblique")[i % 2], SCRIPTS[i % len(SCRIPTS)], not args.plain)
             for i, s in enumerate(seeds)]
    cols = 3 if len(tiles) > 4 else 2
    while len(tiles) % cols:
        tiles.append(np.zeros_like(tiles[0]))
    rows = [np.hstack(tiles[i:i + cols]) for i in range(0, len(tiles), cols)]
    sheet = np.vstack(rows)
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    cv2.imwrite(str(out), sheet)
    print(out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
