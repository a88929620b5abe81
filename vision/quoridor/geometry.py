"""Quoridor board geometry in the board frame, in millimetres.

Board frame: origin at the centre of the board's top surface, x towards column ``i`` (player 1's
right), y towards row 9, z up. The board top is z = 0 and the table z = ``-thickness_mm``.

Groove segments (the places a wall can stand) are indexed as two (8, 9) arrays:
``H[r, c]`` is the stretch of the horizontal groove between rows ``r`` and ``r + 1`` along column
``c``; ``V[c, r]`` the stretch of the vertical groove between columns ``c`` and ``c + 1`` along
row ``r`` (all 0-based). A flat index runs ``0..143``: H first (``r * 9 + c``), then V
(``72 + c * 9 + r``). Wall ``e3h`` (anchor col 4, row 2) covers ``H[2, 4]`` and ``H[2, 5]``;
``e3v`` covers ``V[4, 2]`` and ``V[4, 3]``.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

import numpy as np

__all__ = [
    "BoardSpec",
    "DEFAULT_BOARD",
    "FILES",
    "NUM_SEGMENTS",
    "occupied_runs",
    "square_name",
    "square_coords",
    "wall_segments",
    "walls_from_segments",
    "segments_from_walls",
]

FILES = "abcdefghi"
NUM_SEGMENTS = 144


@dataclass(frozen=True)
class BoardSpec:
    """Dimensions of a Quoridor set (defaults close to the Gigamic wooden edition).

    The marker layout: four ArUco markers (``DICT_4X4_50`` ids 0–3) of side ``marker_mm`` lie on
    the table at the board's corners, id 0 beyond ``a1``, 1 beyond ``i1``, 2 beyond ``i9``,
    3 beyond ``a9``, their centres ``marker_offset_mm`` from the board centre along x and y.
    """

    cell_mm: float = 24.0
    groove_mm: float = 6.0
    margin_mm: float = 18.0
    thickness_mm: float = 12.0
    pawn_radius_mm: float = 8.0
    pawn_height_mm: float = 24.0
    wall_height_mm: float = 14.0
    wall_thickness_mm: float = 5.0
    marker_mm: float = 40.0
    marker_gap_mm: float = 10.0

    @property
    def pitch_mm(self) -> float:
        return self.cell_mm + self.groove_mm

    @property
    def grid_mm(self) -> float:
        return 9 * self.cell_mm + 8 * self.groove_mm

    @property
    def side_mm(self) -> float:
        return self.grid_mm + 2 * self.margin_mm

    @property
    def wall_length_mm(self) -> float:
        return 2 * self.cell_mm + self.groove_mm - 2.0

    @property
    def marker_offset_mm(self) -> float:
        return self.side_mm / 2 + self.marker_gap_mm + self.marker_mm / 2

    def cell_centre_mm(self, col: int | np.ndarray, row: int | np.ndarray) -> np.ndarray:
        """Centre (…, 2) of cell (col, row), 0-based, on the board top."""
        p = self.pitch_mm
        return np.stack([(np.asarray(col) - 4) * p, (np.asarray(row) - 4) * p], axis=-1).astype(float)

    def segment_centres_mm(self) -> np.ndarray:
        """Centres (144, 2) of the groove segments, in flat-index order."""
        p = self.pitch_mm
        out = np.zeros((NUM_SEGMENTS, 2))
        r, c = np.mgrid[0:8, 0:9]
        out[:72, 0] = ((c - 4) * p).ravel()
        out[:72, 1] = ((r - 3.5) * p).ravel()
        gc, rr = np.mgrid[0:8, 0:9]
        out[72:, 0] = ((gc - 3.5) * p).ravel()
        out[72:, 1] = ((rr - 4) * p).ravel()
        return out

    @staticmethod
    def segment_is_vertical() -> np.ndarray:
        return np.arange(NUM_SEGMENTS) >= 72

    def wall_centre_mm(self, anchor_col: int, anchor_row: int) -> np.ndarray:
        p = self.pitch_mm
        return np.array([(anchor_col - 3.5) * p, (anchor_row - 3.5) * p])

    def marker_centres_mm(self) -> np.ndarray:
        """Centres (4, 2) of markers 0..3 (a1, i1, i9, a9 corners) on the table."""
        o = self.marker_offset_mm
        return np.array([[-o, -o], [o, -o], [o, o], [-o, o]], float)

    def marker_corners_mm(self) -> np.ndarray:
        """Corners (4, 4, 3) of markers 0..3 in ArUco order (top-left, top-right, bottom-right,
        bottom-left as the marker is read upright, i.e. with +y up), at table height."""
        h = self.marker_mm / 2
        offs = np.array([[-h, h], [h, h], [h, -h], [-h, -h]])
        out = np.zeros((4, 4, 3))
        for i, c in enumerate(self.marker_centres_mm()):
            out[i, :, :2] = c + offs
            out[i, :, 2] = -self.thickness_mm
        return out

    def to_dict(self) -> dict:
        return asdict(self)


DEFAULT_BOARD = BoardSpec()


def square_name(col: int, row: int) -> str:
    return FILES[col] + str(row + 1)


def square_coords(name: str) -> tuple[int, int]:
    """``"e3"`` → ``(4, 2)``."""
    return FILES.index(name[0]), int(name[1:]) - 1


def wall_segments(wall: str) -> tuple[int, int]:
    """Flat indices of the two segments a wall (``"e3h"``) covers."""
    c, r = square_coords(wall[:-1])
    if wall[-1] == "h":
        return r * 9 + c, r * 9 + c + 1
    return 72 + c * 9 + r, 72 + c * 9 + r + 1


def segments_from_walls(walls: "set[str] | frozenset[str] | list[str]") -> np.ndarray:
    """(144,) bool occupancy of the groove segments for a set of walls."""
    occ = np.zeros(NUM_SEGMENTS, bool)
    for w in walls:
        occ[list(wall_segments(w))] = True
    return occ


def occupied_runs(line: np.ndarray) -> list[tuple[int, int]]:
    """The runs of True along one groove's segments, as (start, end) with ``end`` excluded."""
    runs: list[tuple[int, int]] = []
    k, n = 0, len(line)
    while k < n:
        if not line[k]:
            k += 1
            continue
        start = k
        while k < n and line[k]:
            k += 1
        runs.append((start, k))
    return runs


def walls_from_segments(occupied: np.ndarray) -> tuple[frozenset[str], list[str]]:
    """Walls (notation) from (144,) bool segment occupancy, plus problems.

    Walls cannot overlap, so along one groove a run of ``2k`` occupied segments is ``k`` walls
    tiled from the run's start; an odd run cannot be walls and is reported as a problem.
    """
    occ = np.asarray(occupied, bool).reshape(2, 8, 9)
    walls: set[str] = set()
    problems: list[str] = []
    for kind in (0, 1):
        for g in range(8):
            for start, k in occupied_runs(occ[kind, g]):
                run = k - start
                for j in range(start, k - 1, 2):
                    if kind == 0:
                        walls.add(square_name(j, g) + "h")
                    else:
                        walls.add(square_name(g, j) + "v")
                if run % 2:
                    where = (f"horizontal groove above row {g + 1}" if kind == 0
                             else f"vertical groove right of column {FILES[g]}")
                    problems.append(f"{run} occupied segment(s) in the {where} from "
                                    f"{FILES[start] if kind == 0 else start + 1}: not whole walls")
    return frozenset(walls), problems
