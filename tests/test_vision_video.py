"""Video files: clear errors for missing, empty and corrupt files, from the reader and the CLI."""

from __future__ import annotations

import numpy as np
import pytest

import cv2
from ui.cli import main
from vision.video import VideoError, VideoReader


def test_missing_empty_and_corrupt_files(tmp_path):
    with pytest.raises(VideoError, match="no such file"):
        VideoReader(tmp_path / "nope.mp4")
    empty = tmp_path / "empty.mp4"
    empty.write_bytes(b"")
    with pytest.raises(VideoError, match="empty"):
        VideoReader(empty)
    junk = tmp_path / "junk.mp4"
    junk.write_bytes(np.random.default_rng(0).integers(0, 256, 5000, dtype=np.uint8).tobytes())
    with pytest.raises(VideoError, match="junk.mp4"):
        VideoReader(junk)


def test_frames_times_and_skip(tmp_path):
    path = tmp_path / "v.avi"
    w = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 20.0, (64, 48))
    for i in range(6):
        w.write(np.full((48, 64, 3), 40 * i, np.uint8))
    w.release()
    with VideoReader(path) as r:
        assert (r.info.width, r.info.height, r.fps) == (64, 48, 20.0)
        i, t, f = r.read()
        assert (i, t) == (0, 0.0) and f.shape == (48, 64, 3)
        assert r.skip() and r.next_index == 2
        rest = [(i, t) for i, t, _ in r]
    assert rest == [(2, 0.1), (3, 0.15), (4, 0.2), (5, 0.25)]


def test_judge_video_cli_exits_2_with_a_message(tmp_path, capsys):
    junk = tmp_path / "junk.mp4"
    junk.write_bytes(b"not a video at all" * 100)
    assert main(["grimpe", "judge-video", str(tmp_path / "missing.mp4")]) == 2
    assert "no such file" in capsys.readouterr().err
    assert main(["grimpe", "judge-video", str(junk)]) == 2
    assert "junk.mp4" in capsys.readouterr().err
    # a video without any route in it: clear message, exit 2
    blank = tmp_path / "blank.avi"
    w = cv2.VideoWriter(str(blank), cv2.VideoWriter_fourcc(*"MJPG"), 10.0, (160, 120))
    for _ in range(4):
        w.write(np.full((120, 160, 3), 128, np.uint8))
    w.release()
    assert main(["grimpe", "judge-video", str(blank)]) == 2
    assert "no route found" in capsys.readouterr().err
    bad_route = tmp_path / "route.json"
    bad_route.write_text("{not json")
    assert main(["grimpe", "judge-video", str(blank), "--route", str(bad_route)]) == 2
    assert "route.json" in capsys.readouterr().err


def test_a_broken_file_gives_our_message_without_ffmpegs_noise(tmp_path):
    """FFmpeg writes to the process's own stderr (not Python's), so run the command for real."""
    import os
    import subprocess
    import sys

    broken = tmp_path / "cut.mp4"
    w = cv2.VideoWriter(str(tmp_path / "whole.mp4"), cv2.VideoWriter_fourcc(*"mp4v"), 10.0, (64, 48))
    for i in range(5):
        w.write(np.full((48, 64, 3), 40 * i, np.uint8))
    w.release()
    broken.write_bytes((tmp_path / "whole.mp4").read_bytes()[:200])  # the index is cut off
    env = {k: v for k, v in os.environ.items() if k != "OPENCV_FFMPEG_LOGLEVEL"}
    r = subprocess.run([sys.executable, "-m", "ui", "grimpe", "judge-video", str(broken)],
                       capture_output=True, text=True, env=env, timeout=120)
    assert r.returncode == 2
    assert "cut.mp4" in r.stderr and "corrupt" in r.stderr
    assert "moov atom" not in r.stderr and "Invalid data" not in r.stderr
