"""Game registry: maps a game's name to its spec, the way OpenSpiel registers games."""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from typing import Any, Callable

from games.base import Game

__all__ = ["GameSpec", "register", "get", "names", "load"]


@dataclass(frozen=True)
class GameSpec:
    name: str
    title: str
    min_players: int
    max_players: int
    components: dict[str, Any] = field(default_factory=dict)
    #: Builds a new game: ``factory(num_players=n, **options)``.
    factory: Callable[..., Game] | None = None
    #: Options for a small, quick game used by generic tests (e.g. fewer rounds).
    test_options: dict[str, Any] = field(default_factory=dict)

    def new(self, num_players: int, **options: Any) -> Game:
        if not self.min_players <= num_players <= self.max_players:
            raise ValueError(
                f"{self.title} is played by {self.min_players}–{self.max_players} players, "
                f"not {num_players}"
            )
        assert self.factory is not None
        return self.factory(num_players=num_players, **options)


_REGISTRY: dict[str, GameSpec] = {}

#: Modules that register a game when imported.
_BUILTIN = ("games.quoridor", "games.grimpe")


def register(spec: GameSpec) -> GameSpec:
    _REGISTRY[spec.name] = spec
    return spec


def load() -> None:
    for mod in _BUILTIN:
        importlib.import_module(mod)


def get(name: str) -> GameSpec:
    load()
    try:
        return _REGISTRY[name]
    except KeyError:
        raise KeyError(f"unknown game {name!r}; known: {', '.join(sorted(_REGISTRY))}") from None


def names() -> list[str]:
    load()
    return sorted(_REGISTRY)
