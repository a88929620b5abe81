"""Watching a Quoridor board off the GUI thread, and the hint engine in a worker.

:class:`QuoridorVideoWorker` is the dashboard's :class:`ui.app.workers.VideoWorker` (its loop:
source opening, camera loss and reconnection, pacing, looping, newest-frame-wins, errors through
``failed``) with the frame processing replaced: each frame goes through a
:class:`vision.quoridor.watch.GameWatcher` and is drawn with
:func:`vision.quoridor.draw.annotate`. Decoded moves are sent with ``moveEvents`` (a queued
signal, never dropped, unlike frames). The GUI keeps the watcher's game in step with the
confirmed record by posting ``"sync"`` (the record in notation) after every change.

:class:`QuoridorController` and :class:`HintController` live in the GUI thread; their slots
(all in these classes, none overridden) call plain callbacks, per tech-notes' Qt section.
"""

from __future__ import annotations

import threading
import time
import traceback
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from PySide6.QtCore import QObject, QThread, Signal, Slot

from ui.app.video import Frame, FrameSource, VideoSpec
from ui.app.workers import VideoWorker, count_shown, worker_thread

__all__ = ["HintController", "QuoridorController", "QuoridorFrame", "QuoridorVideoWorker",
           "SampleRenderer", "SAMPLE_SEED"]

#: The game rendered as the Quoridor sample when ``sample_videos/`` has none.
SAMPLE_SEED = 7


@dataclass(frozen=True, eq=False)
class QuoridorFrame:
    """One watched frame for the GUI: the annotated image and the reader's state.

    ``state`` is ``"searching"`` (no board yet; ``problem`` says why), ``"clear"``, ``"hand"``
    or ``"unsure"``.
    """

    image_bgr: np.ndarray
    frame: Frame
    state: str
    problem: str
    pawns: tuple[str | None, ...]
    walls: frozenset[str]
    fps: float
    dropped: int
    processed_at_s: float


class _NoReferee:
    """Stands in for the Grimpe referee the base loop would create (no MediaPipe here)."""

    route = None
    judging = False
    note = ""

    def close(self) -> None:
        pass


class QuoridorVideoWorker(VideoWorker):
    """See the module doc. ``players`` is 2 or 4; ``K``/``dist`` an optional lens."""

    moveEvents = Signal(object)
    boardFound = Signal(int)

    def __init__(self, spec: VideoSpec, recordings_dir: str | Path, *, players: int = 2,
                 record: Sequence[str] = (), K: np.ndarray | None = None,
                 dist: np.ndarray | None = None, stable_frames: int = 3,
                 retry_s: float = 1.0) -> None:
        super().__init__(spec, recordings_dir, retry_s=retry_s, use_pipeline=False)
        from vision.quoridor.watch import GameWatcher

        self._referee = _NoReferee()  # type: ignore[assignment]
        self.watcher = GameWatcher(players, K=K, dist=dist, stable_frames=stable_frames)
        self._sync(list(record))
        self.frames_read = 0

    def _sync(self, record: list[str]) -> None:
        from games.quoridor import QuoridorGame

        g = QuoridorGame(num_players=self.watcher.players)
        for text in record:
            g.play_notation(text)
        self.watcher.game = g
        self.watcher.record = list(record)

    def _drain_commands(self, source: FrameSource) -> None:
        keep: list[tuple[str, Any]] = []
        while True:
            try:
                cmd, payload = self._commands.get_nowait()
            except Exception:  # queue.Empty
                break
            if cmd == "sync":
                try:
                    self._sync(list(payload))
                except ValueError as exc:  # a record the watcher's game cannot take
                    self.failed.emit(f"cannot follow the record {' '.join(payload)}: {exc}")
            else:
                keep.append((cmd, payload))
        for item in keep:
            self._commands.put(item)
        if keep:
            super()._drain_commands(source)

    def _process(self, frame: Frame, fps: float) -> None:
        from vision.quoridor.draw import annotate

        w = self.watcher
        was_ready = w.ready
        try:
            events = w.update(frame.image_bgr, frame.index)
        except Exception as exc:  # a frame the reader chokes on: say so, keep watching
            self.failed.emit(f"frame {frame.index}: {type(exc).__name__}: {exc}\n"
                             f"{traceback.format_exc(limit=2)}")
            events = []
        self.frames_read += 1
        if w.ready and not was_ready:
            self.boardFound.emit(frame.index)
        if events:
            self.moveEvents.emit(list(events))
        reading = w.last_reading
        if w.pose is not None:
            img = annotate(frame.image_bgr, w.pose, reading)
            state = "unsure" if reading is None else (
                "clear" if reading.clear else ("hand" if reading.hand else "unsure"))
        else:
            img, state = frame.image_bgr, "searching"
        qf = QuoridorFrame(np.ascontiguousarray(img), frame, state, w.last_problem,
                           tuple(reading.pawns) if reading is not None else (),
                           frozenset(reading.walls) if reading is not None else frozenset(),
                           fps, self.dropped, time.monotonic())
        with self._lock:
            if self._pending:
                self.dropped += 1
            self._latest = qf  # type: ignore[assignment]
            emit = not self._pending
            self._pending = True
        if emit:
            self.frameReady.emit()


class QuoridorController(QObject):
    """Runs one :class:`QuoridorVideoWorker` in a QThread. Callbacks: ``on_frame(QuoridorFrame)``,
    ``on_events(list[MoveEvent])``, ``on_message(kind, text)`` (kind ``lost``/``back``/
    ``ended``/``failed``/``found``), ``on_stopped()``."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.thread: QThread | None = None
        self.worker: QuoridorVideoWorker | None = None
        self.on_frame: Callable[[QuoridorFrame], None] | None = None
        self.on_events: Callable[[list[Any]], None] | None = None
        self.on_message: Callable[[str, str], None] | None = None
        self.on_stopped: Callable[[], None] | None = None
        self.frames_shown = 0
        self.display_fps = 0.0
        self.latency_ms = 0.0
        self.ended = False
        self._last_shown: float | None = None

    @property
    def running(self) -> bool:
        return self.thread is not None

    def start(self, spec: VideoSpec, recordings_dir: str | Path, **options: Any) -> None:
        self.stop()
        worker = QuoridorVideoWorker(spec, recordings_dir, **options)
        thread = worker_thread(worker)
        worker.frameReady.connect(self._frame_ready)
        worker.moveEvents.connect(self._events)
        worker.boardFound.connect(self._found)
        worker.sourceLost.connect(self._lost)
        worker.sourceBack.connect(self._back)
        worker.ended.connect(self._ended)
        worker.failed.connect(self._failed)
        thread.finished.connect(self._thread_done)
        self.worker, self.thread = worker, thread
        self.frames_shown, self._last_shown, self.ended = 0, None, False
        thread.start()

    def stop(self, timeout_ms: int = 5000) -> None:
        if self.worker is not None:
            self.worker.stop()
        if self.thread is not None:
            self.thread.quit()
            self.thread.wait(timeout_ms)
        self.worker = self.thread = None

    def sync(self, record: Sequence[str]) -> None:
        """Put the watcher's game at ``record`` (the confirmed moves)."""
        if self.worker is not None:
            self.worker.post("sync", list(record))

    # --- slots (GUI thread) ------------------------------------------------------------
    @Slot()
    def _frame_ready(self) -> None:
        w = self.worker
        qf = w.take() if w is not None else None
        if qf is None:
            return
        count_shown(self, qf.frame.read_at_s)  # type: ignore[union-attr]
        if self.on_frame is not None:
            self.on_frame(qf)  # type: ignore[arg-type]

    @Slot(object)
    def _events(self, events: object) -> None:
        if self.on_events is not None:
            self.on_events(list(events))  # type: ignore[call-overload]

    def _message(self, kind: str, text: str) -> None:
        if self.on_message is not None:
            self.on_message(kind, text)

    @Slot(int)
    def _found(self, index: int) -> None:
        self._message("found", str(index))

    @Slot(str)
    def _lost(self, text: str) -> None:
        self._message("lost", text)

    @Slot(str)
    def _back(self, text: str) -> None:
        self._message("back", text)

    @Slot(str)
    def _ended(self, text: str) -> None:
        self.ended = True
        self._message("ended", text)

    @Slot(str)
    def _failed(self, text: str) -> None:
        self._message("failed", text)

    @Slot()
    def _thread_done(self) -> None:
        if self.on_stopped is not None:
            self.on_stopped()


class HintController(QObject):
    """One hint search at a time, in a plain Python thread; ``on_done(HintResult, ply)`` and
    ``on_failed(text)`` are called in the GUI thread. ``ply`` says which position the hint is
    for.

    Not a QThread: a QThread whose ``quit`` is queued to the GUI thread cannot end while the GUI
    thread waits for it (a deadlock, then "destroyed while running" at close). The search
    thread emits this object's signals; Qt queues them to the GUI thread, where the slots of
    this class run.
    """

    _result = Signal(object, int)
    _error = Signal(str, int)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._thread: threading.Thread | None = None
        self.ply: int | None = None
        self.on_done: Callable[[Any, int | None], None] | None = None
        self.on_failed: Callable[[str], None] | None = None
        self._result.connect(self._on_result)
        self._error.connect(self._on_error)

    @property
    def busy(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def start(self, game: Any, time_s: float, ply: int) -> None:
        """Search a copy of ``game`` for about ``time_s`` seconds."""
        self.wait()
        self.ply = ply
        t = threading.Thread(target=self._work, args=(game.copy(), float(time_s), ply),
                             name="quoridor-hint", daemon=True)
        self._thread = t
        t.start()

    def _work(self, game: Any, time_s: float, ply: int) -> None:  # the search thread
        from ui.app.quoridor_commands import suggest

        try:
            self._result.emit(suggest(game, time_s), ply)
        except Exception as exc:  # reaches the user through on_failed
            self._error.emit(f"{type(exc).__name__}: {exc}", ply)

    def wait(self, timeout_s: float = 60.0) -> None:
        if self._thread is not None:
            self._thread.join(timeout_s)
            self._thread = None

    @Slot(object, int)
    def _on_result(self, result: object, ply: int) -> None:
        if self.on_done is not None:
            self.on_done(result, ply)

    @Slot(str, int)
    def _on_error(self, text: str, ply: int) -> None:
        if self.on_failed is not None:
            self.on_failed(text)


class SampleRenderer(QObject):
    """Renders a short Quoridor game (:func:`vision.synth.quoridor_scene.render_game`, seed
    :data:`SAMPLE_SEED`, 960×540, 12 moves) in a plain thread when no sample clip is installed;
    ``on_done(video_path)`` / ``on_failed(text)`` run in the GUI thread."""

    _done = Signal(str)
    _error = Signal(str)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._thread: threading.Thread | None = None
        self.on_done: Callable[[str], None] | None = None
        self.on_failed: Callable[[str], None] | None = None
        self._done.connect(self._on_done)
        self._error.connect(self._on_error)

    @property
    def busy(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    @staticmethod
    def path_in(out_dir: str | Path) -> Path:
        return Path(out_dir) / f"quoridor_sample_{SAMPLE_SEED}" / "game.mp4"

    def start(self, out_dir: str | Path) -> None:
        if self.busy:
            return
        self._thread = threading.Thread(target=self._work, args=(Path(out_dir),),
                                        name="quoridor-sample", daemon=True)
        self._thread.start()

    def _work(self, out_dir: Path) -> None:  # the render thread
        try:
            from vision.synth.quoridor_scene import render_game

            target = self.path_in(out_dir)
            r = render_game(SAMPLE_SEED, target.parent, players=2, max_plies=12,
                            size=(960, 540))
            self._done.emit(str(r.video_path))
        except Exception as exc:  # reaches the user through on_failed
            self._error.emit(f"{type(exc).__name__}: {exc}")

    def wait(self, timeout_s: float = 120.0) -> None:
        if self._thread is not None:
            self._thread.join(timeout_s)
            self._thread = None

    @Slot(str)
    def _on_done(self, path: str) -> None:
        if self.on_done is not None:
            self.on_done(path)

    @Slot(str)
    def _on_error(self, text: str) -> None:
        if self.on_failed is not None:
            self.on_failed(text)
