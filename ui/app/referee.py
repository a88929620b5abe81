"""The live referee as the dashboard sees it: the video judge when it exists, else hands only.

:class:`LiveReferee` uses ``vision.pipeline.GrimpeReferee`` (holds, contacts, events, verdict)
when that module is installed. Without it, it runs :class:`vision.hands.HandTracker` only: the
hands are drawn, no event and no verdict is made up, and :attr:`LiveReferee.note` says so for
the status bar. The person then types the verdict or loads an event log.

:class:`AutoAttempt` starts an attempt when a finger goes down on the start zone and stops it
after a summit or a fault, or when the hand has left the picture for ``idle_s``.
"""

from __future__ import annotations

import importlib.util
from dataclasses import dataclass, field
from typing import Any

import numpy as np

__all__ = ["AutoAttempt", "LiveReferee", "RefereeFrame", "pipeline_available"]


def pipeline_available() -> bool:
    """True when ``vision.pipeline`` (the video judge) is importable."""
    try:
        return importlib.util.find_spec("vision.pipeline") is not None
    except (ImportError, ValueError):
        return False


@dataclass(eq=False)
class RefereeFrame:
    """What the referee made of one frame (the dashboard's view of it).

    ``verdict`` is None when no judge runs (hands-only mode); ``contacts`` maps finger → target
    for the fingers down; ``camera`` is where the camera is seen from the route
    (:func:`vision.camera.camera_placement`; None before the route is found or without a route
    file); ``raw`` is the pipeline's own result (for its ``annotate``).
    """

    frame_index: int
    t_s: float
    hands: Any = None
    new_events: list[dict[str, Any]] = field(default_factory=list)
    verdict: dict[str, Any] | None = None
    move_fingers: int = 0
    points: int = 0
    contacts: dict[str, str] = field(default_factory=dict)
    detections: dict[str, Any] = field(default_factory=dict)
    camera: dict[str, Any] | None = None
    raw: Any = None

    @property
    def fault(self) -> dict[str, Any] | None:
        return (self.verdict or {}).get("fault")

    @property
    def hand_count(self) -> int:
        return len(self.hands.hands) if self.hands is not None else 0

    def sidecar_record(self) -> dict[str, Any]:
        """The per-frame sidecar fields: landmarks, contacts, detections (JSON-able)."""
        hands = []
        if self.hands is not None:
            for h in self.hands.hands:
                hands.append({"handedness": h.handedness, "score": round(float(h.score), 3),
                              "landmarks_px": np.round(h.landmarks_px, 1).tolist()})
        rec: dict[str, Any] = {"source_frame": self.frame_index, "hands": hands,
                               "contacts": dict(self.contacts), "detections": self.detections,
                               "move_fingers": self.move_fingers, "points": self.points}
        if self.verdict is not None:
            rec["result"] = self.verdict.get("result")
        return rec


class LiveReferee:
    """Judge frames one by one; see the module doc for the two modes."""

    def __init__(self, route: dict[str, Any] | None = None, calibration: Any = None,
                 fps: float = 30.0, *, use_pipeline: bool = True, model_complexity: int = 1
                 ) -> None:
        self.route = route
        self.calibration = calibration
        self.fps = float(fps)
        self._model_complexity = model_complexity
        self.mode = "pipeline" if (use_pipeline and pipeline_available()) else "hands"
        self._disabled = not use_pipeline
        self._ref: Any = None
        self._tracker: Any = None
        self._t0: float | None = None
        self._last_hands: Any = None
        self._start()

    @property
    def judging(self) -> bool:
        return self.mode == "pipeline"

    @property
    def note(self) -> str:
        """Message id for the status bar."""
        if self.judging:
            return "live.referee_on"
        return "live.referee_off" if self._disabled else "live.hands_only"

    def _start(self) -> None:
        if self.judging:
            from vision.hands import HandTracker
            from vision.pipeline import GrimpeReferee  # type: ignore[import-not-found]

            self._close_ref()
            tracker = HandTracker(max_num_hands=2, model_complexity=self._model_complexity)
            self._ref = GrimpeReferee(route=self.route, calibration=self.calibration, fps=self.fps,
                                      tracker=tracker)
        else:
            from vision.hands import HandTracker

            if self._tracker is None:
                self._tracker = HandTracker(model_complexity=self._model_complexity)

    def _close_ref(self) -> None:
        if self._ref is not None:
            close = getattr(self._ref, "close", None)
            if close is not None:
                close()
            self._ref = None

    def begin_attempt(self, route: dict[str, Any] | None = None, *, keep: bool = False) -> None:
        """A new attempt: a fresh judge (``keep=True`` keeps the one that saw the start)."""
        if route is not None:
            self.route = route
        if self.judging and not keep:
            self._start()

    def end_attempt(self) -> dict[str, Any] | None:
        """The attempt's verdict (None in hands-only mode); the judge is then reset."""
        if not self.judging:
            return None
        verdict = dict(self._ref.finish())
        self._start()
        return verdict

    def reset(self) -> None:
        if self.judging:
            self._start()

    def update(self, frame_bgr: np.ndarray, t_s: float, frame_index: int) -> RefereeFrame:
        if not self.judging:
            hands = self._tracker.update(frame_bgr, t_s)
            return RefereeFrame(frame_index, t_s, hands=hands)
        r = self._ref.update(frame_bgr, t_s, frame_index)
        contacts = {}
        c = getattr(r, "contacts", None)
        if c is not None:
            from vision.landmarks import FINGERS

            contacts = {f: t for f, t in zip(FINGERS, c.targets) if t is not None}
        detections: dict[str, Any] = {"climbing_hand": getattr(r, "climbing_hand", None)}
        route_obs = getattr(r, "route", None)
        if route_obs is not None and getattr(route_obs, "holds", None) is not None:
            holds = route_obs.holds
            detections["holds"] = {
                "ids": list(getattr(holds, "ids", [])),
                "centres_px": np.asarray(getattr(holds, "centres_px", np.zeros((0, 2)))).round(1).tolist(),
                "confidence": np.asarray(getattr(holds, "confidence", [])).round(3).tolist(),
            }
        if c is not None:
            detections["contact_confidence"] = np.asarray(c.confidence).round(3).tolist()
            # the frame these contacts were decided for: the detector looks ahead, so live
            # contacts describe a frame about 0.4 s back
            detections["contacts_of_frame"] = int(getattr(c, "frame_index", -1))
        hands = getattr(r, "hands", None)
        if hands is None:  # a frame the judge skipped (stride): the last hands seen still hold
            hands = self._last_hands
        self._last_hands = hands
        return RefereeFrame(
            frame_index, t_s, hands=hands,
            new_events=[dict(e) for e in getattr(r, "new_events", [])],
            verdict=dict(getattr(r, "verdict", {}) or {}) or None,
            move_fingers=int(getattr(r, "move_fingers", 0) or 0),
            points=int(getattr(r, "points", 0) or 0), contacts=contacts,
            detections=detections, camera=getattr(self._ref, "camera", None), raw=r,
        )

    def annotate(self, frame_bgr: np.ndarray, rf: RefereeFrame) -> np.ndarray:
        """A copy of the frame with the evidence drawn: the pipeline's drawing (holds by
        finger, burned holds, zones, contacts) or the hands, plus move and fault banners."""
        import cv2

        if self.judging and rf.raw is not None:
            # the video judge draws everything itself: holds by finger, burned holds, zones,
            # contacts, the move counter and the fault banner
            from ui.app.i18n import overlay_words

            return self._ref.annotate(frame_bgr, rf.raw, overlay_words())
        if rf.hands is not None:
            from vision.hands import annotate

            out = annotate(frame_bgr, rf.hands)
        else:
            out = np.array(frame_bgr, copy=True)
        h, w = out.shape[:2]
        if self.judging and rf.move_fingers:
            txt = f"{rf.move_fingers} fingers  {rf.points} pts"
            cv2.putText(out, txt, (10, 28), cv2.FONT_HERSHEY_SIMPLEX, 0.8, (0, 0, 0), 4, cv2.LINE_AA)
            cv2.putText(out, txt, (10, 28), cv2.FONT_HERSHEY_SIMPLEX, 0.8, (255, 255, 255), 2,
                        cv2.LINE_AA)
        fault = rf.fault
        if fault:
            cv2.rectangle(out, (0, h - 40), (w, h), (0, 0, 200), -1)
            txt = f"FAULT {fault.get('code')}: {str(fault.get('detail', ''))[:60]}"
            cv2.putText(out, txt, (10, h - 13), cv2.FONT_HERSHEY_SIMPLEX, 0.6, (255, 255, 255), 2,
                        cv2.LINE_AA)
        return out

    def close(self) -> None:
        self._close_ref()
        if self._tracker is not None:
            self._tracker.close()
            self._tracker = None


@dataclass
class AutoAttempt:
    """Decides when an attempt starts or stops by itself (judging mode only).

    ``step(rf, recording)`` returns ``"start"``, ``"stop"`` or None.
    """

    idle_s: float = 2.0
    tail_s: float = 1.0
    _last_hand_t: float | None = None
    _ended_t: float | None = None

    def step(self, rf: RefereeFrame, recording: bool) -> str | None:
        if rf.hand_count:
            self._last_hand_t = rf.t_s
        if not recording:
            self._ended_t = None
            starts = any(e.get("type") == "down" and e.get("target") == "start"
                         for e in rf.new_events)
            return "start" if starts else None
        result = (rf.verdict or {}).get("result")
        if result in ("summit", "fault"):
            if self._ended_t is None:
                self._ended_t = rf.t_s
            if rf.t_s - self._ended_t >= self.tail_s:
                return "stop"
        if self._last_hand_t is not None and rf.t_s - self._last_hand_t >= self.idle_s:
            return "stop"
        return None
