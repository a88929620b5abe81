"""Players for matches and tests: a greedy baseline, a random mover, and the search."""

from __future__ import annotations

import random
from typing import Protocol

from games.quoridor import board as B
from games.quoridor.game import MOVES, QuoridorGame
from games.quoridor.moves import QuoridorMove

__all__ = ["Bot", "GreedyBot", "RandomBot", "SearchBot"]


class Bot(Protocol):
    name: str

    def choose(self, game: QuoridorGame) -> QuoridorMove: ...


class GreedyBot:
    """Moves along its shortest path; places a wall when an opponent is closer to its goal.

    The wall is the one that lengthens the closest opponent's path the most relative to its own
    (only if that gain is positive). Ties are broken at random (seeded).
    """

    name = "greedy"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, game: QuoridorGame) -> QuoridorMove:
        g, rng = game, self.rng
        me = g.current_player()
        n, s, e, w = g._may
        dist = g.shortest_path_lengths()
        opps = [q for q in range(g.num_players) if q != me]
        closest = min(opps, key=lambda q: (dist[q], rng.random()))
        if g._walls_left[me] > 0 and dist[closest] < dist[me]:
            best_gain, best = 0, []
            for code in g.legal_wall_codes():
                cn, cs, ce, cw = B.WALL_CLEAR[code - B.WALL_BASE]
                may = (n & ~cn, s & ~cs, e & ~ce, w & ~cw)
                gain = B.distance(1 << g._pawns[closest], g._goals[closest], *may) - dist[closest]
                if gain <= 0:
                    continue
                gain -= B.distance(1 << g._pawns[me], g._goals[me], *may) - dist[me]
                if gain > best_gain:
                    best_gain, best = gain, [code]
                elif gain == best_gain and best:
                    best.append(code)
            if best:
                return MOVES[rng.choice(best)]
        targets = g.pawn_targets(me)
        scored = [(B.distance(1 << t, g._goals[me], n, s, e, w), t) for t in targets]
        low = min(d for d, _ in scored)
        return MOVES[rng.choice([t for d, t in scored if d == low])]


class RandomBot:
    """A uniformly random legal move, pawn moves preferred with probability ``pawn_bias``."""

    name = "random"

    def __init__(self, seed: int | None = None, pawn_bias: float = 0.7) -> None:
        self.rng = random.Random(seed)
        self.pawn_bias = pawn_bias

    def choose(self, game: QuoridorGame) -> QuoridorMove:
        codes = game.legal_codes()
        if self.rng.random() < self.pawn_bias:
            codes = [c for c in codes if c < B.WALL_BASE] or codes
        return MOVES[self.rng.choice(codes)]


class SearchBot:
    """The hint engine (:func:`games.quoridor.search.search`) with a per-move time limit."""

    name = "search"

    def __init__(self, time_s: float = 1.0, seed: int | None = None, max_depth: int = 20) -> None:
        self.time_s = time_s
        self.max_depth = max_depth
        self.rng = random.Random(seed)

    def choose(self, game: QuoridorGame) -> QuoridorMove:
        from games.quoridor.search import search

        return search(game, self.time_s, self.max_depth, seed=self.rng.randrange(1 << 30)).move
