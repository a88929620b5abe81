"""Speed of the Grimpe! rules engine: ``python -m games.grimpe.bench`` prints the figures.

Measures the streaming judge on generated legal climbs (events judged per second, i.e. what a
live referee pays per contact event), the catalogue build, and a route's hold geometry.
"""

from __future__ import annotations

import random
import time

from games.grimpe.cards import FINGERS, ColourMap, default_catalog
from games.grimpe.climb import POINTS, ClimbJudge
from games.grimpe.route import Route


def _route() -> Route:
    r = Route()
    for number, col, row in [(11, 0, 2), (20, 1, 2), (27, 1, 3), (7, 0, 3), (15, 0, 4), (22, 0, 5)]:
        r.place(number, col, row, 0)
    return r


def legal_climb(route: Route, rng: random.Random) -> tuple[list[dict], int]:
    """A random legal climb on ``route`` (default colour map) and its score."""
    cmap = ColourMap()
    colours = {h.id: h.colour for h in route.holds()}
    holds_of = {f: [h for h, c in colours.items() if cmap.finger_for(c) == f] for f in FINGERS}
    t = 0.0
    events: list[dict] = []
    first = rng.choice(FINGERS)
    events.append({"t": t, "type": "down", "finger": first, "target": "start"})
    down = {first: "start"}
    burned: set[str] = set()
    score = 0
    while True:
        free = [f for f in FINGERS if f not in down]
        taken = burned | set(down.values())
        usable = {f: [h for h in holds_of[f] if h not in taken] for f in free}
        climbers = [f for f in free if usable[f]]
        final = not climbers or rng.random() < 0.2
        keeper = rng.choice(free if final else climbers)
        for f in [keeper] + [g for g in free if g != keeper and rng.random() < 0.3]:
            opts = ["finish"] if (final and f == keeper) else [
                h for h in usable[f] if h not in down.values()
            ]
            if not opts:
                continue
            t += 0.1
            down[f] = rng.choice(opts)
            events.append({"t": t, "type": "down", "finger": f, "target": down[f]})
        score += POINTS[len(down)]
        for f in [g for g in list(down) if g != keeper]:
            t += 0.1
            events.append({"t": t, "type": "up", "finger": f})
            if down[f] not in ("start", "finish"):
                burned.add(down[f])
            del down[f]
        if final:
            return events, score


def main() -> None:
    t0 = time.perf_counter()
    for seed in range(20):
        default_catalog.__wrapped__(seed)
    print(f"catalogue build: {(time.perf_counter() - t0) / 20 * 1e3:.2f} ms per 42-card catalogue")

    route = _route()
    t0 = time.perf_counter()
    for _ in range(1000):
        route.holds()
    print(f"route holds ({route.hold_count()} holds, {len(route.placements)} cards): "
          f"{(time.perf_counter() - t0):.3f} ms per call")

    rng = random.Random(1)
    climbs = [legal_climb(route, rng) for _ in range(2000)]
    n_events = sum(len(e) for e, _ in climbs)
    t0 = time.perf_counter()
    summits = 0
    for events, score in climbs:
        v = ClimbJudge(route).feed_all(events)
        summits += v.result == "summit" and v.score == score
    dt = time.perf_counter() - t0
    print(f"judge: {len(climbs)} generated legal climbs, {n_events} events, "
          f"{n_events / dt:,.0f} events/s ({dt / n_events * 1e6:.1f} µs per event); "
          f"{summits}/{len(climbs)} summits with the expected score")


if __name__ == "__main__":
    main()
