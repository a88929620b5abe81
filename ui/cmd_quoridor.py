"""``arbitre quoridor``: legal moves and hints for a Quoridor game given by its record.

Imports only the rules engine (no numpy, no cv2) so that ``arbitre quoridor moves`` answers at
once.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from ui.errors import UserError


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    q = sub.add_parser(
        "quoridor",
        help="Quoridor: legal moves, hints, and following a game on camera",
        description="Quoridor tools. A game is given as its record from the start: "
        "pawn moves as squares (e2), walls as anchor + h/v (e3h).",
    )
    q.set_defaults(parser=q)
    actions = q.add_subparsers(dest="quoridor_command", metavar="ACTION")

    def common(p: argparse.ArgumentParser) -> None:
        p.add_argument("--players", type=int, choices=(2, 4), default=2, help="2 (default) or 4")
        p.add_argument("moves", nargs="*", metavar="MOVE", help="the game record, e.g. e2 e8 e3h")

    m = actions.add_parser(
        "moves",
        help="print the legal moves of the side to play",
        description="Replay the record and print the legal moves of the side to play, one per "
        "line. Exits 2 naming the first illegal move.",
    )
    common(m)
    m.set_defaults(func=_cmd_moves)

    h = actions.add_parser(
        "hint",
        help="suggest a move and evaluate the position",
        description="Replay the record, then search for a move for the side to play.",
    )
    common(h)
    h.add_argument(
        "--time", type=float, default=1.0, metavar="S", help="seconds to think (default 1)"
    )
    h.set_defaults(func=_cmd_hint)

    from ui.quoridor_watch import add_parser as add_watch

    add_watch(actions)


def _replay(players: int, texts: Sequence[str]):  # type: ignore[no-untyped-def]
    from games.base import IllegalMove, NotationError
    from games.quoridor.game import QuoridorGame

    game = QuoridorGame(num_players=players)
    words = [w for t in texts for w in t.split()]
    for ply, text in enumerate(words, start=1):
        try:
            game.play_notation(text)
        except NotationError as exc:
            raise UserError(f"move {ply} ({text!r}) is not a move: {exc}") from None
        except IllegalMove as exc:
            raise UserError(
                f"move {ply} ({text}) is illegal: {exc.message} [rule: {exc.code}]"
            ) from None
    return game


def _cmd_moves(args: argparse.Namespace) -> int:
    import sys

    game = _replay(args.players, args.moves)
    if game.is_terminal():
        print(f"game over: P{game.winner + 1} has won; no legal moves", file=sys.stderr)
        return 0
    print("\n".join(m.notation() for m in game.legal_moves()))
    return 0


def _cmd_hint(args: argparse.Namespace) -> int:
    from games.quoridor.search import search

    game = _replay(args.players, args.moves)
    if game.is_terminal():
        raise UserError(
            f"the game is over: P{game.winner + 1} has won; there is no move to suggest"
        )
    if args.time <= 0:
        raise UserError("--time must be positive (seconds to think)")
    me = game.current_player()
    result = search(game, time_s=args.time)
    paths = ", ".join(f"P{p + 1} {d}" for p, d in enumerate(result.distances))
    print(f"hint: {result.move.notation()}")
    print(f"to play: P{me + 1}")
    print(f"shortest paths: {paths}")
    print(f"score for P{me + 1}: {result.describe()}")
    print(f"line: {' '.join(m.notation() for m in result.pv)}")
    return 0
