"""Game keeping: a real SQLite database of players, games, their moves and judged attempts.

Every write is one transaction (``synchronous=FULL``, WAL journal), so a crash or a closed
window never loses a move or an attempt that was already written. A game is stored as its
registry name, options and move record (notation), so any registered game can be resumed by
replaying its record. Grimpe attempts keep both the automatic verdict and a person's overrides.
"""

from __future__ import annotations

import json
import os
import sqlite3
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

__all__ = [
    "GameStore",
    "StoreError",
    "StoredGame",
    "StoredAttempt",
    "default_db_path",
    "SCHEMA_VERSION",
]

SCHEMA_VERSION = 1

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS players (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE COLLATE NOCASE,
    created_at REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    kind TEXT NOT NULL,
    title TEXT NOT NULL DEFAULT '',
    options_json TEXT NOT NULL DEFAULT '{}',
    status TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'finished', 'abandoned')),
    result_json TEXT,
    created_at REAL NOT NULL,
    finished_at REAL
);
CREATE TABLE IF NOT EXISTS game_players (
    game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    seat INTEGER NOT NULL,
    player_id INTEGER NOT NULL REFERENCES players(id),
    PRIMARY KEY (game_id, seat)
);
CREATE TABLE IF NOT EXISTS moves (
    game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    ply INTEGER NOT NULL,
    notation TEXT NOT NULL,
    detail_json TEXT,
    created_at REAL NOT NULL,
    PRIMARY KEY (game_id, ply)
);
CREATE TABLE IF NOT EXISTS attempts (
    id INTEGER PRIMARY KEY,
    game_id INTEGER REFERENCES games(id) ON DELETE CASCADE,
    round INTEGER,
    seat INTEGER,
    player_id INTEGER REFERENCES players(id),
    route_json TEXT,
    auto_verdict_json TEXT NOT NULL,
    overrides_json TEXT NOT NULL DEFAULT '[]',
    final_verdict_json TEXT NOT NULL,
    score INTEGER NOT NULL,
    video_path TEXT,
    sidecar_path TEXT,
    events_path TEXT,
    created_at REAL NOT NULL,
    updated_at REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS attempts_by_game ON attempts(game_id, round, seat);
"""


class StoreError(RuntimeError):
    """The database cannot be opened or used; the message says which file and what to do."""


def default_db_path() -> Path:
    """``$ARBITRE_DB`` when set, else ``arbitre.sqlite3`` in the user's data directory."""
    env = os.environ.get("ARBITRE_DB")
    if env:
        return Path(env).expanduser()
    from platformdirs import user_data_dir

    return Path(user_data_dir("arbitre", appauthor=False)) / "arbitre.sqlite3"


@dataclass(frozen=True)
class StoredAttempt:
    id: int
    game_id: int | None
    round: int | None
    seat: int | None
    player: str | None
    auto_verdict: dict[str, Any]
    overrides: list[Any]
    final_verdict: dict[str, Any]
    score: int
    route: dict[str, Any] | None
    video_path: str | None
    sidecar_path: str | None
    events_path: str | None
    created_at: float
    updated_at: float


@dataclass(frozen=True)
class StoredGame:
    id: int
    kind: str
    title: str
    players: tuple[str, ...]
    options: dict[str, Any]
    moves: tuple[str, ...]
    status: str
    result: dict[str, Any] | None
    created_at: float
    finished_at: float | None
    attempts: tuple[StoredAttempt, ...] = field(default=())

    @property
    def record_text(self) -> str:
        return " ".join(self.moves)


class GameStore:
    """The game history database. Use as a context manager or call :meth:`close`."""

    def __init__(self, path: str | os.PathLike[str] | None = None) -> None:
        self.path = Path(path) if path is not None else default_db_path()
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(self.path, timeout=10.0, isolation_level=None)
            self._db.row_factory = sqlite3.Row
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.execute("PRAGMA foreign_keys=ON")
            with self._tx():
                for stmt in _SCHEMA.split(";"):
                    if stmt.strip():
                        self._db.execute(stmt)
                row = self._db.execute("SELECT value FROM meta WHERE key='schema'").fetchone()
                if row is None:
                    self._db.execute(
                        "INSERT INTO meta(key, value) VALUES ('schema', ?)", (str(SCHEMA_VERSION),)
                    )
                elif int(row[0]) > SCHEMA_VERSION:
                    raise StoreError(
                        f"{self.path}: written by a newer Arbitre (schema {row[0]}, this one "
                        f"reads {SCHEMA_VERSION}); update Arbitre or use another --db"
                    )
        except sqlite3.DatabaseError as exc:
            raise StoreError(
                f"{self.path}: not a usable Arbitre database ({exc}); "
                "move it aside or choose another file with --db"
            ) from None
        except OSError as exc:
            raise StoreError(f"{self.path}: cannot create the database ({exc})") from None

    # -- plumbing --------------------------------------------------------------------
    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> GameStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextmanager
    def _tx(self) -> Iterator[sqlite3.Connection]:
        self._db.execute("BEGIN IMMEDIATE")
        try:
            yield self._db
        except BaseException:
            self._db.execute("ROLLBACK")
            raise
        else:
            self._db.execute("COMMIT")

    # -- players -----------------------------------------------------------------------
    def player_id(self, name: str) -> int:
        """The id of the player called ``name`` (case-insensitive), created if new."""
        clean = " ".join(name.split())
        if not clean:
            raise ValueError("a player needs a name")
        with self._tx() as db:
            row = db.execute("SELECT id FROM players WHERE name = ?", (clean,)).fetchone()
            if row:
                return int(row[0])
            cur = db.execute(
                "INSERT INTO players(name, created_at) VALUES (?, ?)", (clean, time.time())
            )
            return int(cur.lastrowid)

    def players(self) -> list[str]:
        return [r[0] for r in self._db.execute("SELECT name FROM players ORDER BY name")]

    # -- games ---------------------------------------------------------------------------
    def start_game(
        self,
        kind: str,
        players: Sequence[str],
        options: dict[str, Any] | None = None,
        title: str = "",
    ) -> int:
        """Record a new game and its seating; returns the game id."""
        if not players:
            raise ValueError("a game needs at least one player")
        ids = [self.player_id(p) for p in players]
        with self._tx() as db:
            cur = db.execute(
                "INSERT INTO games(kind, title, options_json, created_at) VALUES (?, ?, ?, ?)",
                (kind, title, json.dumps(options or {}, sort_keys=True), time.time()),
            )
            gid = int(cur.lastrowid)
            db.executemany(
                "INSERT INTO game_players(game_id, seat, player_id) VALUES (?, ?, ?)",
                [(gid, seat, pid) for seat, pid in enumerate(ids)],
            )
        return gid

    def add_move(self, game_id: int, notation: str, detail: dict[str, Any] | None = None) -> int:
        """Append a move to a game's record; returns its ply (0-based)."""
        with self._tx() as db:
            self._require_game(db, game_id)
            ply = db.execute(
                "SELECT COALESCE(MAX(ply) + 1, 0) FROM moves WHERE game_id = ?", (game_id,)
            ).fetchone()[0]
            db.execute(
                "INSERT INTO moves(game_id, ply, notation, detail_json, created_at) "
                "VALUES (?, ?, ?, ?, ?)",
                (game_id, ply, notation, json.dumps(detail) if detail else None, time.time()),
            )
        return int(ply)

    def undo_move(self, game_id: int) -> str | None:
        """Remove the last move (a person corrected the referee); returns its notation."""
        with self._tx() as db:
            row = db.execute(
                "SELECT ply, notation FROM moves WHERE game_id = ? ORDER BY ply DESC LIMIT 1",
                (game_id,),
            ).fetchone()
            if row is None:
                return None
            db.execute("DELETE FROM moves WHERE game_id = ? AND ply = ?", (game_id, row[0]))
            return str(row[1])

    def finish_game(self, game_id: int, result: dict[str, Any], status: str = "finished") -> None:
        with self._tx() as db:
            self._require_game(db, game_id)
            db.execute(
                "UPDATE games SET status = ?, result_json = ?, finished_at = ? WHERE id = ?",
                (status, json.dumps(result, sort_keys=True), time.time(), game_id),
            )

    def reopen_game(self, game_id: int) -> None:
        """A finished game goes on again (its winning move was taken back): status ``active``,
        no result, no end time."""
        with self._tx() as db:
            self._require_game(db, game_id)
            db.execute(
                "UPDATE games SET status = 'active', result_json = NULL, finished_at = NULL "
                "WHERE id = ?",
                (game_id,),
            )

    def game(self, game_id: int) -> StoredGame:
        row = self._db.execute("SELECT * FROM games WHERE id = ?", (game_id,)).fetchone()
        if row is None:
            raise KeyError(f"no game #{game_id} in {self.path}")
        return self._game_from_row(row, with_attempts=True)

    def games(
        self, *, kind: str | None = None, status: str | None = None, limit: int | None = None
    ) -> list[StoredGame]:
        """Games, newest first."""
        sql, args = "SELECT * FROM games WHERE 1=1", []
        if kind:
            sql += " AND kind = ?"
            args.append(kind)
        if status:
            sql += " AND status = ?"
            args.append(status)
        sql += " ORDER BY created_at DESC, id DESC"
        if limit:
            sql += " LIMIT ?"
            args.append(int(limit))
        return [self._game_from_row(r, with_attempts=False) for r in self._db.execute(sql, args)]

    def resume(self, game_id: int) -> Any:
        """Rebuild the game object (any registered game) from its options and move record."""
        from games import registry

        g = self.game(game_id)
        spec = registry.get(g.kind)
        options = dict(g.options)
        options.setdefault("num_players", len(g.players))
        game = spec.factory(**options) if spec.factory else None
        if game is None:
            raise StoreError(f"game kind {g.kind!r} cannot be rebuilt")
        for text in g.moves:
            game.play_notation(text)
        return game

    # -- attempts (Grimpe) -------------------------------------------------------------
    def save_attempt(
        self,
        *,
        auto_verdict: dict[str, Any],
        game_id: int | None = None,
        round: int | None = None,
        seat: int | None = None,
        player: str | None = None,
        route: dict[str, Any] | None = None,
        overrides: list[Any] | None = None,
        final_verdict: dict[str, Any] | None = None,
        video_path: str | None = None,
        sidecar_path: str | None = None,
        events_path: str | None = None,
    ) -> int:
        """Store a judged attempt; returns its id. ``final_verdict`` defaults to the automatic one."""
        final = final_verdict if final_verdict is not None else auto_verdict
        pid = self.player_id(player) if player else None
        now = time.time()
        with self._tx() as db:
            if game_id is not None:
                self._require_game(db, game_id)
            cur = db.execute(
                "INSERT INTO attempts(game_id, round, seat, player_id, route_json, "
                "auto_verdict_json, overrides_json, final_verdict_json, score, video_path, "
                "sidecar_path, events_path, created_at, updated_at) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    game_id, round, seat, pid,
                    json.dumps(route) if route is not None else None,
                    json.dumps(auto_verdict), json.dumps(overrides or []), json.dumps(final),
                    int(final.get("score", 0)), video_path, sidecar_path, events_path, now, now,
                ),
            )
            return int(cur.lastrowid)

    def review_attempt(
        self, attempt_id: int, overrides: list[Any], final_verdict: dict[str, Any]
    ) -> None:
        """A person's overrides and the verdict they produce; the automatic verdict is kept."""
        with self._tx() as db:
            cur = db.execute(
                "UPDATE attempts SET overrides_json = ?, final_verdict_json = ?, score = ?, "
                "updated_at = ? WHERE id = ?",
                (
                    json.dumps(overrides), json.dumps(final_verdict),
                    int(final_verdict.get("score", 0)), time.time(), attempt_id,
                ),
            )
            if cur.rowcount != 1:
                raise KeyError(f"no attempt #{attempt_id} in {self.path}")

    def attempt(self, attempt_id: int) -> StoredAttempt:
        row = self._db.execute(_ATTEMPT_SQL + " WHERE a.id = ?", (attempt_id,)).fetchone()
        if row is None:
            raise KeyError(f"no attempt #{attempt_id} in {self.path}")
        return _attempt_from_row(row)

    def attempts(self, game_id: int | None = None) -> list[StoredAttempt]:
        if game_id is None:
            rows = self._db.execute(_ATTEMPT_SQL + " ORDER BY a.id")
        else:
            rows = self._db.execute(_ATTEMPT_SQL + " WHERE a.game_id = ? ORDER BY a.id", (game_id,))
        return [_attempt_from_row(r) for r in rows]

    # -- helpers ---------------------------------------------------------------------------
    def _require_game(self, db: sqlite3.Connection, game_id: int) -> None:
        if db.execute("SELECT 1 FROM games WHERE id = ?", (game_id,)).fetchone() is None:
            raise KeyError(f"no game #{game_id} in {self.path}")

    def _game_from_row(self, row: sqlite3.Row, *, with_attempts: bool) -> StoredGame:
        gid = int(row["id"])
        players = tuple(
            r[0]
            for r in self._db.execute(
                "SELECT p.name FROM game_players gp JOIN players p ON p.id = gp.player_id "
                "WHERE gp.game_id = ? ORDER BY gp.seat",
                (gid,),
            )
        )
        moves = tuple(
            r[0]
            for r in self._db.execute(
                "SELECT notation FROM moves WHERE game_id = ? ORDER BY ply", (gid,)
            )
        )
        return StoredGame(
            id=gid,
            kind=row["kind"],
            title=row["title"],
            players=players,
            options=json.loads(row["options_json"]),
            moves=moves,
            status=row["status"],
            result=json.loads(row["result_json"]) if row["result_json"] else None,
            created_at=row["created_at"],
            finished_at=row["finished_at"],
            attempts=tuple(self.attempts(gid)) if with_attempts else (),
        )


_ATTEMPT_SQL = (
    "SELECT a.*, p.name AS player_name FROM attempts a LEFT JOIN players p ON p.id = a.player_id"
)


def _attempt_from_row(row: sqlite3.Row) -> StoredAttempt:
    return StoredAttempt(
        id=int(row["id"]),
        game_id=row["game_id"],
        round=row["round"],
        seat=row["seat"],
        player=row["player_name"],
        auto_verdict=json.loads(row["auto_verdict_json"]),
        overrides=json.loads(row["overrides_json"]),
        final_verdict=json.loads(row["final_verdict_json"]),
        score=int(row["score"]),
        route=json.loads(row["route_json"]) if row["route_json"] else None,
        video_path=row["video_path"],
        sidecar_path=row["sidecar_path"],
        events_path=row["events_path"],
        created_at=row["created_at"],
        updated_at=row["updated_at"],
    )
