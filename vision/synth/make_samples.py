"""Regenerate the bundled synthetic clips in ``sample_videos/``.

    python -m vision.synth.make_samples            # all clips into sample_videos/
    python -m vision.synth.make_samples --only clean_top --out /tmp/samples

Each clip is ``arbitre synth grimpe`` with the fixed options below, so the same command on the
same machine gives the same files (the ground truth is identical everywhere; pixels and the
mp4 bytes may differ slightly between OpenCV builds).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from ui.cli import main as arbitre

ROOT = Path(__file__).resolve().parents[2]

#: name → arguments of ``arbitre synth grimpe`` (without --out).
SAMPLES: dict[str, list[str]] = {
    "clean_top": ["--seed", "11", "--camera", "top", "--script", "clean"],
    "wrong_finger_top": ["--seed", "12", "--camera", "top", "--script", "wrong_finger"],
    "clean_oblique": ["--seed", "13", "--camera", "oblique", "--script", "clean"],
    "empty_route": ["--seed", "14", "--camera", "top", "--script", "empty", "--size", "1280x720"],
    "card_moved_oblique": ["--seed", "15", "--camera", "oblique", "--script", "card_moved"],
}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m vision.synth.make_samples", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", default=str(ROOT / "sample_videos"), help="folder of the clips")
    ap.add_argument("--only", nargs="+", choices=sorted(SAMPLES), help="render only these")
    args = ap.parse_args(argv)
    for name in args.only or list(SAMPLES):
        t0 = time.perf_counter()
        rc = arbitre(["synth", "grimpe", *SAMPLES[name], "--out", str(Path(args.out) / name)])
        if rc:
            return rc
        print(f"{name}: {time.perf_counter() - t0:.1f} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
