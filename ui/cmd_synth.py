"""`arbitre synth grimpe`: render a synthetic Grimpe! scene with its exact ground truth.

Writes ``DIR/video.mp4`` (mp4v), ``DIR/ground_truth.json``, ``DIR/route.json`` (ROUTE.json)
and ``DIR/events.jsonl`` (the ``arbitre grimpe judge`` input). Prints a JSON summary on stdout.
"""

from __future__ import annotations

import argparse
import json
import sys

from ui.errors import UserError
from vision.synth.scripts import SCRIPTS

SIZES = {"640x480": (640, 480), "1280x720": (1280, 720)}


def register(sub: argparse._SubParsersAction) -> None:
    g = sub.add_parser(
        "synth",
        help="render synthetic scenes with exact ground truth",
        description="Render synthetic table scenes (video + ground truth JSON) from a seed.",
    )
    g.set_defaults(func=None, parser=g)
    gs = g.add_subparsers(dest="synth_kind", metavar="KIND")
    p = gs.add_parser(
        "grimpe",
        help="a Grimpe! route with a hand climbing it",
        description="Render a Grimpe! route on a table, seen by a camera, with a procedural hand "
        "performing a scripted climb. Same seed and options give the same scene.",
    )
    p.add_argument("--seed", type=int, required=True, help="the scene's seed (an integer)")
    p.add_argument("--out", required=True, metavar="DIR", help="output folder (created)")
    p.add_argument("--camera", choices=("top", "oblique"), default="top",
                   help="camera straight above (top) or 25–45° oblique (default: top)")
    p.add_argument("--script", choices=SCRIPTS, default="clean",
                   help="what the hand does (default: clean, a climb to the summit)")
    length = p.add_mutually_exclusive_group()
    length.add_argument("--frames", type=int, help="number of frames (default: the whole script)")
    length.add_argument("--seconds", type=float, help="length in seconds (default: the whole script)")
    p.add_argument("--size", choices=tuple(SIZES), default="640x480", help="image size (default 640x480)")
    p.add_argument("--fps", type=float, default=30.0, help="frames per second (default 30)")
    p.add_argument("--hand", choices=("left", "right"), help="climbing hand (default: from the seed)")
    p.add_argument("--table", choices=("wood", "cloth", "plain", "patterned"),
                   help="table top (default: from the seed)")
    p.add_argument("--flat", action="store_true",
                   help="draw the hand flat on the table, without the camera's parallax (as "
                        "renders before generator synth-2; for comparisons)")
    p.set_defaults(func=_grimpe)


def _grimpe(args: argparse.Namespace) -> int:
    if not 1.0 <= args.fps <= 120.0:
        raise UserError(f"--fps {args.fps}: use a frame rate between 1 and 120")
    num_frames = None
    if args.frames is not None:
        if args.frames < 1:
            raise UserError(f"--frames {args.frames}: give at least 1 frame")
        num_frames = args.frames
    elif args.seconds is not None:
        if args.seconds <= 0:
            raise UserError(f"--seconds {args.seconds}: give a positive duration")
        num_frames = max(1, int(round(args.seconds * args.fps)))

    from vision.synth.grimpe_scene import GrimpeScene, SceneConfig
    from vision.synth.scene import write_scene

    cfg = SceneConfig(seed=args.seed, camera=args.camera, script=args.script,
                      image_size=SIZES[args.size], fps=args.fps, num_frames=num_frames,
                      handedness=args.hand, table_kind=args.table, parallax=not args.flat)
    try:
        scene = GrimpeScene(cfg)
    except RuntimeError as exc:
        raise UserError(f"seed {args.seed}, script {args.script}: {exc}; try another --seed") from None
    try:
        gt = write_scene(scene, args.out, desc=f"synth grimpe seed {args.seed}")
    except OSError as exc:
        raise UserError(f"cannot write the scene to {args.out}: {exc}") from None
    verdict = gt["expected_verdict"]
    summary = {
        "out": str(args.out),
        "seed": args.seed,
        "script": args.script,
        "camera": args.camera,
        "frames": gt["num_frames"],
        "fps": gt["fps"],
        "events": len(gt["events"]),
        "expected_result": verdict["result"],
        "expected_fault": (verdict.get("fault") or {}).get("code"),
        "expected_score": verdict["score"],
    }
    json.dump(summary, sys.stdout)
    sys.stdout.write("\n")
    return 0
