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
    from ui.app import quoridor_commands as qc
    from ui.app.app import exec_window, source_spec, start_window

    spec = source_spec(video, camera, camera_size)
    app, win = start_window(store, recordings_dir)
    qs = win.quoridor_screen
    win.tabs.setCurrentWidget(qs)
    if players is not None:
        qs.run(qc.NewQuoridorGame([], players))
    if spec is not None:
        qs.open_source(spec)
    elif sample:
        qs.open_sample()
    return exec_window(app, win, screenshot=screenshot, quit_after_s=quit_after_s, on_exit=qs.shutdown)
