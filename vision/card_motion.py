"""Card movement: a card of the route that shifts or turns during the attempt → ``card_moved``.

Each card (its image quadrilateral from the route map; without a route file, each hold's
ring) keeps a grey patch of the empty-route reference. Every few frames, for the cards the hand
does not cover, the patch is searched for around its place (normalised cross-correlation): a
shift beyond a few pixels, or a patch that no longer matches (a turn), seen on two checks in a
row, is a movement. Each card is reported once.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

from vision.observations import RouteObservation

__all__ = ["CardMotionDetector", "CardPatch"]


@dataclass
class CardPatch:
    """Reference patch of one card: ``box`` (x0, y0, x1, y1) in the image, grey float32 patch."""

    card: int | None
    label: str
    box: tuple[int, int, int, int]
    patch: np.ndarray
    strikes: int = 0
    reported: bool = False
    last_shift: tuple[int, int] | None = None


class CardMotionDetector:
    """Pipeline stage: ``update(frame_bgr, t_s, frame_index, hand_mask)`` → new ``card_moved``
    events (judge format with ``frame`` and ``confidence``).

    Args:
        reference_bgr: the empty-route frame the route was detected on.
        route: the route observation (cards' quadrilaterals, or holds without a route file).
        every: check every ``every``-th call (the check costs ~1 ms per card).
        shift_px: shift (pixels) that counts as a movement; default: 4 % of a card's size.
        min_score: a card counts as moved when it is found again (normalised correlation at
            least this) shifted by more than ``shift_px``, the same way on two checks in a row; a
            poor match alone is no evidence (a hand or its shadow over the card does that).
        max_covered: a card is not judged while more than this fraction of its search box is
            under the hand mask (the forearm band often grazes a card the hand is not over).
    """

    def __init__(self, reference_bgr: np.ndarray, route: RouteObservation, *, every: int = 4,
                 shift_px: float | None = None, min_score: float = 0.4,
                 max_covered: float = 0.2) -> None:
        grey = cv2.cvtColor(reference_bgr, cv2.COLOR_BGR2GRAY).astype(np.float32)
        h, w = grey.shape
        self.every = max(1, int(every))
        self.min_score = min_score
        self.max_covered = max_covered
        self.patches: list[CardPatch] = []
        self._calls = 0
        if route.cards:
            items = [(num, f"card {num}", quad) for num, quad in route.cards.items()]
            sizes = [float(np.linalg.norm(q[0] - q[2])) / np.sqrt(2) for _, _, q in items]
            shrink = 0.12
        else:
            items = []
            for hid, c, r in zip(route.holds.ids, route.holds.centres_px, route.holds.radii_px):
                s = 1.6 * float(r)
                quad = np.array([[c[0] - s, c[1] - s], [c[0] + s, c[1] - s], [c[0] + s, c[1] + s],
                                 [c[0] - s, c[1] + s]])
                items.append((None, f"hold {hid}", quad))
            sizes = [2 * 1.6 * float(r) for r in route.holds.radii_px]
            shrink = 0.0
        size = float(np.median(sizes)) if sizes else 40.0
        self.shift_px = shift_px if shift_px is not None else max(2.5, 0.04 * size)
        self.search_px = int(np.ceil(max(6.0, 0.25 * size)))
        for (num, label, quad), s in zip(items, sizes):
            x0, y0 = np.floor(quad.min(0) + shrink * s).astype(int)
            x1, y1 = np.ceil(quad.max(0) - shrink * s).astype(int)
            x0, y0 = max(0, x0), max(0, y0)
            x1, y1 = min(w, x1), min(h, y1)
            if x1 - x0 < 8 or y1 - y0 < 8:
                continue
            self.patches.append(CardPatch(num, label, (x0, y0, x1, y1), grey[y0:y1, x0:x1].copy()))

    def due(self) -> bool:
        """True if the next :meth:`update` call will check the cards."""
        return (self._calls + 1) % self.every == 0

    def update(self, frame_bgr: np.ndarray, t_s: float, frame_index: int,
               hand_mask: Any) -> list[dict[str, Any]]:
        """``hand_mask``: (H, W) bool array, None, or a callable returning one (computed only
        when a check is due)."""
        self._calls += 1
        if self._calls % self.every:
            return []
        if callable(hand_mask):
            hand_mask = hand_mask()
        h, w = frame_bgr.shape[:2]
        events: list[dict[str, Any]] = []
        m = self.search_px
        for cp in self.patches:
            if cp.reported:
                continue
            x0, y0, x1, y1 = cp.box
            sx0, sy0, sx1, sy1 = max(0, x0 - m), max(0, y0 - m), min(w, x1 + m), min(h, y1 + m)
            if hand_mask is not None and hand_mask[sy0:sy1, sx0:sx1].mean() > self.max_covered:
                continue  # the hand is over it (or its shadow may be): no verdict now
            region = cv2.cvtColor(frame_bgr[sy0:sy1, sx0:sx1], cv2.COLOR_BGR2GRAY).astype(np.float32)
            if region.shape[0] < cp.patch.shape[0] or region.shape[1] < cp.patch.shape[1]:
                continue
            res = cv2.matchTemplate(region, cp.patch, cv2.TM_CCOEFF_NORMED)
            _, score, _, loc = cv2.minMaxLoc(res)
            dx, dy = loc[0] + sx0 - x0, loc[1] + sy0 - y0
            shift = float(np.hypot(dx, dy))
            # a moved card is found again, shifted the same way twice in a row; a poor match
            # alone is no evidence (a hand or its shadow over the card does that)
            moved = shift > self.shift_px and score >= self.min_score
            same = cp.last_shift is not None and abs(dx - cp.last_shift[0]) <= 2 and abs(dy - cp.last_shift[1]) <= 2
            cp.strikes = (cp.strikes + 1 if same else 1) if moved else 0
            cp.last_shift = (dx, dy) if moved else None
            if cp.strikes >= 2:
                cp.reported = True
                conf = float(np.clip(max(shift / (2 * self.shift_px), (1 - score) / 0.5), 0.5, 1.0))
                ev: dict[str, Any] = {"t": round(float(t_s), 4), "type": "card_moved",
                                      "frame": int(frame_index), "confidence": round(conf, 3),
                                      "shift_px": round(shift, 1), "match": round(float(score), 3)}
                if cp.card is not None:
                    ev["card"] = cp.card
                events.append(ev)
        return events
