"""The observations of the Grimpe video pipeline: validated dataclasses with documented shapes.

Every array is in image pixels (x right, y down) unless its name says ``_mm``. Shapes are
checked in ``__post_init__`` with messages naming the expected and actual shape, so a stage
that produces a wrong observation fails where the mistake is made.

- :class:`HoldsObservation`: the holds of the route as seen in the image (ids, colours,
  centres, radii, confidence, whether seen or predicted).
- :class:`RouteObservation`: holds plus the start/finish zones and the map from the route's
  table millimetres to the image.
- :class:`ContactObservation`: which finger of the climbing hand is down, and on what.
- :class:`FrameResult`: everything one :meth:`vision.pipeline.GrimpeReferee.update` call
  returns.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

import numpy as np

from vision.landmarks import FINGERS

__all__ = [
    "ContactObservation",
    "FrameResult",
    "HoldsObservation",
    "LOW_CONFIDENCE",
    "RouteObservation",
]

#: A hold whose confidence is below this is flagged (reported, never silently trusted).
LOW_CONFIDENCE = 0.5
_COLOURS = ("black", "blue", "green", "yellow", "red")


def _array(value: Any, shape: tuple[int | None, ...], dtype: Any, name: str) -> np.ndarray:
    arr = np.asarray(value, dtype=dtype)
    ok = arr.ndim == len(shape) and all(s is None or s == d for s, d in zip(shape, arr.shape))
    if not ok:
        want = "(" + ", ".join("N" if s is None else str(s) for s in shape) + ")"
        raise ValueError(f"{name} must have shape {want}, got {arr.shape}")
    if arr.dtype.kind == "f" and not np.all(np.isfinite(arr)):
        raise ValueError(f"{name} must be finite (got NaN or inf)")
    return arr


@dataclass(frozen=True, eq=False)
class HoldsObservation:
    """The route's holds in the image.

    Attributes:
        ids: N hold ids (the route's, e.g. ``"12a"``, or ``"h1"``… when named from detection).
        colours: N ring colours (black, blue, green, yellow, red).
        centres_px: (N, 2) float32 hole centres, image pixels.
        radii_px: (N,) float32 radius of the ring's outer edge, pixels (mean of the ellipse's
            semi-axes: oblique views flatten circles).
        confidence: (N,) float32 in 0..1; below :data:`LOW_CONFIDENCE` the hold is flagged.
        detected: (N,) bool, True if the ring was seen, False if placed from the route alone.
    """

    ids: tuple[str, ...]
    colours: tuple[str, ...]
    centres_px: np.ndarray
    radii_px: np.ndarray
    confidence: np.ndarray
    detected: np.ndarray

    def __post_init__(self) -> None:
        ids, colours = tuple(self.ids), tuple(self.colours)
        n = len(ids)
        if len(colours) != n:
            raise ValueError(f"HoldsObservation.colours must have {n} entries, got {len(colours)}")
        if len(set(ids)) != n:
            raise ValueError(f"HoldsObservation.ids must be unique, got {ids}")
        bad = [c for c in colours if c not in _COLOURS]
        if bad:
            raise ValueError(f"HoldsObservation.colours must be in {_COLOURS}, got {bad}")
        object.__setattr__(self, "ids", ids)
        object.__setattr__(self, "colours", colours)
        object.__setattr__(self, "centres_px",
                           _array(self.centres_px, (n, 2), np.float32, "HoldsObservation.centres_px"))
        r = _array(self.radii_px, (n,), np.float32, "HoldsObservation.radii_px")
        if np.any(r <= 0):
            raise ValueError("HoldsObservation.radii_px must be > 0")
        object.__setattr__(self, "radii_px", r)
        c = _array(self.confidence, (n,), np.float32, "HoldsObservation.confidence")
        if np.any((c < 0) | (c > 1)):
            raise ValueError("HoldsObservation.confidence must be in [0, 1]")
        object.__setattr__(self, "confidence", c)
        object.__setattr__(self, "detected",
                           _array(self.detected, (n,), bool, "HoldsObservation.detected"))

    def __len__(self) -> int:
        return len(self.ids)

    @property
    def low_confidence(self) -> tuple[str, ...]:
        """Ids of the flagged holds (confidence below :data:`LOW_CONFIDENCE`)."""
        return tuple(i for i, c in zip(self.ids, self.confidence) if c < LOW_CONFIDENCE)

    def index(self, hold_id: str) -> int:
        return self.ids.index(hold_id)

    @classmethod
    def empty(cls) -> HoldsObservation:
        return cls((), (), np.zeros((0, 2)), np.zeros(0), np.zeros(0), np.zeros(0, bool))


@dataclass(frozen=True, eq=False)
class RouteObservation:
    """The route as the camera sees it.

    Attributes:
        holds: the holds (see :class:`HoldsObservation`).
        start_zone_px: (4, 2) float32 corners of the start zone in the image, or None.
        finish_zone_px: (4, 2) float32 corners of the finish zone, or None.
        H_image_from_route: (3, 3) homography from the route's table mm (ROUTE.json frame) to
            image pixels, or None when the route was named from detection only.
        cards: card number → (4, 2) float32 corners of the card in the image (with a route).
        card_of_hold: hold id → card number (with a route).
        frame_index: the frame the route was detected on (the last one used).
        problems: what went wrong or looks doubtful, for the report (e.g. unmatched holds).
        H_route_from_image: (property) the inverse of ``H_image_from_route``, computed once.
    """

    holds: HoldsObservation
    start_zone_px: np.ndarray | None = None
    finish_zone_px: np.ndarray | None = None
    H_image_from_route: np.ndarray | None = None
    cards: dict[int, np.ndarray] = field(default_factory=dict)
    card_of_hold: dict[str, int] = field(default_factory=dict)
    frame_index: int = 0
    problems: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if not isinstance(self.holds, HoldsObservation):
            raise TypeError(f"RouteObservation.holds must be HoldsObservation, got {type(self.holds).__name__}")
        for name in ("start_zone_px", "finish_zone_px"):
            v = getattr(self, name)
            if v is not None:
                object.__setattr__(self, name, _array(v, (4, 2), np.float32, f"RouteObservation.{name}"))
        if self.H_image_from_route is not None:
            object.__setattr__(self, "H_image_from_route", _array(
                self.H_image_from_route, (3, 3), np.float64, "RouteObservation.H_image_from_route"))
        object.__setattr__(self, "cards", {
            int(k): _array(v, (4, 2), np.float32, f"RouteObservation.cards[{k}]")
            for k, v in self.cards.items()})
        object.__setattr__(self, "problems", tuple(self.problems))

    def zone_px(self, name: str) -> np.ndarray | None:
        return {"start": self.start_zone_px, "finish": self.finish_zone_px}.get(name)

    @cached_property
    def H_route_from_image(self) -> np.ndarray | None:
        """(3, 3) homography from image pixels to the route's table mm (the inverse of
        ``H_image_from_route``, computed on first use and kept: the contact stage maps the
        fingertips back every frame), or None without a homography."""
        if self.H_image_from_route is None:
            return None
        from vision.camera import inverse_3x3

        return inverse_3x3(self.H_image_from_route)


@dataclass(frozen=True, eq=False)
class ContactObservation:
    """Contact state of the climbing hand's five fingers (order :data:`vision.landmarks.FINGERS`).

    Attributes:
        targets: 5 entries, the target each finger is down on (hold id, ``"start"``,
            ``"finish"``, ``"off"`` for a visible contact off every target) or None when up.
        candidates: 5 entries, the target under each fingertip right now (before debouncing),
            or None.
        evidence: (5,) float32 in 0..1, the instantaneous contact evidence of each finger.
        confidence: (5,) float32 in 0..1, confidence of the current state of each finger.
        contact_px: (5, 2) float32, the estimated contact point of each finger (pixels), the
            fingertip corrected towards the last joint (the tip is biased when pressing).
        frame_index: the video frame this state was decided for (-1: none yet). The
            detector decides a frame once the frames it looks ahead to have come, so a live
            frame shows the state of a frame a little earlier.
    """

    targets: tuple[str | None, ...]
    candidates: tuple[str | None, ...]
    evidence: np.ndarray
    confidence: np.ndarray
    contact_px: np.ndarray
    frame_index: int = -1

    def __post_init__(self) -> None:
        for name in ("targets", "candidates"):
            v = tuple(getattr(self, name))
            if len(v) != len(FINGERS):
                raise ValueError(f"ContactObservation.{name} must have {len(FINGERS)} entries, got {len(v)}")
            object.__setattr__(self, name, v)
        for name in ("evidence", "confidence"):
            arr = _array(getattr(self, name), (len(FINGERS),), np.float32, f"ContactObservation.{name}")
            if np.any((arr < 0) | (arr > 1)):
                raise ValueError(f"ContactObservation.{name} must be in [0, 1]")
            object.__setattr__(self, name, arr)
        object.__setattr__(self, "contact_px", _array(
            self.contact_px, (len(FINGERS), 2), np.float32, "ContactObservation.contact_px"))

    @property
    def fingers_down(self) -> tuple[str, ...]:
        return tuple(f for f, t in zip(FINGERS, self.targets) if t is not None)

    @classmethod
    def none(cls) -> ContactObservation:
        n = len(FINGERS)
        return cls((None,) * n, (None,) * n, np.zeros(n), np.zeros(n), np.zeros((n, 2)))


@dataclass(frozen=True, eq=False)
class FrameResult:
    """What :meth:`vision.pipeline.GrimpeReferee.update` returns for one frame.

    Attributes:
        frame_index: index of the frame in the video.
        t_s: its time, seconds.
        processed: True if the hand tracker ran on this frame (frames may be skipped for speed;
            a skipped frame repeats the last state).
        hands: every hand found (:class:`vision.hands.Hands`), or None on a skipped frame.
        climbing_hand: ``"left"``/``"right"`` once chosen, else None.
        landmarks_px: (21, 2) float32 smoothed landmarks of the climbing hand, or None.
        route: the route observation (None until the route is found).
        contacts: the contact state of the climbing hand's fingers.
        new_events: judge-format events emitted on this frame (each with ``frame`` and
            ``confidence``).
        verdict: the judge's verdict so far (dict, the ``arbitre grimpe judge --json`` format).
        move_fingers: fingers down in the current move (0 before the start).
        points: points scored so far (moves counted, before any fault).
    """

    frame_index: int
    t_s: float
    processed: bool
    hands: Any
    climbing_hand: str | None
    landmarks_px: np.ndarray | None
    route: RouteObservation | None
    contacts: ContactObservation
    new_events: list[dict[str, Any]]
    verdict: dict[str, Any]
    move_fingers: int = 0
    points: int = 0

    def __post_init__(self) -> None:
        if int(self.frame_index) != self.frame_index or self.frame_index < 0:
            raise ValueError(f"FrameResult.frame_index must be an int >= 0, got {self.frame_index!r}")
        if not np.isfinite(self.t_s):
            raise ValueError(f"FrameResult.t_s must be finite, got {self.t_s!r}")
        if self.landmarks_px is not None:
            object.__setattr__(self, "landmarks_px", _array(
                self.landmarks_px, (21, 2), np.float32, "FrameResult.landmarks_px"))
        if self.climbing_hand not in (None, "left", "right"):
            raise ValueError(f"FrameResult.climbing_hand must be left/right/None, got {self.climbing_hand!r}")
        for i, e in enumerate(self.new_events):
            if not isinstance(e, dict) or "type" not in e or "t" not in e:
                raise ValueError(f"FrameResult.new_events[{i}] must be a dict with 't' and 'type', got {e!r}")
