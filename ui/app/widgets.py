"""Small painted widgets: the video view, the route, the score chart and the review timeline.

They only show what they are given (``set_...`` methods) and report clicks through plain
callbacks; no game rule lives here.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from PySide6.QtCore import QPointF, QRectF, QSize, Qt
from PySide6.QtGui import QBrush, QColor, QFont, QImage, QMouseEvent, QPainter, QPaintEvent, QPen
from PySide6.QtWidgets import QSizePolicy, QWidget

from ui.app.i18n import tr

__all__ = ["RouteView", "ScoreChart", "Timeline", "VideoView", "qimage_from_bgr"]

HOLD_QCOLOURS = {
    "black": QColor(20, 20, 20), "blue": QColor(30, 90, 220), "green": QColor(30, 160, 60),
    "yellow": QColor(235, 200, 20), "red": QColor(210, 40, 40),
}
SERIES = [QColor(c) for c in ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#17becf")]


def qimage_from_bgr(a: np.ndarray) -> QImage:
    """Wrap a C-contiguous (H, W, 3) uint8 BGR array without copying (keep ``a`` alive)."""
    if not a.flags["C_CONTIGUOUS"]:
        a = np.ascontiguousarray(a)
    h, w = a.shape[:2]
    return QImage(a.data, w, h, a.strides[0], QImage.Format.Format_BGR888)


class VideoView(QWidget):
    """Shows the newest frame, scaled to fit with its aspect ratio, or a message."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._array: np.ndarray | None = None
        self._image: QImage | None = None
        self._message = ""
        self.setMinimumSize(320, 200)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)

    def set_frame(self, a: np.ndarray | None) -> None:
        self._array = None if a is None else np.ascontiguousarray(a)
        self._image = None if self._array is None else qimage_from_bgr(self._array)
        self.update()

    def set_message(self, text: str) -> None:
        self._message = text
        self.update()

    def has_frame(self) -> bool:
        return self._image is not None

    def paintEvent(self, event: QPaintEvent) -> None:  # noqa: N802 (Qt name)
        p = QPainter(self)
        p.fillRect(self.rect(), QColor(30, 30, 30))
        if self._image is not None:
            iw, ih = self._image.width(), self._image.height()
            s = min(self.width() / iw, self.height() / ih)
            w, h = iw * s, ih * s
            target = QRectF((self.width() - w) / 2, (self.height() - h) / 2, w, h)
            p.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform)
            p.drawImage(target, self._image)
        if self._message:
            p.setPen(QColor(255, 220, 120))
            f = QFont(self.font())
            f.setPointSizeF(f.pointSizeF() * 1.2)
            p.setFont(f)
            r = self.rect().adjusted(20, 20, -20, -20)
            flags = Qt.AlignmentFlag.AlignCenter | Qt.TextFlag.TextWordWrap
            if self._image is not None:
                p.fillRect(QRectF(0, self.height() - 60, self.width(), 60), QColor(0, 0, 0, 170))
                r = self.rect().adjusted(10, self.height() - 60, -10, 0)
            p.drawText(r, flags, self._message)
        p.end()


class RouteView(QWidget):
    """The route seen from the front: slots, cards with their holds, Départ/Arrivée, the start
    and finish zones, the legal slots for the next card (highlighted, clickable)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.route_json: dict[str, Any] | None = None
        self.legal: list[tuple[int, int]] = []
        self.selected: tuple[int, int] | None = None
        self.burned: set[str] = set()
        self.on_slot_clicked: Callable[[tuple[int, int]], None] | None = None
        self.setMinimumSize(260, 300)
        self._cells: dict[tuple[int, int], QRectF] = {}

    def sizeHint(self) -> QSize:  # noqa: N802
        return QSize(360, 440)

    def set_route(self, route_json: dict[str, Any] | None, legal: Sequence[tuple[int, int]],
                  selected: tuple[int, int] | None = None) -> None:
        self.route_json = route_json
        self.legal = [tuple(s) for s in legal]  # type: ignore[misc]
        self.selected = selected
        self.update()

    def _slots(self) -> list[tuple[int, int]]:
        r = self.route_json or {}
        cells = [(c["col"], c["row"]) for c in r.get("cards", [])]
        d = r.get("depart") or {"col": 0, "row": 0}
        cells.append((d["col"], d["row"]))
        cells.append((d["col"], d["row"] + 2))
        if r.get("arrivee"):
            cells.append((r["arrivee"]["col"], r["arrivee"]["row"]))
        cells += self.legal
        return cells

    def paintEvent(self, event: QPaintEvent) -> None:  # noqa: N802
        p = QPainter(self)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        p.fillRect(self.rect(), QColor(245, 240, 228))
        slots = self._slots()
        cols = [c for c, _ in slots]
        rows = [r for _, r in slots]
        c0, c1 = min(cols) - 0, max(cols) + 0
        r0, r1 = min(rows), max(rows) + (1 if not (self.route_json or {}).get("arrivee") else 0)
        ncol, nrow = c1 - c0 + 1, r1 - r0 + 1
        cell = min((self.width() - 20) / ncol, (self.height() - 20) / nrow)
        ox = (self.width() - cell * ncol) / 2
        oy = (self.height() - cell * nrow) / 2
        self._cells = {}

        def rect(c: int, r: int) -> QRectF:
            x = ox + (c - c0) * cell
            y = oy + (r1 - r) * cell
            return QRectF(x + 3, y + 3, cell - 6, cell - 6)

        for c in range(c0, c1 + 1):
            for r in range(r0, r1 + 1):
                p.setPen(QPen(QColor(215, 205, 185), 1, Qt.PenStyle.DotLine))
                p.setBrush(Qt.BrushStyle.NoBrush)
                p.drawRect(rect(c, r))
        route = self.route_json or {}
        d = route.get("depart") or {"col": 0, "row": 0}
        zones = route.get("zones") or {}
        self._label_cell(p, rect(d["col"], d["row"]), "Départ", QColor(120, 90, 60))
        start = zones.get("start") or {"col": d["col"], "row": d["row"] + 1}
        self._zone(p, rect(start["col"], start["row"]), tr("route.start_zone"),
                   QColor(90, 170, 90))
        if zones.get("finish"):
            f = zones["finish"]
            self._zone(p, rect(f["col"], f["row"]), tr("route.finish_zone"), QColor(200, 120, 40))
        if route.get("arrivee"):
            a = route["arrivee"]
            self._label_cell(p, rect(a["col"], a["row"]), "Arrivée", QColor(160, 60, 60))
        pitch = float(route.get("slot_pitch_mm", 76.0))
        card_mm = float(route.get("card_size_mm", 70.0))
        for card in route.get("cards", []):
            rc = rect(card["col"], card["row"])
            p.setPen(QPen(QColor(90, 70, 50), 2))
            p.setBrush(QColor(250, 250, 250))
            p.drawRoundedRect(rc, 6, 6)
            p.setPen(QColor(60, 60, 60))
            p.drawText(rc.adjusted(5, 3, 0, 0), Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop,
                       str(card["number"]))
        scale = (cell - 6) / card_mm
        for h in route.get("holds", []):
            if "x_mm" not in h:
                continue
            cx = ox + (h["x_mm"] / pitch - c0 + 0.5) * cell
            cy = oy + (r1 - h["y_mm"] / pitch + 0.5) * cell
            rad = max(3.0, float(h.get("radius_mm", 8.0)) * scale)
            col = HOLD_QCOLOURS.get(h.get("colour", ""), QColor(128, 128, 128))
            if h.get("id") in self.burned:
                col = QColor(170, 170, 170)
            p.setPen(QPen(col, max(2.0, rad * 0.45)))
            p.setBrush(QColor(60, 50, 40))
            p.drawEllipse(QPointF(cx, cy), rad, rad)
        for s in self.legal:
            rc = rect(*s)
            self._cells[s] = rc
            sel = s == self.selected
            p.setPen(QPen(QColor(20, 140, 60), 3 if sel else 2, Qt.PenStyle.DashLine))
            p.setBrush(QColor(40, 200, 90, 90 if sel else 45))
            p.drawRect(rc)
            p.setPen(QColor(20, 110, 50))
            p.drawText(rc.adjusted(0, 0, 0, -4),
                       Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignBottom,
                       f"({s[0]},{s[1]})")
        p.end()

    @staticmethod
    def _label_cell(p: QPainter, rc: QRectF, text: str, colour: QColor) -> None:
        p.setPen(QPen(colour, 2))
        p.setBrush(QColor(colour.red(), colour.green(), colour.blue(), 40))
        p.drawRoundedRect(rc, 6, 6)
        p.drawText(rc, Qt.AlignmentFlag.AlignCenter, text)

    @staticmethod
    def _zone(p: QPainter, rc: QRectF, text: str, colour: QColor) -> None:
        p.setPen(QPen(colour, 2, Qt.PenStyle.DashDotLine))
        p.setBrush(QColor(colour.red(), colour.green(), colour.blue(), 30))
        p.drawRect(rc)
        p.drawText(rc.adjusted(2, 2, -2, -2),
                   int(Qt.AlignmentFlag.AlignCenter) | int(Qt.TextFlag.TextWordWrap), text)

    def mousePressEvent(self, event: QMouseEvent) -> None:  # noqa: N802
        for s, rc in self._cells.items():
            if rc.contains(event.position()):
                self.selected = s
                self.update()
                if self.on_slot_clicked is not None:
                    self.on_slot_clicked(s)
                return


class ScoreChart(QWidget):
    """Cumulative score of each player after each round (one line per player)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.names: list[str] = []
        self.series: list[list[int]] = []
        self.rounds = 5
        self.setMinimumSize(240, 150)

    def set_data(self, names: Sequence[str], series: Sequence[Sequence[int]], rounds: int) -> None:
        self.names, self.series, self.rounds = list(names), [list(s) for s in series], rounds
        self.update()

    def paintEvent(self, event: QPaintEvent) -> None:  # noqa: N802
        p = QPainter(self)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        p.fillRect(self.rect(), QColor(255, 255, 255))
        fm = p.fontMetrics()
        left, right, top, bottom = 34, 16, 22, 24
        w = max(10, self.width() - left - right)
        h = max(10, self.height() - top - bottom)
        ymax = max([max(s) for s in self.series if s] + [5])
        p.setPen(QColor(90, 90, 90))
        p.drawText(QRectF(0, 2, self.width(), 18), Qt.AlignmentFlag.AlignCenter, tr("game.chart"))
        p.drawLine(left, top + h, left + w, top + h)
        p.drawLine(left, top, left, top + h)
        for i in range(self.rounds + 1):
            x = left + w * i / self.rounds
            p.drawText(QRectF(x - 15, top + h + 3, 30, 18), Qt.AlignmentFlag.AlignCenter, str(i))
        for v in (0, ymax):
            y = top + h - h * v / ymax
            p.drawText(QRectF(0, y - 9, left - 4, 18), Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter, str(v))
        for k, s in enumerate(self.series):
            col = SERIES[k % len(SERIES)]
            p.setPen(QPen(col, 2))
            pts = [QPointF(left, top + h)] + [
                QPointF(left + w * (i + 1) / self.rounds, top + h - h * v / ymax)
                for i, v in enumerate(s)]
            for a, b in zip(pts, pts[1:]):
                p.drawLine(a, b)
            p.setBrush(col)
            for pt in pts[1:]:
                p.drawEllipse(pt, 3, 3)
        ly = top + 4
        for k, name in enumerate(self.names):  # legend, top left of the plot
            col = SERIES[k % len(SERIES)]
            p.fillRect(QRectF(left + 8, ly + 4, 14, 4), col)
            p.setPen(col)
            total = self.series[k][-1] if k < len(self.series) and self.series[k] else 0
            p.drawText(QPointF(left + 28, ly + 10), f"{name} ({total})")
            ly += fm.height()
        p.end()


class Timeline(QWidget):
    """A bar for the whole recording with markers (moves blue, fault red, events grey, orders
    chosen by the automatic judge orange, events to check purple) and the current frame; clicking seeks
    (``on_seek(frame)``)."""

    COLOURS = {"move": QColor(40, 110, 230), "fault": QColor(220, 30, 30), "event": QColor(120, 120, 120),
               "order": QColor(240, 140, 0), "check": QColor(160, 60, 210)}

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.count = 0
        self.current = 0
        self.markers: list[Any] = []
        self.on_seek: Callable[[int], None] | None = None
        self.setMinimumHeight(44)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)

    def set_data(self, count: int, markers: Sequence[Any]) -> None:
        self.count, self.markers = count, list(markers)
        self.update()

    def set_current(self, frame: int) -> None:
        self.current = frame
        self.update()

    def _x(self, frame: int) -> float:
        return 8 + (self.width() - 16) * (frame / max(1, self.count - 1))

    def paintEvent(self, event: QPaintEvent) -> None:  # noqa: N802
        p = QPainter(self)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        p.fillRect(self.rect(), QColor(250, 250, 250))
        mid = self.height() / 2
        p.fillRect(QRectF(8, mid - 4, self.width() - 16, 8), QColor(210, 210, 210))
        for m in self.markers:
            col = self.COLOURS.get(m.kind, QColor(0, 0, 0))
            x = self._x(m.frame)
            p.setPen(QPen(col, 3 if m.kind != "event" else 1))
            top = 4 if m.kind != "event" else mid - 10
            p.drawLine(QPointF(x, top), QPointF(x, self.height() - top))
        x = self._x(self.current)
        p.setPen(QPen(QColor(0, 0, 0), 1))
        p.setBrush(QBrush(QColor(255, 200, 0)))
        p.drawPolygon([QPointF(x - 6, 0), QPointF(x + 6, 0), QPointF(x, 10)])
        p.drawLine(QPointF(x, 0), QPointF(x, self.height()))
        p.end()

    def mousePressEvent(self, event: QMouseEvent) -> None:  # noqa: N802
        if self.count <= 0:
            return
        f = (event.position().x() - 8) / max(1.0, self.width() - 16) * (self.count - 1)
        frame = int(round(min(max(f, 0), self.count - 1)))
        self.set_current(frame)
        if self.on_seek is not None:
            self.on_seek(frame)
