"""Recording an attempt so that a crash loses (almost) nothing.

Files of one attempt, side by side (``<stem>`` = e.g. ``g3-r2-s1-Alice-20261129T171502``):

- ``<stem>.mkv`` — the video, MPEG-4 Part 2 (``mp4v``) in Matroska. Matroska needs no index at
  the end, so a file cut by a crash still plays up to its last written block (an ``.mp4`` needs
  its ``moov`` atom, written at close: a killed recording is unreadable). FFmpeg buffers
  ~256 KB, so the last second or so before a crash may be missing from the video.
- ``<stem>.frames.jsonl`` — the sidecar, one JSON object a line, flushed after every frame:
  a ``header`` line (format, fps, size, the attempt's metadata), one ``frame`` line per
  recorded frame (``frame`` = index in the video, ``t_s`` = seconds since the attempt started,
  ``source_frame``, ``wall_s``, ``hands`` with landmarks, ``contacts``, ``detections``,
  ``events``), and an ``end`` line (frame count, verdict) when the attempt is stopped cleanly.
- ``<stem>.events.jsonl`` — the judge-format events (``arbitre grimpe judge`` re-judges them).
- ``<stem>.verdict.json`` — the automatic verdict, written at the end.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

__all__ = [
    "AttemptRecorder",
    "RecordingPaths",
    "Sidecar",
    "SidecarWriter",
    "read_sidecar",
    "SIDECAR_FORMAT",
]

SIDECAR_FORMAT = "arbitre-attempt-sidecar"
VIDEO_FOURCC = "mp4v"
VIDEO_SUFFIX = ".mkv"


@dataclass(frozen=True)
class RecordingPaths:
    video: Path | None
    sidecar: Path
    events: Path
    verdict: Path

    @classmethod
    def for_stem(cls, directory: Path, stem: str, with_video: bool = True) -> RecordingPaths:
        d = Path(directory)
        return cls(
            video=d / f"{stem}{VIDEO_SUFFIX}" if with_video else None,
            sidecar=d / f"{stem}.frames.jsonl",
            events=d / f"{stem}.events.jsonl",
            verdict=d / f"{stem}.verdict.json",
        )


def _jsonable(obj: Any) -> Any:
    if isinstance(obj, np.ndarray):
        return np.round(obj.astype(float), 2).tolist()
    if isinstance(obj, (np.floating,)):
        return round(float(obj), 4)
    if isinstance(obj, (np.integer,)):
        return int(obj)
    if isinstance(obj, dict):
        return {str(k): _jsonable(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [_jsonable(v) for v in obj]
    return obj


class SidecarWriter:
    """Appends sidecar and event lines, flushing each so a crash keeps every line written."""

    def __init__(self, paths: RecordingPaths, header: dict[str, Any]) -> None:
        self.paths = paths
        paths.sidecar.parent.mkdir(parents=True, exist_ok=True)
        self._side = open(paths.sidecar, "w", encoding="utf-8")
        self._events = open(paths.events, "w", encoding="utf-8")
        self.frames = 0
        self._write(self._side, {"kind": "header", "format": SIDECAR_FORMAT, "version": 1,
                                 **header})

    @staticmethod
    def _write(f: Any, obj: dict[str, Any]) -> None:
        f.write(json.dumps(_jsonable(obj), ensure_ascii=False) + "\n")
        f.flush()

    def frame(self, record: dict[str, Any], events: Iterable[dict[str, Any]] = ()) -> None:
        evs = [dict(e) for e in events]
        self._write(self._side, {"kind": "frame", "frame": self.frames, **record, "events": evs})
        for e in evs:
            self._write(self._events, e)
        self.frames += 1

    def close(self, verdict: dict[str, Any] | None) -> None:
        if self._side.closed:
            return
        self._write(self._side, {"kind": "end", "frames": self.frames, "verdict": verdict,
                                 "ended_at": time.time()})
        for f in (self._side, self._events):
            os.fsync(f.fileno())
            f.close()
        if verdict is not None:
            self.paths.verdict.write_text(json.dumps(verdict, ensure_ascii=False, indent=1),
                                          encoding="utf-8")


class AttemptRecorder:
    """The video (mp4v in .mkv) and the sidecar of one attempt, written frame by frame.

    ``write(frame_bgr, record, events)`` adds one frame; ``close(verdict)`` ends cleanly. If the
    process dies in between, the video plays up to the last flushed block and the sidecar holds
    every frame line written so far.
    """

    def __init__(self, directory: str | Path, stem: str, fps: float, size: tuple[int, int],
                 meta: dict[str, Any] | None = None) -> None:
        import cv2

        self.paths = RecordingPaths.for_stem(Path(directory), stem)
        self.paths.sidecar.parent.mkdir(parents=True, exist_ok=True)
        w, h = int(size[0]), int(size[1])
        self.size = (w, h)
        self.fps = float(fps)
        self._writer = cv2.VideoWriter(str(self.paths.video), cv2.VideoWriter_fourcc(*VIDEO_FOURCC),
                                       self.fps, (w, h))
        if not self._writer.isOpened():
            raise OSError(f"{self.paths.video}: OpenCV cannot write an {VIDEO_FOURCC} video here")
        assert self.paths.video is not None
        self._side = SidecarWriter(self.paths, {
            "video": self.paths.video.name, "fps": self.fps, "width": w, "height": h,
            "fourcc": VIDEO_FOURCC, "started_at": time.time(), "meta": meta or {},
        })
        self.closed = False

    @property
    def frames(self) -> int:
        return self._side.frames

    def write(self, frame_bgr: np.ndarray, record: dict[str, Any],
              events: Iterable[dict[str, Any]] = ()) -> None:
        if self.closed:
            raise RuntimeError("AttemptRecorder.write after close()")
        img = frame_bgr
        if (img.shape[1], img.shape[0]) != self.size:
            import cv2

            img = cv2.resize(img, self.size)
        self._writer.write(img)
        self._side.frame(record, events)

    def close(self, verdict: dict[str, Any] | None) -> RecordingPaths:
        if not self.closed:
            self._writer.release()
            self._side.close(verdict)
            self.closed = True
        return self.paths


@dataclass
class Sidecar:
    """A sidecar read back (leniently: ``problems`` lists what was wrong, with line numbers)."""

    header: dict[str, Any]
    frames: list[dict[str, Any]]
    end: dict[str, Any] | None
    problems: list[str] = field(default_factory=list)

    @property
    def complete(self) -> bool:
        """False when the recording stopped without its ``end`` line (a crash)."""
        return self.end is not None

    def times_s(self) -> list[float]:
        return [float(f.get("t_s", i / max(1.0, float(self.header.get("fps", 30.0)))))
                for i, f in enumerate(self.frames)]

    def events(self) -> list[dict[str, Any]]:
        return [e for f in self.frames for e in f.get("events", [])]


def read_sidecar(path: str | Path) -> Sidecar:
    """Read a ``.frames.jsonl`` file; a truncated last line (crash) becomes a problem, not an
    error. Raises ``ValueError`` only when the file is not a sidecar at all."""
    header: dict[str, Any] | None = None
    frames: list[dict[str, Any]] = []
    end = None
    problems: list[str] = []
    with open(path, encoding="utf-8", errors="replace") as f:
        for no, line in enumerate(f, start=1):
            if not line.strip():
                continue
            try:
                obj = json.loads(line)
            except json.JSONDecodeError as exc:
                problems.append(f"{path}:{no}: unreadable line ({exc.msg}), skipped")
                continue
            kind = obj.get("kind")
            if kind == "header":
                header = obj
            elif kind == "frame":
                frames.append(obj)
            elif kind == "end":
                end = obj
            else:
                problems.append(f"{path}:{no}: unknown line kind {kind!r}, skipped")
    if header is None or header.get("format") != SIDECAR_FORMAT:
        raise ValueError(f"{path}: not an Arbitre sidecar (no '{SIDECAR_FORMAT}' header line)")
    if end is None:
        problems.append(f"{path}: no end line: the recording was interrupted "
                        f"({len(frames)} frames kept)")
    return Sidecar(header, frames, end, problems)
