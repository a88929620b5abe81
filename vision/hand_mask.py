"""Where a hand is in a frame: its mask (landmarks' hull grown, and the forearm band to the
image edge) and the pixels of its colour near it.

Used by route detection (the hand masked out of the empty-route reference), the card motion
and other-hand stages, and the referee's check of the reference for a hand MediaPipe missed.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.contact import palm_size_px
from vision.skin import SkinModel

__all__ = ["HALF_MASK_SIDE_PX", "SKIN_D2", "SKIN_REACH", "hand_mask", "skin_near_hand"]

#: Above this image side (px) the exact hand mask is grown at half size.
HALF_MASK_SIDE_PX = 960
#: how far from a hand's landmarks (palm sizes) pixels of its colour are taken for the hand,
#: and how close to its colour (squared Mahalanobis distance): :func:`skin_near_hand`
SKIN_REACH = 0.8
SKIN_D2 = 9.0


def hand_mask(shape_hw: tuple[int, int], lm: np.ndarray, grow: float = 0.35, *,
              fast: bool = False, rim_px: int = 2) -> np.ndarray:
    """(H, W) bool mask of a hand and its forearm (landmarks' hull grown by ``grow`` palm sizes,
    plus a band from the wrist away from the fingers to the image edge), shadow included.

    ``fast``: grow by drawing instead of a morphological dilation: the hull's outline and the
    band are drawn thicker by the growth plus ``rim_px`` (2: the mask contains the exact one,
    ~2 % more pixels; 0: within about a pixel of it): ~0.5 ms at 1280x720, against ~6 ms for
    a distance transform and 20-100 ms for the dilation (done only around the drawn mask).
    Frames longer than :data:`HALF_MASK_SIDE_PX` are dilated at half size (as route detection
    searches them), so the exact mask is exact to a pixel there."""
    h, w = shape_hw
    if not fast and max(h, w) > HALF_MASK_SIDE_PX:
        # the rings are searched at half size there: grow at half size too (8x less work)
        half = hand_mask(((h + 1) // 2, (w + 1) // 2), (np.asarray(lm, np.float32) + 0.5) / 2 - 0.5, grow)
        return cv2.resize(half.view(np.uint8), (w, h), interpolation=cv2.INTER_NEAREST).view(bool)
    palm = palm_size_px(lm)
    k = max(3, int(2 * grow * palm) | 1)
    m = np.zeros((h, w), np.uint8)
    hull = cv2.convexHull(np.round(lm).astype(np.int32))
    cv2.fillConvexPoly(m, hull, 1)
    d = lm[0] - lm[9]
    d = d / max(float(np.linalg.norm(d)), 1e-6)
    far = lm[0] + d * (w + h)
    band_px = max(1, int(0.9 * palm))
    wrist = tuple(int(v) for v in np.round(lm[0]))
    far_px = tuple(int(v) for v in np.round(far))
    if fast:
        cv2.polylines(m, [hull], True, 1, k + rim_px)
        cv2.line(m, wrist, far_px, 1, band_px + k - 1 + rim_px)
        return m.view(bool)
    cv2.line(m, wrist, far_px, 1, band_px)
    # the dilation only where it can reach (the same result, less work)
    x, y, bw, bh = cv2.boundingRect(m)
    r = k // 2 + 1
    x0, y0, x1, y1 = max(0, x - r), max(0, y - r), min(w, x + bw + r), min(h, y + bh + r)
    m[y0:y1, x0:x1] = cv2.dilate(m[y0:y1, x0:x1], cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
    return m.view(bool)


def skin_near_hand(image_bgr: np.ndarray, frame_bgr: np.ndarray | None, lm: np.ndarray,
                   reach: float = SKIN_REACH, max_d2: float = SKIN_D2, *,
                   unlike_table: bool = True, forearm: bool = False) -> np.ndarray:
    """(H, W) bool: the pixels of ``image_bgr`` within ``reach`` palm sizes of a hand's
    landmarks (their hull grown so; with ``forearm``, :func:`hand_mask`'s forearm band too)
    that have the hand's colour and not the table's. MediaPipe's landmarks can stop 30-40 px
    short of the fingertips on a first detection; this finds them. ``image_bgr`` is the frame
    itself, or the reference image checked for a hand that was there unseen (``frame_bgr``:
    the frame the landmarks are of; None: ``image_bgr``).

    The hand's colour is measured on its palm in ``frame_bgr``, the table's on the pixels of
    ``image_bgr`` in a band 0.3 palm wide around that reach (:class:`vision.skin.SkinModel`,
    chromaticity). A pixel is the hand's when bright enough to have a colour, within
    ``max_d2`` of the hand's and, with ``unlike_table``, at least 4 times closer to it than to
    the table's (squared distances): on a table the colour of skin (light wood) nothing is
    then added. All False when the palm gives no colour model. The work is done in the hand's
    bounding box (without ``forearm``), at half size above :data:`HALF_MASK_SIDE_PX`."""
    h, w = image_bgr.shape[:2]
    if max(h, w) > HALF_MASK_SIDE_PX:
        # at half size, as hand_mask grows its mask there: 4x less work
        def half(a: np.ndarray) -> np.ndarray:
            return cv2.resize(a, ((w + 1) // 2, (h + 1) // 2), interpolation=cv2.INTER_AREA)

        frame_half = None if frame_bgr is None or frame_bgr is image_bgr else half(frame_bgr)
        small = skin_near_hand(half(image_bgr), frame_half,
                               (np.asarray(lm, np.float32)[:, :2] + 0.5) / 2 - 0.5, reach, max_d2,
                               unlike_table=unlike_table, forearm=forearm)
        return cv2.resize(small.view(np.uint8), (w, h), interpolation=cv2.INTER_NEAREST).view(bool)
    out = np.zeros((h, w), bool)
    model = SkinModel.from_palm(image_bgr if frame_bgr is None else frame_bgr, lm)
    if model is None:
        return out
    pts = np.asarray(lm, np.float32)[:, :2]
    palm = palm_size_px(pts)
    r_near, r_far = reach * palm, (reach + 0.3) * palm
    x0, y0 = (max(0, int(v - r_far)) for v in pts.min(0))
    x1, y1 = min(w, int(pts[:, 0].max() + r_far) + 2), min(h, int(pts[:, 1].max() + r_far) + 2)
    if forearm:
        x0, y0, x1, y1 = 0, 0, w, h
    if x1 <= x0 or y1 <= y0:
        return out
    box = image_bgr[y0:y1, x0:x1]
    hull = cv2.convexHull(np.round(pts - [x0, y0]).astype(np.int32))

    def grown(r: float) -> np.ndarray:
        m = np.zeros(box.shape[:2], np.uint8)
        cv2.fillConvexPoly(m, hull, 1)
        cv2.polylines(m, [hull], True, 1, max(1, int(2 * r)))
        return m.view(bool)

    near = grown(r_near)
    if forearm:
        near |= hand_mask((h, w), pts, reach, fast=True)
    table = None
    if unlike_table:
        table = SkinModel.from_pixels(box[grown(r_far) & ~near])
    px = box[near]
    d2 = model.distance2(px, dark=np.inf)  # a pixel too dark to have a colour is not kept
    keep = d2 < max_d2
    if table is not None:
        keep &= table.distance2(px) > 4.0 * np.maximum(d2, 1.0)
    near[near] = keep
    out[y0:y1, x0:x1] = near
    return out
