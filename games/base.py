"""The one small interface every game in ``games/`` implements.

Shaped like OpenSpiel's ``State`` and python-chess's ``Board``: who is to play, the legal
moves, apply a move, is it over, the outcome, copy, and a readable ``__str__``. Moves are
frozen dataclasses that round-trip through text notation.

Applying a move (:meth:`Game.apply`) trusts the caller; judging one (:meth:`Game.judge`)
explains itself by raising :class:`IllegalMove` with the rule's code and a sentence.
"""

from __future__ import annotations

import abc
from collections.abc import Iterable, Sequence
from typing import Any, ClassVar, Protocol, Self, TypeVar, runtime_checkable

__all__ = ["Game", "IllegalMove", "Move", "NotationError", "TERMINAL"]

#: Value of :meth:`Game.current_player` once the game is over.
TERMINAL = -1


class IllegalMove(ValueError):
    """A move the rules forbid. ``code`` names the rule (machine-readable), the message says why."""

    def __init__(self, code: str, message: str, *, move: Any = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.move = move

    def __str__(self) -> str:
        return f"{self.message} [{self.code}]"


class NotationError(ValueError):
    """Text that is not a move in the game's notation."""


@runtime_checkable
class Move(Protocol):
    """A frozen, hashable dataclass with a text notation.

    ``type(m).from_notation(m.notation()) == m`` for every move ``m``.
    """

    def notation(self) -> str: ...

    @classmethod
    def from_notation(cls, text: str) -> Self: ...


G = TypeVar("G", bound="Game")


class Game(abc.ABC):
    """A position of a game, with its history.

    Players are numbered ``0 .. num_players - 1``. The record (:meth:`record`) is the list of
    moves that led here from the initial position built by the game's constructor with the same
    options (:meth:`options`), so ``replay(options, record)`` rebuilds an equal game.
    """

    #: Registry name, e.g. ``"quoridor"``.
    name: ClassVar[str]

    # --- who plays ---------------------------------------------------------------
    @property
    @abc.abstractmethod
    def num_players(self) -> int: ...

    @abc.abstractmethod
    def current_player(self) -> int:
        """The player to move, or :data:`TERMINAL` when the game is over."""

    # --- moves -------------------------------------------------------------------
    @abc.abstractmethod
    def legal_moves(self) -> list[Any]:
        """Every legal move of the player to move, in a deterministic order (empty when over)."""

    @abc.abstractmethod
    def judge(self, move: Any) -> None:
        """Raise :class:`IllegalMove` (with a rule code and a sentence) if ``move`` is illegal here."""

    @abc.abstractmethod
    def apply(self, move: Any) -> None:
        """Play ``move``, trusting that it is legal (call :meth:`judge` first when unsure)."""

    @abc.abstractmethod
    def parse_move(self, text: str) -> Any:
        """Turn notation into a move object; raise :class:`NotationError` on bad text."""

    def play(self, move: Any) -> None:
        """Judge, then apply: the safe way to play a move from outside."""
        self.judge(move)
        self.apply(move)

    def play_notation(self, text: str) -> Any:
        move = self.parse_move(text)
        self.play(move)
        return move

    # --- the end -----------------------------------------------------------------
    @abc.abstractmethod
    def is_terminal(self) -> bool: ...

    @abc.abstractmethod
    def returns(self) -> list[float]:
        """Per-player outcome: 1.0 for a winner, 0.0 otherwise (shared wins all get 1.0);
        all zeros while the game goes on."""

    def winners(self) -> list[int]:
        r = self.returns()
        return [p for p, v in enumerate(r) if v > 0] if self.is_terminal() else []

    # --- history and copies --------------------------------------------------------
    @abc.abstractmethod
    def record(self) -> list[Any]:
        """The moves played from the initial position, in order."""

    @abc.abstractmethod
    def options(self) -> dict[str, Any]:
        """JSON-able constructor options; ``type(self)(**options())`` is the initial position."""

    @abc.abstractmethod
    def copy(self) -> Self: ...

    def record_text(self) -> str:
        return " ".join(m.notation() for m in self.record())

    @classmethod
    def replay(cls: type[G], options: dict[str, Any], moves: Iterable[Any] | str) -> G:
        """Rebuild a game from its options and a record (move objects, or notation text
        separated by spaces). Each move is judged, so a bad record raises :class:`IllegalMove`
        or :class:`NotationError`."""
        game = cls(**options)
        items: Sequence[Any] = moves.split() if isinstance(moves, str) else list(moves)
        for m in items:
            if isinstance(m, str):
                game.play_notation(m)
            else:
                game.play(m)
        return game

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return self.options() == other.options() and self.record() == other.record()

    __hash__ = None  # type: ignore[assignment]  # positions are mutable
