"""The video source worker: newest frame wins, camera loss and reconnection, errors reach the
GUI, and an attempt recorded through the worker (real QThread, real OpenCV, real MediaPipe)."""

from __future__ import annotations

import shutil
import time
from pathlib import Path

import cv2
import numpy as np
import pytest

from ui.app.qtenv import prepare_qt_environment

prepare_qt_environment()  # cv2 set its Qt variables on import; Qt must not see them

from ui.app.recording import read_sidecar  # noqa: E402
from ui.app.video import VideoSpec  # noqa: E402
from ui.app.workers import VideoController  # noqa: E402


def make_video(path: Path, frames: int = 40, fps: float = 20.0, size=(320, 240)) -> Path:
    """A short deterministic clip: a moving square on a grey table, frame number written."""
    w = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"mp4v"), fps, size)
    for i in range(frames):
        img = np.full((size[1], size[0], 3), 110, np.uint8)
        cv2.rectangle(img, (10 + 5 * i, 100), (60 + 5 * i, 150), (30, 90, 220), -1)
        cv2.putText(img, str(i), (10, 30), cv2.FONT_HERSHEY_SIMPLEX, 1, (255, 255, 255), 2)
        w.write(img)
    w.release()
    return path


class Recorder:
    """Collects what a VideoController reports."""

    def __init__(self, c: VideoController) -> None:
        self.frames, self.messages, self.attempts = [], [], []
        c.on_frame = self.frames.append
        c.on_message = lambda kind, text: self.messages.append((kind, text))
        c.on_attempt = self.attempts.append

    def kinds(self) -> list[str]:
        return [k for k, _ in self.messages]


@pytest.fixture
def controller(qapp):
    c = VideoController()
    yield c
    c.stop()


def test_newest_frame_wins_when_the_gui_is_busy(qtbot, controller, tmp_path):
    clip = make_video(tmp_path / "clip.mp4", frames=60)
    got = Recorder(controller)
    controller.start(VideoSpec.for_file(clip, realtime=False), tmp_path, use_pipeline=False,
                     model_complexity=0)
    time.sleep(2.5)  # the GUI thread is busy: no event is processed, frames pile up
    qtbot.waitUntil(lambda: "ended" in got.kinds(), timeout=20000)
    worker_dropped = got.frames[-1].dropped if got.frames else 0
    assert got.frames, "no frame reached the GUI"
    assert got.frames[0].frame.index > 0, "an old frame was shown instead of the newest"
    assert worker_dropped > 0 and len(got.frames) < 60
    assert controller.latency_ms >= 0.0


def test_camera_lost_then_back_keeps_running(qtbot, controller, tmp_path):
    device = tmp_path / "cam.mp4"  # a "camera" that is not there yet
    got = Recorder(controller)
    controller.start(VideoSpec.for_camera(str(device)), tmp_path, retry_s=0.2,
                     use_pipeline=False, model_complexity=0)
    qtbot.waitUntil(lambda: "lost" in got.kinds(), timeout=10000)
    lost_text = dict(got.messages)["lost"]
    assert "cannot be opened" in lost_text and "cam.mp4" in lost_text
    assert not got.frames
    shutil.copy(make_video(tmp_path / "src.mp4", frames=15), device)  # plugged back in
    qtbot.waitUntil(lambda: "back" in got.kinds() and len(got.frames) > 0, timeout=15000)
    # the clip runs out: the camera is lost again, and reconnected again
    n_lost = got.kinds().count("lost")
    qtbot.waitUntil(lambda: got.kinds().count("lost") > n_lost, timeout=15000)
    n_frames = len(got.frames)
    qtbot.waitUntil(lambda: got.kinds().count("back") >= 2 and len(got.frames) > n_frames,
                    timeout=15000)
    assert controller.running
    times = [lf.frame.t_s for lf in got.frames]
    assert times == sorted(times), "a camera's clock must not go back after a reconnection"


def test_missing_camera_index_is_reported(qtbot, controller, tmp_path):
    got = Recorder(controller)
    controller.start(VideoSpec.for_camera(9), tmp_path, retry_s=0.5, use_pipeline=False,
                     model_complexity=0)
    qtbot.waitUntil(lambda: "lost" in got.kinds(), timeout=15000)
    assert "camera 9" in dict(got.messages)["lost"]


def test_missing_file_error_reaches_the_gui(qtbot, controller, tmp_path):
    got = Recorder(controller)
    controller.start(VideoSpec.for_file(tmp_path / "nope.mp4"), tmp_path, use_pipeline=False)
    qtbot.waitUntil(lambda: "failed" in got.kinds(), timeout=10000)
    assert "nope.mp4" in dict(got.messages)["failed"]


def test_attempt_recorded_through_the_worker_has_no_made_up_verdict(qtbot, controller, tmp_path):
    clip = make_video(tmp_path / "clip.mp4", frames=40)
    got = Recorder(controller)
    controller.start(VideoSpec.for_file(clip, realtime=True), tmp_path / "rec",
                     use_pipeline=False, model_complexity=0)
    qtbot.waitUntil(lambda: len(got.frames) > 0, timeout=20000)
    controller.start_attempt({"stem": "g1-r1-s0-Alice", "player": "Alice"})
    qtbot.wait(600)
    controller.stop_attempt()
    qtbot.waitUntil(lambda: bool(got.attempts), timeout=10000)
    res = got.attempts[0]
    assert res.verdict is None  # hands-only mode: no video judge, no verdict
    assert res.frames >= 5 and res.paths.video.is_file()
    side = read_sidecar(res.paths.sidecar)
    assert side.complete and len(side.frames) == res.frames
    assert side.header["meta"]["player"] == "Alice"
    assert all("hands" in f and "t_s" in f for f in side.frames)
    times = side.times_s()
    assert times == sorted(times) and times[0] > 0.0  # started mid-clip, clock of the source


def test_closing_the_source_mid_attempt_closes_the_recording_cleanly(qtbot, controller, tmp_path):
    clip = make_video(tmp_path / "clip.mp4", frames=80)
    got = Recorder(controller)
    controller.start(VideoSpec.for_file(clip), tmp_path / "rec", use_pipeline=False,
                     model_complexity=0)
    qtbot.waitUntil(lambda: len(got.frames) > 0, timeout=20000)
    controller.start_attempt({"stem": "cut"})
    qtbot.waitUntil(lambda: controller.recording, timeout=5000)
    qtbot.wait(300)
    controller.stop()  # the window closes / the source is closed while recording
    qtbot.waitUntil(lambda: len(got.attempts) == 1, timeout=5000)
    res = got.attempts[0]
    assert res.reason == "source closed" and res.frames > 0
    side = read_sidecar(res.paths.sidecar)
    assert side.complete and len(side.frames) == res.frames


def test_judge_controller_wait_returns_when_the_job_ends(qtbot, tmp_path):
    """The GUI may block in wait() on a judging thread: the thread must end by itself (its quit
    must not be queued to the blocked GUI thread), and the failure still reaches the user."""
    from ui.app.workers import JudgeController

    ctl = JudgeController()
    failures: list[str] = []
    ctl.on_failed = failures.append
    ctl.start(tmp_path / "no_such_video.mp4", tmp_path / "out")
    t0 = time.monotonic()
    ctl.wait(20_000)
    assert time.monotonic() - t0 < 10.0, "wait() ran into its timeout: the thread never quit"
    assert not ctl.busy
    qtbot.waitUntil(lambda: bool(failures), timeout=5000)
    assert "no_such_video.mp4" in failures[0]
