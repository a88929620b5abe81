"""`arbitre grimpe ...`: judge a climb from its event log, show or build a route, list cards.

Other command modules add to the same group with :func:`grimpe_group`::

    from ui.cmd_grimpe import grimpe_group
    grimpe_group(sub).add_parser("judge-video", ...)
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from ui.errors import UserError

_GROUP_ATTR = "_arbitre_grimpe_sub"


def grimpe_group(sub: argparse._SubParsersAction) -> argparse._SubParsersAction:
    """The ``grimpe`` group's subparsers, created on first use (any module may call this)."""
    parser = sub.choices.get("grimpe")
    if parser is None:
        parser = sub.add_parser(
            "grimpe",
            help="Grimpe!: judge climbs, show and build routes",
            description="Grimpe! tools: judge a climb from its contact event log, show or "
            "build a route, list the wall cards.",
        )
        parser.set_defaults(func=None, parser=parser)
        group = parser.add_subparsers(dest="grimpe_command", metavar="COMMAND")
        setattr(parser, _GROUP_ATTR, group)
    return getattr(parser, _GROUP_ATTR)


def register(sub: argparse._SubParsersAction) -> None:
    g = grimpe_group(sub)

    j = g.add_parser(
        "judge",
        help="judge one climb from ROUTE.json and EVENTS.jsonl",
        description="Judge one attempt from its contact event log (one JSON object per line: "
        '{"t": s, "type": "down"|"up"|"card_moved"|"other_hand", "finger": ..., "target": ...}). '
        "Prints the verdict: summit, fault (with its code and evidence) or incomplete, the "
        "moves and the score. Exit 0 for any judged attempt, 2 for unreadable input.",
    )
    j.add_argument(
        "route", metavar="ROUTE.json", help="the route (only holds[].id and .colour are needed)"
    )
    j.add_argument("events", metavar="EVENTS.jsonl", help="the contact event log")
    j.add_argument("--json", action="store_true", help="print the verdict as JSON on stdout")
    j.add_argument(
        "--colour-map", metavar="FILE",
        help='JSON {"colour": "finger", ...} for a printing whose colours differ '
        "(default black=thumb, blue=index, green=middle, yellow=ring, red=little)",
    )
    j.add_argument(
        "--overrides", metavar="FILE",
        help="JSON list of a person's overrides (cancel_fault, impose_fault, set_fingers); "
        "prints the automatic and the final verdict",
    )
    j.add_argument(
        "--lang", choices=["en", "fr"], default="en", help="language of the text verdict"
    )
    j.set_defaults(func=_judge)

    r = g.add_parser("route", help="show or build a route", description="Show or build a route.")
    r.set_defaults(func=None, parser=r)
    rs = r.add_subparsers(dest="route_command", metavar="COMMAND")
    show = rs.add_parser(
        "show",
        help="summary of a ROUTE.json",
        description="Cards, holds by colour and zones of a route.",
    )
    show.add_argument("route", metavar="ROUTE.json")
    show.add_argument("--json", action="store_true", help="print the summary as JSON")
    show.set_defaults(func=_route_show)
    build = rs.add_parser(
        "build",
        help="build a route from card placements",
        description="Build a route from placements in order, e.g. '12@0,2r90 7@1,2r0 30@1,3r180' "
        "(card@col,row r rotation°; Départ at slot 0,0; the first card at 0,2). Each placement "
        "is judged. Writes ROUTE.json (to stdout without -o).",
    )
    build.add_argument("placements", nargs="+", metavar="CARD@COL,ROWrDEG")
    build.add_argument("-o", "--output", metavar="ROUTE.json", help="file to write")
    build.add_argument("--catalog", metavar="FILE", help="card catalogue JSON (default: built-in)")
    build.set_defaults(func=_route_build)

    c = g.add_parser("cards", help="list the wall cards", description="The wall-card catalogue.")
    c.add_argument("--catalog", metavar="FILE", help="card catalogue JSON (default: built-in)")
    c.add_argument(
        "--json", action="store_true", help="print the catalogue as JSON (loadable with --catalog)"
    )
    c.set_defaults(func=_cards)

    from ui.grimpe_video import add_parser as add_judge_video

    add_judge_video(g)


# --- reading files -----------------------------------------------------------------------------


def _read_json(path: str, what: str) -> Any:
    p = Path(path)
    if not p.is_file():
        raise UserError(f"{what} {p}: no such file")
    try:
        text = p.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as exc:
        raise UserError(f"{what} {p}: cannot read it ({exc})") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise UserError(
            f"{what} {p}, line {exc.lineno} column {exc.colno}: not valid JSON ({exc.msg}); "
            "fix the file"
        ) from None


def _colour_map(path: str | None):  # -> ColourMap
    from games.grimpe.cards import CatalogError, ColourMap

    if path is None:
        return ColourMap()
    data = _read_json(path, "colour map")
    try:
        return ColourMap.from_dict(data)
    except CatalogError as exc:
        raise UserError(f"colour map {path}: {exc}") from None


def _route_holds(path: str):  # -> tuple[dict, RouteHolds]
    from games.grimpe.climb import RouteHolds

    data = _read_json(path, "route")
    try:
        return data, RouteHolds.from_json(data)
    except (ValueError, TypeError) as exc:
        raise UserError(f"route {path}: {exc}") from None


def _catalog(path: str | None):  # -> Catalog
    from games.grimpe.cards import Catalog, CatalogError, default_catalog

    if path is None:
        return default_catalog()
    data = _read_json(path, "catalogue")
    try:
        return Catalog.from_json(data, source=str(path))
    except CatalogError as exc:
        raise UserError(f"catalogue {path}: {exc}") from None


# --- judge -------------------------------------------------------------------------------------


def _judge(args: argparse.Namespace) -> int:
    from games.grimpe.climb import EventError, format_verdict, judge_events, load_events
    from games.grimpe.overrides import OverrideError, review

    _, holds = _route_holds(args.route)
    cmap = _colour_map(args.colour_map)
    if not Path(args.events).is_file():
        raise UserError(f"events {args.events}: no such file")
    try:
        events = load_events(args.events, holds)
    except EventError as exc:
        raise UserError(f"{exc}; fix or remove that line") from None
    except OSError as exc:
        raise UserError(f"events {args.events}: cannot read it ({exc})") from None

    if args.overrides:
        raw = _read_json(args.overrides, "overrides")
        if not isinstance(raw, list):
            raw = raw.get("overrides") if isinstance(raw, dict) else None
        if not isinstance(raw, list):
            raise UserError(f"overrides {args.overrides}: expected a JSON list of overrides")
        try:
            reviewed = review(holds, events, raw, colour_map=cmap)
        except OverrideError as exc:
            raise UserError(f"overrides {args.overrides}: {exc}") from None
        if args.json:
            print(json.dumps(reviewed.to_json(), ensure_ascii=False, indent=1))
        else:
            fr = args.lang == "fr"
            final_title = "Verdict final (après révision)" if fr else "Final verdict (after review)"
            print(final_title + ":")
            print(format_verdict(reviewed.final, args.lang))
            print()
            print(("Verdict automatique" if fr else "Automatic verdict") + ":")
            print(format_verdict(reviewed.auto, args.lang))
            print()
            print(("Révisions" if fr else "Overrides") + ":")
            for o in reviewed.overrides:
                print("  " + json.dumps(o.to_dict(), ensure_ascii=False))
        return 0

    verdict = judge_events(holds, events, cmap)
    if args.json:
        print(json.dumps(verdict.to_json(), ensure_ascii=False, indent=1))
    else:
        print(format_verdict(verdict, args.lang))
    return 0


# --- routes ------------------------------------------------------------------------------------


def _route_show(args: argparse.Namespace) -> int:
    from games.grimpe.cards import COLOURS

    data, holds = _route_holds(args.route)
    by_colour: dict[str, list[str]] = {c: [] for c in COLOURS}
    for hid, colour in holds.colours.items():
        by_colour[colour].append(hid)
    cards = data.get("cards") if isinstance(data.get("cards"), list) else []
    zones = data.get("zones") if isinstance(data.get("zones"), dict) else {}
    legal = _check_legal(data) if cards else None
    code = _route_code(cards)
    summary = {
        "route": str(args.route),
        "depart": data.get("depart"),
        "arrivee": data.get("arrivee"),
        "cards": cards,
        "code": code,
        "hold_count": len(holds.colours),
        "holds_by_colour": {c: ids for c, ids in by_colour.items() if ids},
        "zones": zones,
        "legal": legal,
    }
    if args.json:
        print(json.dumps(summary, ensure_ascii=False, indent=1))
        return 0
    print(f"Route {args.route}: {len(cards)} card(s), {len(holds.colours)} hold(s)")
    if data.get("depart") is not None:
        print(f"  Départ  {_slot(data.get('depart'))}")
    for c in cards:
        print(f"  card {c.get('number'):>2} at {_slot(c)} turned {c.get('rotation_deg', 0)}°")
    if data.get("arrivee") is not None:
        print(f"  Arrivée {_slot(data.get('arrivee'))}")
    print("Holds by colour:")
    for colour, ids in by_colour.items():
        if ids:
            print(f"  {colour:7} {len(ids)}: {' '.join(ids)}")
    for name in ("start", "finish"):
        z = zones.get(name)
        if isinstance(z, dict):
            centre = f"({z.get('x_mm')}, {z.get('y_mm')}) mm"
            print(f"{name.capitalize()} zone: slot {_slot(z)}, centre {centre}")
    if legal is not None:
        print("Placements: legal" if legal is True else f"Placements: NOT legal — {legal}")
    if code:
        print(f"Code: {code}   (rebuild: arbitre grimpe route build {code})")
    return 0


def _route_code(cards: list) -> str | None:
    from games.grimpe.route import Placement

    try:
        return " ".join(
            Placement(
                int(c["number"]), int(c["col"]), int(c["row"]), float(c.get("rotation_deg", 0))
            ).notation()
            for c in cards
        ) or None
    except (KeyError, TypeError, ValueError):
        return None


def _slot(d: Any) -> str:
    if isinstance(d, dict):
        return f"({d.get('col')},{d.get('row')})"
    return "?"


def _check_legal(data: dict) -> Any:
    """True when the route's cards rebuild legally with the built-in catalogue, else why not."""
    from games.base import IllegalMove
    from games.grimpe.route import Route, RouteFormatError

    try:
        Route.from_json(data, strict=True)
    except (IllegalMove, RouteFormatError) as exc:
        return str(exc)
    return True


def _route_build(args: argparse.Namespace) -> int:
    from games.base import IllegalMove, NotationError
    from games.grimpe.game import PlaceCard
    from games.grimpe.route import Route

    route = Route(_catalog(args.catalog))
    for i, text in enumerate(args.placements, start=1):
        try:
            m = PlaceCard.from_notation(text)
            route.place(m.number, m.col, m.row, m.rotation_deg)
        except NotationError as exc:
            raise UserError(f"placement {i} {text!r}: {exc}") from None
        except IllegalMove as exc:
            raise UserError(f"placement {i} {text!r}: {exc}") from None
    if args.output:
        route.save(args.output)
        done = (
            "building done"
            if route.building_done
            else "fewer than 10 holds: building would go on"
        )
        n_cards, n_holds = len(route.placements), route.hold_count()
        print(f"Wrote {args.output}: {n_cards} cards, {n_holds} holds ({done})", file=sys.stderr)
    else:
        sys.stdout.write(route.dumps())
    return 0


def _cards(args: argparse.Namespace) -> int:
    from games.grimpe.cards import difficulty

    catalog = _catalog(args.catalog)
    if args.json:
        print(json.dumps(catalog.to_json(), indent=1))
        return 0
    print(
        f"{len(catalog)} wall cards ({catalog.source}); "
        "holds as letter:colour@(u,v) mm from the centre"
    )
    for card in catalog:
        holds = "  ".join(f"{h.letter}:{h.colour}@({h.u_mm:g},{h.v_mm:g})" for h in card.holds)
        radius = card.holds[0].radius_mm
        print(f"  {card.number:>2} {difficulty(card.number):12} r={radius:g}  {holds}")
    return 0
