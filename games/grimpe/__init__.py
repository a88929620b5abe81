"""Grimpe! (Le Scorpion Masqué): cards, routes, the climb judge, overrides and the game.

The rulebook is ``/work/shared/docs/grimpe-referee.md``: it decides every rule.

- :mod:`games.grimpe.cards` — colours, fingers, :class:`ColourMap`, the card catalogue.
- :mod:`games.grimpe.route` — :class:`Route` (placement rules, holds in table mm, zones,
  ROUTE.json).
- :mod:`games.grimpe.climb` — the event-log judge (:class:`ClimbJudge`, :func:`judge_events`).
- :mod:`games.grimpe.overrides` — a person's corrections (:class:`ReviewedVerdict`).
- :mod:`games.grimpe.game` — :class:`GrimpeGame`, registered as ``"grimpe"``.
"""

from games.grimpe.cards import (
    CARD_SIZE_MM,
    COLOURS,
    FINGERS,
    SLOT_PITCH_MM,
    ColourMap,
    default_catalog,
)
from games.grimpe.climb import ClimbJudge, Verdict, judge_events
from games.grimpe.game import ClimbResult, GrimpeGame, PlaceCard
from games.grimpe.route import Route
from games.registry import GameSpec, register

__all__ = [
    "CARD_SIZE_MM",
    "COLOURS",
    "FINGERS",
    "SLOT_PITCH_MM",
    "ClimbJudge",
    "ClimbResult",
    "ColourMap",
    "GrimpeGame",
    "PlaceCard",
    "Route",
    "Verdict",
    "default_catalog",
    "judge_events",
]

SPEC = register(
    GameSpec(
        name="grimpe",
        title="Grimpe!",
        min_players=1,
        max_players=6,
        components={
            "wall_cards": 42,
            "help_cards": ["Départ", "Arrivée"],
            "colours": list(COLOURS),
            "fingers": list(FINGERS),
        },
        factory=GrimpeGame,
        test_options={"rounds": 2},
    )
)
