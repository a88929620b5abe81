"""The Quoridor board diagram: a painted 9×9 board mirroring a position (no rules here).

Row 1 is at the bottom and file a on the left, as the camera reads the table (row 1 nearest the
camera). Pawns are discs in the players' colours (the same as the video overlay's), walls are
bars in the grooves, each player's goal side is a strip of its colour along that edge, the last
move is outlined and a hint is drawn dashed.
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QPointF, QRectF, QSize, Qt
from PySide6.QtGui import QColor, QFont, QPainter, QPaintEvent, QPen
from PySide6.QtWidgets import QSizePolicy, QWidget

__all__ = ["BoardDiagram", "PLAYER_QCOLOURS", "wall_rect_cells"]

#: P1..P4, the RGB of :data:`vision.quoridor.draw.PLAYER_BGR` (so the diagram and the video
#: overlay agree).
PLAYER_QCOLOURS = (QColor(230, 60, 60), QColor(40, 140, 230), QColor(60, 200, 60),
                   QColor(230, 200, 40))
FILES = "abcdefghi"
#: goal edge of each seat: "top" (row 9), "right" (column i), "bottom" (row 1), "left" (column a)
GOAL_EDGES = {2: ("top", "bottom"), 4: ("top", "right", "bottom", "left")}


def _square(name: str) -> tuple[int, int]:
    """``"e3"`` → (col 4, row 2), 0-based."""
    return FILES.index(name[0]), int(name[1:]) - 1


def wall_rect_cells(wall: str) -> tuple[float, float, float, float]:
    """A wall's bar in cell units (x from file a's left edge, y from row 1's bottom edge):
    (x0, y0, x1, y1). ``e3h`` lies on the line between rows 3 and 4 over files e–f."""
    c, r = _square(wall[:-1])
    if wall[-1] == "h":
        return (c, r + 1, c + 2, r + 1)
    return (c + 1, r, c + 1, r + 2)


class BoardDiagram(QWidget):
    """``set_position(pawns, walls, ...)`` and it paints; clicking does nothing."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.pawns: list[str] = []
        self.walls: list[str] = []
        self.names: list[str] = []
        self.to_move: int | None = None
        self.last: str | None = None
        self.hint: str | None = None
        self.seen: str | None = None
        self.setMinimumSize(300, 300)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)

    def sizeHint(self) -> QSize:  # noqa: N802
        return QSize(460, 460)

    def set_position(self, pawns: Sequence[str], walls: Sequence[str], *,
                     names: Sequence[str] = (), to_move: int | None = None,
                     last: str | None = None, hint: str | None = None,
                     seen: str | None = None) -> None:
        """``last``: the last move (outlined); ``hint``: a suggested move (dashed green);
        ``seen``: what the camera saw but did not accept (dashed orange)."""
        self.pawns, self.walls, self.names = list(pawns), sorted(walls), list(names)
        self.to_move, self.last, self.hint, self.seen = to_move, last, hint, seen
        self.update()

    # --- geometry ---------------------------------------------------------------------------
    def _layout(self) -> tuple[float, float, float]:
        """(left, top, cell) in pixels; the board is 9 cells plus labels around it."""
        margin = 26.0
        cell = max(10.0, min(self.width() - 2 * margin, self.height() - 2 * margin) / 9)
        left = (self.width() - 9 * cell) / 2
        top = (self.height() - 9 * cell) / 2
        return left, top, cell

    def _pt(self, x_cells: float, y_cells: float) -> QPointF:
        left, top, cell = self._layout()
        return QPointF(left + x_cells * cell, top + (9 - y_cells) * cell)

    def cell_rect(self, name: str, inset: float = 0.09) -> QRectF:
        c, r = _square(name)
        _, _, cell = self._layout()
        tl = self._pt(c, r + 1)
        g = cell * inset
        return QRectF(tl.x() + g, tl.y() + g, cell - 2 * g, cell - 2 * g)

    # --- painting -----------------------------------------------------------------------------
    def paintEvent(self, event: QPaintEvent) -> None:  # noqa: N802 (Qt name)
        p = QPainter(self)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        p.fillRect(self.rect(), QColor(250, 248, 242))
        left, top, cell = self._layout()
        board = QRectF(left, top, 9 * cell, 9 * cell)
        p.setPen(Qt.PenStyle.NoPen)
        p.setBrush(QColor(92, 60, 36))
        p.drawRoundedRect(board.adjusted(-4, -4, 4, 4), 5, 5)
        n = len(self.pawns)
        for k, edge in enumerate(GOAL_EDGES.get(n, ())):
            col = PLAYER_QCOLOURS[k]
            strip = {"top": QRectF(left, top - 7, 9 * cell, 5),
                     "bottom": QRectF(left, top + 9 * cell + 2, 9 * cell, 5),
                     "left": QRectF(left - 7, top, 5, 9 * cell),
                     "right": QRectF(left + 9 * cell + 2, top, 5, 9 * cell)}[edge]
            p.setBrush(col)
            p.drawRect(strip)
        for c in range(9):
            for r in range(9):
                p.setBrush(QColor(222, 190, 140) if (c + r) % 2 else QColor(214, 180, 128))
                p.drawRect(self.cell_rect(f"{FILES[c]}{r + 1}"))
        font = QFont(self.font())
        font.setPointSizeF(max(7.0, cell * 0.2))
        p.setFont(font)
        p.setPen(QColor(90, 80, 70))
        for c in range(9):
            for y in (top + 9 * cell + 8, top - 26):
                p.drawText(QRectF(left + c * cell, y, cell, 18), Qt.AlignmentFlag.AlignCenter,
                           FILES[c])
        for r in range(9):
            y = top + (8 - r) * cell
            for x in (left - 26, left + 9 * cell + 8):
                p.drawText(QRectF(x, y, 18, cell), Qt.AlignmentFlag.AlignCenter, str(r + 1))
        if self.last and self.last[-1] not in "hv":
            p.setPen(QPen(QColor(255, 255, 255), 3))
            p.setBrush(Qt.BrushStyle.NoBrush)
            p.drawRect(self.cell_rect(self.last, 0.04))
        for wall in self.walls:
            if wall == self.last:
                self._wall(p, wall, QColor(255, 170, 40), cell, solid=True, width_scale=1.8)
            self._wall(p, wall, QColor(40, 28, 20), cell, solid=True)
        for k, sq in enumerate(self.pawns):
            col = PLAYER_QCOLOURS[k % len(PLAYER_QCOLOURS)]
            rc = self.cell_rect(sq, 0.18)
            p.setPen(QPen(col.darker(160), 2))
            p.setBrush(col)
            p.drawEllipse(rc)
            if k == self.to_move:
                p.setPen(QPen(QColor(255, 255, 255), 2, Qt.PenStyle.DotLine))
                p.setBrush(Qt.BrushStyle.NoBrush)
                p.drawEllipse(rc.adjusted(-4, -4, 4, 4))
            p.setPen(QColor(255, 255, 255))
            p.drawText(rc, Qt.AlignmentFlag.AlignCenter, f"{k + 1}")
        for move, colour in ((self.hint, QColor(20, 150, 70)), (self.seen, QColor(235, 120, 0))):
            if not move:
                continue
            if move[-1] in "hv":
                self._wall(p, move, colour, cell, solid=False)
            else:
                p.setPen(QPen(colour, 3, Qt.PenStyle.DashLine))
                p.setBrush(QColor(colour.red(), colour.green(), colour.blue(), 60))
                p.drawEllipse(self.cell_rect(move, 0.2))
        p.end()

    def _wall(self, p: QPainter, wall: str, colour: QColor, cell: float, *, solid: bool,
              width_scale: float = 1.0) -> None:
        x0, y0, x1, y1 = wall_rect_cells(wall)
        a, b = self._pt(x0, y0), self._pt(x1, y1)
        inset = cell * 0.06
        if wall[-1] == "h":
            a, b = QPointF(a.x() + inset, a.y()), QPointF(b.x() - inset, b.y())
        else:
            a, b = QPointF(a.x(), a.y() - inset), QPointF(b.x(), b.y() + inset)
        pen = QPen(colour, max(4.0, cell * 0.16) * width_scale, Qt.PenStyle.SolidLine if solid else
                   Qt.PenStyle.DashLine)
        pen.setCapStyle(Qt.PenCapStyle.FlatCap)
        p.setPen(pen)
        p.drawLine(a, b)
