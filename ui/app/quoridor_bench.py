"""Benchmark of the Quoridor panel's watching: rendered games played through the real worker
thread and the panel (offscreen), as fast as the worker reads. Prints, per seed, the frames,
the frames read per second by the worker, the frames the GUI showed (newest wins), and whether
the panel's move list equals the render's truth; then the hint's answer time.

    QT_QPA_PLATFORM=offscreen python -m ui.app.quoridor_bench --seeds 103,7 --plies 8

Rendering is not timed (done first, into a temporary folder).

Measured here (2 cores, 2026-11-29, ``--seeds 103,7 --plies 8``, 1280×720): seed 103, 134
frames, worker 317 frames/s, 8/8 moves = truth; seed 7, 162 frames, 412 frames/s, 8/8 = truth;
hint d6 in 1.00 s (depth 6). The watcher alone reads a frame in ~1.5 ms and ``annotate``
draws it in ~0.9 ms, so a 30 frames/s camera is far from the limit.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", default="103,7", help="comma-separated render seeds")
    ap.add_argument("--plies", type=int, default=8, help="moves per rendered game")
    ap.add_argument("--size", default="1280x720", help="render size WxH")
    ap.add_argument("--hint-s", type=float, default=1.0, help="hint time limit (s)")
    a = ap.parse_args(argv)
    w, h = (int(v) for v in a.size.lower().split("x"))

    import cv2  # noqa: F401  (before Qt, as the dashboard does)

    from ui.app.qtenv import prepare_qt_environment

    prepare_qt_environment()
    from PySide6.QtWidgets import QApplication

    from games.store import GameStore
    from ui.app import quoridor_commands as qc
    from ui.app.app import make_window
    from ui.app.video import VideoSpec
    from vision.synth.quoridor_scene import render_game

    app = QApplication.instance() or QApplication([])
    with tempfile.TemporaryDirectory() as tmp:
        win = make_window(GameStore(Path(tmp) / "bench.sqlite3"), Path(tmp) / "rec",
                          use_pipeline=False)
        win.show()
        qs = win.quoridor_screen
        ok_all = True
        for seed in (int(s) for s in a.seeds.split(",") if s.strip()):
            r = render_game(seed, Path(tmp) / f"g{seed}", players=2, max_plies=a.plies,
                            size=(w, h))
            qs.run(qc.NewQuoridorGame([], 2))
            t0 = time.perf_counter()
            qs.open_source(VideoSpec.for_file(r.video_path, realtime=False))
            while not qs.video.ended and time.perf_counter() - t0 < 600:
                app.processEvents()
                time.sleep(0.002)
            dt = time.perf_counter() - t0
            n = len(r.truth["frames"])
            rec = qs.keeper.session.record  # type: ignore[union-attr]
            same = rec == r.truth["moves"]
            ok_all &= same
            print(f"seed {seed}: {n} frames {w}x{h}, worker {n / dt:.1f} frames/s, "
                  f"GUI showed {qs.video.frames_shown}, moves {len(rec)}/{len(r.truth['moves'])}"
                  f" {'= truth' if same else '≠ truth: ' + ' '.join(rec)}")
            qs.close_source()
        s = qs.keeper.session
        assert s is not None
        t0 = time.perf_counter()
        hint = qc.suggest(s.game, a.hint_s) if not s.game.is_terminal() else None
        if hint is not None:
            print(f"hint: {hint.move} in {time.perf_counter() - t0:.2f} s "
                  f"(limit {a.hint_s:g} s): {hint.evaluation}")
        qs.shutdown()
        win.close()
        win.keeper.store.close()
    return 0 if ok_all else 1


if __name__ == "__main__":
    raise SystemExit(main())
