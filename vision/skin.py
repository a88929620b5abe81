"""The colour of one hand in one frame, to tell its pixels from the table's and the cards'.

MediaPipe's landmarks say where a hand is, but not exactly where its outline runs: on a first
detection the fingertips can fall 30-40 px short of the real ones, and a mask drawn around the
landmarks must be grown generously (the forearm band of :func:`vision.hand_mask.hand_mask` is
about twice a forearm's width). The hand's own colour, measured on the back of the hand where
the landmarks leave no doubt, tells which pixels near it are skin.

Colour is compared as chromaticity ``(b, g) / (b + g + r)``: blind to how strongly a pixel is
lit (a forearm in its own shade, a hand under a lamp). A pixel too dark to have a colour
(``b + g + r`` under :data:`MIN_SUM`) is neither skin nor not-skin: callers decide.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

__all__ = ["MIN_SD", "MIN_SUM", "SkinModel"]

#: floor of the model's spread per axis (chromaticity units), so a very even skin does not make
#: every slightly different pixel "not the hand"
MIN_SD = 0.012
#: a pixel darker than this (sum of its three 0-255 channels) has no reliable colour
MIN_SUM = 120.0
#: the back of the hand sampled: the palm's polygon (wrist and the four knuckles) shrunk about
#: its centre to this fraction, so no pixel of the table is in it
_PALM_SHRINK = 0.6
_PALM = (0, 5, 9, 13, 17)


@dataclass(frozen=True)
class SkinModel:
    """Mean chromaticity of a hand and the inverse covariance around it (2-D Gaussian)."""

    mean: np.ndarray
    icov: np.ndarray
    samples: int

    @classmethod
    def from_palm(cls, frame_bgr: np.ndarray, lm: np.ndarray, min_samples: int = 20
                  ) -> SkinModel | None:
        """The model of the hand whose landmarks (21, 2+) image px are ``lm``, from the pixels
        of its palm polygon in ``frame_bgr``; None when fewer than ``min_samples`` of them lie
        in the image or have a colour (a hand at the edge, or in the dark)."""
        poly = np.asarray(lm, np.float64)[list(_PALM), :2]
        centre = poly.mean(0)
        poly = centre + _PALM_SHRINK * (poly - centre)
        h, w = frame_bgr.shape[:2]
        x0, y0 = max(0, int(np.floor(poly[:, 0].min()))), max(0, int(np.floor(poly[:, 1].min())))
        x1, y1 = min(w, int(np.ceil(poly[:, 0].max())) + 1), min(h, int(np.ceil(poly[:, 1].max())) + 1)
        if x1 - x0 < 2 or y1 - y0 < 2:
            return None
        m = np.zeros((y1 - y0, x1 - x0), np.uint8)
        cv2.fillConvexPoly(m, np.round(poly - [x0, y0]).astype(np.int32), 1)
        return cls.from_pixels(frame_bgr[y0:y1, x0:x1][m.view(bool)], min_samples)

    @classmethod
    def from_pixels(cls, pixels_bgr: np.ndarray, min_samples: int = 20) -> SkinModel | None:
        """The same model of any (N, 3) BGR pixels (e.g. the table around a hand), from those
        bright enough to have a colour; None when fewer than ``min_samples`` are."""
        px = np.asarray(pixels_bgr, np.float32).reshape(-1, 3)
        b, g, r = px[:, 0], px[:, 1], px[:, 2]
        tot = b + g + r
        ok = tot >= MIN_SUM
        if int(np.count_nonzero(ok)) < min_samples:
            return None
        tot = tot[ok] + 1.0
        c = np.stack([b[ok] / tot, g[ok] / tot])
        cov = np.cov(c) + np.eye(2) * MIN_SD ** 2
        det = cov[0, 0] * cov[1, 1] - cov[0, 1] * cov[1, 0]
        icov = np.array([[cov[1, 1], -cov[0, 1]], [-cov[1, 0], cov[0, 0]]]) / det
        return cls(c.mean(1), icov, int(c.shape[1]))

    def distance2(self, pixels_bgr: np.ndarray, dark: float = 0.0) -> np.ndarray:
        """Squared Mahalanobis distance of each pixel's chromaticity to the hand's: (...) float32
        for (..., 3) BGR pixels (any dtype). Pixels darker than :data:`MIN_SUM` get ``dark``:
        0 by default (they might be the hand: no colour to say otherwise), ``inf`` where only
        a pixel with the hand's colour counts as the hand."""
        p = np.asarray(pixels_bgr, np.float32)
        b, g = p[..., 0], p[..., 1]
        tot = b + g + p[..., 2] + 1.0  # (adding the channels: ~10x a numpy sum over them)
        cb = b / tot - np.float32(self.mean[0])
        cg = g / tot - np.float32(self.mean[1])
        a, b, d = (np.float32(v) for v in (self.icov[0, 0], self.icov[0, 1], self.icov[1, 1]))
        d2 = cb * cb * a + 2 * b * cb * cg + cg * cg * d
        return np.where(tot - 1.0 < MIN_SUM, np.float32(dark), d2)
