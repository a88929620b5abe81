"""Everything the dashboard can change, as plain command objects (no Qt, testable headless).

A widget builds a command and hands it to :meth:`GameKeeper.run`; the keeper runs it against the
session and the database, then tells its listeners (the widgets) to refresh. Commands raise
:class:`games.base.IllegalMove` or :class:`ui.app.session.SessionError` with a sentence for the
user; nothing is written when they do.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from games.grimpe.climb import (
    POINTS,
    EventError,
    Fault,
    MoveRecord,
    Verdict,
    judge_events,
    load_events,
)
from games.grimpe.climb import RouteHolds
from games.grimpe.game import PlaceCard
from games.grimpe.overrides import review
from games.store import GameStore
from ui.app.keeper import Keeper
from ui.app.session import GrimpeSession, SessionError

__all__ = [
    "Command",
    "FinishGame",
    "GameKeeper",
    "NewGame",
    "NextRound",
    "OpenGame",
    "OverrideAttempt",
    "PlaceCardCommand",
    "RebuildRoute",
    "SaveRoute",
    "RecordAttempt",
    "manual_verdict",
    "verdict_from_events",
]


class Command:
    """A change to the game. ``run(keeper)`` does it and returns a short result for the UI."""

    def run(self, keeper: GameKeeper) -> Any:  # pragma: no cover - interface
        raise NotImplementedError


class GameKeeper(Keeper[GrimpeSession]):
    """The dashboard's model: the database and the Grimpe game being kept (or None).

    Widgets subscribe with :meth:`subscribe` and are called after every command that ran.
    """

    session_error = SessionError

    def latest_active_session(self) -> GrimpeSession | None:
        return GrimpeSession.latest_active(self.store)


@dataclass(frozen=True)
class NewGame(Command):
    """Start a game for 1–6 players (one player: solitaire)."""

    players: Sequence[str]
    rounds: int = 5

    def run(self, keeper: GameKeeper) -> GrimpeSession:
        keeper.session = GrimpeSession.new(keeper.store, list(self.players), self.rounds)
        return keeper.session


@dataclass(frozen=True)
class OpenGame(Command):
    """Resume a stored game."""

    game_id: int

    def run(self, keeper: GameKeeper) -> GrimpeSession:
        keeper.session = GrimpeSession.open(keeper.store, self.game_id)
        return keeper.session


@dataclass(frozen=True)
class PlaceCardCommand(Command):
    """The player to play puts wall card ``number`` on slot ``(col, row)``."""

    number: int
    col: int
    row: int
    rotation_deg: float = 0.0

    def run(self, keeper: GameKeeper) -> str:
        move = PlaceCard(self.number, self.col, self.row, self.rotation_deg)
        keeper.require_session().place_card(move)
        return move.notation()


#: "Next round" is placing the round winner's card: the same command, named for the UI.
NextRound = PlaceCardCommand


@dataclass(frozen=True)
class RecordAttempt(Command):
    """The judged attempt of the player to climb (automatic verdict dict), with its files."""

    verdict: dict[str, Any]
    video_path: str | None = None
    sidecar_path: str | None = None
    events_path: str | None = None

    def run(self, keeper: GameKeeper) -> int:
        Verdict.from_json(self.verdict)  # a malformed verdict fails here, before any write
        return keeper.require_session().record_attempt(
            self.verdict, video_path=self.video_path, sidecar_path=self.sidecar_path,
            events_path=self.events_path,
        )


@dataclass(frozen=True)
class OverrideAttempt(Command):
    """A person's overrides of one attempt (the whole list, replacing any earlier one).

    With the attempt's event log the climb is judged again with the overrides; without, the
    automatic verdict is edited. Both verdicts are kept; the scores follow the final one.
    """

    attempt_id: int
    overrides: Sequence[dict[str, Any]] = field(default_factory=tuple)

    def run(self, keeper: GameKeeper) -> dict[str, Any]:
        a = keeper.store.attempt(self.attempt_id)
        session = keeper.session
        if a.game_id is None:
            raise SessionError(f"attempt #{a.id} belongs to no game")
        if session is None or session.game_id != a.game_id:
            # an attempt of another (past) game: its own game follows, the current one stays
            session = GrimpeSession.open(keeper.store, a.game_id)
        final = reviewed_final(a.auto_verdict, a.route, a.events_path, self.overrides)
        session.review_attempt(self.attempt_id, [dict(o) for o in self.overrides], final)
        return final


@dataclass(frozen=True)
class RebuildRoute(Command):
    """Place the cards of a saved ROUTE.json in order (solitaire routes shared by card numbers
    and positions); each placement is judged and written like any other. Returns the count."""

    path: str

    def run(self, keeper: GameKeeper) -> int:
        session = keeper.require_session()
        try:
            data = json.loads(Path(self.path).read_text(encoding="utf-8-sig"))
            cards = [(int(c["number"]), int(c["col"]), int(c["row"]),
                      float(c.get("rotation_deg", 0.0))) for c in data["cards"]]
        except (OSError, ValueError, KeyError, TypeError) as exc:
            raise SessionError(f"{self.path}: not a saved route with 'cards' ({exc})") from None
        placed = 0
        for number, col, row in ((n, c, r) for n, c, r, _ in cards):
            if session.phase != "build":
                break
            rot = next(c[3] for c in cards if c[0] == number)
            session.place_card(PlaceCard(number, col, row, rot))
            placed += 1
        return placed


@dataclass(frozen=True)
class SaveRoute(Command):
    """Write the game's route as ROUTE.json (card numbers, positions, holds, zones)."""

    path: str

    def run(self, keeper: GameKeeper) -> str:
        route = keeper.require_session().game.route
        route.save(self.path)
        return self.path


@dataclass(frozen=True)
class FinishGame(Command):
    """End the game now; returns the result written (winners, totals)."""

    def run(self, keeper: GameKeeper) -> dict[str, Any]:
        return keeper.require_session().finish()


# --- verdicts -------------------------------------------------------------------------------


def reviewed_final(
    auto: dict[str, Any],
    route: dict[str, Any] | None,
    events_path: str | None,
    overrides: Sequence[dict[str, Any]],
) -> dict[str, Any]:
    """The final verdict (JSON dict) of ``auto`` after ``overrides`` (see
    :mod:`games.grimpe.overrides`); judged again from the event log when it is readable."""
    events = None
    if events_path and route and Path(events_path).is_file():
        try:
            events = load_events(events_path, RouteHolds.of(route))
        except EventError:
            events = None  # an unreadable log: edit the automatic verdict instead of re-judging
    rv = review(route or {"holds": []}, events, list(overrides), auto=Verdict.from_json(auto))
    return rv.final.to_json()


def verdict_from_events(route: dict[str, Any], events_path: str | Path) -> dict[str, Any]:
    """Judge an EVENTS.jsonl file on ``route`` (ROUTE.json dict); the verdict JSON dict."""
    return judge_events(route, load_events(events_path, RouteHolds.of(route))).to_json()


def manual_verdict(result: str, fingers: Sequence[int], fault_code: str | None = None,
                   fault_t: float = 0.0, detail: str = "") -> dict[str, Any]:
    """A verdict typed by a person (when no video referee is available): the finger count of
    each move, the result, and the fault code when it is a fault."""
    moves = []
    for i, n in enumerate(fingers):
        if n not in POINTS:
            raise SessionError(f"move {i + 1}: a move counts 2 to 5 fingers, not {n}")
        moves.append(MoveRecord(fingers=n, points=POINTS[n], t_end=float(i)))
    fault = None
    if result == "fault":
        fault = Fault(fault_code or "referee", fault_t, detail or "entered by hand", by="person")
    v = Verdict(result=result, score=Verdict.scored(result, moves), moves=tuple(moves),
                fault=fault)
    return v.to_json()


def dumps(obj: Any) -> str:
    return json.dumps(obj, ensure_ascii=False, sort_keys=True)
