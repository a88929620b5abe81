"""`arbitre history`: past games from the game-keeping database."""

from __future__ import annotations

import argparse
import json
import time

from ui.errors import UserError


def add_db_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--db", metavar="PATH",
        help="game database (default: $ARBITRE_DB, else arbitre.sqlite3 in your data directory)",
    )


def open_store(args: argparse.Namespace):  # -> GameStore
    from games.store import GameStore, StoreError

    try:
        return GameStore(getattr(args, "db", None))
    except StoreError as exc:
        raise UserError(str(exc)) from None


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "history", help="list past games", description="List past games, newest first, "
        "or show one game in full with `arbitre history show ID`.",
    )
    add_db_option(p)
    p.add_argument("--kind", choices=["grimpe", "quoridor"], help="only games of this kind")
    p.add_argument("--limit", type=int, default=20, help="how many games (default 20)")
    p.add_argument("--json", action="store_true", help="print JSON instead of a table")
    p.set_defaults(func=_list, parser=p)
    hs = p.add_subparsers(dest="history_command", metavar="show")
    show = hs.add_parser("show", help="one game in full", description="One game in full: "
                         "players, record, attempts with automatic and reviewed verdicts.")
    show.add_argument("game_id", type=int, metavar="ID")
    add_db_option(show)
    show.add_argument("--json", action="store_true", help="print JSON")
    show.set_defaults(func=_show)


def _when(ts: float | None) -> str:
    return time.strftime("%Y-%m-%d %H:%M", time.localtime(ts)) if ts else "-"


def _list(args: argparse.Namespace) -> int:
    with open_store(args) as store:
        games = store.games(kind=args.kind, limit=args.limit)
        if args.json:
            print(json.dumps([_game_json(g) for g in games], ensure_ascii=False, indent=2))
            return 0
        if not games:
            print(f"No games yet in {store.path}.")
            return 0
        print(f"{'#':>4}  {'date':16}  {'game':9}  {'status':9}  players / result")
        for g in games:
            print(f"{g.id:>4}  {_when(g.created_at):16}  {g.kind:9}  {g.status:9}  "
                  f"{', '.join(g.players)}{_result_text(g.result)}")
    return 0


def _show(args: argparse.Namespace) -> int:
    with open_store(args) as store:
        try:
            g = store.game(args.game_id)
        except KeyError as exc:
            raise UserError(f"{exc.args[0]}; `arbitre history` lists the games") from None
        if args.json:
            print(json.dumps(_game_json(g, attempts=True), ensure_ascii=False, indent=2))
            return 0
        print(f"Game #{g.id} — {g.kind} — {g.status} — started {_when(g.created_at)}")
        print("Players: " + ", ".join(f"{i + 1}. {p}" for i, p in enumerate(g.players)))
        if g.moves:
            print("Record: " + g.record_text)
        for a in g.attempts:
            reviewed = " (reviewed)" if a.overrides else ""
            fault = a.final_verdict.get("fault") or {}
            print(f"  round {a.round} · {a.player or '?'}: {a.final_verdict.get('result')} "
                  f"{a.score} pts{' · ' + fault['code'] if fault.get('code') else ''}{reviewed}")
        if g.result:
            print("Result:" + _result_text(g.result))
    return 0


def _result_text(result: dict | None) -> str:
    if not result:
        return ""
    winners = result.get("winners")
    return f" — winner(s): {', '.join(map(str, winners))}" if winners else ""


def _game_json(g, attempts: bool = False) -> dict:
    d = {
        "id": g.id, "kind": g.kind, "status": g.status, "players": list(g.players),
        "options": g.options, "moves": list(g.moves), "result": g.result,
        "created_at": g.created_at, "finished_at": g.finished_at,
    }
    if attempts:
        d["attempts"] = [
            {"id": a.id, "round": a.round, "seat": a.seat, "player": a.player, "score": a.score,
             "auto_verdict": a.auto_verdict, "overrides": a.overrides,
             "final_verdict": a.final_verdict, "video_path": a.video_path}
            for a in g.attempts
        ]
    return d
