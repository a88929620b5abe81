"""A recording opened for review (plain Python + OpenCV, no Qt).

:class:`Recording` joins the video, its sidecar (per-frame times, landmarks, contacts), the
judge-format events and the verdict; it gives the timeline's markers (moves, fault, events),
maps times to frames by the sidecar's timestamps, and finds the evidence at a frame.
:class:`FrameReader` decodes the frame at any index: sequential reads when stepping forward,
a seek (checked against the expected position, with a sequential fallback) otherwise.
"""

from __future__ import annotations

import bisect
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from ui.app.recording import Sidecar, read_sidecar

__all__ = ["FrameReader", "Marker", "Recording", "open_recording"]


@dataclass(frozen=True)
class Marker:
    """A point on the timeline: ``kind`` is ``move``, ``fault``, ``event`` or ``order`` (two
    events the automatic judge fed in another order than seen, and why)."""

    t_s: float
    frame: int
    kind: str
    label: str


class FrameReader:
    """Random access to a video's frames by index.

    Stepping forward reads on; a jump seeks, then checks the decoded frame's timestamp against
    ``index / fps`` and falls back to decoding from the start when the seek was not exact.
    The recording's own times (sidecar) map the timeline to these indices.
    """

    def __init__(self, path: str | Path) -> None:
        import cv2

        self.path = str(path)
        self._cap = cv2.VideoCapture(self.path)
        if not self._cap.isOpened():
            raise ValueError(f"{path}: cannot be opened as a video")
        fps = float(self._cap.get(cv2.CAP_PROP_FPS) or 0.0)
        self.fps = fps if 1.0 <= fps <= 240.0 else 30.0
        self._next = 0
        self._count: int | None = None
        #: seeks that had to decode from the start (checked against the frame's timestamp)
        self.seeks_fallback = 0

    def count(self) -> int:
        """Frames that really decode (counted once by reading; containers may announce wrong
        counts, and a crashed recording has none)."""
        if self._count is None:
            import cv2

            cap = cv2.VideoCapture(self.path)
            n = 0
            while cap.grab():
                n += 1
            cap.release()
            self._count = n
        return self._count

    def read(self, index: int) -> np.ndarray | None:
        import cv2

        if index < 0:
            return None
        if index != self._next:
            if index > self._next and index - self._next < 30:
                while self._next < index:
                    if not self._cap.grab():
                        return None
                    self._next += 1
            else:
                self._cap.set(cv2.CAP_PROP_POS_FRAMES, index)
                self._next = index
                ok, img = self._cap.read()
                t_ms = float(self._cap.get(cv2.CAP_PROP_POS_MSEC))
                if ok and abs(t_ms - index * 1000.0 / self.fps) <= 500.0 / self.fps:
                    self._next = index + 1
                    return img
                # the seek landed elsewhere (variable frame rate, sparse key frames): decode
                # from the start, which is always exact
                self.seeks_fallback += 1
                self._cap.release()
                self._cap = cv2.VideoCapture(self.path)
                for _ in range(index):
                    self._cap.grab()
                self._next = index
        ok, img = self._cap.read()
        if not ok:
            return None
        self._next = index + 1
        return img

    def close(self) -> None:
        self._cap.release()


@dataclass
class Recording:
    """Everything known about one recorded (or judged-on-the-fly) attempt."""

    video_path: Path | None
    sidecar: Sidecar | None
    events: list[dict[str, Any]]
    verdict: dict[str, Any] | None
    route: dict[str, Any] | None = None
    events_path: Path | None = None
    attempt_id: int | None = None
    times_s: list[float] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    _decided: tuple[list[int], list[dict[str, str]]] | None = field(default=None, repr=False)

    @property
    def frame_count(self) -> int:
        return len(self.times_s)

    def frame_at(self, t_s: float) -> int:
        """The last frame shown at time ``t_s`` (sidecar clock)."""
        if not self.times_s:
            return 0
        i = bisect.bisect_right(self.times_s, t_s + 1e-6) - 1
        return max(0, min(i, len(self.times_s) - 1))

    def time_of(self, frame: int) -> float:
        return self.times_s[frame] if 0 <= frame < len(self.times_s) else 0.0

    def markers(self, verdict: dict[str, Any] | None = None) -> list[Marker]:
        """Moves (at their end), the fault, every down/other event, the events the verdict
        rests on seen with little confidence (``check``), and the orders the
        automatic judge chose for events closer than their timing uncertainty (from the
        recording's own verdict: the events file keeps them), in time order."""
        v = verdict if verdict is not None else self.verdict
        out: list[Marker] = []
        from games.grimpe.climb import detail_text, doubtful_events
        from ui.app.i18n import event_word, language, player_word, tr

        def event_label(e: dict[str, Any]) -> str:
            kind = str(e.get("type"))
            msgid = "marker." + kind
            label = tr(msgid, finger=player_word(e.get("finger") or ""),
                       target=player_word(e.get("target") or ""),
                       card=e.get("card") or "")
            if label == msgid:  # an event kind without a message: as written
                label = f"{kind} {e.get('finger') or ''} {e.get('target') or e.get('card') or ''}"
            return label.strip()

        for e in self.events:
            if str(e.get("type")) != "up":
                out.append(Marker(float(e["t"]), self.frame_at(float(e["t"])), "event", event_label(e)))
        # the events the verdict rests on that the referee saw with little confidence
        for e in doubtful_events(self.events, v or {}):
            t = float(e["t"])
            out.append(Marker(t, self.frame_at(t), "check",
                              tr("marker.check", what=event_label(e), c=float(e["confidence"]))))

        def name(ev: dict[str, Any]) -> str:
            return f"{event_word(ev.get('type'))} {player_word(ev.get('finger') or '')}".strip()

        for sw in (self.verdict or {}).get("reordered") or []:
            moved, before = sw.get("moved") or {}, sw.get("before") or {}
            if sw.get("fault_avoided"):
                label = tr("marker.order_fault", moved=name(moved), before=name(before),
                           fault=sw["fault_avoided"])
            else:
                seen, fed = sw.get("points") or (0, 0)
                label = tr("marker.order_points", moved=name(moved), before=name(before),
                           lost=int(fed) - int(seen))
            t = float(before.get("t", moved.get("t", 0.0)))
            out.append(Marker(t, self.frame_at(t), "order", label))
        if v:
            for i, m in enumerate(v.get("moves", [])):
                t = float(m.get("t_end", 0.0))
                out.append(Marker(t, self.frame_at(t), "move",
                                  tr("marker.move", i=i + 1, fingers=m.get("fingers"), points=m.get("points"))))
            f = v.get("fault")
            if f:
                t = float(f.get("t", 0.0))
                detail = detail_text(str(f.get("detail", "")), language())
                out.append(Marker(t, self.frame_at(t), "fault", f"{f.get('code')}: {detail}"))
        return sorted(out, key=lambda m: (m.t_s, m.kind))

    def next_marker_frame(self, frame: int, verdict: dict[str, Any] | None = None) -> int | None:
        for m in self.markers(verdict):
            if m.frame > frame:
                return m.frame
        return None

    def record_at(self, frame: int) -> dict[str, Any]:
        """The sidecar's record of ``frame`` (a copy; {} when there is none), its ``contacts``
        being the state decided *for* that frame. The live contact detector decides a frame
        about 0.4 s later (it looks ahead), and a record names the frame its contacts describe
        (``detections.contacts_of_frame``): the state shown is that of the latest record
        describing this frame or one before it. Older recordings keep their contacts."""
        if self.sidecar is None or not 0 <= frame < len(self.sidecar.frames):
            return {}
        rec = dict(self.sidecar.frames[frame])
        if self._decided is None:
            keys: list[int] = []
            states: list[dict[str, str]] = []
            for r in self.sidecar.frames:
                of = (r.get("detections") or {}).get("contacts_of_frame")
                if isinstance(of, int) and of >= 0 and (not keys or of >= keys[-1]):
                    keys.append(of)
                    states.append(dict(r.get("contacts") or {}))
            self._decided = (keys, states)
        keys, states = self._decided
        if keys:
            src = rec.get("source_frame", frame)
            i = bisect.bisect_right(keys, src if isinstance(src, int) else frame) - 1
            rec["contacts"] = dict(states[i]) if i >= 0 else {}
        return rec

    def evidence_at(self, frame: int) -> dict[str, Any]:
        """The sidecar's record of ``frame`` (hands, contacts, detections) and the events
        within half a frame of it."""
        rec = self.record_at(frame)
        t = self.time_of(frame)
        fps = float((self.sidecar.header if self.sidecar else {}).get("fps", 30.0) or 30.0)
        rec["events_here"] = [e for e in self.events if abs(float(e["t"]) - t) <= 0.5 / fps]
        return rec


def _load_json(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))


def _read_events(path: Path, problems: list[str]) -> list[dict[str, Any]]:
    out = []
    for no, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            out.append(json.loads(line))
        except json.JSONDecodeError:
            problems.append(f"{path}:{no}: unreadable event line, skipped")
    return out


def open_recording(
    path: str | Path,
    *,
    verdict: dict[str, Any] | None = None,
    route: dict[str, Any] | None = None,
    events_path: str | Path | None = None,
    sidecar_path: str | Path | None = None,
    attempt_id: int | None = None,
) -> Recording:
    """Open a recording from its video or its sidecar path; the other files are found by
    name (``<stem>.frames.jsonl``, ``.events.jsonl``, ``.verdict.json``). A plain video (no
    sidecar) gets frame times from its frame rate and no evidence (judge it first to get some).
    """
    p = Path(path)
    problems: list[str] = []
    if p.name.endswith(".frames.jsonl"):
        stem = p.name[: -len(".frames.jsonl")]
        sidecar_path = sidecar_path or p
        video = None
    else:
        stem = p.stem
        video = p
    base = p.parent
    sp = Path(sidecar_path) if sidecar_path else base / f"{stem}.frames.jsonl"
    sidecar = None
    if sp.is_file():
        sidecar = read_sidecar(sp)
        problems += sidecar.problems
        if video is None and sidecar.header.get("video"):
            video = base / str(sidecar.header["video"])
    ep = Path(events_path) if events_path else base / f"{stem}.events.jsonl"
    events = _read_events(ep, problems) if ep.is_file() else []
    vp = base / f"{stem}.verdict.json"
    if verdict is None:
        if vp.is_file():
            verdict = _load_json(vp)
        elif sidecar is not None and sidecar.end is not None:
            verdict = sidecar.end.get("verdict")
    if route is None and sidecar is not None:
        route = (sidecar.header.get("meta") or {}).get("route")
    if video is not None and not Path(video).is_file():
        problems.append(f"{video}: video file missing")
        video = None
    if sidecar is not None:
        times = sidecar.times_s()
    elif video is not None:
        reader = FrameReader(video)
        times = [i / reader.fps for i in range(reader.count())]
        reader.close()
    else:
        raise ValueError(f"{p}: neither a video nor a sidecar could be read")
    if video is not None and sidecar is not None:
        n_video = FrameReader(video).count()
        if n_video < len(times):
            problems.append(f"{video}: {n_video} frames in the video, {len(times)} in the sidecar "
                            "(the end was lost in a crash); the timeline stops at the video's end")
            times = times[:n_video]
    return Recording(Path(video) if video else None, sidecar, events, verdict, route,
                     ep if ep.is_file() else None, attempt_id, times, problems)


def judge_video(
    video_path: str | Path,
    out_dir: str | Path,
    *,
    route: dict[str, Any] | None = None,
    use_pipeline: bool = True,
    model_complexity: int = 1,
    progress: Any = None,
) -> Recording:
    """Run the live referee over a whole video file and write its sidecar, events and verdict
    next to ``out_dir/<video stem>.*`` (the video itself is not copied); returns the
    :class:`Recording` ready for review. ``progress(i, n)`` is called every 10 frames."""
    import time

    from ui.app.recording import RecordingPaths, SidecarWriter
    from ui.app.referee import LiveReferee
    from ui.app.video import FrameSource, VideoSpec

    vp = Path(video_path).resolve()
    src = FrameSource(VideoSpec.for_file(vp, realtime=False))
    src.open()
    paths = RecordingPaths.for_stem(Path(out_dir), vp.stem, with_video=False)
    writer = SidecarWriter(paths, {"video": str(vp), "fps": src.fps, "width": src.size[0],
                                   "height": src.size[1], "started_at": time.time(),
                                   "meta": {"route": route, "judged_from": str(vp)}})
    referee = LiveReferee(route, fps=src.fps, use_pipeline=use_pipeline,
                          model_complexity=model_complexity)
    verdict = None
    try:
        referee.begin_attempt(route)
        while True:
            f = src.read()
            if f is None:
                break
            rf = referee.update(f.image_bgr, f.t_s, f.index)
            writer.frame({"t_s": round(f.t_s, 4), **rf.sidecar_record()}, rf.new_events)
            if progress is not None and f.index % 10 == 0:
                progress(f.index, 0)
        verdict = referee.end_attempt()
    finally:
        writer.close(verdict)
        referee.close()
        src.release()
    return open_recording(paths.sidecar, route=route)
