"""Starting the dashboard: environment, QApplication, window, optional screenshot and exit."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

__all__ = ["default_recordings_dir", "exec_window", "make_window", "run", "source_spec", "start_window"]


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


def start_window(store: Any, recordings_dir: str | Path | None = None, *, use_pipeline: bool = True
                 ) -> tuple[Any, Any]:
    """The QApplication and the shown main window on ``store`` (the Qt environment prepared
    first: cv2 is imported before Qt on purpose, the case where its Qt variables break)."""
    import cv2  # noqa: F401

    from ui.app.qtenv import prepare_qt_environment

    prepare_qt_environment()
    from PySide6.QtWidgets import QApplication

    app = QApplication.instance() or QApplication([])
    rec_dir = Path(recordings_dir) if recordings_dir else default_recordings_dir(store.path)
    win = make_window(store, rec_dir, use_pipeline=use_pipeline)
    win.show()
    return app, win


def source_spec(video: str | None, camera: int | None, camera_size: tuple[int, int] | None) -> Any:
    """The :class:`ui.app.video.VideoSpec` of a video file or a camera, or None for neither."""
    from ui.app.video import VideoSpec

    if video:
        return VideoSpec.for_file(video)
    if camera is not None:
        w, h = camera_size or (None, None)
        return VideoSpec.for_camera(camera, w, h)
    return None


def exec_window(app: Any, win: Any, *, screenshot: str | None = None,
                quit_after_s: float | None = None, on_exit: Any = None) -> int:
    """Run the event loop; with ``quit_after_s`` grab the window to ``screenshot`` (PNG) and
    quit after that long. On the way out ``on_exit()`` (if given) runs, then the window's video
    is stopped; returns the exit code."""
    from PySide6.QtCore import QTimer

    if quit_after_s is not None:
        def finish() -> None:
            if screenshot:
                Path(screenshot).parent.mkdir(parents=True, exist_ok=True)
                win.grab().save(str(screenshot))
            win.close()
            app.quit()

        QTimer.singleShot(int(quit_after_s * 1000), finish)
    code = app.exec()
    if on_exit is not None:
        on_exit()
    win.video.stop()
    return int(code)


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
    app, win = start_window(store, recordings_dir, use_pipeline=use_pipeline)
    tabs = {"game": 0, "live": 1, "review": 2, "history": 3}
    spec = source_spec(video, camera, camera_size)
    if spec is not None:
        win.open_source(spec)
        win.tabs.setCurrentIndex(1)
    elif sample:
        win.open_sample()
        win.tabs.setCurrentIndex(1)
    if tab:
        win.tabs.setCurrentIndex(tabs[tab])
    return exec_window(app, win, screenshot=screenshot, quit_after_s=quit_after_s)


def platform_name() -> str:
    from PySide6.QtGui import QGuiApplication

    return QGuiApplication.platformName()


def display_env() -> dict[str, str]:
    return {k: os.environ.get(k, "") for k in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")}
