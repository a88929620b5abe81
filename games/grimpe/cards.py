"""Grimpe! wall cards: colours, fingers, the colour→finger map and the card catalogue.

Geometry (all millimetres):

- A wall card is a square of side :data:`CARD_SIZE_MM`; cards lie on slots of pitch
  :data:`SLOT_PITCH_MM` (a 6 mm gap between neighbours).
- A hold is a round hole of radius ``radius_mm`` whose centre is at ``(u_mm, v_mm)`` from the
  card's centre, ``u`` to the card's right and ``v`` to the card's top (towards the top of the
  wall when the card is not rotated). The card number is printed in the top-left corner, so
  holds stay out of a :data:`NUMBER_CORNER_MM` square there.

The real printing's hold layout is not published; :func:`default_catalog` is a deterministic,
seeded stand-in that respects the geometry rules above. A different printing can be loaded with
:meth:`Catalog.from_json`.
"""

from __future__ import annotations

import json
import math
import random
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

__all__ = [
    "CARD_SIZE_MM",
    "COLOURS",
    "DEFAULT_COLOUR_MAP",
    "DEFAULT_SEED",
    "FINGERS",
    "HOLD_LETTERS",
    "NUMBER_CORNER_MM",
    "NUM_CARDS",
    "SLOT_PITCH_MM",
    "CardSpec",
    "Catalog",
    "CatalogError",
    "ColourMap",
    "HoldSpec",
    "default_catalog",
    "difficulty",
    "hole_radius_mm",
]

CARD_SIZE_MM = 70.0
SLOT_PITCH_MM = 76.0
#: Side of the top-left corner square kept free for the printed card number.
NUMBER_CORNER_MM = 16.0
#: Minimum distance from a hold's rim to the card's edge.
EDGE_MARGIN_MM = 6.0
#: Minimum gap between the rims of two holds of one card.
HOLD_GAP_MM = 12.0
NUM_CARDS = 42
DEFAULT_SEED = 20240601

COLOURS: tuple[str, ...] = ("black", "blue", "green", "yellow", "red")
FINGERS: tuple[str, ...] = ("thumb", "index", "middle", "ring", "little")
HOLD_LETTERS: tuple[str, ...] = ("a", "b", "c")

#: The printed rules' mapping. Printings differ, hence :class:`ColourMap`.
DEFAULT_COLOUR_MAP: dict[str, str] = {
    "black": "thumb",
    "blue": "index",
    "green": "middle",
    "yellow": "ring",
    "red": "little",
}


class CatalogError(ValueError):
    """A card catalogue or colour map that breaks the format or the geometry rules."""


# --- colour → finger ---------------------------------------------------------------------------


@dataclass(frozen=True)
class ColourMap:
    """Which finger goes into a hold of each colour (a setting: printings differ).

    ``mapping`` maps every colour of :data:`COLOURS` to a finger of :data:`FINGERS`. Two
    colours may share a finger if a printing says so; a colour without a finger is an error.
    """

    mapping: Mapping[str, str] = field(default_factory=lambda: dict(DEFAULT_COLOUR_MAP))

    def __post_init__(self) -> None:
        m = dict(self.mapping)
        unknown = sorted(set(m) - set(COLOURS))
        if unknown:
            raise CatalogError(f"unknown colour(s) {unknown}; colours are {list(COLOURS)}")
        missing = [c for c in COLOURS if c not in m]
        if missing:
            raise CatalogError(f"colour map has no finger for {missing}")
        for colour, finger in m.items():
            if finger not in FINGERS:
                raise CatalogError(
                    f"colour {colour!r} maps to unknown finger {finger!r}; "
                    f"fingers are {list(FINGERS)}"
                )
        object.__setattr__(self, "mapping", {c: m[c] for c in COLOURS})

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> ColourMap:
        """Build from ``{"colour": "finger", ...}``; colours left out keep the default finger.

        Also accepts the object written by :meth:`to_dict` (``{"colour_to_finger": {...}}``).
        """
        if not isinstance(data, Mapping):
            raise CatalogError("a colour map must be a JSON object {colour: finger}")
        if "colour_to_finger" in data:
            data = data["colour_to_finger"]
            if not isinstance(data, Mapping):
                raise CatalogError("'colour_to_finger' must be an object {colour: finger}")
        merged = dict(DEFAULT_COLOUR_MAP)
        for k, v in data.items():
            if not isinstance(v, str):
                raise CatalogError(f"colour {k!r}: finger must be a string, not {v!r}")
            merged[str(k).lower()] = v.lower()
        return cls(merged)

    @classmethod
    def load(cls, path: str | Path) -> ColourMap:
        with open(path, encoding="utf-8-sig") as f:
            return cls.from_dict(json.load(f))

    def to_dict(self) -> dict[str, Any]:
        return {"colour_to_finger": dict(self.mapping)}

    def finger_for(self, colour: str) -> str:
        return self.mapping[colour]

    def colours_for(self, finger: str) -> tuple[str, ...]:
        return tuple(c for c in COLOURS if self.mapping[c] == finger)

    def __hash__(self) -> int:
        return hash(tuple(self.mapping.items()))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ColourMap):
            return NotImplemented
        return dict(self.mapping) == dict(other.mapping)


# --- cards -----------------------------------------------------------------------------------


def difficulty(number: int) -> str:
    """``"beginner"`` (1–14), ``"intermediate"`` (15–28) or ``"expert"`` (29–42)."""
    if not 1 <= number <= NUM_CARDS:
        raise CatalogError(f"card numbers run from 1 to {NUM_CARDS}, not {number}")
    return ("beginner", "intermediate", "expert")[(number - 1) // 14]


def hole_radius_mm(number: int) -> float:
    """Hole radius by difficulty: 10 mm (1–14), 8 mm (15–28), 6.5 mm (29–42)."""
    return {"beginner": 10.0, "intermediate": 8.0, "expert": 6.5}[difficulty(number)]


@dataclass(frozen=True)
class HoldSpec:
    """One hold of a card, in the card's own frame (mm from the card centre, see module doc)."""

    letter: str
    colour: str
    u_mm: float
    v_mm: float
    radius_mm: float

    def __post_init__(self) -> None:
        if self.letter not in HOLD_LETTERS:
            raise CatalogError(f"hold letter must be one of {HOLD_LETTERS}, not {self.letter!r}")
        if self.colour not in COLOURS:
            raise CatalogError(f"hold colour must be one of {COLOURS}, not {self.colour!r}")
        if not self.radius_mm > 0:
            raise CatalogError(f"hold radius must be > 0 mm, not {self.radius_mm}")
        half = CARD_SIZE_MM / 2
        if abs(self.u_mm) + self.radius_mm > half or abs(self.v_mm) + self.radius_mm > half:
            raise CatalogError(
                f"hold {self.letter} at ({self.u_mm}, {self.v_mm}) mm radius {self.radius_mm} mm "
                f"does not fit inside a {CARD_SIZE_MM} mm card"
            )

    def to_dict(self) -> dict[str, Any]:
        return {
            "letter": self.letter,
            "colour": self.colour,
            "u_mm": self.u_mm,
            "v_mm": self.v_mm,
            "radius_mm": self.radius_mm,
        }

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> HoldSpec:
        try:
            return cls(
                letter=str(d["letter"]),
                colour=str(d["colour"]),
                u_mm=float(d["u_mm"]),
                v_mm=float(d["v_mm"]),
                radius_mm=float(d["radius_mm"]),
            )
        except KeyError as exc:
            raise CatalogError(f"hold {dict(d)!r} lacks key {exc.args[0]!r}") from None
        except (TypeError, ValueError) as exc:
            if isinstance(exc, CatalogError):
                raise
            raise CatalogError(f"hold {dict(d)!r}: {exc}") from None


def _corner_distance_mm(u_mm: float, v_mm: float) -> float:
    """Distance from (u, v) to the number's corner square at the card's top-left."""
    half = CARD_SIZE_MM / 2
    du = max(0.0, u_mm - (-half + NUMBER_CORNER_MM))
    dv = max(0.0, (half - NUMBER_CORNER_MM) - v_mm)
    return math.hypot(du, dv)


@dataclass(frozen=True)
class CardSpec:
    """A wall card: its number and its 1–3 holds (letters a, b, c in order)."""

    number: int
    holds: tuple[HoldSpec, ...]

    def __post_init__(self) -> None:
        difficulty(self.number)
        object.__setattr__(self, "holds", tuple(self.holds))
        if not 1 <= len(self.holds) <= 3:
            raise CatalogError(f"card {self.number} has {len(self.holds)} holds; a card has 1–3")
        letters = tuple(h.letter for h in self.holds)
        if letters != HOLD_LETTERS[: len(letters)]:
            raise CatalogError(
                f"card {self.number}: hold letters must be a, b, c in order, not {letters}"
            )

    def geometry_problems(self) -> list[str]:
        """The strict layout rules of this module that the card breaks (empty when fine):
        rim ≥ 6 mm from the edges, rims ≥ 12 mm apart, clear of the number's corner."""
        problems = []
        half = CARD_SIZE_MM / 2
        for h in self.holds:
            lim = half - h.radius_mm - EDGE_MARGIN_MM
            if abs(h.u_mm) > lim + 1e-9 or abs(h.v_mm) > lim + 1e-9:
                problems.append(
                    f"{self.number}{h.letter}: rim closer than {EDGE_MARGIN_MM} mm to an edge"
                )
            if _corner_distance_mm(h.u_mm, h.v_mm) < h.radius_mm - 1e-9:
                problems.append(f"{self.number}{h.letter}: overlaps the number's corner square")
        for i, a in enumerate(self.holds):
            for b in self.holds[i + 1 :]:
                d = math.hypot(a.u_mm - b.u_mm, a.v_mm - b.v_mm)
                if d < a.radius_mm + b.radius_mm + HOLD_GAP_MM - 1e-9:
                    problems.append(
                        f"{self.number}{a.letter}/{b.letter}: centres {d:.1f} mm apart, need "
                        f"{a.radius_mm + b.radius_mm + HOLD_GAP_MM} mm"
                    )
        return problems

    def to_dict(self) -> dict[str, Any]:
        return {"number": self.number, "holds": [h.to_dict() for h in self.holds]}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> CardSpec:
        try:
            number = int(d["number"])
            holds = tuple(HoldSpec.from_dict(h) for h in d["holds"])
        except KeyError as exc:
            raise CatalogError(f"card {dict(d)!r} lacks key {exc.args[0]!r}") from None
        except (TypeError, ValueError) as exc:
            if isinstance(exc, CatalogError):
                raise
            raise CatalogError(f"card {d!r}: {exc}") from None
        return cls(number, holds)


@dataclass(frozen=True)
class Catalog:
    """The 42 wall cards of one printing, by number."""

    cards: tuple[CardSpec, ...]
    #: Where it came from (e.g. ``"default seed=20240601"`` or a file name), for reports.
    source: str = ""

    def __post_init__(self) -> None:
        cards = tuple(sorted(self.cards, key=lambda c: c.number))
        object.__setattr__(self, "cards", cards)
        numbers = [c.number for c in cards]
        if len(set(numbers)) != len(numbers):
            dup = sorted({n for n in numbers if numbers.count(n) > 1})
            raise CatalogError(f"card number(s) {dup} appear more than once in the catalogue")
        object.__setattr__(self, "_by_number", {c.number: c for c in cards})

    def __getitem__(self, number: int) -> CardSpec:
        try:
            return self._by_number[number]  # type: ignore[attr-defined]
        except KeyError:
            raise KeyError(f"no card {number} in the catalogue") from None

    def __contains__(self, number: object) -> bool:
        return number in self._by_number  # type: ignore[attr-defined]

    def __iter__(self) -> Iterator[CardSpec]:
        return iter(self.cards)

    def __len__(self) -> int:
        return len(self.cards)

    def numbers(self) -> list[int]:
        return [c.number for c in self.cards]

    def to_json(self) -> dict[str, Any]:
        return {
            "format": "arbitre-grimpe-catalog",
            "version": 1,
            "source": self.source,
            "card_size_mm": CARD_SIZE_MM,
            "cards": [c.to_dict() for c in self.cards],
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any] | str, source: str = "") -> Catalog:
        """Read the object written by :meth:`to_json` (a dict or its JSON text)."""
        if isinstance(data, str):
            try:
                data = json.loads(data)
            except json.JSONDecodeError as exc:
                raise CatalogError(f"catalogue is not valid JSON: {exc}") from None
        if not isinstance(data, Mapping) or not isinstance(data.get("cards"), list):
            raise CatalogError("a catalogue is a JSON object with a 'cards' list")
        if data.get("format", "arbitre-grimpe-catalog") != "arbitre-grimpe-catalog":
            raise CatalogError(f"not a card catalogue (format {data.get('format')!r})")
        cards = tuple(CardSpec.from_dict(c) for c in data["cards"])
        return cls(cards, source or str(data.get("source", "")))

    @classmethod
    def load(cls, path: str | Path) -> Catalog:
        with open(path, encoding="utf-8-sig") as f:
            return cls.from_json(json.load(f), source=str(path))


# --- the default, seeded catalogue -----------------------------------------------------------

#: Probability of 1, 2 or 3 holds on a card, by difficulty.
_HOLD_COUNT_WEIGHTS = {
    "beginner": (0.15, 0.45, 0.40),
    "intermediate": (0.25, 0.45, 0.30),
    "expert": (0.35, 0.45, 0.20),
}


def _random_card(number: int, rng: random.Random) -> CardSpec:
    radius = hole_radius_mm(number)
    n_holds = rng.choices((1, 2, 3), weights=_HOLD_COUNT_WEIGHTS[difficulty(number)])[0]
    lim = CARD_SIZE_MM / 2 - radius - EDGE_MARGIN_MM
    while True:
        centres: list[tuple[float, float]] = []
        for _ in range(400):
            u = round(rng.uniform(-lim, lim), 1)
            v = round(rng.uniform(-lim, lim), 1)
            if _corner_distance_mm(u, v) < radius:
                continue
            if all(math.hypot(u - a, v - b) >= 2 * radius + HOLD_GAP_MM for a, b in centres):
                centres.append((u, v))
                if len(centres) == n_holds:
                    break
        if len(centres) == n_holds:
            break
        n_holds -= 1  # a crowded layout: settle for fewer holds (never below 1)
    colours = rng.sample(COLOURS, n_holds)
    holds = tuple(
        HoldSpec(HOLD_LETTERS[i], colours[i], u, v, radius) for i, (u, v) in enumerate(centres)
    )
    card = CardSpec(number, holds)
    assert not card.geometry_problems(), card.geometry_problems()
    return card


@lru_cache(maxsize=8)
def default_catalog(seed: int = DEFAULT_SEED) -> Catalog:
    """The 42 wall cards, drawn with ``random.Random(seed)`` (stable across runs and machines).

    Cards hold 1–3 holds of distinct colours; radius by difficulty (:func:`hole_radius_mm`);
    the layout obeys :meth:`CardSpec.geometry_problems`. A hold count is drawn per card and
    lowered when random placement finds no room: three 10 mm holes rarely fit under these
    margins, so this catalogue's beginner cards have 1–2 holds (89 holds in all for seed
    20240601: 14 cards × ≤2, 14 intermediate with 7 three-hold cards, 14 expert with 5).
    """
    rng = random.Random(seed)
    cards = tuple(_random_card(n, rng) for n in range(1, NUM_CARDS + 1))
    return Catalog(cards, source=f"default seed={seed}")
