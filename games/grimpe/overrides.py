"""A person's corrections to an automatic climb verdict; the score follows them.

Like SLEAP keeps predicted and user instances apart, an attempt keeps the automatic verdict,
the overrides, and the final verdict they produce (:class:`ReviewedVerdict`).

Override kinds (JSON objects in a list, ``kind`` first):

- ``{"kind": "cancel_fault", "code": "wrong_finger", "t": 3.2, "reason": "..."}`` — the fault
  with that code at that time did not happen. With the event log, the attempt is judged again
  with the fault waived (see :class:`games.grimpe.climb.ClimbJudge` for what a waiver does), so
  the climb may go on to a summit, another fault, or end incomplete. Without the log, the
  result becomes ``incomplete`` (nothing is known after the fault).
- ``{"kind": "impose_fault", "code": "other_hand", "t": 4.0, "detail": "..."}`` — a fault a
  person saw. The attempt is judged up to ``t`` (events at ``t`` included) and ends there with
  this fault, unless an (uncancelled) automatic fault came earlier. It also overrides a summit.
  ``code`` is one of the rulebook's codes or ``"referee"``.
- ``{"kind": "set_fingers", "move": 0, "fingers": 4, "reason": "..."}`` — move ``move``
  (0-based, in the final verdict) counted ``fingers`` (2–5) fingers; its points follow.

Overrides are applied in that order (cancellations, then the earliest imposed fault, then
finger counts), whatever their order in the list.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, Union

from games.grimpe.cards import ColourMap
from games.grimpe.climb import (
    FAULT_CODES,
    ClimbEvent,
    ClimbJudge,
    Fault,
    Verdict,
    points_for,
)

__all__ = [
    "CancelFault",
    "ImposeFault",
    "Override",
    "OverrideError",
    "ReviewedVerdict",
    "SetMoveFingers",
    "apply_overrides",
    "override_from_dict",
    "review",
]

PERSON_CODES = FAULT_CODES + ("referee",)


class OverrideError(ValueError):
    """An override that cannot apply (unknown code, no such move, bad finger count...)."""


@dataclass(frozen=True)
class CancelFault:
    code: str
    t: float
    reason: str = ""

    def __post_init__(self) -> None:
        if self.code not in FAULT_CODES:
            raise OverrideError(f"cannot cancel unknown fault code {self.code!r}")

    def to_dict(self) -> dict[str, Any]:
        return {"kind": "cancel_fault", "code": self.code, "t": self.t, "reason": self.reason}


@dataclass(frozen=True)
class ImposeFault:
    code: str
    t: float
    detail: str = ""

    def __post_init__(self) -> None:
        if self.code not in PERSON_CODES:
            raise OverrideError(
                f"unknown fault code {self.code!r}; codes: {', '.join(PERSON_CODES)}"
            )

    def to_dict(self) -> dict[str, Any]:
        return {"kind": "impose_fault", "code": self.code, "t": self.t, "detail": self.detail}


@dataclass(frozen=True)
class SetMoveFingers:
    move: int
    fingers: int
    reason: str = ""

    def __post_init__(self) -> None:
        if not 2 <= self.fingers <= 5:
            raise OverrideError(f"a move counts 2–5 fingers, not {self.fingers}")
        if self.move < 0:
            raise OverrideError(f"move index must be ≥ 0, not {self.move}")

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": "set_fingers",
            "move": self.move,
            "fingers": self.fingers,
            "reason": self.reason,
        }


Override = Union[CancelFault, ImposeFault, SetMoveFingers]


def override_from_dict(d: Mapping[str, Any]) -> Override:
    """Read one override object (see the module doc). Raises :class:`OverrideError`."""
    if not isinstance(d, Mapping):
        raise OverrideError(f"an override is a JSON object, not {d!r}")
    kind = d.get("kind")
    try:
        if kind == "cancel_fault":
            return CancelFault(str(d["code"]), float(d["t"]), str(d.get("reason", "")))
        if kind == "impose_fault":
            return ImposeFault(str(d["code"]), float(d["t"]), str(d.get("detail", "")))
        if kind == "set_fingers":
            return SetMoveFingers(int(d["move"]), int(d["fingers"]), str(d.get("reason", "")))
    except KeyError as exc:
        raise OverrideError(f"override {dict(d)!r} lacks key {exc.args[0]!r}") from None
    except (TypeError, ValueError) as exc:
        if isinstance(exc, OverrideError):
            raise
        raise OverrideError(f"override {dict(d)!r}: {exc}") from None
    raise OverrideError(
        f"unknown override kind {kind!r}; kinds: cancel_fault, impose_fault, set_fingers"
    )


def _set_fingers(verdict: Verdict, changes: Sequence[SetMoveFingers]) -> Verdict:
    moves = list(verdict.moves)
    for ch in changes:
        if ch.move >= len(moves):
            raise OverrideError(
                f"no move {ch.move}: the attempt has {len(moves)} move(s) (0-based)"
            )
        moves[ch.move] = replace(
            moves[ch.move], fingers=ch.fingers, points=points_for(ch.fingers), overridden=True
        )
    t = tuple(moves)
    return replace(verdict, moves=t, score=Verdict.scored(verdict.result, t))


def _split(
    overrides: Iterable[Override],
) -> tuple[list[CancelFault], ImposeFault | None, list[SetMoveFingers]]:
    cancels: list[CancelFault] = []
    imposed: list[ImposeFault] = []
    sets: list[SetMoveFingers] = []
    for o in overrides:
        if isinstance(o, CancelFault):
            cancels.append(o)
        elif isinstance(o, ImposeFault):
            imposed.append(o)
        elif isinstance(o, SetMoveFingers):
            sets.append(o)
        else:
            raise OverrideError(f"not an override: {o!r}")
    first = min(imposed, key=lambda o: o.t) if imposed else None
    return cancels, first, sets


def apply_overrides(
    auto: Verdict,
    overrides: Sequence[Override],
    *,
    route: Any = None,
    events: Iterable[ClimbEvent | Mapping[str, Any]] | None = None,
    colour_map: ColourMap | None = None,
) -> Verdict:
    """The final verdict after a person's overrides (see the module doc).

    With ``route`` and ``events`` the attempt is judged again; without, the automatic verdict
    is edited (a cancelled fault then leaves an ``incomplete`` attempt).
    """
    cancels, imposed, sets = _split(overrides)
    if events is not None:
        if route is None:
            raise OverrideError("judging again needs the route as well as the events")
        judge = ClimbJudge(route, colour_map, waive=[(c.code, c.t) for c in cancels])
        for ev in events:
            e = ev if isinstance(ev, ClimbEvent) else ClimbEvent.from_dict(ev, judge.holds)
            if imposed is not None and e.t > imposed.t:
                break
            judge.feed(e)
        if imposed is not None and not (judge.fault is not None and judge.fault.t <= imposed.t):
            judge.impose(imposed.code, imposed.t, imposed.detail)
        final = judge.verdict()
    else:
        final = auto
        if auto.fault is not None and any(
            c.code == auto.fault.code and abs(c.t - auto.fault.t) <= 1e-6 for c in cancels
        ):
            final = replace(auto, result="incomplete", fault=None, score=0)
        if imposed is not None:
            keep_auto = final.fault is not None and final.fault.t <= imposed.t
            if not keep_auto:
                moves = tuple(m for m in final.moves if m.t_end <= imposed.t)
                final = replace(
                    final,
                    result="fault",
                    fault=Fault(imposed.code, imposed.t, imposed.detail, by="person"),
                    moves=moves,
                    score=0,
                    t_summit=None,
                )
    return _set_fingers(final, sets)


@dataclass(frozen=True)
class ReviewedVerdict:
    """The automatic verdict, the overrides a person made, and the final verdict."""

    auto: Verdict
    overrides: tuple[Override, ...]
    final: Verdict

    __hash__ = None  # type: ignore[assignment]

    @property
    def score(self) -> int:
        return self.final.score

    @property
    def overridden(self) -> bool:
        return bool(self.overrides)

    def to_json(self) -> dict[str, Any]:
        return {
            "auto": self.auto.to_json(),
            "overrides": [o.to_dict() for o in self.overrides],
            "final": self.final.to_json(),
        }

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> ReviewedVerdict:
        return cls(
            auto=Verdict.from_json(d["auto"]),
            overrides=tuple(override_from_dict(o) for o in d.get("overrides", ())),
            final=Verdict.from_json(d["final"]),
        )


def review(
    route: Any,
    events: Sequence[ClimbEvent | Mapping[str, Any]] | None,
    overrides: Sequence[Override | Mapping[str, Any]] = (),
    *,
    auto: Verdict | None = None,
    colour_map: ColourMap | None = None,
) -> ReviewedVerdict:
    """Judge (or take ``auto``), apply ``overrides``, keep both verdicts."""
    ovs = tuple(o if not isinstance(o, Mapping) else override_from_dict(o) for o in overrides)
    if auto is None:
        if events is None:
            raise OverrideError("review needs the events or the automatic verdict")
        auto = ClimbJudge(route, colour_map).feed_all(events)
    final = apply_overrides(auto, ovs, route=route, events=events, colour_map=colour_map)
    return ReviewedVerdict(auto, ovs, final)
