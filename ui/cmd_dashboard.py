"""`arbitre dashboard`: the PySide6 window (live referee, Grimpe game keeping, review)."""

from __future__ import annotations

import argparse

from ui.errors import UserError


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "dashboard", help="open the dashboard window",
        description="Open the Arbitre dashboard: a Grimpe! game at the table with the live "
        "video referee, attempt recording, review with overrides, and history. The latest "
        "unfinished game is resumed.",
    )
    p.add_argument("--db", metavar="PATH",
                   help="game database (default: $ARBITRE_DB, else arbitre.sqlite3 in your "
                   "data directory)")
    src = p.add_mutually_exclusive_group()
    src.add_argument("--video", metavar="PATH", help="open this video file as the live source")
    src.add_argument("--camera", metavar="N", type=int, help="open camera number N (0 = first)")
    src.add_argument("--sample", action="store_true", help="open the bundled sample video")
    p.add_argument("--resolution", metavar="WxH", help="camera resolution to ask for, e.g. 1280x720")
    p.add_argument("--hands-only", action="store_true", dest="hands_only",
                   help="do not run the video judge: hands are drawn, verdicts are entered by "
                   "hand (for slow machines)")
    p.add_argument("--lang", choices=["fr", "en"],
                   help="language of the window (default: French when the system locale is)")
    p.add_argument("--recordings", metavar="DIR",
                   help="where attempts are recorded (default: recordings/ next to the database)")
    p.add_argument("--tab", choices=["game", "live", "review", "history", "quoridor"],
                   help="screen to show; with 'quoridor' the video source is watched by the "
                   "Quoridor screen")
    p.add_argument("--players", type=int, choices=[2, 4],
                   help="with --tab quoridor: start a new Quoridor game for 2 or 4 players "
                   "(default: resume the latest unfinished one)")
    p.add_argument("--screenshot", metavar="PNG", help="save the window as PNG (with --quit-after)")
    p.add_argument("--quit-after", metavar="S", type=float, dest="quit_after",
                   help="close the window after S seconds (for scripts and tests)")
    p.set_defaults(func=_run, parser=p)


def _run(args: argparse.Namespace) -> int:
    from pathlib import Path

    from ui.app.qtenv import has_display

    if args.screenshot and args.quit_after is None:
        raise UserError("--screenshot needs --quit-after S (when to take it)")
    size = None
    if args.resolution:
        try:
            w, h = (int(v) for v in args.resolution.lower().split("x"))
            size = (w, h)
        except ValueError:
            raise UserError(f"--resolution {args.resolution!r}: give WIDTHxHEIGHT, e.g. 1280x720") from None
    if args.video and not Path(args.video).is_file():
        raise UserError(f"{args.video}: no such video file; give the path of an .mp4/.mkv/.avi")
    from ui.app.i18n import set_language, tr

    set_language(args.lang)
    if not has_display():
        raise UserError(tr("error.no_display"))
    from ui.app.app import run
    from ui.cmd_history import open_store

    with open_store(args) as store:
        if args.tab == "quoridor":
            from ui.app.quoridor_app import run_quoridor

            return run_quoridor(store, recordings_dir=args.recordings, video=args.video,
                                camera=args.camera, sample=args.sample, players=args.players,
                                screenshot=args.screenshot, quit_after_s=args.quit_after,
                                camera_size=size)
        return run(store, recordings_dir=args.recordings, video=args.video, camera=args.camera,
                   sample=args.sample, screenshot=args.screenshot, quit_after_s=args.quit_after,
                   tab=args.tab, camera_size=size, use_pipeline=not args.hands_only)
