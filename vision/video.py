"""Reading video files frame by frame, with errors a user can act on.

:class:`VideoReader` wraps ``cv2.VideoCapture`` and raises :class:`VideoError` (a ``ValueError``)
with the file name and what to do when the file is missing, not a video, or broken part-way.
Frame times come from the container's frame rate (``t_s = index / fps``); a file without a usable
rate is read at :data:`DEFAULT_FPS`.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

__all__ = ["DEFAULT_FPS", "VideoError", "VideoInfo", "VideoReader"]

DEFAULT_FPS = 30.0

# FFmpeg's own complaints about a broken file ("moov atom not found", "Invalid data found when
# processing input") go straight to the terminal before our message says the same thing with
# what to do; only its fatal errors are kept (8 = AV_LOG_FATAL; OpenCV reads the variable when it
# first opens a file). Set OPENCV_FFMPEG_LOGLEVEL yourself (e.g. 32 for FFmpeg's default) to see
# them all.
os.environ.setdefault("OPENCV_FFMPEG_LOGLEVEL", "8")


class VideoError(ValueError):
    """A video that cannot be read; the message names the file (and frame) and what to do."""


@dataclass(frozen=True)
class VideoInfo:
    """What the container says about a video.

    Attributes:
        path: the file.
        fps: frames per second (:data:`DEFAULT_FPS` when the file gives none).
        frame_count: frames announced by the container (an estimate for some codecs; 0 if unknown).
        width, height: frame size in pixels.
    """

    path: str
    fps: float
    frame_count: int
    width: int
    height: int

    @property
    def duration_s(self) -> float:
        return self.frame_count / self.fps if self.fps > 0 else 0.0


class VideoReader:
    """Frames of a video file in order: ``for index, t_s, frame_bgr in reader: ...``.

    ``skip()`` advances one frame without decoding it into an image (cheaper, for frames the
    caller will not look at). Opening checks that the first frame decodes, so a corrupt file
    fails here with a clear message rather than later as an empty video.
    """

    def __init__(self, path: str | Path) -> None:
        p = Path(path)
        if not p.exists():
            raise VideoError(f"{p}: no such file; give the path of a video file (e.g. an .mp4)")
        if p.is_dir():
            raise VideoError(f"{p}: is a folder, not a video file")
        if p.stat().st_size == 0:
            raise VideoError(f"{p}: the file is empty; record or copy the video again")
        self.path = str(p)
        self._cap = cv2.VideoCapture(self.path)
        if not self._cap.isOpened():
            self._cap.release()
            raise VideoError(
                f"{p}: OpenCV cannot open this file as a video (corrupt or an unsupported format);"
                " try converting it to .mp4 (e.g. with ffmpeg)"
            )
        ok, first = self._cap.read()
        if not ok or first is None or first.ndim != 3:
            self._cap.release()
            raise VideoError(
                f"{p}: no frame could be decoded (the file is corrupt or truncated); "
                "record or convert it again"
            )
        fps = float(self._cap.get(cv2.CAP_PROP_FPS) or 0.0)
        if not np.isfinite(fps) or fps <= 0 or fps > 1000:
            fps = DEFAULT_FPS
        count = int(self._cap.get(cv2.CAP_PROP_FRAME_COUNT) or 0)
        h, w = first.shape[:2]
        self.info = VideoInfo(self.path, fps, max(count, 0), int(w), int(h))
        self._pending: np.ndarray | None = first
        self._next_index = 0
        self._closed = False

    @property
    def fps(self) -> float:
        return self.info.fps

    @property
    def next_index(self) -> int:
        """Index of the frame the next :meth:`read` or :meth:`skip` returns."""
        return self._next_index

    def read(self) -> tuple[int, float, np.ndarray] | None:
        """The next frame as ``(index, t_s, frame_bgr)``, or None at the end of the video."""
        if self._closed:
            return None
        if self._pending is not None:
            frame, self._pending = self._pending, None
        else:
            ok, frame = self._cap.read()
            if not ok or frame is None:
                return None
        i = self._next_index
        self._next_index += 1
        return i, i / self.info.fps, frame

    def skip(self) -> bool:
        """Advance one frame without decoding it to an image; False at the end of the video."""
        if self._closed:
            return False
        if self._pending is not None:
            self._pending = None
        elif not self._cap.grab():
            return False
        self._next_index += 1
        return True

    def __iter__(self) -> Iterator[tuple[int, float, np.ndarray]]:
        while True:
            item = self.read()
            if item is None:
                return
            yield item

    def close(self) -> None:
        if not self._closed:
            self._cap.release()
            self._closed = True

    def __enter__(self) -> VideoReader:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
