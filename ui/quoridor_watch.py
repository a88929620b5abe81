"""``arbitre quoridor watch VIDEO|--camera N``: follow a Quoridor game from a video or a camera.

``add_parser(quoridor_subparsers)`` adds the ``watch`` action to the ``arbitre quoridor`` group.
Heavy modules (cv2, numpy, the vision code) are imported inside the handler only.

Moves print as they are recognised (``  3. P1 e2   frame 57  (0.93)``); an uncertain change
prints as a question with its candidates. With ``--json`` the lines go to stderr and stdout
gets one JSON object at the end: ``{"players": n, "moves": ["e2", "?", ...], "uncertain":
[{"ply": k, "frame": i, "candidates": [...], "observed": "...", "reason": "..."}]}`` — an
uncertain move stands as ``"?"`` in ``moves`` at index ``ply``.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from ui.errors import UserError

__all__ = ["add_parser"]


def add_parser(sub: argparse._SubParsersAction) -> argparse.ArgumentParser:  # type: ignore[type-arg]
    p = sub.add_parser(
        "watch",
        help="follow a game from a video file or a camera and print the moves",
        description="Find the board (corner markers, or the grooved grid with row 1 at the "
        "bottom of the image), learn the pawn colours from the start position, then print "
        "each move once the board is clear and still. A change no legal move explains is "
        "printed as a question, never accepted.",
    )
    p.add_argument("video", nargs="?", metavar="VIDEO", help="a video file")
    p.add_argument("--camera", type=int, metavar="N", help="read camera N instead of a file")
    p.add_argument("--players", type=int, choices=(2, 4), default=2, help="2 (default) or 4")
    p.add_argument("--json", action="store_true",
                   help="end with one JSON object on stdout (move lines go to stderr)")
    p.add_argument("--calibration", metavar="FILE",
                   help="a calibration file whose lens (K, distortion) to use")
    p.add_argument("--stable-frames", type=int, default=3, metavar="K",
                   help="frames a reading must hold still to count (default 3)")
    p.set_defaults(func=_cmd_watch)
    return p


def _line(event: Any) -> str:
    if event.uncertain:
        cands = ", ".join(event.candidates) or "none"
        return (f"{event.ply + 1:3d}. P{event.player + 1} ?    frame {event.frame}: "
                f"{event.observed} — not accepted ({event.reason}); candidates: {cands}")
    return (f"{event.ply + 1:3d}. P{event.player + 1} {event.move:<4s} frame {event.frame}  "
            f"({event.confidence:.2f})")


def _cmd_watch(args: argparse.Namespace) -> int:
    if (args.video is None) == (args.camera is None):
        raise UserError("give either a VIDEO file or --camera N (not both)")
    import cv2
    from tqdm import tqdm

    from vision.quoridor.watch import GameWatcher

    K = dist = None
    if args.calibration:
        from calibration.file import CalibrationFileError, load_calibration

        try:
            cal = load_calibration(args.calibration)
        except CalibrationFileError as exc:
            raise UserError(str(exc)) from None
        if cal.lens is None:
            raise UserError(f"{args.calibration}: has no lens section; run "
                            "`arbitre calibrate intrinsics` or leave out --calibration")
        K, dist = cal.lens.K, cal.lens.dist

    source = args.video if args.video is not None else args.camera
    cap = cv2.VideoCapture(source)
    if not cap.isOpened():
        what = f"video file {args.video!r}" if args.video is not None else f"camera {args.camera}"
        raise UserError(f"cannot open {what}: check the path or device number")
    ok, frame = cap.read()
    if not ok or frame is None:
        cap.release()
        what = f"{args.video!r}" if args.video is not None else f"camera {args.camera}"
        raise UserError(f"no frame could be read from {what}: is it a video OpenCV can decode?")
    if args.camera is not None and K is not None:
        w, h = frame.shape[1], frame.shape[0]
        if (w, h) != tuple(cal.lens.image_size):
            raise UserError(f"camera gives {w}×{h} but the calibration is for "
                            f"{cal.lens.image_size[0]}×{cal.lens.image_size[1]}")
    out = sys.stderr if args.json else sys.stdout
    watcher = GameWatcher(args.players, K=K, dist=dist, stable_frames=max(1, args.stable_frames))
    total = int(cap.get(cv2.CAP_PROP_FRAME_COUNT)) if args.video is not None else None
    bar = tqdm(total=total if total and total > 0 else None, unit="frame", file=sys.stderr,
               disable=None, desc="watching")
    index = 0
    try:
        while ok and frame is not None:
            for event in watcher.update(frame, index):
                bar.clear()
                print(_line(event), file=out, flush=True)
            bar.update(1)
            index += 1
            if watcher.game.is_terminal():
                winner = watcher.game.winners()
                bar.clear()
                print(f"game over: P{winner[0] + 1} has won", file=out, flush=True)
                break
            ok, frame = cap.read()
    except KeyboardInterrupt:
        pass
    finally:
        bar.close()
        cap.release()
    if not watcher.ready:
        raise UserError(
            f"no Quoridor board was found in {index} frame(s) of "
            f"{args.video if args.video is not None else f'camera {args.camera}'}: "
            f"{watcher.last_problem or 'nothing looked like a board'}")
    if args.json:
        print(json.dumps(watcher.summary()))
    else:
        n_unc = len(watcher.uncertain)
        print(f"record: {' '.join(watcher.record) or '(no moves)'}"
              + (f"   ({n_unc} uncertain)" if n_unc else ""), file=out)
    return 0
