"""Regenerate the bundled synthetic clips in ``sample_videos/``.

    python -m vision.synth.make_samples            # all clips into sample_videos/
    python -m vision.synth.make_samples --only clean_top --out /tmp/samples

Each clip is what ``arbitre synth grimpe`` renders with the options shown by ``--list``, so the
same command on the same machine gives the same files (the ground truth is identical
everywhere; pixels and the mp4 bytes may differ slightly between OpenCV builds).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from vision.synth.grimpe_scene import GrimpeScene, SceneConfig
from vision.synth.scene import write_scene

ROOT = Path(__file__).resolve().parents[2]

#: name → the scene (``arbitre synth grimpe --seed S --camera C --script X [--size WxH]``).
SAMPLES: dict[str, SceneConfig] = {
    "clean_top": SceneConfig(seed=11, camera="top", script="clean"),
    "wrong_finger_top": SceneConfig(seed=12, camera="top", script="wrong_finger"),
    "clean_oblique": SceneConfig(seed=13, camera="oblique", script="clean"),
    "empty_route": SceneConfig(seed=14, camera="top", script="empty", image_size=(1280, 720)),
    "card_moved_oblique": SceneConfig(seed=15, camera="oblique", script="card_moved"),
    # the free hand comes in from the picture's edge, its wrist outside it (MediaPipe does not
    # find such a hand: it is seen by its skin, vision.other_hand)
    "other_hand_edge_top": SceneConfig(seed=15506, camera="top", script="other_hand"),
}


def command(name: str) -> str:
    """The ``arbitre synth grimpe`` command line that renders sample ``name``."""
    c = SAMPLES[name]
    size = "" if c.image_size == (640, 480) else f" --size {c.image_size[0]}x{c.image_size[1]}"
    return (f"arbitre synth grimpe --seed {c.seed} --camera {c.camera} --script {c.script}"
            f"{size} --out sample_videos/{name}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m vision.synth.make_samples", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", default=str(ROOT / "sample_videos"), help="folder of the clips")
    ap.add_argument("--only", nargs="+", choices=sorted(SAMPLES), help="render only these")
    ap.add_argument("--list", action="store_true", help="print the equivalent commands and stop")
    args = ap.parse_args(argv)
    for name in args.only or list(SAMPLES):
        if args.list:
            print(command(name))
            continue
        t0 = time.perf_counter()
        scene = GrimpeScene(SAMPLES[name])
        gt = write_scene(scene, Path(args.out) / name, desc=name)
        dt = time.perf_counter() - t0
        print(f"{name}: {gt['num_frames']} frames, {gt['expected_verdict']['result']}, "
              f"{dt:.1f} s ({gt['num_frames'] / dt:.2f} frames/s)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
