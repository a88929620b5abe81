"""Quoridor moves and their standard notation.

A pawn move is written as its destination square (``e2``; jumps are not marked). A wall is the
square of its 2×2 block nearest to ``a1`` plus ``h`` or ``v`` (``e3h``, ``e3v``). The move
objects only check the *shape* of the text; whether a square or anchor lies on the board is a
rule (``off_board``), judged by :meth:`QuoridorGame.judge`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal, Self

from games.base import NotationError

__all__ = ["PawnMove", "QuoridorMove", "WallMove", "parse_move"]

_SQUARE_RE = re.compile(r"[a-z][1-9][0-9]?")
_MOVE_RE = re.compile(r"\s*([a-zA-Z])([1-9][0-9]?)([hHvV]?)\s*")


@dataclass(frozen=True, slots=True)
class PawnMove:
    """Move the side to play's pawn to ``square`` (e.g. ``"e2"``)."""

    square: str

    def __post_init__(self) -> None:
        if not isinstance(self.square, str) or not _SQUARE_RE.fullmatch(self.square):
            raise NotationError(f"{self.square!r} is not a square (a letter and a rank, e.g. 'e2')")

    def notation(self) -> str:
        return self.square

    @classmethod
    def from_notation(cls, text: str) -> Self:
        move = parse_move(text)
        if not isinstance(move, cls):
            raise NotationError(f"{text!r} is a wall, not a pawn move")
        return move


@dataclass(frozen=True, slots=True)
class WallMove:
    """Place a wall whose 2×2 block has ``anchor`` as its corner nearest ``a1``.

    ``orientation`` is ``"h"`` (horizontal: ``e3h`` separates e3|e4 and f3|f4) or ``"v"``
    (vertical: ``e3v`` separates e3|f3 and e4|f4).
    """

    anchor: str
    orientation: Literal["h", "v"]

    def __post_init__(self) -> None:
        if not isinstance(self.anchor, str) or not _SQUARE_RE.fullmatch(self.anchor):
            raise NotationError(f"{self.anchor!r} is not an anchor square (e.g. 'e3')")
        if self.orientation not in ("h", "v"):
            raise NotationError(f"wall orientation must be 'h' or 'v', not {self.orientation!r}")

    def notation(self) -> str:
        return self.anchor + self.orientation

    @classmethod
    def from_notation(cls, text: str) -> Self:
        move = parse_move(text)
        if not isinstance(move, cls):
            raise NotationError(f"{text!r} is a pawn move, not a wall")
        return move


QuoridorMove = PawnMove | WallMove


def parse_move(text: str) -> QuoridorMove:
    """``"e2"`` → ``PawnMove("e2")``, ``"e3h"`` → ``WallMove("e3", "h")`` (case-insensitive).

    Raises :class:`NotationError` for text that is not shaped like a move.
    """
    m = _MOVE_RE.fullmatch(text) if isinstance(text, str) else None
    if m is None:
        raise NotationError(
            f"{text!r} is not a Quoridor move: write a square ('e2') or a wall ('e3h', 'e3v')"
        )
    square = m.group(1).lower() + m.group(2)
    if m.group(3):
        return WallMove(square, m.group(3).lower())  # type: ignore[arg-type]
    return PawnMove(square)
