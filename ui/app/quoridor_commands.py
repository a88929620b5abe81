"""The Quoridor panel's model and commands: plain objects, no Qt, testable headless.

:class:`QuoridorSession` is one game kept at the table: the rules engine's game, who played
what (typed by a person, read by the camera, confirmed or corrected), the question the camera
is waiting on, and the SQLite record (each accepted move is written with
:meth:`games.store.GameStore.add_move` as it happens; the winning move finishes the game).

What the camera decodes (:class:`vision.quoridor.watch.MoveEvent`) is a *prediction*; a person's
answer to a question is kept apart (``source`` of each :class:`PlayedMove`): SLEAP's predicted vs
user instances. Every move, whoever gives it, is judged by the engine; an illegal one raises
:class:`games.base.IllegalMove` with the rule's sentence and nothing is written.

:class:`QuoridorKeeper` runs commands and tells its listeners (the widgets) to refresh, like
:class:`ui.app.commands.GameKeeper` does for Grimpe.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from games.base import IllegalMove, NotationError
from games.quoridor import QuoridorGame, parse_move
from games.store import GameStore
from ui.app.keeper import Keeper

__all__ = [
    "CameraEvent",
    "ConfirmMove",
    "CorrectMove",
    "DismissQuestion",
    "ExportRecord",
    "HintResult",
    "NewQuoridorGame",
    "OpenQuoridorGame",
    "PlayMove",
    "PlayedMove",
    "QuoridorCommand",
    "QuoridorKeeper",
    "QuoridorSession",
    "Question",
    "UndoMove",
    "record_text",
    "suggest",
]

KIND = "quoridor"

#: Where a move came from: typed, read by the camera, a candidate a person picked for a
#: question, a move a person typed for a question, or replayed from the database.
SOURCES = ("manual", "camera", "confirmed", "corrected", "stored")


class SessionError(ValueError):
    """A command that cannot run now (no game, no question to answer...); says why."""


@dataclass(frozen=True)
class PlayedMove:
    """One accepted move. ``player`` is 0-based; ``confidence`` and ``frame`` are the
    camera's (None for a typed move)."""

    ply: int
    notation: str
    player: int
    source: str
    confidence: float | None = None
    frame: int | None = None

    def detail(self) -> dict[str, Any]:
        d: dict[str, Any] = {"source": self.source, "player": self.player + 1}
        if self.confidence is not None:
            d["confidence"] = round(float(self.confidence), 3)
        if self.frame is not None:
            d["frame"] = int(self.frame)
        return d


@dataclass
class Question:
    """A change the camera saw that no single legal move explains, waiting for a person.

    ``candidates`` are the camera's nearest moves that are legal now (best first);
    ``literal`` is what the camera literally saw when it was one move (maybe illegal).
    """

    ply: int
    player: int
    frame: int | None
    observed: str
    reason: str
    candidates: list[str] = field(default_factory=list)
    literal: str | None = None


@dataclass(frozen=True)
class HintResult:
    """A suggested move for ``player`` (0-based) with the engine's evaluation."""

    move: str
    player: int
    score: int  # hundredths of a step, from the player's view
    evaluation: str  # e.g. "+1.50 steps (depth 4, 5120 nodes, 0.98 s)"
    distances: list[int]
    line: list[str]
    time_s: float


def suggest(game: QuoridorGame, time_s: float = 1.0, seed: int | None = 0) -> HintResult:
    """The hint engine's move for the side to play, within about ``time_s`` seconds
    (:func:`games.quoridor.search.search`). Raises ``ValueError`` when the game is over."""
    from games.quoridor.search import search

    if game.is_terminal():
        raise ValueError("the game is over: there is no move to suggest")
    me = game.current_player()
    r = search(game.copy(), time_s=time_s, seed=seed)
    return HintResult(r.move.notation(), me, r.score, r.describe(), list(r.distances),
                      [m.notation() for m in r.pv], r.time_s)


def record_text(moves: Sequence[str], players: Sequence[str], num_players: int, *,
                game_id: int | None = None, result: str = "") -> str:
    """A notation record for a .txt file: a header of ``#`` comments (players, seats, result),
    then the moves numbered by round, one round per line (``1. e2 e8``)."""
    seats = ("e1 → row 9", "e9 → row 1") if num_players == 2 else (
        "e1 → row 9", "a5 → column i", "e9 → row 1", "i5 → column a")
    lines = ["# Quoridor" + (f" — game #{game_id}" if game_id is not None else "")]
    for k, name in enumerate(players):
        lines.append(f"# P{k + 1}: {name} ({seats[k]})")
    if result:
        lines.append(f"# Result: {result}")
    for i in range(0, len(moves), num_players):
        lines.append(f"{i // num_players + 1}. " + " ".join(moves[i:i + num_players]))
    return "\n".join(lines) + "\n"


def _closeness(move: str, seen: str) -> tuple[int, int]:
    """Sort key: legal candidates most like what the camera saw first (same kind of move, then
    the nearest square or anchor, in steps)."""
    kind = (move[-1] in "hv") != (seen[-1] in "hv")
    try:
        a, b = move.rstrip("hv"), seen.rstrip("hv")
        steps = abs(ord(a[0]) - ord(b[0])) + abs(int(a[1:]) - int(b[1:]))
        if not kind and move[-1] in "hv" and move[-1] != seen[-1]:
            steps += 1
    except (ValueError, IndexError):
        steps = 99
    return (int(kind), steps)


def _judged(game: QuoridorGame, text: str) -> Any:
    """``text`` parsed and judged for the side to play; raises IllegalMove/NotationError."""
    move = parse_move(text)
    game.judge(move)
    return move


class QuoridorSession:
    """One Quoridor game kept at the table; see the module doc."""

    def __init__(self, store: GameStore, game_id: int, players: Sequence[str],
                 num_players: int) -> None:
        self.store = store
        self.game_id = game_id
        self.players = list(players)
        self.num_players = num_players
        self.game = QuoridorGame(num_players=num_players)
        self.moves: list[PlayedMove] = []
        self.question: Question | None = None
        #: camera moves decoded while a question waits (judged again once it is answered)
        self.held: list[Any] = []
        self.finished = False

    # --- creating and resuming -----------------------------------------------------------
    @classmethod
    def new(cls, store: GameStore, players: Sequence[str], num_players: int = 2) -> QuoridorSession:
        if num_players not in (2, 4):
            raise SessionError(f"Quoridor is played by 2 or 4 players, not {num_players}")
        names = [" ".join(p.split()) for p in players if p.strip()]
        names += [f"P{k + 1}" for k in range(len(names), num_players)]
        if len(names) != num_players:
            raise SessionError(f"{len(names)} names for a {num_players}-player game")
        if len({n.lower() for n in names}) != len(names):
            raise SessionError("each player needs a different name")
        gid = store.start_game(KIND, names, {"num_players": num_players})
        return cls(store, gid, names, num_players)

    @classmethod
    def open(cls, store: GameStore, game_id: int) -> QuoridorSession:
        """Resume a stored game by replaying its record through the engine."""
        g = store.game(game_id)
        if g.kind != KIND:
            raise SessionError(f"game #{game_id} is {g.kind}, not Quoridor")
        n = int(g.options.get("num_players", len(g.players)))
        s = cls(store, game_id, g.players, n)
        for ply, text in enumerate(g.moves):
            me = s.game.current_player()
            s.game.play(parse_move(text))
            s.moves.append(PlayedMove(ply, text, me, "stored"))
        s.finished = g.status != "active"
        return s

    @classmethod
    def latest_active(cls, store: GameStore) -> QuoridorSession | None:
        games = store.games(kind=KIND, status="active", limit=1)
        return cls.open(store, games[0].id) if games else None

    # --- state ---------------------------------------------------------------------------
    @property
    def record(self) -> list[str]:
        return [m.notation for m in self.moves]

    @property
    def to_move(self) -> int | None:
        return None if self.game.is_terminal() else self.game.current_player()

    @property
    def winner(self) -> int | None:
        return self.game.winner

    def result(self) -> dict[str, Any]:
        w = self.game.winner
        if w is None:
            return {}
        return {"winners": [self.players[w]], "winner_seat": w + 1, "plies": len(self.moves)}

    def record_text(self) -> str:
        w = self.game.winner
        res = f"P{w + 1} {self.players[w]} wins" if w is not None else ""
        return record_text(self.record, self.players, self.num_players, game_id=self.game_id,
                           result=res)

    # --- moves ---------------------------------------------------------------------------
    def play(self, text: str, source: str = "manual", *, confidence: float | None = None,
             frame: int | None = None) -> PlayedMove:
        """Judge ``text`` for the side to play, write it, play it. Raises IllegalMove (the rule's
        sentence) or NotationError; nothing is written then."""
        if source not in SOURCES:
            raise ValueError(f"source must be one of {SOURCES}")
        move = _judged(self.game, text)
        me = self.game.current_player()
        pm = PlayedMove(len(self.moves), move.notation(), me, source, confidence, frame)
        self.store.add_move(self.game_id, pm.notation, pm.detail())
        self.game.apply(move)
        self.moves.append(pm)
        if self.game.is_terminal() and not self.finished:
            self.store.finish_game(self.game_id, self.result())
            self.finished = True
        return pm

    def undo(self) -> str:
        """Take back the last move (in the engine and the database); returns it."""
        if not self.moves:
            raise SessionError("no move to undo")
        was_over = self.game.is_terminal()
        self.game.undo()
        last = self.moves.pop()
        self.store.undo_move(self.game_id)
        if was_over and self.finished:
            # the winning move was taken back: the game goes on
            self.store.reopen_game(self.game_id)
            self.finished = False
        self.question = None
        self.held = []
        return last.notation

    def play_many(self, texts: Sequence[str], source: str) -> list[PlayedMove]:
        """Judge all of ``texts`` in order on a copy first; play them only when all are legal."""
        probe = self.game.copy()
        for t in texts:
            probe.apply(_judged(probe, t))
        return [self.play(t, source) for t in texts]

    # --- the camera ----------------------------------------------------------------------
    def camera_event(self, event: Any) -> str:
        """Take one :class:`~vision.quoridor.watch.MoveEvent`. Returns what happened:
        ``"accepted"`` (played), ``"question"`` (a person must answer), ``"held"`` (waits behind
        an open question) or ``"ignored"`` (the game is over)."""
        if self.game.is_terminal():
            return "ignored"
        if self.question is not None:
            self.held.append(event)
            return "held"
        me = self.game.current_player()
        if not event.uncertain and event.move:
            try:
                self.play(event.move, "camera", confidence=event.confidence, frame=event.frame)
                return "accepted"
            except (IllegalMove, NotationError) as exc:
                # the camera followed another position (e.g. before a correction reached it)
                reason = exc.message if isinstance(exc, IllegalMove) else str(exc)
                self.question = Question(len(self.moves), me, event.frame,
                                         f"P{event.player + 1} {event.move}",
                                         reason, self._legal(list(event.candidates)), event.move)
                return "question"
        literal = event.candidates[0] if event.candidates else None
        cands = self._legal(list(event.candidates))
        if literal is not None:
            # also the legal moves nearest to what was seen (the camera ranks by its evidence)
            near = sorted((m.notation() for m in self.game.legal_moves()),
                          key=lambda c: _closeness(c, literal))[:3]
            cands = sorted(dict.fromkeys(cands + near), key=lambda c: _closeness(c, literal))
        self.question = Question(len(self.moves), me, event.frame, event.observed or "",
                                 event.reason or "", cands, literal)
        return "question"

    def _legal(self, texts: Sequence[str]) -> list[str]:
        out: list[str] = []
        for t in texts:
            try:
                _judged(self.game, t)
            except (IllegalMove, NotationError):
                continue
            if t not in out:
                out.append(t)
        return out

    def answer(self, texts: Sequence[str], source: str) -> list[PlayedMove]:
        """Answer the open question with ``texts`` (one move, or several when the camera saw
        several changes at once); each is judged by the engine, all or none are played. Moves
        the camera decoded meanwhile are then judged in order."""
        if self.question is None:
            raise SessionError("no question is waiting for an answer")
        if not texts:
            raise SessionError("give a move, e.g. e2 or e3h")
        played = self.play_many(texts, source)
        self.question = None
        self._release_held()
        return played

    def dismiss(self) -> None:
        """Drop the open question without a move (nothing happened; the table is put back)."""
        if self.question is None:
            raise SessionError("no question is waiting for an answer")
        self.question = None
        self._release_held()

    def _release_held(self) -> None:
        held, self.held = self.held, []
        for k, ev in enumerate(held):
            if self.camera_event(ev) == "question":
                self.held.extend(held[k + 1:])
                return


# --- commands ----------------------------------------------------------------------------


class QuoridorKeeper(Keeper[QuoridorSession]):
    """The panel's model: the database and the Quoridor game being kept (or None)."""

    session_error = SessionError
    no_session_message = "no Quoridor game in progress: start a new game or resume one"

    def latest_active_session(self) -> QuoridorSession | None:
        return QuoridorSession.latest_active(self.store)


class QuoridorCommand:
    """A change to the Quoridor game; ``run(keeper)`` does it and returns a short result."""

    def run(self, keeper: QuoridorKeeper) -> Any:  # pragma: no cover - interface
        raise NotImplementedError


@dataclass(frozen=True)
class NewQuoridorGame(QuoridorCommand):
    """Start a game: ``players`` names in seat order (missing names become P1, P2...)."""

    players: Sequence[str] = ()
    num_players: int = 2

    def run(self, keeper: QuoridorKeeper) -> QuoridorSession:
        keeper.session = QuoridorSession.new(keeper.store, list(self.players), self.num_players)
        return keeper.session


@dataclass(frozen=True)
class OpenQuoridorGame(QuoridorCommand):
    """Resume a stored Quoridor game."""

    game_id: int

    def run(self, keeper: QuoridorKeeper) -> QuoridorSession:
        keeper.session = QuoridorSession.open(keeper.store, self.game_id)
        return keeper.session


@dataclass(frozen=True)
class PlayMove(QuoridorCommand):
    """A move typed by a person (``e2``, ``e3h``), judged by the engine."""

    text: str

    def run(self, keeper: QuoridorKeeper) -> PlayedMove:
        s = keeper.require_session()
        if s.question is not None:
            raise SessionError("answer the camera's question first (confirm, correct or "
                               "dismiss it)")
        return s.play(self.text.strip(), "manual")


@dataclass(frozen=True)
class UndoMove(QuoridorCommand):
    """Take back the last move."""

    def run(self, keeper: QuoridorKeeper) -> str:
        return keeper.require_session().undo()


@dataclass(frozen=True)
class CameraEvent(QuoridorCommand):
    """What the camera decoded (a :class:`~vision.quoridor.watch.MoveEvent`)."""

    event: Any

    def run(self, keeper: QuoridorKeeper) -> str:
        return keeper.require_session().camera_event(self.event)


@dataclass(frozen=True)
class ConfirmMove(QuoridorCommand):
    """A person picks one of the question's candidates."""

    text: str

    def run(self, keeper: QuoridorKeeper) -> list[PlayedMove]:
        return keeper.require_session().answer([self.text.strip()], "confirmed")


@dataclass(frozen=True)
class CorrectMove(QuoridorCommand):
    """A person types what really happened (one move, or several separated by spaces)."""

    text: str

    def run(self, keeper: QuoridorKeeper) -> list[PlayedMove]:
        return keeper.require_session().answer(self.text.split(), "corrected")


@dataclass(frozen=True)
class DismissQuestion(QuoridorCommand):
    """Nothing happened after all (the table was put back as it was)."""

    def run(self, keeper: QuoridorKeeper) -> None:
        keeper.require_session().dismiss()


@dataclass(frozen=True)
class ExportRecord(QuoridorCommand):
    """Write the game's notation record (a .txt) to ``path``; returns the path."""

    path: str

    def run(self, keeper: QuoridorKeeper) -> str:
        s = keeper.require_session()
        p = Path(self.path)
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(s.record_text(), encoding="utf-8")
        return str(p)
