"""The Grimpe game being kept at the table: the rules engine plus the database, no Qt.

:class:`GrimpeSession` owns a :class:`games.grimpe.GrimpeGame` (flow: route building, rounds,
whose turn, who places the next card) and a :class:`games.store.GameStore` (every change is
written as it happens). Widgets read it; they change it only through the command objects of
:mod:`ui.app.commands`.

Scores: the game's record holds ``climb:N`` moves (what the flow needs); the attempts table
holds the automatic verdict, the overrides and the final verdict of each attempt. The round
table and the totals are read from the attempts' **final** verdicts, so an override makes them
follow. When an overridden attempt belongs to the round still open (no card placed after it),
the record's tail is rewritten too, so the right player places the next card.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from games.grimpe import GrimpeGame
from games.grimpe.game import ClimbResult, PlaceCard
from games.store import GameStore, StoredAttempt

__all__ = ["GrimpeSession", "RoundTable", "SessionError"]


class SessionError(RuntimeError):
    """A command that cannot run now; the message says why (shown to the user)."""


@dataclass(frozen=True)
class RoundTable:
    """Scores by player and round (None: not climbed yet), totals and winners (when over)."""

    players: tuple[str, ...]
    rounds: int
    #: scores[seat][round - 1]
    scores: tuple[tuple[int | None, ...], ...]
    totals: tuple[int, ...]
    winners: tuple[int, ...]
    #: attempt ids, same shape as ``scores``
    attempt_ids: tuple[tuple[int | None, ...], ...]

    def cumulative(self, seat: int) -> list[int]:
        """Running total of ``seat`` after each round climbed (for the chart)."""
        out, acc = [], 0
        for s in self.scores[seat]:
            if s is None:
                break
            acc += s
            out.append(acc)
        return out


class GrimpeSession:
    """One Grimpe game kept in ``store``. Create with :meth:`new` or :meth:`open`."""

    def __init__(self, store: GameStore, game_id: int, game: GrimpeGame, players: list[str]):
        self.store = store
        self.game_id = game_id
        self.game = game
        self.players = list(players)

    # --- creation --------------------------------------------------------------------------
    @classmethod
    def new(cls, store: GameStore, players: list[str], rounds: int = 5) -> GrimpeSession:
        names = [" ".join(p.split()) for p in players if p and p.strip()]
        if not 1 <= len(names) <= 6:
            raise SessionError(f"Grimpe! is played by 1 to 6 players, not {len(names)}")
        if len({n.lower() for n in names}) != len(names):
            raise SessionError("two players have the same name; give each a distinct name")
        game = GrimpeGame(num_players=len(names), rounds=rounds)
        gid = store.start_game("grimpe", names, game.options(),
                               title="solitaire" if len(names) == 1 else "")
        return cls(store, gid, game, names)

    @classmethod
    def open(cls, store: GameStore, game_id: int) -> GrimpeSession:
        """Reopen a stored game (its record is replayed); attempts saved without their
        ``climb`` move (a crash between the two writes) are appended first."""
        stored = store.game(game_id)
        if stored.kind != "grimpe":
            raise SessionError(f"game #{game_id} is {stored.kind}, not grimpe")
        game = store.resume(game_id)
        session = cls(store, game_id, game, list(stored.players))
        session._repair()
        return session

    @classmethod
    def latest_active(cls, store: GameStore) -> GrimpeSession | None:
        games = store.games(kind="grimpe", status="active", limit=1)
        return cls.open(store, games[0].id) if games else None

    # --- reading ---------------------------------------------------------------------------
    @property
    def phase(self) -> str:
        return self.game.phase

    def current_seat(self) -> int | None:
        p = self.game.current_player()
        return None if p < 0 else p

    def current_player_name(self) -> str | None:
        seat = self.current_seat()
        return None if seat is None else self.players[seat]

    def legal_slots(self) -> list[tuple[int, int]]:
        return self.game.route.legal_slots() if self.phase in ("build", "place") else []

    def unused_cards(self) -> list[int]:
        return self.game.route.unused_numbers()

    def attempts(self) -> list[StoredAttempt]:
        return self.store.attempts(self.game_id)

    def round_table(self) -> RoundTable:
        n, rounds = len(self.players), self.game.rounds
        scores: list[list[int | None]] = [[None] * rounds for _ in range(n)]
        ids: list[list[int | None]] = [[None] * rounds for _ in range(n)]
        for a in self.attempts():
            if a.seat is None or a.round is None or not 1 <= a.round <= rounds:
                continue
            scores[a.seat][a.round - 1] = a.score
            ids[a.seat][a.round - 1] = a.id
        totals = tuple(sum(s for s in row if s is not None) for row in scores)
        winners: tuple[int, ...] = ()
        if self.game.is_terminal():
            best = max(totals)
            winners = tuple(i for i, t in enumerate(totals) if t == best)
        return RoundTable(tuple(self.players), rounds, tuple(map(tuple, scores)), totals,
                          winners, tuple(map(tuple, ids)))

    def route_json(self) -> dict[str, Any]:
        return self.game.route.to_json()

    # --- writing (called by commands) ------------------------------------------------------
    def place_card(self, move: PlaceCard) -> None:
        self.game.judge(move)  # IllegalMove explains itself
        self.store.add_move(self.game_id, move.notation())
        self.game.apply(move)
        self._finish_if_over()

    def record_attempt(
        self,
        auto_verdict: dict[str, Any],
        *,
        video_path: str | None = None,
        sidecar_path: str | None = None,
        events_path: str | None = None,
    ) -> int:
        """Store the attempt of the player to climb, then its ``climb`` move; returns its id."""
        if self.phase != "climb":
            raise SessionError("no attempt is expected now: the game is not in a round")
        seat = self.current_seat()
        assert seat is not None
        score = int(auto_verdict.get("score", 0))
        move = ClimbResult(score)
        self.game.judge(move)
        aid = self.store.save_attempt(
            auto_verdict=auto_verdict, game_id=self.game_id, round=self.game.round_no,
            seat=seat, player=self.players[seat], route=self.route_json(),
            video_path=video_path, sidecar_path=sidecar_path, events_path=events_path,
        )
        self.store.add_move(self.game_id, move.notation())
        self.game.apply(move)
        self._finish_if_over()
        return aid

    def review_attempt(self, attempt_id: int, overrides: list[dict[str, Any]],
                       final_verdict: dict[str, Any]) -> None:
        """Keep a person's overrides and the final verdict; the scores follow."""
        a = self.store.attempt(attempt_id)
        if a.game_id != self.game_id:
            raise SessionError(f"attempt #{attempt_id} is not part of game #{self.game_id}")
        self.store.review_attempt(attempt_id, overrides, final_verdict)
        self._rewrite_open_round()
        self._finish_if_over(refresh=True)

    def finish(self) -> dict[str, Any]:
        """End the game now (abandoned when rounds remain); returns the result written."""
        table = self.round_table()
        best = max(table.totals) if table.totals else 0
        winners = [self.players[i] for i, t in enumerate(table.totals) if t == best]
        status = "finished" if self.game.is_terminal() else "abandoned"
        result = {"winners": winners, "totals": dict(zip(self.players, table.totals)),
                  "rounds_played": len(self.game.past_rounds)}
        self.store.finish_game(self.game_id, result, status=status)
        return result

    # --- internals -------------------------------------------------------------------------
    def _finish_if_over(self, refresh: bool = False) -> None:
        if self.game.is_terminal():
            if refresh or self.store.game(self.game_id).status == "active":
                self.finish()

    def _climb_plies(self) -> list[int]:
        return [i for i, m in enumerate(self.game.record()) if isinstance(m, ClimbResult)]

    def _rewrite_open_round(self) -> None:
        """Make the record's climbs after the last card agree with the attempts' final scores."""
        record = self.game.record()
        last_place = max((i for i, m in enumerate(record) if isinstance(m, PlaceCard)), default=-1)
        tail = record[last_place + 1:]
        if not tail:
            return
        round_no = self.game.round_no
        by_seat = {a.seat: a.score for a in self.attempts() if a.round == round_no}
        order = self.game.round_order
        wanted = [ClimbResult(by_seat.get(order[i], m.score)) for i, m in enumerate(tail)]
        if wanted == tail:
            return
        for _ in tail:
            self.store.undo_move(self.game_id)
        for m in wanted:
            self.store.add_move(self.game_id, m.notation())
        self.game = self.store.resume(self.game_id)

    def _repair(self) -> None:
        """Append the ``climb`` move of attempts stored without it (crash between writes)."""
        while self.phase == "climb":
            seat, rnd = self.current_seat(), self.game.round_no
            found = [a for a in self.attempts() if a.round == rnd and a.seat == seat]
            if not found:
                return
            move = ClimbResult(found[-1].score)
            self.store.add_move(self.game_id, move.notation())
            self.game.apply(move)
        self._finish_if_over()
