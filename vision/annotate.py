"""Drawing the referee's view: holds coloured by finger, zones, fingertips, contacts, the move
counter and the fault banner. Every function returns a drawn copy and never changes its inputs.
"""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np

from games.grimpe.cards import DEFAULT_COLOUR_MAP
from vision.landmarks import FINGER_JOINTS, FINGERS, HAND_CONNECTIONS
from vision.observations import FrameResult, RouteObservation

__all__ = ["COLOUR_BGR", "FINGER_BGR", "OVERLAY_WORDS", "annotate_frame", "ascii_text", "draw_other_hand",
           "draw_route"]

#: Display colours of the ring colours (BGR).
COLOUR_BGR: dict[str, tuple[int, int, int]] = {
    "black": (40, 40, 40),
    "blue": (230, 120, 20),
    "green": (60, 190, 40),
    "yellow": (30, 220, 250),
    "red": (50, 40, 230),
}
#: Display colour of each finger: the colour of the holds it may take (default map).
FINGER_BGR: dict[str, tuple[int, int, int]] = {f: COLOUR_BGR[c] for c, f in DEFAULT_COLOUR_MAP.items()}


#: The overlay's words in English; :func:`annotate_frame` takes the same keys in another
#: language (the window's French: :func:`ui.app.i18n.overlay_words`). ``status``, ``fault`` and
#: ``summit`` are templates; the finger and zone names label the fingers down, the zones and
#: (their first two letters) the finger each hold is for.
OVERLAY_WORDS: dict[str, str] = {
    "status": "t {t:5.2f}s  frame {frame}  moves {moves}  fingers {fingers}  points {points}",
    "fault": "FAULT {code} at {t:.2f}s",
    "summit": "SUMMIT  score {score}",
    "other_hand": "other hand",
    "other_hand_skin": "other hand (skin)",
    "thumb": "thumb", "index": "index", "middle": "middle", "ring": "ring", "little": "little",
    "start": "start", "finish": "finish",
}


def ascii_text(text: str) -> str:
    """``text`` without its accents: OpenCV's drawn fonts have ASCII letters only (an accented
    letter would be drawn as "??")."""
    import unicodedata

    return unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")


def _text(img: np.ndarray, s: str, org: tuple[int, int], scale: float, colour: tuple[int, int, int],
          thick: int = 1) -> None:
    s = ascii_text(s)
    cv2.putText(img, s, org, cv2.FONT_HERSHEY_SIMPLEX, scale, (0, 0, 0), thick + 2, cv2.LINE_AA)
    cv2.putText(img, s, org, cv2.FONT_HERSHEY_SIMPLEX, scale, colour, thick, cv2.LINE_AA)


def draw_route(img: np.ndarray, route: RouteObservation, colour_map: Any = None,
               occupied: dict[str, str] | None = None, burned: set[str] | None = None,
               words: dict[str, str] | None = None) -> None:
    """Draw zones and holds in place on ``img`` (holds: ring in its colour, id and finger;
    dashed look = not seen (placed from the route file), red cross = low confidence);
    ``words``: the zone and finger names (:data:`OVERLAY_WORDS`)."""
    w = {**OVERLAY_WORDS, **(words or {})}
    mapping = dict(colour_map.mapping) if colour_map is not None else DEFAULT_COLOUR_MAP
    scale = max(0.35, img.shape[0] / 1200)
    for name in ("start", "finish"):
        poly = route.zone_px(name)
        if poly is not None:
            pts = np.round(poly).astype(np.int32)
            cv2.polylines(img, [pts], True, (255, 255, 255), 1, cv2.LINE_AA)
            _text(img, w[name], tuple(pts.min(0) + [3, 12]), scale, (255, 255, 255))
    H = route.holds
    for i, (hid, colour) in enumerate(zip(H.ids, H.colours)):
        c = tuple(int(v) for v in np.round(H.centres_px[i]))
        r = max(3, int(round(float(H.radii_px[i]))))
        col = COLOUR_BGR.get(colour, (255, 255, 255))
        thick = 2 if H.detected[i] else 1
        cv2.circle(img, c, r + 2, col, thick, cv2.LINE_AA)
        if burned and hid in burned:
            cv2.line(img, (c[0] - r, c[1] - r), (c[0] + r, c[1] + r), (90, 90, 90), 2, cv2.LINE_AA)
        if occupied and hid in occupied:
            cv2.circle(img, c, r + 5, (255, 255, 255), 2, cv2.LINE_AA)
        if H.confidence[i] < 0.5:
            cv2.drawMarker(img, c, (0, 0, 255), cv2.MARKER_TILTED_CROSS, r, 1)
        finger = mapping.get(colour)
        _text(img, f"{hid} {w.get(finger, '?')[:2] if finger else '?'}", (c[0] + r + 3, c[1] + 4), scale,
              col)


def draw_other_hand(img: np.ndarray, fault: dict[str, Any]) -> tuple[int, int, int] | None:
    """Circle, in place, where the other hand touched when ``fault`` is an ``other_hand`` fault
    whose event says where (``where_px``); returns (x, y, radius) or None."""
    where = (fault.get("event") or {}).get("where_px")
    if fault.get("code") != "other_hand" or where is None:
        return None
    x, y = round(float(where[0])), round(float(where[1]))
    r = max(12, img.shape[0] // 24)
    cv2.circle(img, (x, y), r, (0, 0, 255), 2, cv2.LINE_AA)
    return x, y, r


def annotate_frame(frame_bgr: np.ndarray, result: FrameResult, colour_map: Any = None,
                   words: dict[str, str] | None = None) -> np.ndarray:
    """A drawn copy of ``frame_bgr`` for one :class:`FrameResult` (never modified); ``words``:
    the overlay's words in the reader's language (keys of :data:`OVERLAY_WORDS`, English for
    any missing)."""
    w = {**OVERLAY_WORDS, **(words or {})}
    img = np.array(frame_bgr, copy=True)
    verdict = result.verdict or {}
    down = {t: f for f, t in zip(FINGERS, result.contacts.targets) if t is not None}
    if result.route is not None:
        draw_route(img, result.route, colour_map, occupied=down, words=w)
    lm = result.landmarks_px
    if lm is not None:
        pts = np.round(lm).astype(int)
        for a, b in HAND_CONNECTIONS:
            cv2.line(img, tuple(pts[a]), tuple(pts[b]), (220, 220, 220), 1, cv2.LINE_AA)
        for k, f in enumerate(FINGERS):
            tip = tuple(pts[FINGER_JOINTS[f].tip])
            col = FINGER_BGR[f]
            target = result.contacts.targets[k]
            cv2.circle(img, tip, 5 if target else 3, col, -1 if target else 1, cv2.LINE_AA)
            if target:
                cp = tuple(int(v) for v in np.round(result.contacts.contact_px[k]))
                cv2.line(img, tip, cp, col, 1, cv2.LINE_AA)
                cv2.circle(img, cp, 3, (255, 255, 255), -1, cv2.LINE_AA)
    scale = max(0.45, img.shape[0] / 900)
    h = img.shape[0]
    moves = verdict.get("moves", [])
    line = w["status"].format(t=result.t_s, frame=result.frame_index, moves=len(moves),
                              fingers=result.move_fingers, points=result.points)
    _text(img, line, (8, int(22 * scale / 0.6)), scale, (255, 255, 255))
    fingers = "  ".join(f"{w[f]}:{w.get(t, t)}" for f, t in zip(FINGERS, result.contacts.targets) if t)
    if fingers:
        _text(img, fingers, (8, int(44 * scale / 0.6)), scale * 0.9, (200, 255, 200))
    if verdict.get("result") == "fault" and verdict.get("fault"):
        f = verdict["fault"]
        c = draw_other_hand(img, f)
        if c is not None:
            how = (f.get("event") or {}).get("seen_by")
            _text(img, w["other_hand_skin" if how == "skin" else "other_hand"],
                  (max(0, c[0] - c[2]), max(12, c[1] - c[2] - 6)), scale * 0.9, (0, 0, 255))
        cv2.rectangle(img, (0, h - int(40 * scale / 0.6)), (img.shape[1], h), (0, 0, 160), -1)
        _text(img, w["fault"].format(code=f.get("code"), t=float(f.get("t", 0))),
              (8, h - int(12 * scale / 0.6)), scale * 1.1, (255, 255, 255), 2)
    elif verdict.get("result") == "summit":
        cv2.rectangle(img, (0, h - int(40 * scale / 0.6)), (img.shape[1], h), (0, 130, 0), -1)
        _text(img, w["summit"].format(score=verdict.get("score")), (8, h - int(12 * scale / 0.6)),
              scale * 1.1, (255, 255, 255), 2)
    return img


class ContactSync:
    """Draws a recorded video's frames with the contact state decided *for each frame*.

    The contact detector decides a frame once the frames it looks ahead to have come
    (:attr:`vision.contact.ContactDetector.lookahead`), so the result of frame ``i`` carries the
    state of a frame about 0.4 s earlier; and events reach the judge after a delay (about 1 s:
    :meth:`vision.pipeline.GrimpeReferee.verdict_at`). ``push(frame, result)`` keeps the frames
    until their own contact state and verdict are known (about 1.3 s of frames), then calls
    ``write(drawn_frame)`` in order, so a fault's banner starts on its own frame, even in the
    last second of the video; ``close()`` (after the referee's ``finish()``) draws the rest. A
    frame before the first decision is drawn with its contact state as it is. ``words``: the
    overlay's words (:func:`annotate_frame`).
    """

    def __init__(self, referee: Any, write: Any, words: dict[str, str] | None = None) -> None:
        from collections import deque

        self.referee = referee
        self.write = write
        self.words = words
        self._frames: deque[tuple[np.ndarray, FrameResult]] = deque()
        self._states: list[Any] = []

    def push(self, frame_bgr: np.ndarray, result: FrameResult) -> None:
        self._frames.append((frame_bgr, result))
        self._drain(final=False)

    def close(self) -> None:
        self._drain(final=True)

    def _drain(self, final: bool) -> None:
        import dataclasses

        self._states += self.referee.contacts.take_decided()
        last = self._states[-1].frame_index if self._states else -1
        while self._frames and (final or self._frames[0][1].frame_index <= last):
            judged = self.referee.verdict_at(self._frames[0][1].t_s)
            if judged is None and not final:
                break  # events dated up to this frame may still reach the judge
            frame, res = self._frames.popleft()
            # the latest state decided for this frame or before it
            while len(self._states) >= 2 and self._states[1].frame_index <= res.frame_index:
                self._states.pop(0)
            if self._states and self._states[0].frame_index <= res.frame_index:
                res = dataclasses.replace(res, contacts=self._states[0])
            if judged is not None:
                verdict, fingers, points = judged
                res = dataclasses.replace(res, verdict=verdict, move_fingers=fingers, points=points)
            self.write(self.referee.annotate(frame, res, self.words))
