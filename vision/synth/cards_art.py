"""Printed art of Grimpe! cards and their compositing onto a top-down table canvas.

A card texture is a BGRA uint8 square at ``px_per_mm``: alpha 0 outside the rounded card and
inside each hole (the table shows through), 255 on the card. Pixel ``(row, col)`` is the card
point ``u = (col - c) / px_per_mm``, ``v = (c - row) / px_per_mm`` with ``c = (S - 1) / 2``:
``u`` to the card's right and ``v`` to its top, as in :class:`games.grimpe.cards.HoldSpec`.

The five ring colours are fixed BGR values (:data:`RING_BGR`) so tests can check that a ring is
drawn where the ground truth says.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

from vision.synth.table import value_noise

__all__ = [
    "RING_BGR",
    "RING_WIDTH_MM",
    "CardArtStyle",
    "card_texture",
    "composite_card",
    "help_card_texture",
    "random_art_style",
]

#: Printed ring colour of each hold colour (B, G, R).
RING_BGR: dict[str, tuple[int, int, int]] = {
    "black": (28, 26, 24),
    "blue": (200, 100, 20),
    "green": (50, 165, 40),
    "yellow": (30, 205, 245),
    "red": (40, 35, 215),
}
#: Width of the coloured ring printed around a hole.
RING_WIDTH_MM = 4.0
CORNER_RADIUS_MM = 3.0


@dataclass(frozen=True)
class CardArtStyle:
    """The printing's look, shared by all the cards of a scene."""

    paper_bgr: tuple[int, int, int]
    wall_bgr: tuple[int, int, int]
    ink_bgr: tuple[int, int, int]
    border_bgr: tuple[int, int, int]
    seed: int

    def to_dict(self) -> dict[str, Any]:
        return {k: (list(v) if isinstance(v, tuple) else v) for k, v in self.__dict__.items()}


def random_art_style(rng: np.random.Generator) -> CardArtStyle:
    """A plausible printing: light stone wall art, dark ink, a coloured border."""
    walls = [(196, 204, 212), (176, 190, 204), (206, 206, 200), (170, 182, 190), (214, 220, 226)]
    borders = [(70, 70, 70), (120, 80, 40), (40, 90, 150), (60, 110, 60)]
    wall = walls[int(rng.integers(len(walls)))]
    return CardArtStyle(
        paper_bgr=(236, 240, 242),
        wall_bgr=wall,
        ink_bgr=(30, 30, 34),
        border_bgr=borders[int(rng.integers(len(borders)))],
        seed=int(rng.integers(2**31)),
    )


def _card_grid(px_per_mm: float) -> tuple[int, float, np.ndarray, np.ndarray]:
    size = int(round(70.0 * px_per_mm))
    c = (size - 1) / 2.0
    rows, cols = np.mgrid[0:size, 0:size].astype(np.float32)
    u = (cols - c) / px_per_mm
    v = (c - rows) / px_per_mm
    return size, c, u, v


def _rounded_square_alpha(u: np.ndarray, v: np.ndarray, px_per_mm: float) -> np.ndarray:
    half, r = 35.0, CORNER_RADIUS_MM
    du = np.maximum(np.abs(u) - (half - r), 0)
    dv = np.maximum(np.abs(v) - (half - r), 0)
    inside = r - np.hypot(du, dv)  # > 0 inside, in mm
    inside = np.minimum(inside, half - np.maximum(np.abs(u), np.abs(v)))
    return np.clip(inside * px_per_mm + 0.5, 0, 1).astype(np.float32)


def _put_text_mm(img: np.ndarray, text: str, centre_px: tuple[float, float], height_px: float,
                 colour: tuple[int, ...], thickness_px: int, *, accent_on: int | None = None) -> None:
    """Draw ``text`` centred at ``centre_px`` with cap height ``height_px``. ``accent_on`` puts
    an acute accent over the letter with that index (cv2's Hershey fonts have no 'É')."""
    font = cv2.FONT_HERSHEY_DUPLEX
    (w1, h1), _ = cv2.getTextSize(text, font, 1.0, thickness_px)
    scale = height_px / max(h1, 1)
    (w, h), _ = cv2.getTextSize(text, font, scale, thickness_px)
    org = (int(round(centre_px[0] - w / 2)), int(round(centre_px[1] + h / 2)))
    cv2.putText(img, text, org, font, scale, colour, thickness_px, cv2.LINE_AA)
    if accent_on is not None:
        (wp, _), _ = cv2.getTextSize(text[:accent_on], font, scale, thickness_px)
        (wl, _), _ = cv2.getTextSize(text[accent_on], font, scale, thickness_px)
        x0 = org[0] + wp + wl * 0.35
        y0 = org[1] - h - 0.25 * h
        cv2.line(img, (int(x0), int(y0)), (int(x0 + 0.35 * wl), int(y0 - 0.3 * h)), colour,
                 max(1, thickness_px), cv2.LINE_AA)


def _paper(size: int, base_bgr: tuple[int, int, int], px_per_mm: float, rng: np.random.Generator,
           strength: float) -> np.ndarray:
    noise = value_noise(rng, (size, size), 8 * px_per_mm, 3)
    fine = rng.normal(0, 1, (size, size)).astype(np.float32)
    img = np.array(base_bgr, np.float32)[None, None] * (1 + strength * noise[..., None])
    return img + 2.5 * fine[..., None]


def card_texture(card: Any, px_per_mm: float, style: CardArtStyle) -> np.ndarray:
    """BGRA texture of a wall card (a :class:`games.grimpe.cards.CardSpec`)."""
    rng = np.random.default_rng([style.seed, int(card.number)])
    size, c, u, v = _card_grid(px_per_mm)
    img = _paper(size, style.wall_bgr, px_per_mm, rng, 0.06)
    # stone-wall art: irregular blocks from thresholded noise, mortar lines darker
    blocks = value_noise(rng, (size, size), 14 * px_per_mm, 2)
    edges = np.abs(cv2.Laplacian(np.sign(blocks).astype(np.float32), cv2.CV_32F))
    edges = cv2.GaussianBlur(np.clip(edges, 0, 1), (0, 0), 0.4 * px_per_mm)
    img *= (1 - 0.25 * np.clip(edges * 2, 0, 1))[..., None]
    img *= (1 + 0.05 * np.sign(blocks))[..., None]
    # border frame
    border = np.maximum(np.abs(u), np.abs(v)) > 35.0 - 2.2
    img[border] = np.array(style.border_bgr, np.float32)
    # holes: ring, then hole edge (card thickness seen in the hole), then transparency
    alpha = _rounded_square_alpha(u, v, px_per_mm)
    for hold in card.holds:
        d = np.hypot(u - hold.u_mm, v - hold.v_mm)
        r = float(hold.radius_mm)
        ring = np.clip((r + RING_WIDTH_MM - d) * px_per_mm + 0.5, 0, 1) * (d > r - 1)
        col = np.array(RING_BGR[hold.colour], np.float32)
        img = img * (1 - ring[..., None]) + col[None, None] * ring[..., None]
        lip = np.clip(1 - np.abs(d - r - 0.35) / 0.45, 0, 1)
        img *= (1 - 0.35 * lip)[..., None]
        alpha *= np.clip((d - r) * px_per_mm + 0.5, 0, 1)
    # number in the top-left corner on a white tag
    tag0 = int(round(c - 33.0 * px_per_mm))
    tag1 = int(round(c - 20.0 * px_per_mm))
    cv2.rectangle(img, (tag0, tag0), (tag1, tag1), tuple(float(x) for x in style.paper_bgr), -1,
                  cv2.LINE_AA)
    centre = ((tag0 + tag1) / 2, (tag0 + tag1) / 2)
    _put_text_mm(img, str(card.number), centre, 7.0 * px_per_mm, style.ink_bgr,
                 max(1, int(round(0.7 * px_per_mm))))
    out = np.empty((size, size, 4), np.uint8)
    out[..., :3] = np.clip(img, 0, 255).astype(np.uint8)
    out[..., 3] = np.clip(alpha * 255 + 0.5, 0, 255).astype(np.uint8)
    return out


def help_card_texture(kind: str, px_per_mm: float, style: CardArtStyle) -> np.ndarray:
    """BGRA texture of the ``"depart"`` or ``"arrivee"`` help card: a distinct colour, the word
    ("DÉPART" / "ARRIVÉE") and an emblem (an arrow up / a chequered flag)."""
    if kind not in ("depart", "arrivee"):
        raise ValueError(f"help card kind must be 'depart' or 'arrivee', got {kind!r}")
    rng = np.random.default_rng([style.seed, 100 if kind == "depart" else 101])
    size, c, u, v = _card_grid(px_per_mm)
    base = (60, 150, 235) if kind == "depart" else (170, 90, 60)  # orange / dark blue
    img = _paper(size, base, px_per_mm, rng, 0.05)
    inner = np.maximum(np.abs(u), np.abs(v)) < 35.0 - 3.0
    img[~inner] *= 0.7
    ink = (250, 250, 250)
    th = max(1, int(round(0.8 * px_per_mm)))
    if kind == "depart":
        _put_text_mm(img, "DEPART", (c, c + 17 * px_per_mm), 8 * px_per_mm, ink, th, accent_on=1)
        pts = np.array([[0, 22], [-14, 4], [-6, 4], [-6, -10], [6, -10], [6, 4], [14, 4]],
                       np.float32)
        pts_px = np.column_stack([c + pts[:, 0] * px_per_mm, c - (pts[:, 1] - 2) * px_per_mm])
        cv2.fillPoly(img, [np.round(pts_px).astype(np.int32)], ink, cv2.LINE_AA)
    else:
        _put_text_mm(img, "ARRIVEE", (c, c + 17 * px_per_mm), 7.5 * px_per_mm, ink, th,
                     accent_on=5)
        sq = 4.0
        for i in range(5):
            for j in range(3):
                if (i + j) % 2 == 0:
                    x0 = c + (-10 + i * sq) * px_per_mm
                    y0 = c - (18 - j * sq) * px_per_mm
                    cv2.rectangle(img, (int(x0), int(y0)),
                                  (int(x0 + sq * px_per_mm), int(y0 + sq * px_per_mm)), ink, -1)
        cv2.rectangle(img, (int(c - 10 * px_per_mm), int(c - 18 * px_per_mm)),
                      (int(c + 10 * px_per_mm), int(c - 6 * px_per_mm)), ink, th)
        cv2.line(img, (int(c - 10 * px_per_mm), int(c - 18 * px_per_mm)),
                 (int(c - 10 * px_per_mm), int(c + 8 * px_per_mm)), ink, 2 * th, cv2.LINE_AA)
    out = np.empty((size, size, 4), np.uint8)
    out[..., :3] = np.clip(img, 0, 255).astype(np.uint8)
    out[..., 3] = np.clip(_rounded_square_alpha(u, v, px_per_mm) * 255 + 0.5, 0, 255)
    return out


def composite_card(
    canvas_bgr: np.ndarray,
    texture_bgra: np.ndarray,
    centre_mm: tuple[float, float],
    rotation_deg: float,
    px_per_mm: float,
    origin_mm: tuple[float, float],
    *,
    light_dir: tuple[float, float] = (0.4, -0.6),
    shadow_strength: float = 0.45,
) -> None:
    """Lay a card texture on the canvas in place: centre in table mm, turned
    ``rotation_deg`` counter-clockwise seen from above, with a soft offset shadow (card
    thickness) on the table, also inside its holes. ``light_dir`` is the table-plane direction
    the shadow falls towards (x right, y up the wall)."""
    size = texture_bgra.shape[0]
    c = (size - 1) / 2.0
    a = np.radians(rotation_deg)
    ca, sa = np.cos(a), np.sin(a)
    # texture (col, row) -> card (u, v) -> table (x, y) -> canvas (col, row)
    cx = (centre_mm[0] - origin_mm[0]) * px_per_mm
    cy = (origin_mm[1] - centre_mm[1]) * px_per_mm
    # canvas col = cx + ca*(col-c) + sa*(row-c) ; canvas row = cy - sa*(col-c) + ca*(row-c)
    # (u = (col-c)/p, v = (c-row)/p; x = ca*u - sa*v; y = sa*u + ca*v; row axis is -y)
    half = size * 0.75 + 4 * px_per_mm
    x0, y0 = int(np.floor(cx - half)), int(np.floor(cy - half))
    x1, y1 = int(np.ceil(cx + half)), int(np.ceil(cy + half))
    H, W = canvas_bgr.shape[:2]
    bx0, by0, bx1, by1 = max(x0, 0), max(y0, 0), min(x1, W), min(y1, H)
    if bx0 >= bx1 or by0 >= by1:
        return
    M = np.array(
        [[ca, sa, cx - bx0 - ca * c - sa * c],
         [-sa, ca, cy - by0 + sa * c - ca * c]], np.float64)
    roi_w, roi_h = bx1 - bx0, by1 - by0
    warped = cv2.warpAffine(texture_bgra, M, (roi_w, roi_h), flags=cv2.INTER_LINEAR,
                            borderMode=cv2.BORDER_CONSTANT, borderValue=(0, 0, 0, 0))
    alpha = warped[..., 3:4].astype(np.float32) / 255.0
    roi = canvas_bgr[by0:by1, bx0:bx1].astype(np.float32)
    if shadow_strength > 0:
        ld = np.asarray(light_dir, np.float64)
        ld = ld / max(np.linalg.norm(ld), 1e-9) * 1.6 * px_per_mm
        Ms = np.float32([[1, 0, ld[0]], [0, 1, -ld[1]]])
        sh = cv2.warpAffine(alpha[..., 0], Ms, (roi_w, roi_h))
        sh = cv2.GaussianBlur(sh, (0, 0), 1.3 * px_per_mm)
        roi *= (1 - shadow_strength * sh)[..., None]
    roi = roi * (1 - alpha) + warped[..., :3].astype(np.float32) * alpha
    canvas_bgr[by0:by1, bx0:bx1] = np.clip(roi, 0, 255).astype(np.uint8)
