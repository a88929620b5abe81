"""`arbitre demo`: what `make run` does — the main job on the bundled sample.

With a display, the dashboard opens on the bundled sample video. Without one (a server, CI),
Arbitre says so and judges the bundled sample in the terminal instead.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from ui.errors import UserError

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ROOT / "sample_videos"


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "demo",
        help="run the main job on the bundled sample (what `make run` does)",
        description="Open the dashboard on the bundled sample video when a display exists; "
        "otherwise judge the bundled sample climb in the terminal.",
    )
    p.add_argument("--terminal", action="store_true", help="judge in the terminal even with a display")
    p.add_argument("--json", action="store_true", help="print the verdict as JSON")
    p.set_defaults(func=run)


def has_display() -> bool:
    if os.environ.get("QT_QPA_PLATFORM", "").startswith("offscreen"):
        return False
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")) or sys.platform in (
        "darwin",
        "win32",
    )


def sample_climb() -> Path | None:
    """The bundled clean-climb clip, if the sample videos are present."""
    for name in ("clean_top", "clean_climb", "clean"):
        d = SAMPLES / name
        if (d / "video.mp4").exists():
            return d
    return None


def run(args: argparse.Namespace) -> int:
    if has_display() and not args.terminal:
        try:
            from ui import cmd_dashboard  # noqa: F401
        except ImportError:
            print("The dashboard is not available in this build; judging in the terminal.",
                  file=sys.stderr)
        else:
            argv = ["dashboard", "--sample"]
            from ui.cli import main

            return main(argv)
    else:
        print("No display found: judging the bundled sample in the terminal "
              "(`arbitre dashboard` opens the window where a display exists).", file=sys.stderr)
    return _judge_in_terminal(args)


def _judge_in_terminal(args: argparse.Namespace) -> int:
    from ui.cli import main

    clip = sample_climb()
    if clip is not None:
        try:
            import vision.pipeline  # noqa: F401
        except ImportError:
            clip = None
    if clip is not None:
        print(f"Judging the sample video {clip.relative_to(ROOT)}/video.mp4 …", file=sys.stderr)
        argv = ["grimpe", "judge-video", str(clip / "video.mp4"), "--route", str(clip / "route.json")]
        code = main(argv + (["--json"] if args.json else []))
        _print_ground_truth(clip)
        return code
    example = SAMPLES / "example_climb"
    if not (example / "route.json").exists():
        raise UserError(f"the bundled sample is missing from {SAMPLES}; reinstall Arbitre")
    print(f"Judging the example climb {example.relative_to(ROOT)}/events.jsonl …", file=sys.stderr)
    argv = ["grimpe", "judge", str(example / "route.json"), str(example / "events.jsonl")]
    return main(argv + (["--json"] if args.json else []))


def _print_ground_truth(clip: Path) -> None:
    """The sample is synthetic: say what really happened in it, so the referee can be checked."""
    import json

    try:
        expected = json.loads((clip / "ground_truth.json").read_text(encoding="utf-8"))[
            "expected_verdict"]
    except (OSError, ValueError, KeyError):
        return
    fault = (expected.get("fault") or {}).get("code")
    print(
        f"Ground truth of this synthetic clip: {expected.get('result')}"
        f"{' (' + fault + ')' if fault else ''}, {expected.get('score')} pts, "
        f"{len(expected.get('moves') or [])} moves (sample_videos/{clip.name}/ground_truth.json).",
        file=sys.stderr,
    )
