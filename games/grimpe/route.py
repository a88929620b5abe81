"""A Grimpe! route: Départ, the wall cards in placement order, the zones, Arrivée.

Table frame (mm): origin at the centre of the Départ slot, ``x`` to the right (increasing
column), ``y`` up the wall (increasing row). Slot ``(col, row)`` has its centre at
``(col·SLOT_PITCH_MM, row·SLOT_PITCH_MM)``. A card placed with rotation ``θ`` (degrees,
counter-clockwise in this frame) puts its hold ``(u, v)`` at ``slot_centre + R(θ)·(u, v)``.

Placement rules (rulebook "Geometry of a route"):

- the first card goes two rows above Départ, same column; the slot between is the start zone;
- each later card goes into an empty slot left of, right of or above the last placed card.
  "Empty" means: no wall card, not Départ, not the start zone. The finish zone and Arrivée sit
  above the last card and move when a card is added, so the slot above the last card (the
  current finish zone) is always a legal choice. Cards never go below the last card's row, so
  the start zone and Départ can never be reached in practice; they are excluded all the same;
- Arrivée sits two rows above the last placed card, the finish zone between them;
- route building ends right after the placement that brings the route to 10 holds or more
  (:attr:`Route.building_done`); later rounds may still add cards (the game decides).

Illegal placements raise :class:`games.base.IllegalMove` with one of these codes:
``unknown_card`` (not in the catalogue), ``card_used`` (already on the route),
``illegal_slot`` (not a legal slot), ``bad_rotation`` (not a finite angle).
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from games.base import IllegalMove
from games.grimpe.cards import (
    CARD_SIZE_MM,
    COLOURS,
    SLOT_PITCH_MM,
    Catalog,
    default_catalog,
)

PLACEMENT_RE = re.compile(r"^(\d+)@(-?\d+),(-?\d+)(?:r([-+]?\d+(?:\.\d*)?(?:[eE][-+]?\d+)?))?$")
_DEFAULT_SOURCE_RE = re.compile(r"^default seed=(-?\d+)$")


def format_deg(angle: float) -> str:
    """``90`` for whole degrees, else the shortest exact float text (``22.5``)."""
    return str(int(angle)) if angle == int(angle) else repr(float(angle))

__all__ = [
    "BUILD_HOLDS",
    "Hold",
    "Placement",
    "Route",
    "RouteFormatError",
    "Zone",
    "ROUTE_FORMAT",
    "format_deg",
    "normalise_deg",
    "slot_centre_mm",
]

ROUTE_FORMAT = "arbitre-grimpe-route"
#: Route building ends once the route has this many holds or more.
BUILD_HOLDS = 10


class RouteFormatError(ValueError):
    """A ROUTE.json that cannot be read (the message says which key and why)."""


def slot_centre_mm(col: int, row: int) -> tuple[float, float]:
    """Centre of slot ``(col, row)`` in the table frame, mm."""
    return (col * SLOT_PITCH_MM, row * SLOT_PITCH_MM)


def normalise_deg(angle: float) -> float:
    """An angle in degrees brought into [0, 360)."""
    a = math.fmod(float(angle), 360.0)
    if a < 0:
        a += 360.0
    return 0.0 if a == 360.0 else a + 0.0


def _rotate(u: float, v: float, rotation_deg: float) -> tuple[float, float]:
    """``R(θ)·(u, v)``, exact for multiples of 90° (no 1e-16 residue in saved routes)."""
    quarter = {0.0: (1, 0), 90.0: (0, 1), 180.0: (-1, 0), 270.0: (0, -1)}.get(rotation_deg)
    if quarter is not None:
        c, s = quarter
    else:
        th = math.radians(rotation_deg)
        c, s = math.cos(th), math.sin(th)
    return (c * u - s * v, s * u + c * v)


@dataclass(frozen=True)
class Placement:
    """A wall card on a slot; ``rotation_deg`` counter-clockwise, normalised to [0, 360)."""

    number: int
    col: int
    row: int
    rotation_deg: float = 0.0

    def __post_init__(self) -> None:
        object.__setattr__(self, "rotation_deg", normalise_deg(self.rotation_deg))

    def notation(self) -> str:
        """``"12@0,2r90"``: card 12 on slot (0, 2) turned 90°."""
        return f"{self.number}@{self.col},{self.row}r{format_deg(self.rotation_deg)}"

    @classmethod
    def from_notation(cls, text: str) -> Placement:
        """Parse ``"12@0,2r90"`` (``r0`` may be left out). Raises ``ValueError``."""
        m = PLACEMENT_RE.match(text.strip())
        if not m:
            raise ValueError(f"{text!r} is not a card placement like '12@0,2r90'")
        rot = float(m.group(4)) if m.group(4) is not None else 0.0
        return cls(int(m.group(1)), int(m.group(2)), int(m.group(3)), rot)

    def to_dict(self) -> dict[str, Any]:
        r = self.rotation_deg
        return {
            "number": self.number,
            "col": self.col,
            "row": self.row,
            "rotation_deg": int(r) if r == int(r) else r,
        }


@dataclass(frozen=True)
class Hold:
    """A hold of the route in the table frame. ``id`` is ``f"{card}{letter}"`` (e.g. ``"12a"``)."""

    id: str
    card: int
    colour: str
    x_mm: float
    y_mm: float
    radius_mm: float

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "card": self.card,
            "colour": self.colour,
            "x_mm": self.x_mm,
            "y_mm": self.y_mm,
            "radius_mm": self.radius_mm,
        }


@dataclass(frozen=True)
class Zone:
    """An empty slot used as a zone: centre ``(x_mm, y_mm)``, a square of side ``size_mm``
    (a card's size: the area a card would cover in that slot)."""

    name: str
    col: int
    row: int
    x_mm: float
    y_mm: float
    size_mm: float = CARD_SIZE_MM

    def contains(self, x_mm: float, y_mm: float) -> bool:
        h = self.size_mm / 2
        return abs(x_mm - self.x_mm) <= h and abs(y_mm - self.y_mm) <= h

    def to_dict(self) -> dict[str, Any]:
        return {
            "col": self.col,
            "row": self.row,
            "x_mm": self.x_mm,
            "y_mm": self.y_mm,
            "size_mm": self.size_mm,
        }


class Route:
    """Départ, the wall cards in placement order, and everything derived from them.

    ``Route(catalog)`` is an empty route (Départ at slot ``depart``, no card yet). Cards are
    added with :meth:`place` (judged) and the route is saved with :meth:`to_json` and rebuilt
    with :meth:`from_json` (solitaire routes are shared by card numbers and positions).
    """

    def __init__(
        self, catalog: Catalog | None = None, depart: tuple[int, int] = (0, 0)
    ) -> None:
        self.catalog = catalog if catalog is not None else default_catalog()
        self.depart = (int(depart[0]), int(depart[1]))
        self._placements: list[Placement] = []

    # --- derived slots -----------------------------------------------------------------------
    @property
    def placements(self) -> tuple[Placement, ...]:
        return tuple(self._placements)

    @property
    def last(self) -> Placement | None:
        return self._placements[-1] if self._placements else None

    def start_zone_slot(self) -> tuple[int, int]:
        return (self.depart[0], self.depart[1] + 1)

    def first_slot(self) -> tuple[int, int]:
        return (self.depart[0], self.depart[1] + 2)

    def arrivee_slot(self) -> tuple[int, int] | None:
        """Two rows above the last placed card; ``None`` before the first card."""
        last = self.last
        return None if last is None else (last.col, last.row + 2)

    def finish_zone_slot(self) -> tuple[int, int] | None:
        last = self.last
        return None if last is None else (last.col, last.row + 1)

    def start_zone_mm(self) -> Zone:
        c, r = self.start_zone_slot()
        x, y = slot_centre_mm(c, r)
        return Zone("start", c, r, x, y)

    def finish_zone_mm(self) -> Zone | None:
        s = self.finish_zone_slot()
        if s is None:
            return None
        x, y = slot_centre_mm(*s)
        return Zone("finish", s[0], s[1], x, y)

    def occupied_slots(self) -> dict[tuple[int, int], int]:
        """Slot → card number for the wall cards."""
        return {(p.col, p.row): p.number for p in self._placements}

    def used_numbers(self) -> set[int]:
        return {p.number for p in self._placements}

    def unused_numbers(self) -> list[int]:
        used = self.used_numbers()
        return [n for n in self.catalog.numbers() if n not in used]

    def legal_slots(self) -> list[tuple[int, int]]:
        """Slots where the next card may go, in the order left, right, above."""
        last = self.last
        if last is None:
            return [self.first_slot()]
        blocked = set(self.occupied_slots()) | {self.depart, self.start_zone_slot()}
        candidates = [(last.col - 1, last.row), (last.col + 1, last.row), (last.col, last.row + 1)]
        return [s for s in candidates if s not in blocked]

    # --- placing -----------------------------------------------------------------------------
    def judge_place(self, number: int, col: int, row: int, rotation_deg: float = 0.0) -> None:
        """Raise :class:`IllegalMove` if the card may not go there (see module doc for codes)."""
        if number not in self.catalog:
            raise IllegalMove("unknown_card", f"there is no card {number} in the catalogue")
        if number in self.used_numbers():
            raise IllegalMove("card_used", f"card {number} is already on the route")
        if not math.isfinite(float(rotation_deg)):
            raise IllegalMove("bad_rotation", f"rotation {rotation_deg!r} is not an angle")
        slots = self.legal_slots()
        if (col, row) not in slots:
            where = ", ".join(f"({c},{r})" for c, r in slots)
            if self.last is None:
                why = "the first card goes two rows above Départ, in its column"
            else:
                why = "a card goes into an empty slot left of, right of or above the last card"
            raise IllegalMove(
                "illegal_slot", f"slot ({col},{row}) is not legal: {why}; legal: {where}"
            )

    def place(self, number: int, col: int, row: int, rotation_deg: float = 0.0) -> Placement:
        """Judge and add a card; Arrivée and the finish zone move above it."""
        self.judge_place(number, col, row, rotation_deg)
        p = Placement(int(number), int(col), int(row), float(rotation_deg))
        self._placements.append(p)
        return p

    # --- holds -------------------------------------------------------------------------------
    def holds(self) -> list[Hold]:
        """Every hold of the route in the table frame, in placement order then letter order."""
        out = []
        for p in self._placements:
            cx, cy = slot_centre_mm(p.col, p.row)
            for h in self.catalog[p.number].holds:
                du, dv = _rotate(h.u_mm, h.v_mm, p.rotation_deg)
                out.append(
                    Hold(
                        id=f"{p.number}{h.letter}",
                        card=p.number,
                        colour=h.colour,
                        x_mm=round(cx + du, 3) + 0.0,
                        y_mm=round(cy + dv, 3) + 0.0,
                        radius_mm=h.radius_mm,
                    )
                )
        return out

    def hold_count(self) -> int:
        return sum(len(self.catalog[p.number].holds) for p in self._placements)

    @property
    def building_done(self) -> bool:
        """True once the route has :data:`BUILD_HOLDS` holds or more (building ends)."""
        return self.hold_count() >= BUILD_HOLDS

    # --- copies and saving -------------------------------------------------------------------
    def copy(self) -> Route:
        r = Route(self.catalog, self.depart)
        r._placements = list(self._placements)
        return r

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Route):
            return NotImplemented
        return (
            self.catalog == other.catalog
            and self.depart == other.depart
            and self._placements == other._placements
        )

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"<Route depart={self.depart} cards=[{self.code()}] holds={self.hold_count()}>"

    def code(self) -> str:
        """The placements in order, e.g. ``"11@0,2r0 20@1,2r0"``: enough to rebuild and share
        a route (with Départ at (0, 0) and the same catalogue)."""
        return " ".join(p.notation() for p in self._placements)

    @classmethod
    def from_code(cls, text: str, catalog: Catalog | None = None) -> Route:
        """Rebuild from :meth:`code`; each placement is judged (raises :class:`IllegalMove`,
        or ``ValueError`` for text that is not a placement)."""
        route = cls(catalog)
        for item in text.split():
            p = Placement.from_notation(item)
            route.place(p.number, p.col, p.row, p.rotation_deg)
        return route

    def to_json(self) -> dict[str, Any]:
        """The ROUTE.json object (``games/grimpe/README.md`` documents every key).

        ``cards`` are in placement order; ``holds`` and ``zones`` are derived (table mm) and
        written so that a judge or a renderer needs no catalogue; ``arrivee`` and
        ``zones.finish`` are ``null`` before the first card."""
        data: dict[str, Any] = {
            "format": ROUTE_FORMAT,
            "version": 1,
            "card_size_mm": CARD_SIZE_MM,
            "slot_pitch_mm": SLOT_PITCH_MM,
            "catalog": self.catalog.source,
            "depart": {"col": self.depart[0], "row": self.depart[1]},
            "arrivee": None,
            "cards": [p.to_dict() for p in self._placements],
            "holds": [h.to_dict() for h in self.holds()],
            "zones": {"start": self.start_zone_mm().to_dict(), "finish": None},
        }
        a = self.arrivee_slot()
        if a is not None:
            data["arrivee"] = {"col": a[0], "row": a[1]}
        f = self.finish_zone_mm()
        if f is not None:
            data["zones"]["finish"] = f.to_dict()
        return data

    def dumps(self) -> str:
        return json.dumps(self.to_json(), indent=1) + "\n"

    def save(self, path: str | Path) -> None:
        Path(path).write_text(self.dumps(), encoding="utf-8")

    @classmethod
    def from_json(
        cls, data: Mapping[str, Any] | str, catalog: Catalog | None = None, *, strict: bool = True
    ) -> Route:
        """Rebuild a route from its ``depart`` and ``cards`` (holds are recomputed from the
        catalogue: ``catalog``, else the built-in one named by the file's ``"catalog"`` key,
        e.g. ``"default seed=7"``, else the default). With ``strict`` each placement is
        judged (raises :class:`IllegalMove`);
        without, cards are placed as saved. Bad structure raises :class:`RouteFormatError`."""
        if isinstance(data, str):
            try:
                data = json.loads(data)
            except json.JSONDecodeError as exc:
                raise RouteFormatError(f"route is not valid JSON: {exc}") from None
        if not isinstance(data, Mapping):
            raise RouteFormatError("a route is a JSON object")
        fmt = data.get("format", ROUTE_FORMAT)
        if fmt != ROUTE_FORMAT:
            raise RouteFormatError(
                f"not a Grimpe route (format {fmt!r}, expected {ROUTE_FORMAT!r})"
            )
        if "cards" not in data:
            raise RouteFormatError(
                "route has no 'cards' list (a holds-only route can be judged but not rebuilt)"
            )
        if catalog is None:
            m = _DEFAULT_SOURCE_RE.match(str(data.get("catalog", "")))
            if m:
                catalog = default_catalog(int(m.group(1)))
        try:
            dep = data.get("depart") or {"col": 0, "row": 0}
            route = cls(catalog, (int(dep["col"]), int(dep["row"])))
            for i, c in enumerate(data["cards"]):
                number, col, row = int(c["number"]), int(c["col"]), int(c["row"])
                rot = float(c.get("rotation_deg", 0.0))
                if strict:
                    route.place(number, col, row, rot)
                else:
                    if number not in route.catalog:
                        why = f"there is no card {number} in the catalogue"
                        raise IllegalMove("unknown_card", why)
                    route._placements.append(Placement(number, col, row, rot))
        except (KeyError, TypeError, ValueError) as exc:
            if isinstance(exc, IllegalMove):
                raise
            raise RouteFormatError(f"bad route entry ({type(exc).__name__}: {exc})") from None
        return route

    @classmethod
    def load(
        cls, path: str | Path, catalog: Catalog | None = None, *, strict: bool = True
    ) -> Route:
        return cls.from_json(Path(path).read_text(encoding="utf-8-sig"), catalog, strict=strict)

    def colour_counts(self) -> dict[str, int]:
        counts = {c: 0 for c in COLOURS}
        for h in self.holds():
            counts[h.colour] += 1
        return counts
