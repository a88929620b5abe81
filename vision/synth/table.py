"""Procedural table tops (wood, cloth, plain, patterned) drawn top-down in millimetres.

Every texture is a BGR uint8 image whose pixel ``(row, col)`` is the table point
``x = origin_x + col / px_per_mm``, ``y = origin_y - row / px_per_mm`` (the layout
:meth:`vision.camera.CameraModel.render_plane` expects). Features are kept ≥ ~2 mm so a camera that
sees ~1 px/mm does not alias them. Deterministic from the numpy ``Generator`` passed in.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

__all__ = ["TABLE_KINDS", "TableStyle", "random_table_style", "render_table", "value_noise"]

TABLE_KINDS: tuple[str, ...] = ("wood", "cloth", "plain", "patterned")


@dataclass(frozen=True)
class TableStyle:
    """What a table top looks like.

    Attributes:
        kind: one of :data:`TABLE_KINDS`.
        base_bgr: main colour (B, G, R), 0..255.
        accent_bgr: second colour (grain, pattern, stripes), 0..255.
        scale_mm: characteristic size of the pattern (plank width, check size, grain period).
        angle_deg: direction of grain / pattern on the table.
        pattern: sub-kind for ``patterned`` (``checks``, ``stripes`` or ``dots``), else "".
    """

    kind: str
    base_bgr: tuple[int, int, int]
    accent_bgr: tuple[int, int, int]
    scale_mm: float
    angle_deg: float
    pattern: str = ""

    def to_dict(self) -> dict:
        return {
            "kind": self.kind,
            "base_bgr": list(self.base_bgr),
            "accent_bgr": list(self.accent_bgr),
            "scale_mm": self.scale_mm,
            "angle_deg": self.angle_deg,
            "pattern": self.pattern,
        }


def _bgr(rgb: tuple[float, float, float]) -> tuple[int, int, int]:
    return (int(rgb[2]), int(rgb[1]), int(rgb[0]))


def random_table_style(rng: np.random.Generator, kind: str | None = None) -> TableStyle:
    """A random table of ``kind`` (random kind when None). Colours avoid the five hold colours'
    saturation so rings stay readable, as on real tables."""
    if kind is None:
        kind = str(rng.choice(TABLE_KINDS))
    if kind not in TABLE_KINDS:
        raise ValueError(f"table kind must be one of {TABLE_KINDS}, got {kind!r}")
    jitter = rng.uniform(0.85, 1.12)
    if kind == "wood":
        palettes = [((176, 128, 84), (120, 78, 46)), ((200, 160, 112), (150, 104, 64)),
                    ((120, 80, 52), (78, 50, 30)), ((214, 186, 146), (170, 136, 96))]
        base, acc = palettes[int(rng.integers(len(palettes)))]
        scale = float(rng.uniform(90, 180))  # plank width
        pattern = ""
    elif kind == "cloth":
        palettes = [((40, 96, 60), (30, 76, 48)), ((44, 56, 96), (32, 42, 76)),
                    ((110, 110, 116), (90, 90, 96)), ((120, 44, 48), (96, 34, 38)),
                    ((150, 140, 120), (128, 118, 100))]
        base, acc = palettes[int(rng.integers(len(palettes)))]
        scale = float(rng.uniform(2.0, 3.0))  # weave period
        pattern = ""
    elif kind == "plain":
        palettes = [((228, 226, 220), (210, 208, 200)), ((190, 192, 196), (170, 172, 176)),
                    ((222, 210, 186), (200, 188, 166)), ((70, 72, 76), (58, 60, 64))]
        base, acc = palettes[int(rng.integers(len(palettes)))]
        scale = float(rng.uniform(30, 80))
        pattern = ""
    else:
        palettes = [((232, 228, 218), (150, 60, 60)), ((236, 232, 222), (60, 80, 140)),
                    ((226, 222, 206), (70, 120, 80)), ((216, 200, 170), (130, 90, 60))]
        base, acc = palettes[int(rng.integers(len(palettes)))]
        pattern = str(rng.choice(["checks", "stripes", "dots"]))
        scale = float(rng.uniform(18, 40))
    base_j = tuple(float(np.clip(c * jitter, 0, 255)) for c in base)
    acc_j = tuple(float(np.clip(c * jitter, 0, 255)) for c in acc)
    return TableStyle(kind, _bgr(base_j), _bgr(acc_j), round(scale, 3),
                      round(float(rng.uniform(-20, 20)), 3), pattern)


def value_noise(
    rng: np.random.Generator, shape_hw: tuple[int, int], cell_px: float, octaves: int = 3
) -> np.ndarray:
    """Smooth noise (H, W) float32 in about [-1, 1]: random grids upsampled bicubically,
    ``octaves`` layers each twice finer and half as strong. ``cell_px`` is the coarsest cell."""
    h, w = shape_hw
    out = np.zeros((h, w), np.float32)
    amp, total, cell = 1.0, 0.0, float(cell_px)
    for _ in range(octaves):
        gh, gw = max(2, int(np.ceil(h / cell)) + 2), max(2, int(np.ceil(w / cell)) + 2)
        grid = rng.uniform(-1, 1, (gh, gw)).astype(np.float32)
        up = cv2.resize(grid, (int(gw * cell), int(gh * cell)), interpolation=cv2.INTER_CUBIC)
        out += amp * up[:h, :w]
        total += amp
        amp *= 0.5
        cell = max(1.0, cell / 2)
    return out / total


def _rotated_coords(shape_hw: tuple[int, int], px_per_mm: float, angle_deg: float
                    ) -> tuple[np.ndarray, np.ndarray]:
    h, w = shape_hw
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32) / np.float32(px_per_mm)
    a = np.radians(angle_deg)
    u = xx * np.cos(a) + yy * np.sin(a)
    v = -xx * np.sin(a) + yy * np.cos(a)
    return u.astype(np.float32), v.astype(np.float32)


def render_table(
    style: TableStyle, shape_hw: tuple[int, int], px_per_mm: float, rng: np.random.Generator
) -> np.ndarray:
    """The table top as a BGR uint8 (H, W, 3) image at ``px_per_mm``."""
    h, w = shape_hw
    base = np.array(style.base_bgr, np.float32)
    acc = np.array(style.accent_bgr, np.float32)
    u, v = _rotated_coords(shape_hw, px_per_mm, style.angle_deg)
    mm = px_per_mm
    if style.kind == "wood":
        # planks along u; grain: rings warped by low-frequency noise, stretched along u
        plank = np.floor(v / style.scale_mm)
        plank_shift = np.sin(plank * 12.9898) * 0.5 + 0.5
        warp = value_noise(rng, (h, w), 60 * mm, 3)
        streak = value_noise(rng, (h, max(2, w // 8)), 3 * mm, 2)
        streak = cv2.resize(streak, (w, h), interpolation=cv2.INTER_LINEAR)
        rings = 0.5 + 0.5 * np.sin((v * 0.9 + warp * 25 + plank * 37.0) * 2 * np.pi / 7.0)
        t = np.clip(0.55 * rings ** 3 + 0.25 * (streak * 0.5 + 0.5) + 0.2 * plank_shift, 0, 1)
        img = base[None, None] * (1 - t[..., None]) + acc[None, None] * t[..., None]
        seam = np.abs(((v / style.scale_mm) % 1.0) * style.scale_mm)
        seam = np.minimum(seam, style.scale_mm - seam)
        img *= (0.55 + 0.45 * np.clip(seam / 0.8, 0, 1))[..., None]
    elif style.kind == "cloth":
        p = style.scale_mm
        weave = (np.sin(u * 2 * np.pi / p) * np.sin(v * 2 * np.pi / p))
        fuzz = value_noise(rng, (h, w), 4 * mm, 2)
        blotch = value_noise(rng, (h, w), 80 * mm, 2)
        t = 0.5 + 0.18 * weave + 0.2 * fuzz + 0.25 * blotch
        img = base[None, None] * (1 - t[..., None]) + acc[None, None] * t[..., None]
        img *= (1.0 + 0.06 * weave)[..., None]
    elif style.kind == "plain":
        low = value_noise(rng, (h, w), style.scale_mm * mm, 3)
        fine = value_noise(rng, (h, w), 2.5 * mm, 1)
        t = np.clip(0.5 + 0.35 * low + 0.15 * fine, 0, 1)
        img = base[None, None] * (1 - t[..., None]) + acc[None, None] * t[..., None]
    else:
        s = style.scale_mm
        if style.pattern == "checks":
            a = (np.floor(u / s) % 2).astype(np.float32)
            b = (np.floor(v / s) % 2).astype(np.float32)
            t = 0.35 * a + 0.35 * b
        elif style.pattern == "stripes":
            t = ((u / s) % 1.0 < 0.35).astype(np.float32) * 0.8
        else:
            cu, cv_ = (u / s) % 1.0 - 0.5, (v / s) % 1.0 - 0.5
            t = ((cu * cu + cv_ * cv_) < 0.06).astype(np.float32) * 0.85
        t = cv2.GaussianBlur(t, (0, 0), 0.4 * mm)
        weave = np.sin(u * 2 * np.pi / 2.4) * np.sin(v * 2 * np.pi / 2.4)
        low = value_noise(rng, (h, w), 70 * mm, 2)
        img = base[None, None] * (1 - t[..., None]) + acc[None, None] * t[..., None]
        img *= (1.0 + 0.05 * weave + 0.05 * low)[..., None]
    grain = rng.normal(0, 2.0, (h, w, 1)).astype(np.float32)
    return np.clip(img + grain, 0, 255).astype(np.uint8)
