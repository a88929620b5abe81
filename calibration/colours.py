"""Colour model for the hold detector: ring colours sampled under the session's light.

Pixels are white-balanced with per-channel gains taken from a white reference (so that white
reads neutral), converted to CIE L*a*b* (L 0..100, a/b about -128..127), and each colour is
modelled by its Lab mean and covariance. ``classify`` picks the colour with the highest
Gaussian likelihood and gives a confidence (its posterior among the modelled colours).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import Any

import numpy as np

__all__ = [
    "RING_COLOURS",
    "REFERENCE_COLOURS",
    "ColourClass",
    "ColourModel",
    "ColourModelError",
    "fit_colour_model",
    "to_lab",
    "card_regions",
]

RING_COLOURS = ("black", "blue", "green", "yellow", "red")
REFERENCE_COLOURS = ("white", "grey")
# pairs the hold detector must tell apart: the rings, and the rings from the white card
_MUST_SEPARATE = set(RING_COLOURS) | {"white"}
# Pooled Mahalanobis distance below which two colours are reported as too close to tell apart
# reliably, and Lab distance (CIE76 delta E) below which they are at least suspicious.
MIN_MAHALANOBIS = 4.0
MIN_DELTA_E = 12.0
_COV_FLOOR = 1.0  # Lab units²: keeps a perfectly flat patch from giving a singular covariance
WHITE_LEVEL = 235.0  # 8-bit level the white reference is scaled to (headroom for highlights)


class ColourModelError(ValueError):
    """An invalid colour model; ``key`` names the offending entry."""

    def __init__(self, message: str, key: str = "") -> None:
        super().__init__(message)
        self.key = key


def to_lab(bgr: np.ndarray, gains_bgr: np.ndarray | None = None) -> np.ndarray:
    """8-bit BGR pixels (..., 3) → float32 L*a*b* (..., 3) after optional white-balance gains."""
    import cv2

    a = np.asarray(bgr, dtype=np.float32) / 255.0
    if gains_bgr is not None:
        a = np.clip(a * np.asarray(gains_bgr, dtype=np.float32), 0.0, 1.0)
    shape = a.shape
    lab = cv2.cvtColor(a.reshape(-1, 1, 3), cv2.COLOR_BGR2Lab)
    return lab.reshape(shape)


@dataclass
class ColourClass:
    """One colour: Lab mean (3,), covariance (3, 3) and the number of pixels it came from."""

    name: str
    mean_lab: np.ndarray
    cov_lab: np.ndarray
    n_pixels: int

    def __post_init__(self) -> None:
        self.mean_lab = np.asarray(self.mean_lab, dtype=np.float64).reshape(-1)
        self.cov_lab = np.asarray(self.cov_lab, dtype=np.float64)
        if self.mean_lab.shape != (3,):
            raise ColourModelError(f"{self.name}.mean_lab: expected 3 numbers, got shape "
                                   f"{self.mean_lab.shape}", f"classes.{self.name}.mean_lab")
        if self.cov_lab.shape != (3, 3):
            raise ColourModelError(f"{self.name}.cov_lab: expected shape (3, 3), got "
                                   f"{self.cov_lab.shape}", f"classes.{self.name}.cov_lab")
        if not (np.isfinite(self.mean_lab).all() and np.isfinite(self.cov_lab).all()):
            raise ColourModelError(f"{self.name}: non-finite numbers", f"classes.{self.name}")
        sym = 0.5 * (self.cov_lab + self.cov_lab.T)
        if np.linalg.eigvalsh(sym).min() <= 0:
            raise ColourModelError(f"{self.name}.cov_lab: not positive definite",
                                   f"classes.{self.name}.cov_lab")
        self.cov_lab = sym


@dataclass
class ColourModel:
    """Lab Gaussians per colour after white balance by ``gains_bgr`` (3,)."""

    gains_bgr: np.ndarray
    classes: dict[str, ColourClass]
    warnings: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.gains_bgr = np.asarray(self.gains_bgr, dtype=np.float64).reshape(-1)
        if self.gains_bgr.shape != (3,) or not (self.gains_bgr > 0).all():
            raise ColourModelError(f"gains_bgr: expected 3 positive numbers, got "
                                   f"{self.gains_bgr.tolist()}", "gains_bgr")
        if not self.classes:
            raise ColourModelError("no colours in the model", "classes")

    @property
    def names(self) -> list[str]:
        return list(self.classes)

    def lab(self, bgr: np.ndarray) -> np.ndarray:
        """Raw BGR pixels (..., 3) → white-balanced Lab (..., 3) as this model expects."""
        return to_lab(bgr, self.gains_bgr)

    def log_likelihoods(self, lab_pixels: np.ndarray) -> np.ndarray:
        """Gaussian log-likelihood (N, C) of Lab pixels (N, 3) under each colour."""
        x = np.asarray(lab_pixels, dtype=np.float64).reshape(-1, 3)
        out = np.empty((len(x), len(self.classes)))
        for j, c in enumerate(self.classes.values()):
            inv = np.linalg.inv(c.cov_lab)
            d = x - c.mean_lab
            m2 = np.einsum("ni,ij,nj->n", d, inv, d)
            out[:, j] = -0.5 * (m2 + np.log(np.linalg.det(c.cov_lab)) + 3 * np.log(2 * np.pi))
        return out

    def classify(self, lab_pixels: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Most likely colour name (N,) and its posterior confidence 0..1 (N,) per Lab pixel."""
        ll = self.log_likelihoods(lab_pixels)
        best = ll.argmax(axis=1)
        ll = ll - ll.max(axis=1, keepdims=True)
        post = np.exp(ll)
        post /= post.sum(axis=1, keepdims=True)
        names = np.array(self.names, dtype=object)[best]
        return names, post[np.arange(len(best)), best]

    def separability(self) -> list[dict[str, Any]]:
        """Every pair of colours: pooled Mahalanobis distance and CIE76 ΔE, closest first."""
        rows = []
        for a, b in itertools.combinations(self.classes.values(), 2):
            d = a.mean_lab - b.mean_lab
            pooled = 0.5 * (a.cov_lab + b.cov_lab)
            maha = float(np.sqrt(d @ np.linalg.solve(pooled, d)))
            de = float(np.linalg.norm(d))
            rows.append({"a": a.name, "b": b.name, "mahalanobis": maha, "delta_e": de,
                         "too_close": maha < MIN_MAHALANOBIS or de < MIN_DELTA_E})
        rows.sort(key=lambda r: r["mahalanobis"])
        return rows

    def to_dict(self) -> dict[str, Any]:
        return {
            "space": "CIE L*a*b* (OpenCV float: L 0..100) after white balance",
            "gains_bgr": self.gains_bgr.tolist(),
            "classes": {
                n: {"mean_lab": c.mean_lab.tolist(), "cov_lab": c.cov_lab.tolist(),
                    "n_pixels": int(c.n_pixels)}
                for n, c in self.classes.items()
            },
            "warnings": list(self.warnings),
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "ColourModel":
        if "gains_bgr" not in d:
            raise ColourModelError("missing key 'gains_bgr'", "gains_bgr")
        if not isinstance(d.get("classes"), dict):
            raise ColourModelError("missing or invalid 'classes' (expected an object)", "classes")
        classes = {}
        for name, c in d["classes"].items():
            if not isinstance(c, dict) or "mean_lab" not in c or "cov_lab" not in c:
                raise ColourModelError(f"colour {name!r} needs 'mean_lab' and 'cov_lab'",
                                       f"classes.{name}")
            try:
                classes[name] = ColourClass(name, c["mean_lab"], c["cov_lab"],
                                            int(c.get("n_pixels", 0)))
            except (TypeError, ValueError) as exc:
                if isinstance(exc, ColourModelError):
                    raise
                raise ColourModelError(f"colour {name!r}: {exc}", f"classes.{name}") from None
        try:
            gains = np.asarray(d["gains_bgr"], dtype=np.float64)
        except (TypeError, ValueError):
            raise ColourModelError(f"gains_bgr: expected 3 numbers, got {d['gains_bgr']!r}",
                                   "gains_bgr") from None
        return cls(gains, classes, list(d.get("warnings", [])))


def _region_pixels(image_bgr: np.ndarray, region: Any, name: str) -> np.ndarray:
    """Pixels (N, 3) inside a region: (x, y, w, h) in pixels or a boolean mask like the image."""
    h, w = image_bgr.shape[:2]
    if isinstance(region, np.ndarray) and region.dtype == bool:
        if region.shape != (h, w):
            raise ValueError(f"{name}: mask shape {region.shape} differs from the image {(h, w)}")
        px = image_bgr[region]
    else:
        x, y, rw, rh = (int(round(v)) for v in region)
        if rw <= 0 or rh <= 0 or x < 0 or y < 0 or x + rw > w or y + rh > h:
            raise ValueError(f"{name}: region x={x} y={y} w={rw} h={rh} is not inside the "
                             f"{w}x{h} image")
        px = image_bgr[y:y + rh, x:x + rw].reshape(-1, 3)
    if len(px) < 9:
        raise ValueError(f"{name}: the region holds only {len(px)} pixels; give at least 3x3")
    return px


def fit_colour_model(image_bgr: np.ndarray, regions: dict[str, Any]) -> ColourModel:
    """Sample each named region of a reference image into a :class:`ColourModel`.

    ``regions`` maps colour names to (x, y, w, h) pixel boxes or boolean masks; it must contain
    ``white``: per-channel gains make it read 235 in B, G and R (white balance and exposure).
    Pairs of ring colours (or a ring colour and white) too close to tell apart are recorded
    in ``warnings``.
    """
    if "white" not in regions:
        raise ValueError("the colour regions must include 'white' (used to balance the light)")
    white = _region_pixels(image_bgr, regions["white"], "white").astype(np.float64)
    white_mean = np.median(white, axis=0)
    if white_mean.min() < 8:
        raise ValueError(f"white: the white region is too dark (median BGR {white_mean.round(0)})")
    if (white >= 254).mean() > 0.2:
        warn_sat = ["white: more than 20 % of the white region is saturated; lower the exposure"]
    else:
        warn_sat = []
    # white balance and exposure together: the white reference reads WHITE_LEVEL in every channel
    gains = WHITE_LEVEL / white_mean
    classes = {}
    for name, reg in regions.items():
        lab = to_lab(_region_pixels(image_bgr, reg, name), gains).reshape(-1, 3).astype(np.float64)
        cov = np.cov(lab.T) + np.eye(3) * _COV_FLOOR
        classes[name] = ColourClass(name, lab.mean(axis=0), cov, len(lab))
    model = ColourModel(gains, classes)
    if white_mean.min() < 60:
        warn_sat.append(f"the light is dim (white reads {white_mean.min():.0f}/255): colours "
                        f"are amplified with their noise; add light")
    model.warnings = warn_sat + [
        f"{r['a']} and {r['b']} are too close to tell apart reliably (Mahalanobis "
        f"{r['mahalanobis']:.1f}, ΔE {r['delta_e']:.1f}): add light, avoid coloured light, or "
        f"move the camera closer"
        for r in model.separability() if r["too_close"]
        and r["a"] in _MUST_SEPARATE and r["b"] in _MUST_SEPARATE
    ]
    return model


def card_regions(image_bgr: np.ndarray, *, inset: float = 0.2) -> dict[str, np.ndarray]:
    """Boolean masks of the colour card's patches found in an image (see ``targets.COLOUR_CARD``).

    The card is located by its four ArUco markers (three suffice); each patch is shrunk by
    ``inset`` of its size on every side so its edges and the paper around it are not sampled.
    Raises ValueError when the card is not found.
    """
    import cv2

    from calibration.table import detect_markers
    from calibration.targets import COLOUR_CARD

    card = COLOUR_CARD
    found = detect_markers(image_bgr, card["dictionary"])
    ids = [i for i in card["markers"] if i in found]
    if len(ids) < 3:
        raise ValueError(f"the colour card was not found: {len(ids)} of its 4 markers "
                         f"(ids {sorted(card['markers'])}, {card['dictionary']}) are visible")
    s = card["marker_mm"]
    mm, px = [], []
    for i in ids:
        x, y = card["markers"][i]
        mm.append([[x, y], [x + s, y], [x + s, y + s], [x, y + s]])
        px.append(found[i])
    H, _ = cv2.findHomography(np.concatenate(mm), np.concatenate(px), 0)
    if H is None:
        raise ValueError("the colour card's markers do not determine its position")
    h, w = image_bgr.shape[:2]
    out = {}
    for name, ((x, y, pw, ph), _) in card["patches"].items():
        xa, xb = x + inset * pw, x + (1 - inset) * pw
        ya, yb = y + inset * ph, y + (1 - inset) * ph
        q = np.array([[xa, ya], [xb, ya], [xb, yb], [xa, yb]])
        poly = cv2.perspectiveTransform(q.reshape(-1, 1, 2), H).reshape(-1, 2)
        mask = np.zeros((h, w), np.uint8)
        cv2.fillConvexPoly(mask, np.round(poly).astype(np.int32), 1)
        out[name] = mask.astype(bool)
    return out
