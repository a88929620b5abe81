"""Starting the dashboard: environment, QApplication, window, optional screenshot and exit."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

__all__ = ["default_recordings_dir", "make_window", "run"]


def default_recordings_dir(db_path: Path) -> Path:
    """Recordings live next to the database, in ``recordings/``."""
    return Path(db_path).expanduser().resolve().parent / "recordings"


def make_window(store: Any, recordings_dir: str | Path, *, resume: bool = True,
                model_complexity: int = 1, use_pipeline: bool = True) -> Any:
    """The main window on ``store`` (the latest active Grimpe game resumed when ``resume``)."""
    from ui.app.commands import GameKeeper
    from ui.app.main_window import MainWindow

    keeper = GameKeeper(store)
    win = MainWindow(keeper, recordings_dir, model_complexity=model_complexity,
                     use_pipeline=use_pipeline)
    if resume:
        keeper.resume_latest()
    return win


def run(
    store: Any,
    *,
    recordings_dir: str | Path | None = None,
    video: str | None = None,
    camera: int | None = None,
    sample: bool = False,
    screenshot: str | None = None,
    quit_after_s: float | None = None,
    tab: str | None = None,
    camera_size: tuple[int, int] | None = None,
    use_pipeline: bool = True,
) -> int:
    """Open the window (call after :func:`ui.app.qtenv.prepare_qt_environment`); returns the
    Qt exit code. With ``screenshot``/``quit_after_s`` it grabs the window to a PNG and quits."""
    import cv2  # noqa: F401  (imported first on purpose: the case cv2's Qt variables break)

    from ui.app.qtenv import prepare_qt_environment

    prepare_qt_environment()
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication

    from ui.app.video import VideoSpec

    app = QApplication.instance() or QApplication([])
    rec_dir = Path(recordings_dir) if recordings_dir else default_recordings_dir(store.path)
    win = make_window(store, rec_dir, use_pipeline=use_pipeline)
    win.show()
    tabs = {"game": 0, "live": 1, "review": 2, "history": 3}
    if video:
        win.open_source(VideoSpec.for_file(video))
        win.tabs.setCurrentIndex(1)
    elif camera is not None:
        w, h = camera_size or (None, None)
        win.open_source(VideoSpec.for_camera(camera, w, h))
        win.tabs.setCurrentIndex(1)
    elif sample:
        win.open_sample()
        win.tabs.setCurrentIndex(1)
    if tab:
        win.tabs.setCurrentIndex(tabs[tab])
    if quit_after_s is not None:
        def finish() -> None:
            if screenshot:
                Path(screenshot).parent.mkdir(parents=True, exist_ok=True)
                win.grab().save(str(screenshot))
            win.close()
            app.quit()

        QTimer.singleShot(int(quit_after_s * 1000), finish)
    code = app.exec()
    win.video.stop()
    return int(code)


def platform_name() -> str:
    from PySide6.QtGui import QGuiApplication

    return QGuiApplication.platformName()


def display_env() -> dict[str, str]:
    return {k: os.environ.get(k, "") for k in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")}
