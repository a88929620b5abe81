"""Video sources for the live screen: a camera, a file or the bundled sample (plain OpenCV).

:class:`FrameSource` opens a :class:`VideoSpec` with ``cv2.VideoCapture`` and reads
:class:`Frame` objects. It does not retry by itself: :class:`ui.app.workers.VideoWorker` decides
when a camera is lost and reconnects it.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

__all__ = ["Frame", "FrameSource", "SourceError", "VideoSpec", "sample_route", "sample_video_path"]

REPO_ROOT = Path(__file__).resolve().parents[2]
SAMPLE_DIR = REPO_ROOT / "sample_videos"
VIDEO_SUFFIXES = (".mp4", ".mkv", ".avi", ".mov", ".webm")


class SourceError(RuntimeError):
    """The source cannot be opened or read; the message says which and why."""


def sample_video_path() -> Path | None:
    """The bundled sample clip: ``sample_videos/clean_top/video.mp4`` (a legal climb seen from
    above), else the first video under ``sample_videos/`` (sorted), or None."""
    if not SAMPLE_DIR.is_dir():
        return None
    preferred = SAMPLE_DIR / "clean_top" / "video.mp4"
    if preferred.is_file() and preferred.stat().st_size > 0:
        return preferred
    videos = sorted(p for p in SAMPLE_DIR.rglob("*") if p.suffix.lower() in VIDEO_SUFFIXES
                    and p.is_file() and p.stat().st_size > 0)
    return videos[0] if videos else None


def sample_route(video: Path) -> dict | None:
    """The ``route.json`` next to a sample clip (the route the clip was rendered with), or None."""
    import json

    p = Path(video).parent / "route.json"
    try:
        return json.loads(p.read_text(encoding="utf-8")) if p.is_file() else None
    except (OSError, ValueError):
        return None


@dataclass(frozen=True)
class VideoSpec:
    """Where frames come from.

    ``kind="camera"``: ``camera`` is a device index (or a device path / URL); ``width`` and
    ``height`` request a resolution. ``kind="file"``: ``path``; ``realtime`` paces reading at
    the file's frame rate (as a camera would deliver it), ``loop`` starts again at the end.
    """

    kind: str
    camera: int | str = 0
    path: str | None = None
    width: int | None = None
    height: int | None = None
    realtime: bool = True
    loop: bool = False

    def __post_init__(self) -> None:
        if self.kind not in ("camera", "file"):
            raise ValueError(f"a video source is a camera or a file, not {self.kind!r}")
        if self.kind == "file" and not self.path:
            raise ValueError("a file source needs a path")

    @classmethod
    def for_camera(cls, index: int | str = 0, width: int | None = None,
                   height: int | None = None) -> VideoSpec:
        return cls("camera", camera=index, width=width, height=height)

    @classmethod
    def for_file(cls, path: str | Path, realtime: bool = True, loop: bool = False) -> VideoSpec:
        return cls("file", path=str(path), realtime=realtime, loop=loop)

    @property
    def is_camera(self) -> bool:
        return self.kind == "camera"

    def label(self) -> str:
        if self.is_camera:
            res = f" {self.width}×{self.height}" if self.width and self.height else ""
            return f"camera {self.camera}{res}"
        return Path(self.path or "").name


@dataclass(frozen=True, eq=False)
class Frame:
    """One frame read from a source.

    Attributes:
        image_bgr: (H, W, 3) uint8, C-contiguous (ready for a zero-copy QImage).
        index: frame number since the source was opened (0-based).
        t_s: media time in seconds (file position, or seconds since a camera was opened).
        read_at_s: ``time.monotonic()`` when it was read (latency is measured from here).
    """

    image_bgr: np.ndarray
    index: int
    t_s: float
    read_at_s: float


class FrameSource:
    """``cv2.VideoCapture`` around a :class:`VideoSpec`: ``open()``, ``read()``, ``release()``."""

    def __init__(self, spec: VideoSpec) -> None:
        self.spec = spec
        self._cap = None
        self._index = 0
        self._t0: float | None = None
        self.fps = 30.0
        self.size: tuple[int, int] = (0, 0)

    def open(self) -> None:
        """Open the source; raises :class:`SourceError` saying why it cannot."""
        import cv2

        spec = self.spec
        if spec.is_camera:
            cap = cv2.VideoCapture(spec.camera)
        else:
            p = Path(spec.path or "")
            if not p.is_file():
                raise SourceError(f"{p}: no such video file")
            cap = cv2.VideoCapture(str(p))
        if not cap.isOpened():
            cap.release()
            what = f"camera {spec.camera}" if spec.is_camera else str(spec.path)
            raise SourceError(f"{what} cannot be opened (unplugged, busy, or not a video)")
        if spec.is_camera:
            if spec.width and spec.height:
                cap.set(cv2.CAP_PROP_FRAME_WIDTH, spec.width)
                cap.set(cv2.CAP_PROP_FRAME_HEIGHT, spec.height)
            cap.set(cv2.CAP_PROP_BUFFERSIZE, 1)
        fps = float(cap.get(cv2.CAP_PROP_FPS) or 0.0)
        self.fps = fps if 1.0 <= fps <= 240.0 else 30.0
        self.size = (int(cap.get(cv2.CAP_PROP_FRAME_WIDTH)), int(cap.get(cv2.CAP_PROP_FRAME_HEIGHT)))
        self._cap = cap
        if not spec.is_camera or self._t0 is None:
            # a camera's clock runs on across reconnections, so recorded times never go back
            self._index = 0
            self._t0 = time.monotonic()

    @property
    def is_open(self) -> bool:
        return self._cap is not None

    def read(self) -> Frame | None:
        """The next frame, or None when the source gives none (end of file, camera gone)."""
        if self._cap is None:
            return None
        ok, img = self._cap.read()
        now = time.monotonic()
        if not ok or img is None or img.ndim != 3:
            return None
        if self.size == (0, 0):
            self.size = (img.shape[1], img.shape[0])
        t_s = (self._index / self.fps) if not self.spec.is_camera else now - (self._t0 or now)
        f = Frame(np.ascontiguousarray(img), self._index, t_s, now)
        self._index += 1
        return f

    def rewind(self) -> bool:
        import cv2

        if self._cap is None:
            return False
        ok = bool(self._cap.set(cv2.CAP_PROP_POS_FRAMES, 0))
        self._index = 0
        return ok

    def release(self) -> None:
        if self._cap is not None:
            self._cap.release()
            self._cap = None
