"""Printable targets at exact size: the ChArUco calibration board and the table corner markers.

A page is a list of shapes in millimetres (origin top-left of an A4 sheet, y down), drawn
twice: as vector shapes in a PDF (matplotlib; exact at any printer resolution when printed at
"actual size / 100 %") and as a PNG raster at a given dpi (OpenCV). Both carry the sizes in
writing, and a 100 mm check ruler so the user can verify the print with a ruler.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from calibration.patterns import Pattern, aruco_dictionary

__all__ = ["A4_MM", "Page", "charuco_page", "markers_page", "marker_layout", "MARKER_CORNERS",
           "colour_card_page", "COLOUR_CARD"]

A4_MM = (210.0, 297.0)
# marker id -> where it goes on the table (the route area seen from the player's side)
MARKER_CORNERS = {0: "bottom-left", 1: "bottom-right", 2: "top-right", 3: "top-left"}


@dataclass
class Page:
    """Shapes in mm on a sheet: filled black rectangles, lines and text."""

    size_mm: tuple[float, float] = A4_MM
    rects: list[tuple[float, float, float, float, tuple[int, int, int]]] = field(
        default_factory=list)  # x, y, w, h in mm and an sRGB colour
    lines: list[tuple[float, float, float, float, float, bool]] = field(default_factory=list)
    texts: list[tuple[float, float, str, float]] = field(default_factory=list)

    def rect(self, x: float, y: float, w: float, h: float,
             rgb: tuple[int, int, int] = (0, 0, 0)) -> None:
        self.rects.append((x, y, w, h, rgb))

    def line(self, x1: float, y1: float, x2: float, y2: float, width_mm: float = 0.2,
             dashed: bool = False) -> None:
        self.lines.append((x1, y1, x2, y2, width_mm, dashed))

    def box(self, x: float, y: float, w: float, h: float, width_mm: float = 0.2,
            dashed: bool = False) -> None:
        """The outline of a rectangle (top-left x, y; size w, h; mm)."""
        for a, b, c, d in [(x, y, x + w, y), (x + w, y, x + w, y + h), (x + w, y + h, x, y + h),
                           (x, y + h, x, y)]:
            self.line(a, b, c, d, width_mm, dashed)

    def text(self, x: float, y: float, s: str, size_pt: float = 9.0) -> None:
        self.texts.append((x, y, s, size_pt))

    def marker(self, dictionary: str, marker_id: int, x: float, y: float, side_mm: float) -> None:
        """An ArUco marker (black border included) with its top-left corner at (x, y)."""
        d = aruco_dictionary(dictionary)
        n = d.markerSize + 2
        bits = cv2.aruco.generateImageMarker(d, marker_id, n, borderBits=1)
        cell = side_mm / n
        for r in range(n):
            c = 0
            while c < n:  # merge runs of black cells into one rectangle
                if bits[r, c] < 128:
                    c0 = c
                    while c < n and bits[r, c] < 128:
                        c += 1
                    self.rect(x + c0 * cell, y + r * cell, (c - c0) * cell, cell)
                else:
                    c += 1

    def ruler(self, x: float, y: float) -> None:
        """A 100 mm check ruler with cm ticks."""
        self.line(x, y, x + 100, y, 0.3)
        for k in range(11):
            self.line(x + 10 * k, y, x + 10 * k, y - (4 if k % 5 == 0 else 2.5), 0.3)
        self.text(x, y + 4.5, "100 mm: check this with a ruler (print at 100 %, no scaling)", 7)

    # -- output -------------------------------------------------------------------------
    def raster(self, dpi: int) -> np.ndarray:
        """Image of the page at ``dpi`` (pixel centres at (i + 0.5) / dpi inch): 8-bit grey, or
        BGR when the page has coloured shapes."""
        ppm = dpi / 25.4
        w, h = (int(round(s * ppm)) for s in self.size_mm)
        colour = any(r[4] != (0, 0, 0) for r in self.rects)
        img = np.full((h, w, 3) if colour else (h, w), 255, np.uint8)
        for x, y, rw, rh, rgb in self.rects:
            # pixel i covers [i, i+1) / ppm; fill pixels whose centre is inside the rectangle
            c0, c1 = int(np.ceil(x * ppm - 0.5)), int(np.ceil((x + rw) * ppm - 0.5))
            r0, r1 = int(np.ceil(y * ppm - 0.5)), int(np.ceil((y + rh) * ppm - 0.5))
            img[max(r0, 0):max(r1, 0), max(c0, 0):max(c1, 0)] = rgb[::-1] if colour else 0
        for x1, y1, x2, y2, lw, dashed in self.lines:
            p1 = np.array([x1, y1]) * ppm
            p2 = np.array([x2, y2]) * ppm
            thick = max(1, int(round(lw * ppm)))
            if dashed:
                n = max(1, int(np.linalg.norm(p2 - p1) / (3 * ppm)))
                for k in range(0, n, 2):
                    a = p1 + (p2 - p1) * k / n
                    b = p1 + (p2 - p1) * min(k + 1, n) / n
                    cv2.line(img, tuple(int(v) for v in a), tuple(int(v) for v in b), 0, thick)
            else:
                cv2.line(img, tuple(int(v) for v in p1), tuple(int(v) for v in p2), 0, thick)
        for x, y, s, pt in self.texts:
            scale = pt * 0.3528 * ppm / 22.0  # Hershey simplex caps are ~22 units high at 1.0
            cv2.putText(img, s, (int(x * ppm), int(y * ppm)), cv2.FONT_HERSHEY_SIMPLEX, scale,
                        0, max(1, int(round(scale * 1.5))), cv2.LINE_AA)
        return img

    def save_png(self, path: str | os.PathLike, dpi: int = 300) -> None:
        img = self.raster(dpi)
        ok, buf = cv2.imencode(".png", img)
        if not ok:
            raise ValueError(f"{path}: cannot encode the PNG")
        Path(path).write_bytes(_png_with_dpi(buf.tobytes(), dpi))

    def save_pdf(self, path: str | os.PathLike) -> None:
        from matplotlib.backends.backend_pdf import FigureCanvasPdf
        from matplotlib.figure import Figure
        from matplotlib.patches import Rectangle

        w, h = self.size_mm
        fig = Figure(figsize=(w / 25.4, h / 25.4))
        FigureCanvasPdf(fig)
        ax = fig.add_axes((0, 0, 1, 1))
        ax.set_xlim(0, w)
        ax.set_ylim(h, 0)
        ax.axis("off")
        for x, y, rw, rh, rgb in self.rects:
            ax.add_patch(Rectangle((x, y), rw, rh, facecolor=tuple(c / 255 for c in rgb),
                                   edgecolor="none",
                                   linewidth=0, antialiased=False))
        for x1, y1, x2, y2, lw, dashed in self.lines:
            ax.plot([x1, x2], [y1, y2], color="black", linewidth=lw / 25.4 * 72,
                    linestyle=(0, (4, 4)) if dashed else "-", solid_capstyle="butt")
        for x, y, s, pt in self.texts:
            ax.text(x, y, s, fontsize=pt, va="baseline", ha="left", family="DejaVu Sans")
        fig.savefig(str(path), format="pdf", metadata={"Creator": "Arbitre"})


def _png_with_dpi(png: bytes, dpi: int) -> bytes:
    """Insert a pHYs chunk so image viewers and printers know the physical size."""
    import struct
    import zlib

    ppm = int(round(dpi / 0.0254))
    data = b"pHYs" + struct.pack(">IIB", ppm, ppm, 1)
    chunk = struct.pack(">I", 9) + data + struct.pack(">I", zlib.crc32(data) & 0xFFFFFFFF)
    end_ihdr = 8 + 25  # signature + IHDR chunk (length, type, 13 bytes, crc)
    return png[:end_ihdr] + chunk + png[end_ihdr:]


def charuco_page(pattern: Pattern) -> tuple[Page, tuple[float, float]]:
    """An A4 page with the ChArUco board centred; also the board's top-left corner on it (mm)."""
    if pattern.kind != "charuco":
        raise ValueError("print-board makes ChArUco boards; give --pattern charuco:COLSxROWS")
    bw, bh = pattern.size_mm
    pw, ph = A4_MM
    if bw > pw - 16 or bh > ph - 40:
        raise ValueError(f"the board ({bw:g} x {bh:g} mm) does not fit on A4 with margins; "
                         f"use smaller squares (--square-mm) or fewer of them")
    x0, y0 = (pw - bw) / 2, 12.0 + (ph - 40 - bh) / 2
    page = Page()
    board = pattern.board()
    ids = np.asarray(board.getIds()).ravel()
    obj = [np.asarray(c).reshape(4, 3) for c in board.getObjPoints()]
    centres = {(int(c[:, 0].mean() // pattern.square_mm), int(c[:, 1].mean() // pattern.square_mm))
               for c in obj}
    for r in range(pattern.rows):
        for c in range(pattern.cols):
            if (c, r) not in centres:
                page.rect(x0 + c * pattern.square_mm, y0 + r * pattern.square_mm,
                          pattern.square_mm, pattern.square_mm)
    for mid, corners in zip(ids, obj):
        page.marker(pattern.dictionary, int(mid), x0 + float(corners[0, 0]),
                    y0 + float(corners[0, 1]), float(pattern.marker_mm))
    page.text(10, 8, f"Arbitre ChArUco board {pattern.cols}x{pattern.rows} squares, square "
                     f"{pattern.square_mm:g} mm, marker {pattern.marker_mm:g} mm, dictionary "
                     f"{pattern.dictionary}", 8)
    page.text(10, ph - 26, f"arbitre calibrate intrinsics IMAGES --pattern charuco:"
                           f"{pattern.cols}x{pattern.rows} --square-mm {pattern.square_mm:g}", 7)
    page.text(10, ph - 21, f"    --marker-mm {pattern.marker_mm:g} --dict {pattern.dictionary}", 7)
    page.text(10, ph - 16, "Glue flat on card. Measure a square: use the measured size.", 7)
    page.ruler(10, ph - 6)
    return page, (x0, y0)


def marker_layout(width_mm: float, height_mm: float, marker_mm: float,
                  dictionary: str = "4x4_50") -> dict:
    """The JSON layout of the four table markers: ids, centres and corners in table mm.

    Table frame: origin at marker 0's centre (bottom-left), x to marker 1, y to marker 3.
    Markers lie upright (their top edge towards +y). Corners are listed in ArUco order
    (the marker's top-left, top-right, bottom-right, bottom-left).
    """
    if width_mm <= marker_mm or height_mm <= marker_mm:
        raise ValueError(f"the markers ({marker_mm:g} mm) are larger than the space between "
                         f"them ({width_mm:g} x {height_mm:g} mm)")
    centres = {0: (0.0, 0.0), 1: (width_mm, 0.0), 2: (width_mm, height_mm), 3: (0.0, height_mm)}
    s = marker_mm / 2
    markers = []
    for mid, (cx, cy) in centres.items():
        markers.append({
            "id": mid, "corner": MARKER_CORNERS[mid], "centre_mm": [cx, cy],
            "corners_mm": [[cx - s, cy + s], [cx + s, cy + s], [cx + s, cy - s], [cx - s, cy - s]],
        })
    return {
        "kind": "arbitre-table-markers", "version": 1, "dictionary": dictionary,
        "marker_size_mm": marker_mm, "layout_mm": [width_mm, height_mm],
        "frame": "table mm: origin at marker 0's centre, x towards marker 1, y towards marker 3; "
                 "markers upright (their top edge towards +y)",
        "markers": markers,
    }


def markers_page(layout: dict) -> Page:
    """An A4 page with the four markers to cut out and a drawing of where they go."""
    m = float(layout["marker_size_mm"])
    if m > 70:
        raise ValueError(f"markers of {m:g} mm do not fit four to an A4 page with their "
                         f"placement drawing (at most 70 mm)")
    page = Page()
    pw, ph = A4_MM
    width, height = layout["layout_mm"]
    page.text(10, 10, f"Arbitre table markers: dictionary {layout['dictionary']}, "
                      f"{m:g} mm each (black border included)", 9)
    page.text(10, 16, "Cut along the dashed lines. Lay each marker upright (the label below it "
                      "towards you) at its corner:", 7)
    cell_w, cell_h = (pw - 20) / 2, m + 24
    order = [3, 2, 0, 1]  # drawn as they lie on the table: top row 3, 2; bottom row 0, 1
    for k, mid in enumerate(order):
        cx0 = 10 + (k % 2) * cell_w
        cy0 = 22 + (k // 2) * cell_h
        x, y = cx0 + (cell_w - m) / 2, cy0 + 6
        page.marker(layout["dictionary"], mid, x, y, m)
        q = 5  # quiet zone kept white around the marker
        page.box(x - q, y - q, m + 2 * q, m + 2 * q + 7, 0.2, dashed=True)  # label inside
        cen = layout["markers"][mid]["centre_mm"]
        page.text(x - q + 1, y + m + q + 4, f"id {mid}: {MARKER_CORNERS[mid]}, centre at "
                                        f"({cen[0]:g}, {cen[1]:g}) mm", 7)
    # placement drawing
    top = 22 + 2 * cell_h + 8
    page.text(10, top, "Placement seen from above (marker centres; table mm, y up the wall):", 8)
    avail_w, avail_h = pw - 60, ph - top - 46
    sc = min(avail_w / width, avail_h / height)
    ox, oy = 30 + (avail_w - width * sc) / 2, top + 16
    x1, y1 = ox + width * sc, oy + height * sc
    page.box(ox, oy, width * sc, height * sc, 0.3, dashed=True)
    pos = {0: (ox, y1), 1: (x1, y1), 2: (x1, oy), 3: (ox, oy)}
    for mid, (px, py) in pos.items():
        s = max(3.0, m * sc)
        page.rect(px - s / 2, py - s / 2, s, s)
        page.text(px - 4 if mid in (0, 3) else px - 14, py + (s / 2 + 5 if mid in (0, 1) else
                                                             -s / 2 - 2), f"id {mid}", 7)
    page.text((ox + x1) / 2 - 10, y1 + 10, f"{width:g} mm", 8)
    page.text(ox - 22, (oy + y1) / 2, f"{height:g} mm", 8)
    page.text(10, ph - 16, f"arbitre calibrate table IMAGE --markers-mm {width:g}x{height:g} "
                           f"--marker-size-mm {m:g} --dict {layout['dictionary']}", 7)
    page.ruler(10, ph - 6)
    return page


def write_layout_json(layout: dict, path: str | os.PathLike) -> None:
    Path(path).write_text(json.dumps(layout, indent=2) + "\n", encoding="utf-8")


# The colour reference card (mm, card frame: origin top-left of the card, y down).
COLOUR_CARD: dict = {
    "dictionary": "4x4_50",
    "marker_mm": 20.0,
    # markers' top-left corners; ids 10-13 so they never clash with the table markers 0-3
    "markers": {10: (0.0, 0.0), 11: (160.0, 0.0), 12: (160.0, 70.0), 13: (0.0, 70.0)},
    "size_mm": (180.0, 90.0),
    # patch name -> (x, y, w, h) mm and the sRGB printed
    "patches": {
        "white": ((25.0, 5.0, 40.0, 35.0), (255, 255, 255)),
        "grey": ((70.0, 5.0, 40.0, 35.0), (128, 128, 128)),
        "black": ((115.0, 5.0, 40.0, 35.0), (0, 0, 0)),
        "blue": ((25.0, 50.0, 25.0, 35.0), (0, 85, 200)),
        "green": ((57.5, 50.0, 25.0, 35.0), (0, 150, 70)),
        "yellow": ((90.0, 50.0, 25.0, 35.0), (250, 215, 0)),
        "red": ((122.5, 50.0, 25.0, 35.0), (220, 30, 40)),
    },
}


def colour_card_page() -> tuple[Page, tuple[float, float]]:
    """An A4 page with the colour reference card; also the card's top-left on the page (mm)."""
    page = Page()
    x0, y0 = 15.0, 30.0
    card = COLOUR_CARD
    page.text(10, 12, "Arbitre colour reference card: print in colour, cut along the dashed "
                      "line, lay it flat in view", 8)
    page.text(10, 18, "under the session's light (white patch = white balance). Ring colours "
                      "are best sampled from the route itself.", 7)
    w, h = card["size_mm"]
    q = 4
    page.box(x0 - q, y0 - q, w + 2 * q, h + 2 * q, 0.2, dashed=True)
    for mid, (mx, my) in card["markers"].items():
        page.marker(card["dictionary"], mid, x0 + mx, y0 + my, card["marker_mm"])
    for name, ((px, py, pw, ph), rgb) in card["patches"].items():
        if name == "white":
            page.box(x0 + px, y0 + py, pw, ph, 0.15)
        else:
            page.rect(x0 + px, y0 + py, pw, ph, rgb)
    page.text(10, y0 + h + 14, "arbitre calibrate colours IMAGE --card [--region NAME=X,Y,W,H ...]"
                               " --out CAL", 7)
    return page, (x0, y0)
