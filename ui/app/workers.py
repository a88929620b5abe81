"""The video source in a worker thread, per tech-notes' Qt section.

:class:`VideoWorker` is a QObject moved to a QThread. Its loop reads frames with
:class:`ui.app.video.FrameSource`, runs the :class:`ui.app.referee.LiveReferee`, writes the
attempt being recorded (:class:`ui.app.recording.AttemptRecorder`) and publishes the newest
annotated frame: if the GUI has not taken the previous one yet, it is replaced (newest wins)
and counted as dropped. A camera that stops giving frames is reported and reopened every
``retry_s`` until it returns; the game is not touched. Errors in the loop reach the GUI through
the ``failed`` signal.

The GUI talks to the worker through a thread-safe queue (:meth:`VideoWorker.post`), so no
slot of the worker has to run in the worker thread. :class:`VideoController` lives in the GUI
thread; its slots (all in this one class, none overridden) receive the worker's signals and
call plain Python callbacks set by the widgets or the tests.
"""

from __future__ import annotations

import queue
import threading
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from PySide6.QtCore import QObject, Qt, QThread, Signal, Slot

from ui.app.recording import AttemptRecorder, RecordingPaths
from ui.app.referee import AutoAttempt, LiveReferee, RefereeFrame
from ui.app.video import Frame, FrameSource, SourceError, VideoSpec

__all__ = ["AttemptResult", "LiveFrame", "VideoController", "VideoWorker", "count_shown", "worker_thread"]


def count_shown(ctrl: Any, read_at_s: float) -> None:
    """A controller showed a frame read at ``read_at_s`` (monotonic s): update its
    ``latency_ms``, ``display_fps`` (smoothed) and ``frames_shown``."""
    now = time.monotonic()
    ctrl.latency_ms = (now - read_at_s) * 1000.0
    if ctrl._last_shown is not None:
        dt = max(now - ctrl._last_shown, 1e-6)
        ctrl.display_fps = 1 / dt if ctrl.display_fps == 0 else 0.9 * ctrl.display_fps + 0.1 / dt
    ctrl._last_shown = now
    ctrl.frames_shown += 1


def worker_thread(worker: QObject) -> QThread:
    """A new (not started) QThread that runs ``worker.run`` and quits when the worker's
    ``finished`` signal fires. The quit is a direct connection, made from the worker thread
    itself: queued, it would wait for the GUI thread, which may be blocked in ``wait()`` on this
    very thread (a deadlock, then an abort at exit)."""
    thread = QThread()
    worker.moveToThread(thread)
    thread.started.connect(worker.run)  # type: ignore[attr-defined]
    worker.finished.connect(thread.quit, Qt.ConnectionType.DirectConnection)  # type: ignore[attr-defined]
    return thread


@dataclass(frozen=True, eq=False)
class LiveFrame:
    """One processed frame for the GUI: the annotated image and what was seen."""

    image_bgr: np.ndarray
    frame: Frame
    referee: RefereeFrame
    recording: bool
    fps: float
    dropped: int
    processed_at_s: float


@dataclass(frozen=True)
class AttemptResult:
    """A finished recording: the automatic verdict (None without a video judge) and files."""

    verdict: dict[str, Any] | None
    paths: RecordingPaths
    meta: dict[str, Any] = field(default_factory=dict)
    frames: int = 0
    reason: str = "stopped"


class VideoWorker(QObject):
    frameReady = Signal()
    sourceLost = Signal(str)
    sourceBack = Signal(str)
    ended = Signal(str)
    failed = Signal(str)
    note = Signal(str)
    attemptStarted = Signal(object)
    attemptFinished = Signal(object)
    finished = Signal()

    def __init__(self, spec: VideoSpec, recordings_dir: str | Path, *, route: dict | None = None,
                 retry_s: float = 1.0, use_pipeline: bool = True, model_complexity: int = 1,
                 annotate: bool = True) -> None:
        super().__init__()
        self.spec = spec
        self.recordings_dir = Path(recordings_dir)
        self.route = route
        self.retry_s = float(retry_s)
        self.use_pipeline = use_pipeline
        self.model_complexity = model_complexity
        self.annotate = annotate
        #: consecutive empty reads before a camera counts as lost
        self.max_misses = 5
        self._commands: queue.Queue[tuple[str, Any]] = queue.Queue()
        self._stop = threading.Event()
        self._lock = threading.Lock()
        self._latest: LiveFrame | None = None
        self._pending = False
        self.dropped = 0
        self._recorder: AttemptRecorder | None = None
        self._meta: dict[str, Any] = {}
        self._referee: LiveReferee | None = None
        self._auto = AutoAttempt()
        self._source_fps = 30.0

    # --- called from the GUI thread (thread-safe) --------------------------------------------
    def post(self, command: str, payload: Any = None) -> None:
        """Queue ``"start_attempt"`` (payload: meta dict with ``stem``, ``route``...),
        ``"stop_attempt"`` or ``"set_route"`` for the worker loop."""
        self._commands.put((command, payload))

    def stop(self) -> None:
        self._stop.set()

    def take(self) -> LiveFrame | None:
        """The newest frame (None if none is waiting); lets the worker publish the next."""
        with self._lock:
            f, self._latest, self._pending = self._latest, None, False
            return f

    @property
    def recording(self) -> bool:
        return self._recorder is not None

    # --- the loop (runs in the worker thread) ------------------------------------------------
    @Slot()
    def run(self) -> None:
        try:
            self._loop()
        except Exception as exc:  # every error reaches the user
            tb = traceback.format_exc(limit=3)
            self.failed.emit(f"{type(exc).__name__}: {exc}\n{tb}")
        finally:
            try:
                if self._recorder is not None:
                    self._finish_attempt("source closed")
            except Exception as exc:
                self.failed.emit(f"{type(exc).__name__}: {exc}")
            if self._referee is not None:
                self._referee.close()
            self.finished.emit()

    def _wait(self, seconds: float) -> None:
        self._stop.wait(seconds)

    def _loop(self) -> None:
        source = FrameSource(self.spec)
        label = self.spec.label()
        lost = False
        pace_wall = pace_t = None
        fps_ema = 0.0
        last_at = None
        misses = 0
        try:
            while not self._stop.is_set():
                if not source.is_open:
                    try:
                        source.open()
                    except SourceError as exc:
                        if not self.spec.is_camera:
                            self.failed.emit(str(exc))
                            return
                        if not lost:
                            lost = True
                        self.sourceLost.emit(str(exc))
                        self._wait(self.retry_s)
                        continue
                    if lost:
                        lost = False
                        self.sourceBack.emit(label)
                    if self._referee is None:
                        self._referee = LiveReferee(self.route, fps=source.fps,
                                                    use_pipeline=self.use_pipeline,
                                                    model_complexity=self.model_complexity)
                        self.note.emit(self._referee.note)
                    pace_wall = pace_t = None
                    self._source_fps = source.fps
                self._drain_commands(source)
                frame = source.read()
                if frame is None and self.spec.is_camera and misses < self.max_misses:
                    misses += 1  # a camera may skip a frame now and then: not lost yet
                    self._wait(0.02)
                    continue
                if frame is None:
                    misses = 0
                    if self.spec.is_camera:
                        source.release()
                        lost = True
                        self.sourceLost.emit(f"{label} gives no more frames")
                        self._wait(self.retry_s)
                        continue
                    if self.spec.loop and source.rewind():
                        pace_wall = pace_t = None
                        continue
                    if self._recorder is not None:
                        self._finish_attempt("end of video")
                    self.ended.emit(label)
                    return
                if self.spec.realtime and not self.spec.is_camera:
                    if pace_wall is None:
                        pace_wall, pace_t = time.monotonic(), frame.t_s
                    delay = pace_wall + (frame.t_s - pace_t) - time.monotonic()
                    if delay > 0:
                        self._wait(delay)
                misses = 0
                self._process(frame, fps_ema)
                now = time.monotonic()
                if last_at is not None:
                    dt = max(now - last_at, 1e-6)
                    fps_ema = 1.0 / dt if fps_ema == 0.0 else 0.9 * fps_ema + 0.1 / dt
                last_at = now
        finally:
            source.release()

    def _drain_commands(self, source: FrameSource) -> None:
        while True:
            try:
                cmd, payload = self._commands.get_nowait()
            except queue.Empty:
                return
            if cmd == "start_attempt" and self._recorder is None:
                self._begin_attempt(dict(payload or {}), source, keep=False)
            elif cmd == "stop_attempt" and self._recorder is not None:
                self._finish_attempt("stopped")
            elif cmd == "set_route":
                self.route = payload
                if self._referee is not None:
                    self._referee.route = payload

    def _begin_attempt(self, meta: dict[str, Any], source: FrameSource, keep: bool) -> None:
        stem = meta.get("stem") or time.strftime("attempt-%Y%m%dT%H%M%S")
        route = meta.get("route", self.route)
        if self._referee is not None:
            self._referee.begin_attempt(route, keep=keep)
        w, h = source.size
        self._recorder = AttemptRecorder(self.recordings_dir, stem, source.fps, (w, h), {
            k: v for k, v in meta.items() if k != "stem"})
        self._meta = meta
        self.attemptStarted.emit(meta)

    def _finish_attempt(self, reason: str) -> None:
        rec, self._recorder = self._recorder, None
        if rec is None:
            return
        verdict = self._referee.end_attempt() if self._referee is not None else None
        paths = rec.close(verdict)
        self.attemptFinished.emit(AttemptResult(verdict, paths, self._meta, rec.frames, reason))

    def _process(self, frame: Frame, fps: float) -> None:
        assert self._referee is not None
        rf = self._referee.update(frame.image_bgr, frame.t_s, frame.index)
        if self._referee.judging:
            action = self._auto.step(rf, self._recorder is not None)
            if action == "start":
                self._begin_attempt({"auto": True, **self._meta_for_auto()}, _SizeOnly(frame, self._source_fps), keep=True)
            elif action == "stop":
                self._finish_attempt("automatic stop")
            elif self._recorder is None and (rf.verdict or {}).get("result") in ("summit", "fault"):
                self._referee.reset()  # junk seen between attempts: watch afresh for a start
        if self._recorder is not None:
            rec = {"t_s": round(frame.t_s, 4), "wall_s": round(time.time(), 3),
                   **rf.sidecar_record()}
            self._recorder.write(frame.image_bgr, rec, rf.new_events)
        img = self._referee.annotate(frame.image_bgr, rf) if self.annotate else frame.image_bgr
        lf = LiveFrame(np.ascontiguousarray(img), frame, rf, self._recorder is not None, fps,
                       self.dropped, time.monotonic())
        with self._lock:
            if self._pending:
                self.dropped += 1
            self._latest = lf
            emit = not self._pending
            self._pending = True
        if emit:
            self.frameReady.emit()

    def _meta_for_auto(self) -> dict[str, Any]:
        return dict(self._next_meta or {})

    _next_meta: dict[str, Any] | None = None

    def set_next_attempt(self, meta: dict[str, Any] | None) -> None:
        """Metadata for an attempt that starts by itself (who climbs, the route, the stem)."""
        self._next_meta = dict(meta) if meta else None


class _SizeOnly:
    """Gives :meth:`VideoWorker._begin_attempt` the frame size and rate of a live frame."""

    def __init__(self, frame: Frame, fps: float = 30.0) -> None:
        self.size = (frame.image_bgr.shape[1], frame.image_bgr.shape[0])
        self.fps = fps


class VideoController(QObject):
    """Runs a :class:`VideoWorker` in a QThread and hands its news to plain callbacks.

    Callbacks (set the ones you need): ``on_frame(LiveFrame)``, ``on_message(kind, text)``
    with kind in ``lost``/``back``/``ended``/``failed``/``note``, ``on_attempt_started(meta)``,
    ``on_attempt(AttemptResult)``, ``on_stopped()``.
    """

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.thread: QThread | None = None
        self.worker: VideoWorker | None = None
        self.on_frame: Callable[[LiveFrame], None] | None = None
        self.on_message: Callable[[str, str], None] | None = None
        self.on_attempt_started: Callable[[dict], None] | None = None
        self.on_attempt: Callable[[AttemptResult], None] | None = None
        self.on_stopped: Callable[[], None] | None = None
        self.frames_shown = 0
        self.latency_ms = 0.0
        self.display_fps = 0.0
        self._last_shown: float | None = None

    @property
    def running(self) -> bool:
        return self.thread is not None

    def start(self, spec: VideoSpec, recordings_dir: str | Path, **worker_options: Any) -> None:
        self.stop()
        worker = VideoWorker(spec, recordings_dir, **worker_options)
        thread = worker_thread(worker)
        worker.frameReady.connect(self._frame_ready)
        worker.sourceLost.connect(self._lost)
        worker.sourceBack.connect(self._back)
        worker.ended.connect(self._ended)
        worker.failed.connect(self._failed)
        worker.note.connect(self._note)
        worker.attemptStarted.connect(self._attempt_started)
        worker.attemptFinished.connect(self._attempt_finished)
        thread.finished.connect(self._thread_done)
        self.worker, self.thread = worker, thread
        self.frames_shown = 0
        self._last_shown = None
        thread.start()

    def stop(self, timeout_ms: int = 5000) -> None:
        """Stop the worker and wait for its thread (a recording is closed cleanly)."""
        if self.worker is not None:
            self.worker.stop()
        if self.thread is not None:
            self.thread.quit()
            self.thread.wait(timeout_ms)
        self.worker = self.thread = None

    def start_attempt(self, meta: dict[str, Any]) -> None:
        if self.worker is not None:
            self.worker.post("start_attempt", meta)

    def stop_attempt(self) -> None:
        if self.worker is not None:
            self.worker.post("stop_attempt")

    @property
    def recording(self) -> bool:
        return self.worker is not None and self.worker.recording

    # --- slots (GUI thread) -------------------------------------------------------------------
    @Slot()
    def _frame_ready(self) -> None:
        w = self.worker
        lf = w.take() if w is not None else None
        if lf is None:
            return
        count_shown(self, lf.frame.read_at_s)
        if self.on_frame is not None:
            self.on_frame(lf)

    def _message(self, kind: str, text: str) -> None:
        if self.on_message is not None:
            self.on_message(kind, text)

    @Slot(str)
    def _lost(self, text: str) -> None:
        self._message("lost", text)

    @Slot(str)
    def _back(self, text: str) -> None:
        self._message("back", text)

    @Slot(str)
    def _ended(self, text: str) -> None:
        self._message("ended", text)

    @Slot(str)
    def _failed(self, text: str) -> None:
        self._message("failed", text)

    @Slot(str)
    def _note(self, text: str) -> None:
        self._message("note", text)

    @Slot(object)
    def _attempt_started(self, meta: object) -> None:
        if self.on_attempt_started is not None:
            self.on_attempt_started(meta)  # type: ignore[arg-type]

    @Slot(object)
    def _attempt_finished(self, result: object) -> None:
        if self.on_attempt is not None:
            self.on_attempt(result)  # type: ignore[arg-type]

    @Slot()
    def _thread_done(self) -> None:
        if self.on_stopped is not None:
            self.on_stopped()


class JudgeWorker(QObject):
    """Judges a whole video file off the GUI thread (:func:`ui.app.review_data.judge_video`)."""

    progress = Signal(int)
    done = Signal(object)
    failed = Signal(str)
    finished = Signal()

    def __init__(self, video: str | Path, out_dir: str | Path, **options: Any) -> None:
        super().__init__()
        self.video, self.out_dir, self.options = Path(video), Path(out_dir), options

    @Slot()
    def run(self) -> None:
        from ui.app.review_data import judge_video

        try:
            rec = judge_video(self.video, self.out_dir, progress=lambda i, n: self.progress.emit(i),
                              **self.options)
            self.done.emit(rec)
        except Exception as exc:  # reaches the user through `failed`
            self.failed.emit(f"{self.video.name}: {type(exc).__name__}: {exc}")
        finally:
            self.finished.emit()


class JudgeController(QObject):
    """Runs one :class:`JudgeWorker` at a time; ``on_done(Recording)``, ``on_failed(text)``,
    ``on_progress(frame)`` are called in the GUI thread."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.thread: QThread | None = None
        self.worker: JudgeWorker | None = None
        self.on_done: Callable[[Any], None] | None = None
        self.on_failed: Callable[[str], None] | None = None
        self.on_progress: Callable[[int], None] | None = None

    @property
    def busy(self) -> bool:
        return self.thread is not None

    def start(self, video: str | Path, out_dir: str | Path, **options: Any) -> None:
        self.wait()
        worker = JudgeWorker(video, out_dir, **options)
        thread = worker_thread(worker)
        worker.progress.connect(self._progress)
        worker.done.connect(self._done)
        worker.failed.connect(self._failed)
        thread.finished.connect(self._finished)
        self.worker, self.thread = worker, thread
        thread.start()

    def wait(self, timeout_ms: int = 600_000) -> None:
        if self.thread is not None:
            self.thread.wait(timeout_ms)
            self.thread = self.worker = None

    @Slot(int)
    def _progress(self, i: int) -> None:
        if self.on_progress is not None:
            self.on_progress(i)

    @Slot(object)
    def _done(self, rec: object) -> None:
        if self.on_done is not None:
            self.on_done(rec)

    @Slot(str)
    def _failed(self, text: str) -> None:
        if self.on_failed is not None:
            self.on_failed(text)

    @Slot()
    def _finished(self) -> None:
        self.thread = self.worker = None
