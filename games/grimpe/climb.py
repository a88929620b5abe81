"""The climb judge: one attempt, judged from a time-ordered log of contact events.

Event log (EVENTS.jsonl, one JSON object per line, ``t`` in seconds, non-decreasing)::

    {"t": 1.2, "type": "down", "finger": "index", "target": "12a"}
    {"t": 2.0, "type": "up", "finger": "index"}
    {"t": 3.1, "type": "card_moved", "card": 7}
    {"t": 4.0, "type": "other_hand"}

- ``finger``: thumb, index, middle, ring, little (of the climbing hand).
- ``target`` of a ``down``: a hold id of the route, ``"start"``, ``"finish"``, or ``"none"``
  (also ``null`` or the key left out) for a finger seen down off every target (→ ``off_target``).
- ``card`` of ``card_moved`` is optional (a detector may not know which card moved). A card
  that the route does not contain (it names its cards) gives a warning, not a fault.
- Extra keys (``frame``, ``confidence``, a ``target`` on an ``up``, ...) are kept and shown as
  evidence with faults and moves. Blank lines are skipped.
- Events with the same ``t`` are judged in file order: a producer that sees a lift and a
  placement in one frame must write them in the order it believes happened.

State machine (rulebook "A climb"), with the order in which checks are made:

1. *Before the start*: a ``down`` on the start zone starts the climb (that finger is the
   anchor); any other ``down`` is ``bad_start``.
2. *Placing*: a ``down`` on the start zone is ``restart_zone``; on ``none`` ``off_target``; on a
   hold: ``occupied_hold`` (a finger is on it now), then ``used_hold`` (left earlier), then
   ``wrong_finger`` (colour→finger map); on the finish zone: always fine (several fingers may
   share the zone). An ``up`` before any placement leaves no finger down: ``no_contact``. The
   first ``up`` after a placement ends the move: it counts the fingers down at that moment.
3. *Releasing*: a ``down`` that breaks a rule of its own (as in *Placing*: start zone, off
   target, occupied, used or wrong-colour hold) is that fault, whatever the release; any other
   ``down`` is ``early_place``. When exactly one finger remains: on the finish
   zone → summit; else it must have been placed in this move (otherwise ``surplace``) and it
   becomes the new anchor. If the climber lifts the finish finger itself, the release goes on
   under the ordinary rule.
4. ``card_moved`` and ``other_hand`` are faults whenever they happen in the log (the log is the
   attempt; trim it if a card was adjusted before the climb).

Data problems are warnings, never faults, and the event is otherwise ignored:
``duplicate_down`` (a finger reported down again on the same target), ``stray_up`` (an ``up``
for a finger that is not down), ``unknown_card``. A finger reported down on a *different*
target without an ``up`` (``implicit_up``) is judged as an ``up`` then a ``down`` at that time.
Events after the attempt ended (summit or fault) are ignored.

Scoring: 2/3/4/5 fingers → 1/3/5/7 points; summit → the sum; fault or incomplete → 0, with the
moves made still reported.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from games.grimpe.cards import COLOURS, FINGERS, ColourMap

__all__ = [
    "DOUBT_LEVEL",
    "EVENT_TYPES",
    "FAULT_CODES",
    "PLAYER_WORDS",
    "POINTS",
    "RULES",
    "TARGET_FINISH",
    "TARGET_NONE",
    "TARGET_START",
    "ClimbEvent",
    "ClimbJudge",
    "EventError",
    "Fault",
    "MoveRecord",
    "Notice",
    "RouteHolds",
    "Verdict",
    "detail_text",
    "doubtful_events",
    "format_verdict",
    "judge_events",
    "load_events",
    "parse_events",
    "points_for",
    "translated",
]

TARGET_START = "start"
TARGET_FINISH = "finish"
TARGET_NONE = "none"
ZONES = (TARGET_START, TARGET_FINISH)
EVENT_TYPES = ("down", "up", "card_moved", "other_hand")
#: Fingers down at the end of a move → points.
POINTS = {2: 1, 3: 3, 4: 5, 5: 7}

FAULT_CODES: tuple[str, ...] = (
    "bad_start",
    "no_contact",
    "wrong_finger",
    "used_hold",
    "occupied_hold",
    "card_moved",
    "off_target",
    "surplace",
    "early_place",
    "other_hand",
    "restart_zone",
)

#: The rule behind each fault code, in English and French (codes stay as they are).
RULES: dict[str, dict[str, str]] = {
    "en": {
        "bad_start": "first contact outside the start zone",
        "no_contact": "no finger of the climbing hand on the table",
        "wrong_finger": "a finger put into a hold of another colour",
        "used_hold": "a finger put into a hold that an earlier finger has left",
        "occupied_hold": "a finger put into a hold where another finger already is",
        "card_moved": "a card of the route moved",
        "off_target": "a finger put down anywhere but a hold or a zone",
        "surplace": "the finger kept after a release is the previous anchor, "
        "or was not added in this move",
        "early_place": "a finger put down before the release was complete",
        "other_hand": "the other hand touched the route",
        "restart_zone": "a finger put on the start zone after the start",
        "referee": "a fault called by a person",
    },
    "fr": {
        "bad_start": "premier contact hors de la zone de départ",
        "no_contact": "plus aucun doigt de la main qui grimpe ne touche la table",
        "wrong_finger": "un doigt posé dans une prise d'une autre couleur",
        "used_hold": "un doigt posé dans une prise qu'un doigt a déjà quittée",
        "occupied_hold": "un doigt posé dans une prise déjà occupée par un autre doigt",
        "card_moved": "une carte du parcours a bougé",
        "off_target": "un doigt posé ailleurs que sur une prise ou une zone",
        "surplace": "surplace : le doigt gardé est l'ancien appui, "
        "ou n'a pas été posé pendant ce mouvement",
        "early_place": "un doigt posé avant la fin du lâcher",
        "other_hand": "l'autre main a touché le parcours",
        "restart_zone": "un doigt reposé sur la zone de départ après le départ",
        "referee": "faute signalée par une personne",
    },
}


def points_for(fingers: int) -> int:
    """Points of a move that ends with ``fingers`` (2–5) fingers down."""
    try:
        return POINTS[fingers]
    except KeyError:
        raise ValueError(f"a move counts 2–5 fingers, not {fingers}") from None


class EventError(ValueError):
    """An event that cannot be judged (bad JSON, unknown finger/type/hold, time going back...).

    ``line`` is the 1-based line in the event file when known.
    """

    def __init__(self, message: str, *, line: int | None = None, source: str | None = None) -> None:
        where = ""
        if source is not None and line is not None:
            where = f"{source}, line {line}: "
        elif line is not None:
            where = f"line {line}: "
        elif source is not None:
            where = f"{source}: "
        super().__init__(where + message)
        self.line = line
        self.source = source
        self.reason = message


# --- the route as the judge sees it -------------------------------------------------------------


@dataclass(frozen=True)
class RouteHolds:
    """What the judge needs from a route: hold id → colour, and (optionally) its card numbers."""

    colours: Mapping[str, str]
    cards: frozenset[int] | None = None

    def __post_init__(self) -> None:
        for hid, colour in self.colours.items():
            if hid in (TARGET_START, TARGET_FINISH, TARGET_NONE):
                raise ValueError(f"hold id {hid!r} is reserved for a zone")
            if colour not in COLOURS:
                raise ValueError(
                    f"hold {hid!r} has unknown colour {colour!r}; colours are {list(COLOURS)}"
                )
        object.__setattr__(self, "colours", dict(self.colours))

    @classmethod
    def from_json(cls, data: Any) -> RouteHolds:
        """Read ROUTE.json (only ``holds[].id`` and ``holds[].colour`` are required).

        Raises ``ValueError`` with a message that names the bad entry.
        """
        if not isinstance(data, Mapping) or not isinstance(data.get("holds"), list):
            raise ValueError("a route is a JSON object with a 'holds' list of {\"id\", \"colour\"}")
        colours: dict[str, str] = {}
        cards: set[int] = set()
        for i, h in enumerate(data["holds"]):
            if not isinstance(h, Mapping) or "id" not in h or "colour" not in h:
                raise ValueError(f"holds[{i}] must be an object with 'id' and 'colour'")
            hid = str(h["id"])
            if hid in colours:
                raise ValueError(f"holds[{i}]: hold id {hid!r} appears twice")
            colours[hid] = str(h["colour"]).lower()
            if h.get("card") is not None:
                cards.add(int(h["card"]))
        if isinstance(data.get("cards"), list):
            for c in data["cards"]:
                if isinstance(c, Mapping) and "number" in c:
                    cards.add(int(c["number"]))
        has_cards = isinstance(data.get("cards"), list) or any(
            isinstance(h, Mapping) and h.get("card") is not None for h in data["holds"]
        )
        return cls(colours, frozenset(cards) if has_cards else None)

    @classmethod
    def of(cls, route: Any) -> RouteHolds:
        """From a :class:`games.grimpe.route.Route`, a ``RouteHolds``, a ROUTE.json dict or a
        mapping ``{hold id: colour}``."""
        if isinstance(route, RouteHolds):
            return route
        if hasattr(route, "holds") and callable(route.holds):
            holds = route.holds()
            return cls({h.id: h.colour for h in holds}, frozenset(route.used_numbers()))
        if isinstance(route, Mapping) and "holds" in route:
            return cls.from_json(route)
        if isinstance(route, Mapping):
            return cls(dict(route))
        raise TypeError(f"cannot read holds from {type(route).__name__}")


# --- events -----------------------------------------------------------------------------------


@dataclass(frozen=True, eq=True)
class ClimbEvent:
    """One observation. ``extra`` holds any other keys (frame, confidence, ...) untouched."""

    t: float
    type: str
    finger: str | None = None
    target: str | None = None
    card: int | None = None
    extra: Mapping[str, Any] = field(default_factory=dict)
    #: 1-based line of the event file it came from (None when fed live).
    line: int | None = None

    __hash__ = None  # type: ignore[assignment]

    @classmethod
    def from_dict(
        cls, d: Mapping[str, Any], holds: RouteHolds | None = None, *, line: int | None = None
    ) -> ClimbEvent:
        """Validate one event object. Raises :class:`EventError` naming the problem."""
        if not isinstance(d, Mapping):
            raise EventError(f"an event is a JSON object, not {type(d).__name__}", line=line)
        for key in ("t", "type"):
            if key not in d:
                raise EventError(f"missing key {key!r}", line=line)
        t = d["t"]
        if isinstance(t, bool) or not isinstance(t, (int, float)) or not math.isfinite(t):
            raise EventError(f"'t' must be a number of seconds, not {t!r}", line=line)
        typ = d["type"]
        if typ not in EVENT_TYPES:
            raise EventError(
                f"unknown event type {typ!r}; types are {', '.join(EVENT_TYPES)}", line=line
            )
        finger = target = None
        card = None
        if typ in ("down", "up"):
            if "finger" not in d:
                raise EventError(f"missing key 'finger' in a {typ!r} event", line=line)
            finger = d["finger"]
            if finger not in FINGERS:
                raise EventError(
                    f"unknown finger {finger!r}; fingers are {', '.join(FINGERS)}", line=line
                )
        if typ == "down":
            target = d.get("target")
            if target is None:
                target = TARGET_NONE
            if not isinstance(target, str):
                raise EventError(
                    f"'target' must be a hold id, 'start', 'finish' or 'none', not {target!r}",
                    line=line,
                )
            if target not in (TARGET_START, TARGET_FINISH, TARGET_NONE):
                if holds is not None and target not in holds.colours:
                    raise EventError(
                        f"unknown hold id {target!r} (the route's holds: "
                        f"{', '.join(sorted(holds.colours)) or 'none'})",
                        line=line,
                    )
        if typ == "card_moved" and d.get("card") is not None:
            c = d["card"]
            if isinstance(c, bool) or not isinstance(c, (int, str)):
                raise EventError(f"'card' must be a card number, not {c!r}", line=line)
            try:
                card = int(c)
            except ValueError:
                raise EventError(f"'card' must be a card number, not {c!r}", line=line) from None
        known = {"t", "type", "finger"} | ({"target"} if typ == "down" else set())
        if typ == "card_moved":
            known.add("card")
        extra = {k: v for k, v in d.items() if k not in known}
        return cls(float(t), typ, finger, target, card, extra, line)

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"t": self.t, "type": self.type}
        if self.finger is not None:
            d["finger"] = self.finger
        if self.type == "down":
            d["target"] = self.target
        if self.card is not None:
            d["card"] = self.card
        d.update(self.extra)
        return d

    def evidence(self) -> dict[str, Any]:
        """The event as shown with a verdict: its fields, extra keys and source line."""
        d = self.to_dict()
        if self.line is not None:
            d["line"] = self.line
        return d


def parse_events(
    lines: Iterable[str], holds: RouteHolds | None = None, *, source: str | None = None
) -> list[ClimbEvent]:
    """Parse EVENTS.jsonl text lines. Raises :class:`EventError` with the source and line."""
    events: list[ClimbEvent] = []
    last_t = -math.inf
    for no, text in enumerate(lines, start=1):
        if not text.strip():
            continue
        try:
            obj = json.loads(text)
        except json.JSONDecodeError as exc:
            why = f"not valid JSON ({exc.msg} at column {exc.colno})"
            raise EventError(why, line=no, source=source) from None
        try:
            ev = ClimbEvent.from_dict(obj, holds, line=no)
        except EventError as exc:
            raise EventError(exc.reason, line=no, source=source) from None
        if ev.t < last_t:
            why = f"time goes backwards ({ev.t} s after {last_t} s)"
            raise EventError(why, line=no, source=source)
        last_t = ev.t
        events.append(ev)
    return events


def load_events(path: str | Path, holds: RouteHolds | None = None) -> list[ClimbEvent]:
    """Read an EVENTS.jsonl file (see :func:`parse_events`)."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8-sig")
    except UnicodeDecodeError as exc:
        raise EventError(f"not UTF-8 text ({exc.reason})", source=str(p)) from None
    return parse_events(text.splitlines(), holds, source=str(p))


# --- verdict ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class MoveRecord:
    """A counted move: ``fingers`` down when it ended (2–5) and its ``points``.

    ``anchor``/``anchor_target`` held the wall during the move; ``placed`` lists the fingers put
    down in it (with their event's evidence); ``ended_by`` is the finger whose ``up`` ended it.
    """

    fingers: int
    points: int
    t_end: float
    anchor: str = ""
    anchor_target: str = ""
    placed: tuple[Mapping[str, Any], ...] = ()
    ended_by: str = ""
    #: True when a person changed ``fingers`` (see :mod:`games.grimpe.overrides`).
    overridden: bool = False

    __hash__ = None  # type: ignore[assignment]

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {
            "fingers": self.fingers,
            "points": self.points,
            "t_end": self.t_end,
            "anchor": self.anchor,
            "anchor_target": self.anchor_target,
            "placed": [dict(p) for p in self.placed],
            "ended_by": self.ended_by,
        }
        if self.overridden:
            d["overridden"] = True
        return d

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> MoveRecord:
        return cls(
            fingers=int(d["fingers"]),
            points=int(d["points"]),
            t_end=float(d["t_end"]),
            anchor=str(d.get("anchor", "")),
            anchor_target=str(d.get("anchor_target", "")),
            placed=tuple(dict(p) for p in d.get("placed", ())),
            ended_by=str(d.get("ended_by", "")),
            overridden=bool(d.get("overridden", False)),
        )


@dataclass(frozen=True)
class Fault:
    """Why an attempt ended. ``event`` is the evidence (the event that broke the rule, with
    its extra keys such as ``frame`` and its ``line``); ``by`` is ``"judge"`` or ``"person"``."""

    code: str
    t: float
    detail: str
    finger: str | None = None
    target: str | None = None
    event: Mapping[str, Any] | None = None
    by: str = "judge"

    __hash__ = None  # type: ignore[assignment]

    def to_dict(self) -> dict[str, Any]:
        return {
            "code": self.code,
            "t": self.t,
            "detail": self.detail,
            "finger": self.finger,
            "target": self.target,
            "event": dict(self.event) if self.event is not None else None,
            "by": self.by,
        }

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Fault:
        return cls(
            code=str(d["code"]),
            t=float(d["t"]),
            detail=str(d.get("detail", "")),
            finger=d.get("finger"),
            target=d.get("target"),
            event=dict(d["event"]) if d.get("event") is not None else None,
            by=str(d.get("by", "judge")),
        )


@dataclass(frozen=True)
class Notice:
    """Something the judge noticed on one event (for a live display and for the record).

    ``kind``: ``start``, ``place``, ``move_end``, ``anchor``, ``summit``, ``fault``,
    ``warning`` (data problem: ``code`` says which), ``waived`` (a cancelled fault's event),
    ``lift`` (a finger lifted during a release), ``ignored`` (after the end).
    """

    kind: str
    t: float
    detail: str
    code: str | None = None
    finger: str | None = None
    target: str | None = None
    line: int | None = None

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"kind": self.kind, "t": self.t, "detail": self.detail}
        for k in ("code", "finger", "target", "line"):
            v = getattr(self, k)
            if v is not None:
                d[k] = v
        return d

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Notice:
        return cls(
            kind=str(d["kind"]),
            t=float(d["t"]),
            detail=str(d.get("detail", "")),
            code=d.get("code"),
            finger=d.get("finger"),
            target=d.get("target"),
            line=d.get("line"),
        )


RESULTS = ("summit", "fault", "incomplete")


@dataclass(frozen=True)
class Verdict:
    """The judged attempt. ``score`` is the sum of move points on a summit, else 0."""

    result: str
    score: int
    moves: tuple[MoveRecord, ...] = ()
    fault: Fault | None = None
    warnings: tuple[Notice, ...] = ()
    #: Time of the summit (the last lift), seconds.
    t_summit: float | None = None

    __hash__ = None  # type: ignore[assignment]

    def __post_init__(self) -> None:
        if self.result not in RESULTS:
            raise ValueError(f"result must be one of {RESULTS}, not {self.result!r}")
        if (self.result == "fault") != (self.fault is not None):
            raise ValueError("a verdict has a fault exactly when its result is 'fault'")

    @staticmethod
    def scored(result: str, moves: Sequence[MoveRecord]) -> int:
        return sum(m.points for m in moves) if result == "summit" else 0

    def to_json(self) -> dict[str, Any]:
        return {
            "result": self.result,
            "score": self.score,
            "moves": [m.to_dict() for m in self.moves],
            "fault": self.fault.to_dict() if self.fault is not None else None,
            "warnings": [w.to_dict() for w in self.warnings],
            "t_summit": self.t_summit,
        }

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> Verdict:
        return cls(
            result=str(d["result"]),
            score=int(d["score"]),
            moves=tuple(MoveRecord.from_dict(m) for m in d.get("moves", ())),
            fault=Fault.from_dict(d["fault"]) if d.get("fault") is not None else None,
            warnings=tuple(Notice.from_dict(w) for w in d.get("warnings", ())),
            t_summit=d.get("t_summit"),
        )


# --- the judge --------------------------------------------------------------------------------

#: Faults whose event a person's cancellation turns into a legal placement.
_WAIVE_ACCEPTS = {"wrong_finger", "used_hold", "occupied_hold"}
_TIME_TOL_S = 1e-6


class _Stop(Exception):
    """Internal: the attempt ended on this event."""


class ClimbJudge:
    """The streaming judge: ``feed(event)`` each observation in time order, then
    :meth:`verdict`. A live referee reads :meth:`status` and the notices ``feed`` returns.

    ``waive``: ``(code, t)`` pairs of faults a person cancelled (see
    :mod:`games.grimpe.overrides`): the event is then accepted as legal (``wrong_finger``,
    ``used_hold``, ``occupied_hold``: the finger is placed; ``bad_start``: the climb starts
    there; ``surplace``: the kept finger becomes the anchor) or ignored (every other code; a
    finger whose ``down`` is ignored is treated as in the air).
    """

    def __init__(
        self,
        route: Any,
        colour_map: ColourMap | None = None,
        *,
        waive: Iterable[tuple[str, float]] = (),
    ) -> None:
        self.holds = RouteHolds.of(route)
        self.colour_map = colour_map if colour_map is not None else ColourMap()
        self.waive = [(str(c), float(t)) for c, t in waive]
        self.phase = "before_start"  # placing | releasing | summit | fault
        self.down: dict[str, str] = {}
        self.anchor: str | None = None
        self.prev_anchor: str | None = None
        self.placed: list[dict[str, Any]] = []
        self.burned: set[str] = set()
        self.moves: list[MoveRecord] = []
        self.fault: Fault | None = None
        self.warnings: list[Notice] = []
        self.t_summit: float | None = None
        self._anchor_target = ""
        self._ghosts: set[str] = set()
        self._last_t = -math.inf
        self._notes: list[Notice] = []

    # --- public ---------------------------------------------------------------------------
    @property
    def ended(self) -> bool:
        return self.phase in ("summit", "fault")

    def feed(self, event: ClimbEvent | Mapping[str, Any]) -> list[Notice]:
        """Judge one event; returns what it caused. Raises :class:`EventError` for an event
        that cannot be judged (unknown hold, finger, type; time going backwards)."""
        ev = event if isinstance(event, ClimbEvent) else ClimbEvent.from_dict(event, self.holds)
        if ev.type == "down" and ev.target not in (TARGET_START, TARGET_FINISH, TARGET_NONE):
            if ev.target not in self.holds.colours:
                raise EventError(f"unknown hold id {ev.target!r}", line=ev.line)
        if ev.t < self._last_t:
            raise EventError(f"time goes backwards ({ev.t} s after {self._last_t} s)", line=ev.line)
        self._last_t = ev.t
        self._notes = []
        if self.ended:
            self._note("ignored", ev, f"after the {self.phase}: ignored")
            return self._notes
        try:
            self._dispatch(ev)
        except _Stop:
            pass
        return self._notes

    def feed_all(self, events: Iterable[ClimbEvent | Mapping[str, Any]]) -> Verdict:
        for ev in events:
            self.feed(ev)
        return self.verdict()

    def verdict(self) -> Verdict:
        """The verdict so far: ``incomplete`` until a summit or a fault."""
        if self.phase == "fault":
            result = "fault"
        elif self.phase == "summit":
            result = "summit"
        else:
            result = "incomplete"
        moves = tuple(self.moves)
        return Verdict(
            result=result,
            score=Verdict.scored(result, moves),
            moves=moves,
            fault=self.fault,
            warnings=tuple(self.warnings),
            t_summit=self.t_summit,
        )

    def status(self) -> dict[str, Any]:
        """Live state: phase, fingers down (finger → target), anchor, burnt holds, moves and
        the points gathered so far (they count only if the climb reaches the summit)."""
        return {
            "phase": self.phase,
            "down": dict(self.down),
            "anchor": self.anchor,
            "placed": [dict(p) for p in self.placed],
            "burned": sorted(self.burned),
            "moves": len(self.moves),
            "points_so_far": sum(m.points for m in self.moves),
            "fault": self.fault.to_dict() if self.fault else None,
        }

    def impose(self, code: str, t: float, detail: str) -> None:
        """A person's fault at ``t`` (ends the attempt now, whatever its state)."""
        self.fault = Fault(code, float(t), detail, by="person")
        self.phase = "fault"
        self.t_summit = None

    # --- internals ------------------------------------------------------------------------
    def _note(self, kind: str, ev: ClimbEvent, detail: str, code: str | None = None) -> Notice:
        n = Notice(kind, ev.t, detail, code, ev.finger, ev.target, ev.line)
        self._notes.append(n)
        if kind in ("warning", "waived"):
            self.warnings.append(n)
        return n

    def _waived(self, code: str, t: float) -> bool:
        return any(c == code and abs(t - tw) <= _TIME_TOL_S for c, tw in self.waive)

    def _fault(self, code: str, ev: ClimbEvent, detail: str) -> bool:
        """Record the fault and stop judging (raises :class:`_Stop`); if a person waived it,
        note that and return True so the caller applies the waiver."""
        if self._waived(code, ev.t):
            self._note("waived", ev, f"{code} cancelled by a person: {detail}", code)
            return True
        self.fault = Fault(code, ev.t, detail, ev.finger, ev.target, ev.evidence())
        self.phase = "fault"
        self._note("fault", ev, detail, code)
        raise _Stop

    def _dispatch(self, ev: ClimbEvent) -> None:
        if ev.type == "other_hand":
            if self._fault("other_hand", ev, "the other hand touched the route"):
                return
        elif ev.type == "card_moved":
            cards = self.holds.cards
            if ev.card is not None and cards is not None and ev.card not in cards:
                why = f"card {ev.card} moved but it is not on the route"
                self._note("warning", ev, why, "unknown_card")
                return
            what = f"card {ev.card}" if ev.card is not None else "a card"
            if self._fault("card_moved", ev, f"{what} of the route moved"):
                return
        elif ev.type == "down":
            self._down(ev)
        else:
            self._up(ev)

    def _down(self, ev: ClimbEvent) -> None:
        f, target = ev.finger, ev.target
        assert f is not None and target is not None
        self._ghosts.discard(f)
        if f in self.down:
            if self.down[f] == target:
                why = f"{f} reported down again on {target}: ignored"
                self._note("warning", ev, why, "duplicate_down")
                return
            why = f"{f} moved from {self.down[f]} to {target} without an up"
            self._note("warning", ev, why, "implicit_up")
            self._up(ClimbEvent(ev.t, "up", f, None, None, ev.extra, ev.line))
            if self.ended:
                return
        if self.phase == "before_start":
            if target != TARGET_START:
                where = "off every target" if target == TARGET_NONE else f"on {target}"
                self._fault("bad_start", ev, f"first contact: {f} {where}, not on the start zone")
            self.down[f] = target
            self.anchor, self._anchor_target = f, target
            self.placed = []
            self.phase = "placing"
            self._note("start", ev, f"{f} on {target}: the climb starts")
            return
        if target == TARGET_START:
            if self._fault("restart_zone", ev, f"{f} put on the start zone after the start"):
                self._ghosts.add(f)
                return
        elif target == TARGET_NONE:
            if self._fault("off_target", ev, f"{f} put down off every hold and zone"):
                self._ghosts.add(f)
                return
        elif target != TARGET_FINISH:
            colour = self.holds.colours[target]
            others = [g for g, tg in self.down.items() if tg == target]
            if others:
                why = f"{f} put into {target} where {others[0]} already is"
                self._fault("occupied_hold", ev, why)
            elif target in self.burned:
                self._fault("used_hold", ev, f"{f} put into {target}, a hold already left")
            else:
                want = self.colour_map.finger_for(colour)
                if want != f:
                    self._fault(
                        "wrong_finger",
                        ev,
                        f"{f} put into {colour} hold {target} ({colour} is for the {want} finger)",
                    )
        if self.phase == "releasing":
            why = f"{f} put down on {target} before the release was complete"
            if self._fault("early_place", ev, why):
                self._ghosts.add(f)
                return
        self.down[f] = target
        entry: dict[str, Any] = {"finger": f, "target": target, "t": ev.t}
        if target in self.holds.colours:
            entry["colour"] = self.holds.colours[target]
        entry.update(ev.extra)
        if ev.line is not None:
            entry["line"] = ev.line
        self.placed.append(entry)
        self._note("place", ev, f"{f} on {target} ({len(self.down)} fingers down)")

    def _up(self, ev: ClimbEvent) -> None:
        f = ev.finger
        assert f is not None
        if f not in self.down:
            if f in self._ghosts:
                self._ghosts.discard(f)
                return
            self._note("warning", ev, f"{f} lifted but it was not down: ignored", "stray_up")
            return
        # the last finger down lifting: nothing placed yet, or (after a person waived an earlier
        # fault) the finger placed is the only one down
        if self.phase == "placing" and (not self.placed or len(self.down) < 2):
            if self._fault("no_contact", ev, f"{f} lifted with no other finger down"):
                return
        target = self.down[f]
        if self.phase == "placing":
            n = len(self.down)
            self.moves.append(
                MoveRecord(
                    fingers=n,
                    points=points_for(n),
                    t_end=ev.t,
                    anchor=self.anchor or "",
                    anchor_target=self._anchor_target,
                    placed=tuple(self.placed),
                    ended_by=f,
                )
            )
            self.phase = "releasing"
            self._note("move_end", ev, f"move {len(self.moves)}: {n} fingers, {points_for(n)} pts")
        del self.down[f]
        if target not in ZONES and target != TARGET_NONE:
            self.burned.add(target)
        if self.phase == "releasing":
            self._note("lift", ev, f"{f} lifted from {target}")
            if len(self.down) == 1:
                self._release_done(ev)

    def _release_done(self, ev: ClimbEvent) -> None:
        (kept, target), = self.down.items()
        added = {p["finger"] for p in self.placed}
        if target == TARGET_FINISH and kept in added:
            self.phase = "summit"
            self.t_summit = ev.t
            self._note("summit", ev, f"only {kept} remains, on the finish zone: summit")
            return
        if kept == self.anchor or kept not in added:
            why = "is the previous anchor" if kept == self.anchor else "was not added in this move"
            self._fault("surplace", ev, f"the finger kept, {kept}, {why}")
        self.anchor, self._anchor_target = kept, target
        self.placed = []
        self.phase = "placing"
        self._note("anchor", ev, f"{kept} on {target} is the new anchor")


def judge_events(
    route: Any,
    events: Iterable[ClimbEvent | Mapping[str, Any]],
    colour_map: ColourMap | None = None,
) -> Verdict:
    """Judge a whole attempt (see :class:`ClimbJudge`)."""
    return ClimbJudge(route, colour_map).feed_all(events)


#: An event the video referee gives a confidence below this is listed for a person to check
#: (:func:`doubtful_events`): its own evidence says "more likely not" (a placement put back
#: from a finger's lift where the contact classifier had missed it is such a guess).
DOUBT_LEVEL = 0.5


def doubtful_events(events: Iterable[Mapping[str, Any]], verdict: Verdict | Mapping[str, Any],
                    level: float = DOUBT_LEVEL) -> list[dict[str, Any]]:
    """The events a verdict rests on that were seen with a ``confidence`` (an evidence key
    the video referee writes) below ``level``: every event up to the end of the attempt (its
    fault, else its summit; all of them when it is incomplete), in time order, each a copy.
    An event without a confidence (typed or imported by a person) is never doubtful."""
    v = verdict.to_json() if isinstance(verdict, Verdict) else verdict
    fault = v.get("fault")
    end = fault.get("t") if fault else v.get("t_summit")
    out = []
    for ev in events:
        c = ev.get("confidence")
        if c is None or ev.get("type") not in EVENT_TYPES:
            continue
        if end is not None and float(ev["t"]) > float(end) + _TIME_TOL_S:
            continue
        if float(c) < level:
            out.append(dict(ev))
    return sorted(out, key=lambda e: float(e["t"]))


# --- text -------------------------------------------------------------------------------------

_TEXT = {
    "en": {
        "summit": "SUMMIT",
        "fault": "FAULT",
        "incomplete": "INCOMPLETE (no summit, no fault: the recording stopped)",
        "score": "Score",
        "moves": "Moves",
        "move": "move {i}: {fingers} fingers → {points} pt{s} "
        "(ended at {t:.2f} s; anchor {anchor} on {at})",
        "placed": "placed",
        "none": "no move",
        "fault_line": "Fault {code} at {t:.2f} s: {rule}",
        "detail": "what was seen",
        "evidence": "evidence",
        "by_person": "called by a person",
        "not_scored": "(moves listed but not scored: a fault scores 0)",
        "warnings": "Data warnings",
        "summit_at": "summit at {t:.2f} s",
        "line": " (line {n})",
    },
    "fr": {
        "summit": "SOMMET",
        "fault": "FAUTE",
        "incomplete": "INACHEVÉE (ni sommet ni faute : l'enregistrement s'est arrêté)",
        "score": "Score",
        "moves": "Mouvements",
        "move": "mouvement {i} : {fingers} doigts → {points} pt{s} "
        "(fin à {t:.2f} s ; appui {anchor} sur {at})",
        "placed": "posés",
        "none": "aucun mouvement",
        "fault_line": "Faute {code} à {t:.2f} s : {rule}",
        "detail": "constaté",
        "evidence": "preuve",
        "by_person": "signalée par une personne",
        "not_scored": "(mouvements listés mais non comptés : une faute vaut 0)",
        "warnings": "Avertissements sur les données",
        "summit_at": "sommet à {t:.2f} s",
        "line": " (ligne {n})",
    },
}


#: Finger and zone names for the players (the English ones are the event log's own words).
PLAYER_WORDS: dict[str, dict[str, str]] = {
    "fr": {"thumb": "pouce", "index": "index", "middle": "majeur", "ring": "annulaire",
           "little": "auriculaire", TARGET_START: "départ", TARGET_FINISH: "arrivée"},
}
# colours as adjectives of "prise" (feminine) and as nouns (masculine)
_COLOUR_FEM_FR = {"red": "rouge", "black": "noire", "blue": "bleue", "green": "verte", "yellow": "jaune"}
_COLOUR_MASC_FR = {"red": "rouge", "black": "noir", "blue": "bleu", "green": "vert", "yellow": "jaune"}

#: French for the judge's fault details (:meth:`ClimbJudge._fault` writes them in English and
#: the records keep them so); see :func:`translated` for the placeholders.
_DETAILS_FR: tuple[tuple[str, str], ...] = (
    (r"the other hand touched the route", "l'autre main a touché le parcours"),
    (r"card (\S+) of the route moved", "la carte {0} du parcours a bougé"),
    (r"a card of the route moved", "une carte du parcours a bougé"),
    (r"first contact: (\w+) off every target, not on the start zone",
     "premier contact : {f0} hors de toute prise et zone, pas sur la zone de départ"),
    (r"first contact: (\w+) on (\S+), not on the start zone",
     "premier contact : {f0} sur {1}, pas sur la zone de départ"),
    (r"(\w+) put down on (\S+) before the release was complete",
     "{f0} posé sur {1} avant la fin du lâcher"),
    (r"(\w+) put on the start zone after the start", "{f0} reposé sur la zone de départ après le départ"),
    (r"(\w+) put down off every hold and zone", "{f0} posé hors de toute prise et zone"),
    (r"(\w+) put into (\S+) where (\w+) already is", "{f0} posé dans {1}, où est déjà le {f2}"),
    (r"(\w+) put into (\S+), a hold already left", "{f0} posé dans {1}, une prise déjà quittée"),
    (r"(\w+) put into (\w+) hold (\S+) \((\w+) is for the (\w+) finger\)",
     "{f0} posé dans la prise {c1} {2} (le {m3} est pour le {f4})"),
    (r"(\w+) lifted with no other finger down", "{f0} levé sans autre doigt posé"),
    (r"the finger kept, (\w+), is the previous anchor", "le doigt gardé, {f0}, est l'ancien appui"),
    (r"the finger kept, (\w+), was not added in this move",
     "le doigt gardé, {f0}, n'a pas été posé pendant ce mouvement"),
)


def translated(text: str, lang: str, patterns: Sequence[tuple[str, str]]) -> str:
    """``text`` (an English sentence the code wrote) in ``lang``: the French of the first of
    ``patterns`` (regex, French) that matches it whole, where ``{N}`` is group N as written,
    ``{fN}`` group N as a finger or zone (:data:`PLAYER_WORDS`), ``{cN}`` as the colour of a hold
    ("prise verte") and ``{mN}`` as a colour noun ("le vert"). English, or a sentence no pattern
    matches, stays as written."""
    if lang != "fr":
        return text
    names = PLAYER_WORDS["fr"]
    for pattern, fr in patterns:
        m = re.fullmatch(pattern, text)
        if m:
            kw: dict[str, str] = {}
            for i, g in enumerate(m.groups()):
                kw[f"f{i}"] = names.get(g, g)
                kw[f"c{i}"] = _COLOUR_FEM_FR.get(g, g)
                kw[f"m{i}"] = _COLOUR_MASC_FR.get(g, g)
            # "le annulaire" -> "l'annulaire" (names put after an article)
            return re.sub(r"\b([lL])e ([aeiouéAEIOUÉ])", r"\1'\2", fr.format(*m.groups(), **kw))
    return text


#: French for the judge's warnings about the event log (:meth:`ClimbJudge._note`).
_WARNINGS_FR: tuple[tuple[str, str], ...] = (
    (r"card (\S+) moved but it is not on the route", "la carte {0} a bougé mais n'est pas sur le parcours"),
    (r"(\w+) reported down again on (\S+): ignored", "{f0} signalé de nouveau posé sur {f1} : ignoré"),
    (r"(\w+) moved from (\S+) to (\S+) without an up", "{f0} passé de {f1} à {f2} sans être levé"),
    (r"(\w+) lifted but it was not down: ignored", "{f0} levé alors qu'il n'était pas posé : ignoré"),
    (r"after the summit: ignored", "après le sommet : ignoré"),
    (r"after the fault: ignored", "après la faute : ignoré"),
)


def detail_text(detail: str, lang: str = "en") -> str:
    """A fault's detail or a warning in ``lang`` (French from :data:`_DETAILS_FR` and
    :data:`_WARNINGS_FR`, see :func:`translated`); a fault a person cancelled reads
    "<code> annulée par une personne : <its detail in French>"."""
    if lang != "fr":
        return detail
    m = re.fullmatch(r"(\w+) cancelled by a person: (.*)", detail)
    if m:
        return f"{m.group(1)} annulée par une personne : {detail_text(m.group(2), lang)}"
    return translated(detail, lang, _DETAILS_FR + _WARNINGS_FR)


def format_verdict(verdict: Verdict, lang: str = "en") -> str:
    """A readable verdict in English or French (fault codes stay as they are)."""
    tx = _TEXT.get(lang, _TEXT["en"])
    rules = RULES.get(lang, RULES["en"])
    names = PLAYER_WORDS.get(lang, {})
    colours = _COLOUR_FEM_FR if lang == "fr" else {}

    # French puts a space before a colon (as the window's French and the rest of this text)
    colon = " :" if lang == "fr" else ":"

    def name(x: Any) -> str:
        return names.get(x, colours.get(x, x))

    lines = [f"{tx[verdict.result]} — {tx['score']}{colon} {verdict.score}"]
    if verdict.t_summit is not None:
        lines.append(tx["summit_at"].format(t=verdict.t_summit))
    lines.append(f"{tx['moves']}{colon}")
    if not verdict.moves:
        lines.append(f"  {tx['none']}")
    for i, m in enumerate(verdict.moves, start=1):
        lines.append(
            "  "
            + tx["move"].format(
                i=i, fingers=m.fingers, points=m.points, s="" if m.points == 1 else "s",
                t=m.t_end, anchor=name(m.anchor or "?"), at=name(m.anchor_target or "?"),
            )
            + (" *" if m.overridden else "")
        )
        if m.placed:
            placed = ", ".join(
                f"{name(p.get('finger'))}→{name(p.get('target'))}"
                + (f" ({name(p['colour'])})" if p.get("colour") else "")
                for p in m.placed
            )
            lines.append(f"      {tx['placed']}{colon} {placed}")
    if verdict.fault is not None:
        fl = verdict.fault
        rule = rules.get(fl.code, fl.code)
        lines.append(tx["fault_line"].format(code=fl.code, t=fl.t, rule=rule))
        if fl.detail:
            lines.append(f"  {tx['detail']}{colon} {detail_text(fl.detail, lang)}")
        if fl.event:
            ev = ", ".join(f"{k}={v}" for k, v in fl.event.items())
            lines.append(f"  {tx['evidence']}{colon} {ev}")
        if fl.by == "person":
            lines.append(f"  ({tx['by_person']})")
        if verdict.moves:
            lines.append(tx["not_scored"])
    if verdict.warnings:
        lines.append(f"{tx['warnings']}{colon}")
        for w in verdict.warnings:
            where = "" if w.line is None else tx["line"].format(n=w.line)
            lines.append(f"  {w.t:.2f} s {w.code or w.kind}{where}{colon} {detail_text(w.detail, lang)}")
    return "\n".join(lines)
