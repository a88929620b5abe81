"""Random legal Grimpe! routes that fit a camera's view (built with :class:`Route`, so every
placement is judged by the rules)."""

from __future__ import annotations

import numpy as np

from games.grimpe.cards import CARD_SIZE_MM, SLOT_PITCH_MM, Catalog, default_catalog
from games.grimpe.route import Route, slot_centre_mm

__all__ = ["random_route", "route_extent_mm", "route_card_poses"]


def random_route(
    rng: np.random.Generator,
    catalog: Catalog | None = None,
    *,
    max_row: int = 4,
    max_abs_col: int = 2,
) -> Route:
    """A route built by the rules until it has 10+ holds, kept compact (cards within
    ``|col| <= max_abs_col`` and ``row <= max_row``) so a 4:3 camera sees it with a hand large
    enough for MediaPipe. Cards with more holds are preferred; rotations are multiples of 90°."""
    catalog = catalog or default_catalog()
    for _ in range(200):
        route = Route(catalog)
        ok = True
        while not route.building_done:
            slots = [s for s in route.legal_slots()
                     if abs(s[0]) <= max_abs_col and s[1] <= max_row]
            if not slots:
                ok = False
                break
            last = route.last
            weights = np.array([1.0 if last is None or s[1] == last.row else 0.55 for s in slots])
            slot = slots[int(rng.choice(len(slots), p=weights / weights.sum()))]
            unused = route.unused_numbers()
            nh = np.array([len(catalog[n].holds) for n in unused], float)
            p = nh ** 2 / (nh ** 2).sum()
            number = int(unused[int(rng.choice(len(unused), p=p))])
            route.place(number, slot[0], slot[1], float(90 * int(rng.integers(4))))
        if ok:
            return route
    raise RuntimeError("could not build a compact route (max_row/max_abs_col too tight?)")


def route_card_poses(route: Route) -> list[tuple[str | int, tuple[float, float], float]]:
    """Every card of the route as (number or ``"depart"``/``"arrivee"``, centre mm, rotation°)."""
    poses: list[tuple[str | int, tuple[float, float], float]] = [
        ("depart", slot_centre_mm(*route.depart), 0.0)]
    for p in route.placements:
        poses.append((p.number, slot_centre_mm(p.col, p.row), float(p.rotation_deg)))
    a = route.arrivee_slot()
    if a is not None:
        poses.append(("arrivee", slot_centre_mm(*a), 0.0))
    return poses


def route_extent_mm(route: Route) -> tuple[float, float, float, float]:
    """(x_min, y_min, x_max, y_max) of every card including Départ and Arrivée, in mm."""
    centres = np.array([c for _, c, _ in route_card_poses(route)], float)
    half = CARD_SIZE_MM / 2 + (SLOT_PITCH_MM - CARD_SIZE_MM) / 2
    lo, hi = centres.min(0) - half, centres.max(0) + half
    return (float(lo[0]), float(lo[1]), float(hi[0]), float(hi[1]))
