"""Grimpe! as a :class:`games.base.Game`: route building, rounds of climbs, the next card.

Flow (rulebook "A game"):

1. *Building*: Départ is at slot (0, 0). Player 0 (the youngest) places the first card, then
   players 1, 2, ... in sheet order (wrapping round) each add a card, until the route has 10
   holds or more. Arrivée then sits above the last card (automatic).
2. *Rounds*: the player who placed the last card climbs first, then the others in sheet order;
   each makes one attempt (:class:`ClimbResult`, the judged score).
3. The best score of the round (tie: whoever climbed first) places the next card
   (:class:`PlaceCard`) and starts the next round. After the last round (``rounds``, default 5)
   the game ends with no further card; the highest total wins, equal totals share the win.
4. Solitaire (1 player): the same flow with one seat.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Self

from games.base import TERMINAL, Game, IllegalMove, NotationError
from games.grimpe.cards import DEFAULT_SEED, Catalog, default_catalog
from games.grimpe.climb import POINTS
from games.grimpe.route import Placement, Route, normalise_deg

__all__ = ["ClimbResult", "GrimpeGame", "PlaceCard", "max_climb_score"]

ROTATIONS = (0.0, 90.0, 180.0, 270.0)
_CLIMB_RE = re.compile(r"^climb:(\d+)$")


@dataclass(frozen=True)
class PlaceCard:
    """Put wall card ``number`` on slot ``(col, row)`` turned ``rotation_deg`` counter-clockwise.

    Notation ``"12@0,2r90"`` (rotation normalised to [0, 360); ``r0`` may be left out on input).
    """

    number: int
    col: int
    row: int
    rotation_deg: float = 0.0

    def __post_init__(self) -> None:
        object.__setattr__(self, "rotation_deg", normalise_deg(self.rotation_deg))

    def notation(self) -> str:
        return Placement(self.number, self.col, self.row, self.rotation_deg).notation()

    @classmethod
    def from_notation(cls, text: str) -> PlaceCard:
        try:
            p = Placement.from_notation(text)
        except ValueError as exc:
            raise NotationError(str(exc)) from None
        return cls(p.number, p.col, p.row, p.rotation_deg)


@dataclass(frozen=True)
class ClimbResult:
    """One judged attempt of the player to move: its ``score`` (0 for a fault). ``"climb:5"``."""

    score: int

    def notation(self) -> str:
        return f"climb:{self.score}"

    @classmethod
    def from_notation(cls, text: str) -> ClimbResult:
        m = _CLIMB_RE.match(text.strip())
        if not m:
            raise NotationError(f"{text!r} is not a climb result like 'climb:5'")
        return cls(int(m.group(1)))


def max_climb_score(hold_count: int) -> int:
    """An upper bound on a climb's score on a route with ``hold_count`` holds.

    Every move but the last keeps a finger it placed on a fresh hold, so there are at most
    ``hold_count + 1`` moves, each worth at most 7 points.
    """
    return max(POINTS.values()) * (hold_count + 1)


class GrimpeGame(Game):
    """A game of Grimpe! for 1–6 players (see the module doc for the flow)."""

    name = "grimpe"

    def __init__(
        self,
        num_players: int = 1,
        rounds: int = 5,
        catalog_seed: int = DEFAULT_SEED,
        catalog_path: str | None = None,
    ) -> None:
        if not 1 <= int(num_players) <= 6:
            raise ValueError(f"Grimpe! is played by 1–6 players, not {num_players}")
        if int(rounds) < 1:
            raise ValueError(f"a game has at least 1 round, not {rounds}")
        self._n = int(num_players)
        self.rounds = int(rounds)
        self.catalog_seed = int(catalog_seed)
        self.catalog_path = catalog_path
        catalog = Catalog.load(catalog_path) if catalog_path else default_catalog(self.catalog_seed)
        self.route = Route(catalog)
        self.phase = "build"  # build | climb | place | over
        self._builder = 0
        self.last_placer: int | None = None
        self.round_no = 0
        self.round_order: list[int] = []
        self.climbs: list[tuple[int, int]] = []
        self.past_rounds: list[list[tuple[int, int]]] = []
        self.totals = [0] * self._n
        self._record: list[Any] = []

    # --- who plays ---------------------------------------------------------------------------
    @property
    def num_players(self) -> int:
        return self._n

    def current_player(self) -> int:
        if self.phase == "build":
            return self._builder
        if self.phase == "climb":
            return self.round_order[len(self.climbs)]
        if self.phase == "place":
            return self.round_winner(self.past_rounds[-1])
        return TERMINAL

    @staticmethod
    def round_winner(climbs: list[tuple[int, int]]) -> int:
        """The best score of a round; a tie goes to whoever climbed first."""
        best = max(score for _, score in climbs)
        return next(p for p, score in climbs if score == best)

    # --- moves -------------------------------------------------------------------------------
    def max_score(self) -> int:
        return max_climb_score(self.route.hold_count())

    def legal_moves(self) -> list[Any]:
        if self.phase in ("build", "place"):
            return [
                PlaceCard(n, c, r, rot)
                for (c, r) in self.route.legal_slots()
                for n in self.route.unused_numbers()
                for rot in ROTATIONS
            ]
        if self.phase == "climb":
            return [ClimbResult(s) for s in range(self.max_score() + 1)]
        return []

    def judge(self, move: Any) -> None:
        if self.phase == "over":
            raise IllegalMove("game_over", "the game is over", move=move)
        if isinstance(move, PlaceCard):
            if self.phase == "climb":
                raise IllegalMove(
                    "wrong_phase",
                    f"player {self.current_player()} must climb, not place a card",
                    move=move,
                )
            try:
                self.route.judge_place(move.number, move.col, move.row, move.rotation_deg)
            except IllegalMove as exc:
                raise IllegalMove(exc.code, exc.message, move=move) from None
        elif isinstance(move, ClimbResult):
            if self.phase != "climb":
                who = (
                    "the route is being built"
                    if self.phase == "build"
                    else "the round's best places a card"
                )
                raise IllegalMove("wrong_phase", f"no climb now: {who}", move=move)
            if not 0 <= move.score <= self.max_score():
                raise IllegalMove(
                    "bad_score",
                    f"a climb on this route scores 0–{self.max_score()}, not {move.score}",
                    move=move,
                )
        else:
            raise IllegalMove("not_a_move", f"{move!r} is not a Grimpe! move", move=move)

    def apply(self, move: Any) -> None:
        player = self.current_player()
        if isinstance(move, PlaceCard):
            self.route.place(move.number, move.col, move.row, move.rotation_deg)
            self.last_placer = player
            if self.phase == "build":
                if self.route.building_done:
                    self._start_round(player)
                else:
                    self._builder = (self._builder + 1) % self._n
            else:
                self._start_round(player)
        else:
            self.climbs.append((player, int(move.score)))
            self.totals[player] += int(move.score)
            if len(self.climbs) == self._n:
                self.past_rounds.append(self.climbs)
                self.climbs = []
                self.phase = "over" if self.round_no >= self.rounds else "place"
        self._record.append(move)

    def _start_round(self, starter: int) -> None:
        self.round_no += 1
        self.round_order = [(starter + i) % self._n for i in range(self._n)]
        self.climbs = []
        self.phase = "climb"

    def parse_move(self, text: str) -> Any:
        t = text.strip()
        if t.startswith("climb:"):
            return ClimbResult.from_notation(t)
        return PlaceCard.from_notation(t)

    # --- the end -----------------------------------------------------------------------------
    def is_terminal(self) -> bool:
        return self.phase == "over"

    def returns(self) -> list[float]:
        if not self.is_terminal():
            return [0.0] * self._n
        best = max(self.totals)
        return [1.0 if s == best else 0.0 for s in self.totals]

    # --- history and copies ------------------------------------------------------------------
    def record(self) -> list[Any]:
        return list(self._record)

    def options(self) -> dict[str, Any]:
        opts: dict[str, Any] = {
            "num_players": self._n,
            "rounds": self.rounds,
            "catalog_seed": self.catalog_seed,
        }
        if self.catalog_path:
            opts["catalog_path"] = self.catalog_path
        return opts

    def copy(self) -> Self:
        twin = type(self).__new__(type(self))
        twin.__dict__.update(self.__dict__)
        twin.route = self.route.copy()
        twin.round_order = list(self.round_order)
        twin.climbs = list(self.climbs)
        twin.past_rounds = [list(r) for r in self.past_rounds]
        twin.totals = list(self.totals)
        twin._record = list(self._record)
        return twin

    def __str__(self) -> str:
        n = self._n
        head = f"Grimpe! — {n} player{'s' if n > 1 else ''}"
        if self.phase == "build":
            state = f"building the route: player {self._builder} places a card"
        elif self.phase == "climb":
            state = f"round {self.round_no}/{self.rounds}: player {self.current_player()} climbs"
        elif self.phase == "place":
            who = self.current_player()
            state = f"round {self.round_no} over: player {who} places the next card"
        else:
            w = ", ".join(str(p) for p in self.winners())
            state = f"game over after {self.round_no} rounds; winner(s): player {w}"
        cards = self.route.code()
        lines = [
            head,
            state,
            f"route: {cards or '(no card)'} — {self.route.hold_count()} holds, "
            f"Arrivée at {self.route.arrivee_slot()}",
            "totals: " + ", ".join(f"P{p}={s}" for p, s in enumerate(self.totals)),
        ]
        for i, r in enumerate(self.past_rounds, start=1):
            lines.append(f"round {i}: " + ", ".join(f"P{p}:{s}" for p, s in r))
        if self.climbs:
            so_far = ", ".join(f"P{p}:{s}" for p, s in self.climbs)
            lines.append(f"round {self.round_no} so far: {so_far}")
        return "\n".join(lines)
