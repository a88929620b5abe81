"""Quoridor (Gigamic): rules engine, notation, hint search. Registered as ``"quoridor"``.

Rules as decided in ``shared/docs/quoridor-referee.md``; the rule codes that
:meth:`QuoridorGame.judge` raises are listed in :mod:`games.quoridor.game`.

>>> from games.quoridor import QuoridorGame, parse_move
>>> g = QuoridorGame()                      # 2 players; QuoridorGame(4) for 4
>>> g.play_notation("e2"); g.play_notation("e8"); g.play(parse_move("e3h"))
PawnMove(square='e2')
PawnMove(square='e8')
>>> g.shortest_path_lengths(), g.position().text()
([8, 8], 'e2 e8/e3h/9 10/P2')

Modules: ``moves`` (PawnMove, WallMove, parse_move), ``board`` (bitboard geometry),
``game`` (QuoridorGame, QuoridorPosition), ``search`` (alpha-beta hints), ``bots`` (greedy,
random and search players), ``bench`` (``python -m games.quoridor.bench perft|match``).
"""

from __future__ import annotations

from games.base import IllegalMove, NotationError
from games.quoridor.game import QuoridorGame, QuoridorPosition
from games.quoridor.moves import PawnMove, QuoridorMove, WallMove, parse_move
from games.registry import GameSpec, register

__all__ = [
    "SPEC",
    "IllegalMove",
    "NotationError",
    "PawnMove",
    "QuoridorGame",
    "QuoridorMove",
    "QuoridorPosition",
    "WallMove",
    "parse_move",
]


def _new_game(num_players: int = 2, **options: object) -> QuoridorGame:
    return QuoridorGame(num_players=num_players, **options)  # type: ignore[arg-type]


SPEC = register(
    GameSpec(
        name="quoridor",
        title="Quoridor",
        min_players=2,
        max_players=4,
        components={
            "board": "9×9 squares",
            "pawns": 4,
            "walls": 20,
            "walls_per_player": {2: 10, 4: 5},
            "player_counts": (2, 4),
        },
        factory=_new_game,
        test_options={},
    )
)
