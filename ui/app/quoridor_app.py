"""Starting the dashboard on its Quoridor screen (``arbitre dashboard --tab quoridor``).

Like :func:`ui.app.app.run`, but the video source (file, camera or sample) goes to the Quoridor
panel's watcher instead of the Grimpe referee.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

__all__ = ["run_quoridor"]


def run_quoridor(
    store: Any,
    *,
    recordings_dir: str | Path | None = None,
    video: str | None = None,
    camera: int | None = None,
    sample: bool = False,
    players: int | None = None,
    screenshot: str | None = None,
    quit_after_s: float | None = None,
    camera_size: tuple[int, int] | None = None,
) -> int:
    """Open the window on the Quoridor screen; returns the Qt exit code. ``players`` (2 or 4)
    starts a new game; otherwise the latest unfinished Quoridor game is resumed (or a 2-player
    game is started when a source is opened)."""
    import cv2  # noqa: F401  (imported first on purpose: the case cv2's Qt variables break)

    from ui.app.qtenv import prepare_qt_environment

    prepare_qt_environment()
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication

    from ui.app import quoridor_commands as qc
    from ui.app.app import default_recordings_dir, make_window
    from ui.app.video import VideoSpec

    spec = None
    if video:
        spec = VideoSpec.for_file(video)
    elif camera is not None:
        w, h = camera_size or (None, None)
        spec = VideoSpec.for_camera(camera, w, h)
    app = QApplication.instance() or QApplication([])
    rec_dir = Path(recordings_dir) if recordings_dir else default_recordings_dir(store.path)
    win = make_window(store, rec_dir)
    qs = win.quoridor_screen
    win.show()
    win.tabs.setCurrentWidget(qs)
    if players is not None:
        qs.run(qc.NewQuoridorGame([], players))
    if spec is not None:
        qs.open_source(spec)
    elif sample:
        qs.open_sample()
    if quit_after_s is not None:
        def finish() -> None:
            if screenshot:
                Path(screenshot).parent.mkdir(parents=True, exist_ok=True)
                win.grab().save(str(screenshot))
            win.close()
            app.quit()

        QTimer.singleShot(int(quit_after_s * 1000), finish)
    code = app.exec()
    qs.shutdown()
    win.video.stop()
    return int(code)
