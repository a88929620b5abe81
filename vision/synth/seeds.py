"""Seed lists for the benchmarks: ``"100-159"``, ``"1,2,5-9"`` or several such words."""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["parse_seeds"]


def parse_seeds(items: str | Sequence[str]) -> list[int]:
    """``["5000-5003", "77"]`` or ``"1,2,5-7"`` → the seeds in order; ValueError on bad text."""
    words = [items] if isinstance(items, str) else list(items)
    out: list[int] = []
    for word in words:
        for part in word.split(","):
            if "-" in part.strip("-"):
                a, b = part.split("-", 1)
                out.extend(range(int(a), int(b) + 1))
            elif part:
                out.append(int(part))
    return out
