"""Attempt recording survives a crash: kill a recording process, then read what it left."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import cv2
import numpy as np

from ui.app.recording import AttemptRecorder, read_sidecar
from ui.app.review_data import FrameReader, open_recording

ROOT = Path(__file__).resolve().parents[1]


def frame(i: int, w: int = 320, h: int = 240) -> np.ndarray:
    """A camera-like frame: sensor noise (seeded) and a moving card, so it compresses like
    real video (FFmpeg flushes its ~256 KB buffer every few frames)."""
    rng = np.random.default_rng(i)
    img = rng.integers(20, 90, size=(h, w, 3), dtype=np.uint8)
    cv2.rectangle(img, (10 + 3 * i % (w - 60), 80), (50 + 3 * i % (w - 60), 120), (0, 200, 255), -1)
    cv2.putText(img, str(i), (20, 40), cv2.FONT_HERSHEY_SIMPLEX, 1, (255, 255, 255), 2)
    return img


def test_clean_recording_round_trips(tmp_path):
    rec = AttemptRecorder(tmp_path, "a1", 20.0, (320, 240), {"player": "Alice"})
    for i in range(30):
        ev = [{"t": i / 20, "type": "down", "finger": "thumb", "target": "start"}] if i == 5 else []
        rec.write(frame(i), {"t_s": i / 20, "hands": [], "contacts": {}}, ev)
    verdict = {"result": "incomplete", "score": 0, "moves": [], "fault": None}
    paths = rec.close(verdict)
    side = read_sidecar(paths.sidecar)
    assert side.complete and side.problems == [] and len(side.frames) == 30
    assert side.header["meta"]["player"] == "Alice" and side.end["verdict"] == verdict
    assert [e["finger"] for e in side.events()] == ["thumb"]
    assert paths.events.read_text().count("\n") == 1
    r = open_recording(paths.video)
    assert r.frame_count == 30 and r.verdict == verdict and len(r.events) == 1
    assert r.frame_at(5 / 20) == 5 and r.next_marker_frame(0) == 5
    img = FrameReader(paths.video).read(29)
    assert img is not None and img.shape == (240, 320, 3)


RECORDER = textwrap.dedent("""
    import sys, time
    sys.path.insert(0, {root!r})
    from tests.test_ui_recording import frame
    from ui.app.recording import AttemptRecorder
    rec = AttemptRecorder({out!r}, "crash", 20.0, (320, 240), {{}})
    for i in range(100000):
        rec.write(frame(i), {{"t_s": i / 20, "hands": []}}, [])
        if i == 120:
            print("ready", flush=True)
        time.sleep(0.002)
""")


def test_a_killed_recording_leaves_a_playable_video_and_the_sidecar(tmp_path):
    script = RECORDER.format(root=str(ROOT), out=str(tmp_path))
    proc = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True,
                            env={**os.environ, "PYTHONPATH": str(ROOT)})
    try:
        assert proc.stdout is not None
        assert proc.stdout.readline().strip() == "ready"
    finally:
        proc.kill()  # SIGKILL: no cleanup, no clean close of the files
        proc.wait(10)
    side = read_sidecar(tmp_path / "crash.frames.jsonl")
    assert not side.complete and len(side.frames) >= 121
    assert any("interrupted" in p for p in side.problems)
    assert [f["frame"] for f in side.frames] == list(range(len(side.frames)))
    n_video = FrameReader(tmp_path / "crash.mkv").count()
    print(f"killed after {len(side.frames)} sidecar frames; {n_video} frames play")
    # FFmpeg's write buffer (~256 KB) is all a crash may lose: here a few frames
    assert len(side.frames) - 30 <= n_video <= len(side.frames), "the crashed video must play"
    r = open_recording(tmp_path / "crash.mkv")
    assert r.frame_count == min(n_video, len(side.frames))
    img = FrameReader(tmp_path / "crash.mkv").read(r.frame_count - 1)
    assert img is not None


def test_frame_reader_seeks_exactly_back_and_forth(tmp_path):
    rec = AttemptRecorder(tmp_path, "s", 20.0, (320, 240))
    frames = [frame(i) for i in range(60)]
    for i, f in enumerate(frames):
        rec.write(f, {"t_s": i / 20}, [])
    rec.close(None)
    reader = FrameReader(tmp_path / "s.mkv")
    for i in (50, 3, 4, 5, 41, 0, 59, 20):
        img = reader.read(i)
        assert img is not None
        err = [np.abs(img.astype(int) - f.astype(int)).mean() for f in frames]
        assert int(np.argmin(err)) == i, f"asked frame {i}, got {int(np.argmin(err))}"
    assert reader.read(60) is None
