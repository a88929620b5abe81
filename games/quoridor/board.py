"""Board geometry as precomputed bit masks (Python ints used as bitboards).

Squares are numbered ``sq = row * 9 + col`` (``a1`` = 0, ``i1`` = 8, ``a2`` = 9, ``i9`` = 80) and a
set of squares is an 81-bit int. Wall anchors are ``anchor = row * 8 + col`` (``a1`` = 0 …
``h8`` = 63) and a wall is ``w = anchor * 2 + (0 for h, 1 for v)``, so a set of walls is a
128-bit int. Internally a move is a small int ("code"): ``0..80`` a pawn move to that square,
``81 + w`` a wall.

Walls live in four "may step" masks, one per direction: bit ``sq`` of ``may[NORTH]`` is set when
a pawn on ``sq`` may step north (not on the top row, no wall in the way). One flood-fill step of
a set of squares is then four shifts, which makes path checks and distances cheap.
"""

from __future__ import annotations

from collections.abc import Iterator

SIZE = 9
NUM_SQUARES = SIZE * SIZE
NUM_ANCHORS = (SIZE - 1) * (SIZE - 1)
NUM_WALLS = NUM_ANCHORS * 2
WALL_BASE = NUM_SQUARES  # move code of wall 0
NUM_CODES = NUM_SQUARES + NUM_WALLS

ALL_SQUARES = (1 << NUM_SQUARES) - 1
ALL_WALLS = (1 << NUM_WALLS) - 1

NORTH, SOUTH, EAST, WEST = 0, 1, 2, 3
DELTA = (SIZE, -SIZE, 1, -1)
PERPENDICULAR = ((EAST, WEST), (EAST, WEST), (NORTH, SOUTH), (NORTH, SOUTH))
FILES = "abcdefghi"


def square(col: int, row: int) -> int:
    return row * SIZE + col


def square_name(sq: int) -> str:
    return FILES[sq % SIZE] + str(sq // SIZE + 1)


def anchor_name(anchor: int) -> str:
    return FILES[anchor % 8] + str(anchor // 8 + 1)


def parse_coords(text: str) -> tuple[int, int]:
    """``"e3"`` → ``(col, row)`` = ``(4, 2)``; no range check."""
    return ord(text[0]) - ord("a"), int(text[1:]) - 1


def bits(mask: int) -> Iterator[int]:
    """Indices of the set bits of ``mask``, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


ROW = tuple(((1 << SIZE) - 1) << (SIZE * r) for r in range(SIZE))
COL = tuple(sum(1 << square(c, r) for r in range(SIZE)) for c in range(SIZE))

#: May-step masks of the empty board.
EMPTY_MAY = (
    ALL_SQUARES & ~ROW[SIZE - 1],
    ALL_SQUARES & ~ROW[0],
    ALL_SQUARES & ~COL[SIZE - 1],
    ALL_SQUARES & ~COL[0],
)


def _wall_tables() -> tuple[list[tuple[int, int, int, int]], list[int], list[int]]:
    clear: list[tuple[int, int, int, int]] = []
    forbid: list[int] = []
    points: list[int] = []

    def wall(col: int, row: int, vertical: int) -> int:
        return (row * 8 + col) * 2 + vertical

    def point(x: int, y: int) -> int:
        return 1 << (y * (SIZE + 1) + x)

    for anchor in range(NUM_ANCHORS):
        c, r = anchor % 8, anchor // 8
        for vertical in (0, 1):
            lower = (1 << square(c, r)) | (1 << square(c + 1, r))  # (c,r) and (c+1,r)
            left = (1 << square(c, r)) | (1 << square(c, r + 1))  # (c,r) and (c,r+1)
            f = (1 << wall(c, r, 0)) | (1 << wall(c, r, 1))  # same anchor: duplicate or cross
            if not vertical:
                clear.append((lower, lower << SIZE, 0, 0))
                if c > 0:
                    f |= 1 << wall(c - 1, r, 0)
                if c < 7:
                    f |= 1 << wall(c + 1, r, 0)
                points.append(point(c, r + 1) | point(c + 1, r + 1) | point(c + 2, r + 1))
            else:
                clear.append((0, 0, left, left << 1))
                if r > 0:
                    f |= 1 << wall(c, r - 1, 1)
                if r < 7:
                    f |= 1 << wall(c, r + 1, 1)
                points.append(point(c + 1, r) | point(c + 1, r + 1) | point(c + 1, r + 2))
            forbid.append(f)
    return clear, forbid, points


#: Per wall ``w``: the bits it clears from the four may-step masks.
WALL_CLEAR, _FORBID, WALL_POINTS = _wall_tables()
#: Per wall ``w``: the walls it makes impossible (itself, the two it would overlap, the one it crosses).
WALL_FORBIDS = _FORBID

#: Lattice points (corners between squares, 10×10) on the board's edge: walls touch these.
BORDER_POINTS = sum(
    1 << (y * (SIZE + 1) + x)
    for y in range(SIZE + 1)
    for x in range(SIZE + 1)
    if x in (0, SIZE) or y in (0, SIZE)
)


def _edge_cuts() -> tuple[list[int], list[int]]:
    """Walls that cut the step from ``sq`` north (``CUT_NORTH[sq]``) and east (``CUT_EAST[sq]``)."""
    north, east = [0] * NUM_SQUARES, [0] * NUM_SQUARES
    for sq in range(NUM_SQUARES):
        c, r = sq % SIZE, sq // SIZE
        if r < 8:
            for ac in (c - 1, c):
                if 0 <= ac < 8:
                    north[sq] |= 1 << ((r * 8 + ac) * 2)
        if c < 8:
            for ar in (r - 1, r):
                if 0 <= ar < 8:
                    east[sq] |= 1 << ((ar * 8 + c) * 2 + 1)
    return north, east


CUT_NORTH, CUT_EAST = _edge_cuts()


def step(frontier: int, may: tuple[int, int, int, int] | list[int]) -> int:
    """Squares one step away from ``frontier`` (not excluding ``frontier`` itself)."""
    n, s, e, w = may
    return (
        ((frontier & n) << SIZE)
        | ((frontier & s) >> SIZE)
        | ((frontier & e) << 1)
        | ((frontier & w) >> 1)
    )


def distance(start: int, goal: int, n: int, s: int, e: int, w: int) -> int:
    """Steps from the squares ``start`` to the nearest ``goal`` square, ignoring pawns;
    :data:`UNREACHABLE` when walls cut it off."""
    if start & goal:
        return 0
    reach = frontier = start
    d = 0
    while frontier:
        d += 1
        frontier = (
            ((frontier & n) << SIZE)
            | ((frontier & s) >> SIZE)
            | ((frontier & e) << 1)
            | ((frontier & w) >> 1)
        ) & ~reach
        if frontier & goal:
            return d
        reach |= frontier
    return UNREACHABLE


def reaches(start: int, goal: int, n: int, s: int, e: int, w: int) -> bool:
    """Whether any ``goal`` square can be reached from ``start``, ignoring pawns."""
    return distance(start, goal, n, s, e, w) != UNREACHABLE


def layers(start: int, goal: int, n: int, s: int, e: int, w: int) -> list[int]:
    """Breadth-first layers from ``start`` until one touches ``goal`` (``layers[k]`` = squares at
    distance ``k``); the last layer touches ``goal``, or the list ends where the flood stops."""
    out = [start]
    reach = frontier = start
    while frontier and not frontier & goal:
        frontier = (
            ((frontier & n) << SIZE)
            | ((frontier & s) >> SIZE)
            | ((frontier & e) << 1)
            | ((frontier & w) >> 1)
        ) & ~reach
        reach |= frontier
        if frontier:
            out.append(frontier)
    return out


UNREACHABLE = 1000
