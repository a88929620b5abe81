"""Climb scripts: a legal climb planned on a route, faults on purpose, and its frame timeline.

:func:`plan_climb` searches, on a :class:`games.grimpe.route.Route`, a climb from the start
zone to the finish zone that obeys the colour→finger rule and that the hand can make
(:meth:`vision.synth.hand.HandModel.place` for every set of fingers down at once).
:func:`build_script` turns a plan into a timeline of hand poses (keyframes at whole frames,
blended in between) and the contact event log in the ``arbitre grimpe judge`` format, for one
of :data:`SCRIPTS`:

- ``clean``: to the summit;
- ``wrong_finger``: a finger goes into a hold of another colour;
- ``used_hold``: a finger goes back into a hold that an earlier finger left;
- ``no_contact``: after a release the climber lifts the last finger too (the hand hovers);
- ``card_moved``: a card away from the hand is nudged mid-climb (the climb goes on);
- ``other_hand``: the other hand comes in and presses a card mid-climb (the climb goes on);
- ``empty``: no hand at all (for hold detection);
- ``bad_start``: the climber forgets the start: the hand comes to its start position, but the
  start finger stops in the air over the start zone (12-30 mm), and the climb goes on from
  the first move: the referee must not take the hovering finger for a start.

Event times are frame times: a ``down`` is the first frame where the tip touches (z = 0),
an ``up`` the first frame where it has left.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from games.grimpe.cards import ColourMap
from games.grimpe.route import Route
from vision.landmarks import FINGERTIPS
from vision.synth.hand import FINGERS, Down, FingerState, HandModel, Lifted, Rest, blend_poses
from vision.synth.scripts import SCRIPTS

__all__ = [
    "SCRIPTS",
    "CardNudge",
    "ClimbPlan",
    "Keyframe",
    "PlannedMove",
    "Script",
    "Target",
    "build_script",
    "plan_climb",
]

_REACH_MM = 190.0
_MIN_SPACING_MM = 20.0


@dataclass(frozen=True)
class Target:
    """Where a fingertip presses: a hold (``id`` like ``"12a"``, its colour) or a zone point
    (``id`` ``"start"``/``"finish"``, colour None). Table mm."""

    id: str
    x_mm: float
    y_mm: float
    colour: str | None = None

    @property
    def xy(self) -> tuple[float, float]:
        return (self.x_mm, self.y_mm)


@dataclass
class PlannedMove:
    """Fingers added in one move (finger → target, in the order they go down) and the finger
    kept after the release (the new anchor, or the finish finger at the summit)."""

    added: dict[str, Target]
    keep: str
    wrist_xy_mm: tuple[float, float] = (0.0, 0.0)
    heading_deg: float = 0.0


@dataclass
class ClimbPlan:
    start_finger: str
    start: Target
    moves: list[PlannedMove]

    @property
    def summit(self) -> bool:
        return bool(self.moves) and any(t.id == "finish" for t in self.moves[-1].added.values())


@dataclass(frozen=True)
class Keyframe:
    """Hand pose at a whole frame: wrist, heading and a state per finger (None: no hand)."""

    frame: int
    wrist_xy_mm: tuple[float, float]
    heading_deg: float
    states: dict[str, FingerState]


@dataclass(frozen=True)
class CardNudge:
    """A card pushed between ``frame0`` and ``frame1``: shift (mm) and turn (deg, CCW)."""

    card: int
    frame0: int
    frame1: int
    dx_mm: float
    dy_mm: float
    drot_deg: float

    def at(self, frame: int) -> tuple[float, float, float]:
        """(dx, dy, drot) applied at ``frame`` (0 before, full after, eased in between)."""
        if frame <= self.frame0:
            return (0.0, 0.0, 0.0)
        s = min(1.0, (frame - self.frame0) / max(1, self.frame1 - self.frame0))
        s = s * s * (3 - 2 * s)
        return (self.dx_mm * s, self.dy_mm * s, self.drot_deg * s)

    def to_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)


@dataclass
class Script:
    """Everything a scene needs to animate a climb.

    ``keyframes`` drive the climbing hand (empty for ``empty``); ``other_keyframes`` the other
    hand, if any. ``events`` is the contact log (judge format plus ``frame``).
    """

    name: str
    fps: float
    num_frames: int
    plan: ClimbPlan | None
    keyframes: list[Keyframe]
    events: list[dict[str, Any]]
    expected_fault: str | None
    nudges: list[CardNudge] = field(default_factory=list)
    other_keyframes: list[Keyframe] = field(default_factory=list)

    def hand_mm(self, model: HandModel, frame: int, *, other: bool = False) -> np.ndarray | None:
        """(21, 3) landmarks in table mm of the climbing (or other) hand at ``frame``, or None
        when that hand is not in the scene."""
        keys = self.other_keyframes if other else self.keyframes
        if other and keys and not keys[0].frame <= frame <= keys[-1].frame:
            return None
        return _pose_at(keys, model, frame)

    def truncated(self, num_frames: int) -> Script:
        """The same script cut (or held still) to ``num_frames`` frames; events after the cut
        are dropped."""
        events = [e for e in self.events if e["frame"] < num_frames]
        nudges = [n for n in self.nudges if n.frame0 < num_frames]
        return Script(self.name, self.fps, num_frames, self.plan, self.keyframes, events,
                      self.expected_fault, nudges, self.other_keyframes)


# --- planning ------------------------------------------------------------------------------


def _holds_as_targets(route: Route) -> list[Target]:
    return [Target(h.id, h.x_mm, h.y_mm, h.colour) for h in route.holds()]


def _zone_points(zone: Any, dxs: tuple[float, ...], dys: tuple[float, ...], name: str
                 ) -> list[Target]:
    return [Target(name, zone.x_mm + dx, zone.y_mm + dy) for dy in dys for dx in dxs]


class _Planner:
    def __init__(self, route: Route, model: HandModel, rng: np.random.Generator,
                 colour_map: ColourMap, max_moves: int, max_calls: int) -> None:
        self.route, self.model, self.rng, self.cmap = route, model, rng, colour_map
        self.holds = _holds_as_targets(route)
        fz = route.finish_zone_mm()
        if fz is None:
            raise ValueError("the route has no card, so no finish zone")
        self.finish_pts = _zone_points(fz, (-16.0, 0.0, 16.0), (-20.0, -6.0, 8.0), "finish")
        self.max_moves, self.calls_left = max_moves, max_calls
        self.step_mm = float(rng.uniform(45.0, 70.0))
        self._cache: dict[tuple, Any] = {}

    def place(self, targets: dict[str, Target], near: tuple[float, float] | None,
              heading: float) -> Any:
        key = tuple(sorted((f, t.xy) for f, t in targets.items()))
        if key in self._cache:
            return self._cache[key]
        self.calls_left -= 1
        p = self.model.place({f: t.xy for f, t in targets.items()}, near_wrist_xy_mm=near,
                             heading_hint_deg=heading, heading_range_deg=(-50.0, 50.0))
        self._cache[key] = p
        return p

    def singles(self, anchor_f: str, anchor: Target, burned: set[str]) -> list[tuple[str, Target]]:
        out = []
        for h in self.holds:
            if h.id in burned or h.id == anchor.id:
                continue
            f = self.cmap.finger_for(h.colour or "")
            d = math.dist(h.xy, anchor.xy)
            if f != anchor_f and _MIN_SPACING_MM <= d <= _REACH_MM:
                out.append((f, h))
        for f in FINGERS:
            if f == anchor_f:
                continue
            for t in self.finish_pts:
                if math.dist(t.xy, anchor.xy) <= _REACH_MM:
                    out.append((f, t))
        return out

    def candidates(self, anchor_f: str, anchor: Target, burned: set[str]
                   ) -> list[dict[str, Target]]:
        singles = self.singles(anchor_f, anchor, burned)
        moves: list[tuple[float, dict[str, Target]]] = []
        near_top = anchor.y_mm >= self.finish_pts[0].y_mm - 110.0

        def score(gain: float, finish: bool) -> float:
            # moderate steps (a climb of several moves), the finish once it is near
            s = min(gain, self.step_mm) - 0.6 * max(0.0, gain - self.step_mm)
            if finish:
                s += 200.0 if near_top else -100.0
            return s + float(self.rng.normal(0, 12))

        for i, (f, t) in enumerate(singles):
            moves.append((score(t.y_mm - anchor.y_mm, t.id == "finish"), {f: t}))
            for g, u in singles[i + 1:]:
                if g == f or u.id == t.id or math.dist(u.xy, t.xy) < _MIN_SPACING_MM:
                    continue
                if u.id == "finish" and t.id == "finish":
                    continue
                gain2 = max(t.y_mm, u.y_mm) - anchor.y_mm
                moves.append((score(gain2, "finish" in (t.id, u.id)) + 8, {f: t, g: u}))
        moves.sort(key=lambda m: -m[0])
        # ordered fingers: place the lower targets first (the hand reaches up last)
        return [dict(sorted(m.items(), key=lambda kv: kv[1].y_mm)) for _, m in moves[:60]]

    def search(self, anchor_f: str, anchor: Target, burned: set[str], near: tuple[float, float] | None,
               heading: float, depth: int) -> list[PlannedMove] | None:
        if depth >= self.max_moves or self.calls_left <= 0:
            return None
        for added in self.candidates(anchor_f, anchor, burned):
            if self.calls_left <= 0:
                return None
            targets = {anchor_f: anchor, **added}
            p = self.place(targets, near, heading)
            if p is None:
                continue
            finish = [f for f, t in added.items() if t.id == "finish"]
            if finish:
                return [PlannedMove(added, finish[0], p.wrist_xy_mm, p.heading_deg)]
            keeps = sorted(added, key=lambda f: -added[f].y_mm)
            for keep in keeps:
                if added[keep].y_mm < anchor.y_mm - 5:
                    continue
                new_burned = set(burned)
                for f, t in targets.items():
                    if f != keep and t.id not in ("start", "finish"):
                        new_burned.add(t.id)
                rest = self.search(keep, added[keep], new_burned, p.wrist_xy_mm, p.heading_deg,
                                   depth + 1)
                if rest is not None:
                    return [PlannedMove(added, keep, p.wrist_xy_mm, p.heading_deg)] + rest
        return None


def plan_climb(
    route: Route,
    model: HandModel,
    rng: np.random.Generator,
    *,
    colour_map: ColourMap | None = None,
    max_moves: int = 6,
    max_calls: int = 2500,
) -> ClimbPlan | None:
    """A legal climb from the start zone to the finish zone, or None if the search (bounded by
    ``max_calls`` hand placements) finds none. Moves add one or two fingers; each kept finger
    is at least as high as the previous anchor (minus 5 mm)."""
    planner = _Planner(route, model, rng, colour_map or ColourMap(), max_moves, max_calls)
    sz = route.start_zone_mm()
    starts = _zone_points(sz, (-18.0, 0.0, 18.0), (18.0, 4.0, -12.0), "start")
    order = [(f, s) for s in starts for f in FINGERS]
    for i in rng.permutation(len(order))[:20]:
        f, s = order[int(i)]
        moves = planner.search(f, s, set(), None, 0.0, 0)
        if moves is not None:
            return ClimbPlan(f, s, moves)
        if planner.calls_left <= 0:
            break
    return None


# --- timelines -----------------------------------------------------------------------------


def _ease(s: float) -> float:
    s = min(1.0, max(0.0, s))
    return s * s * (3 - 2 * s)


def _pose_at(keys: list[Keyframe], model: HandModel, frame: int) -> np.ndarray | None:
    if not keys:
        return None
    if frame <= keys[0].frame:
        k = keys[0]
        return model.pose(k.wrist_xy_mm, k.heading_deg, k.states, strict=False)
    if frame >= keys[-1].frame:
        k = keys[-1]
        return model.pose(k.wrist_xy_mm, k.heading_deg, k.states, strict=False)
    j = next(i for i, k in enumerate(keys) if k.frame > frame)
    a, b = keys[j - 1], keys[j]
    if frame == a.frame:
        return model.pose(a.wrist_xy_mm, a.heading_deg, a.states, strict=False)
    s = (frame - a.frame) / (b.frame - a.frame)
    e = _ease(s)
    w = (a.wrist_xy_mm[0] + e * (b.wrist_xy_mm[0] - a.wrist_xy_mm[0]),
         a.wrist_xy_mm[1] + e * (b.wrist_xy_mm[1] - a.wrist_xy_mm[1]))
    h = a.heading_deg + e * (b.heading_deg - a.heading_deg)
    if a.wrist_xy_mm == b.wrist_xy_mm and a.heading_deg == b.heading_deg:
        pa = model.pose(a.wrist_xy_mm, a.heading_deg, a.states, strict=False)
        pb = model.pose(b.wrist_xy_mm, b.heading_deg, b.states, strict=False)
    else:
        pa = model.pose(w, h, a.states, strict=False)
        pb = model.pose(w, h, b.states, strict=False)
    out = blend_poses(pa, pb, s)
    # a finger pressing in both keyframes stays exactly on its point
    for f in FINGERS:
        sa, sb = a.states.get(f), b.states.get(f)
        if isinstance(sa, Down) and sa == sb:
            out[FINGERTIPS[f]] = (sa.x_mm, sa.y_mm, 0.0)
    return out


class _Timeline:
    """Builds keyframes and events frame by frame."""

    def __init__(self, fps: float) -> None:
        self.fps = fps
        self.frame = 0
        self.keys: list[Keyframe] = []
        self.events: list[dict[str, Any]] = []
        self.wrist = (0.0, 0.0)
        self.heading = 0.0
        self.states: dict[str, FingerState] = {f: Rest() for f in FINGERS}

    def n(self, seconds: float) -> int:
        return max(1, int(round(seconds * self.fps)))

    def key(self, seconds: float) -> None:
        self.frame += self.n(seconds) if self.keys else 0
        self.keys.append(Keyframe(self.frame, self.wrist, self.heading, dict(self.states)))

    def event(self, frame: int, **kw: Any) -> None:
        self.events.append({"t": round(frame / self.fps, 4), "frame": frame, **kw})

    def down(self, finger: str, target: Target, seconds: float) -> None:
        self.states[finger] = Down(target.x_mm, target.y_mm)
        self.key(seconds)
        self.event(self.frame, type="down", finger=finger, target=target.id)

    def up(self, finger: str, seconds: float) -> None:
        start = self.frame
        self.states[finger] = Lifted(32.0)
        self.key(seconds)
        self.event(start + 1, type="up", finger=finger)

    def travel(self, wrist: tuple[float, float], heading: float, seconds: float,
               lifted: tuple[str, ...] = ()) -> None:
        self.wrist, self.heading = wrist, heading
        for f in FINGERS:
            if not isinstance(self.states[f], Down):
                self.states[f] = Lifted(30.0) if f in lifted else Rest()
        self.key(seconds)


@dataclass(frozen=True)
class _Timing:
    travel_s: float = 0.45
    down_s: float = 0.27
    hold_s: float = 0.2
    up_s: float = 0.2
    end_s: float = 0.6


def _run_moves(tl: _Timeline, plan: ClimbPlan, moves: list[PlannedMove], tm: _Timing,
               model: HandModel) -> str:
    """Animate ``moves`` (all with their releases); returns the anchor finger at the end."""
    anchor = plan.start_finger
    for mv in moves:
        tl.travel(mv.wrist_xy_mm, mv.heading_deg, tm.travel_s, lifted=tuple(mv.added))
        for f, t in mv.added.items():
            tl.down(f, t, tm.down_s)
        tl.key(tm.hold_s)
        down = [f for f in FINGERS if isinstance(tl.states[f], Down)]
        order = [anchor] + [f for f in down if f != anchor]
        for f in order:
            if f != mv.keep and isinstance(tl.states[f], Down):
                tl.up(f, tm.up_s)
        anchor = mv.keep
    return anchor


def _begin(tl: _Timeline, plan: ClimbPlan, model: HandModel, tm: _Timing,
           hover_mm: float | None = None) -> None:
    """The hand comes to its start position and the start finger presses the start zone (or,
    with ``hover_mm``, stops that high above it: a ``bad_start``)."""
    first = plan.moves[0]
    p0 = model.place({plan.start_finger: plan.start.xy}, near_wrist_xy_mm=first.wrist_xy_mm,
                     heading_hint_deg=first.heading_deg)
    wrist = p0.wrist_xy_mm if p0 is not None else first.wrist_xy_mm
    heading = p0.heading_deg if p0 is not None else first.heading_deg
    tl.wrist, tl.heading = (wrist[0], wrist[1] - 25.0), heading
    tl.states = {f: Rest() for f in FINGERS}
    tl.states[plan.start_finger] = Lifted(30.0)
    tl.key(0)
    tl.wrist = wrist
    tl.key(0.35)
    if hover_mm is None:
        tl.down(plan.start_finger, plan.start, tm.down_s)
    else:
        tl.states[plan.start_finger] = Lifted(hover_mm)
        tl.key(tm.down_s)
    tl.key(0.2)


def _lift_all(tl: _Timeline, tm: _Timing, rise_mm: float = 0.0) -> None:
    for f in FINGERS:
        if isinstance(tl.states[f], Down):
            tl.up(f, tm.up_s)
    if rise_mm:
        tl.wrist = (tl.wrist[0], tl.wrist[1] - rise_mm)
        tl.states = {f: Rest() for f in FINGERS}
        tl.key(0.4)


def _burned_before(plan: ClimbPlan, k: int) -> dict[str, tuple[str, Target]]:
    """Holds left before move ``k`` → (finger that left it, target)."""
    burned: dict[str, tuple[str, Target]] = {}
    down: dict[str, Target] = {plan.start_finger: plan.start}
    for mv in plan.moves[:k]:
        down.update(mv.added)
        for f, t in list(down.items()):
            if f != mv.keep:
                if t.id not in ("start", "finish"):
                    burned[t.id] = (f, t)
                del down[f]
    return burned


def _anchor_before(plan: ClimbPlan, k: int) -> tuple[str, Target]:
    if k == 0:
        return plan.start_finger, plan.start
    mv = plan.moves[k - 1]
    return mv.keep, mv.added[mv.keep]


def _fault_move(name: str, plan: ClimbPlan, model: HandModel, route: Route,
                cmap: ColourMap, rng: np.random.Generator) -> tuple[int, PlannedMove] | None:
    """A faulty move replacing move k of the plan, for ``wrong_finger`` or ``used_hold``."""
    n = len(plan.moves)
    ks = list(range(1, n))
    rng.shuffle(ks)
    holds = _holds_as_targets(route)
    for k in ks:
        af, at = _anchor_before(plan, k)
        burned = _burned_before(plan, k)
        options: list[tuple[str, Target]] = []
        if name == "wrong_finger":
            for h in holds:
                if h.id in burned or h.id == at.id or math.dist(h.xy, at.xy) > _REACH_MM:
                    continue
                for f in FINGERS:
                    if f != af and cmap.finger_for(h.colour or "") != f:
                        options.append((f, h))
        else:
            for hid, (f, t) in burned.items():
                if f != af and cmap.finger_for(t.colour or "") == f:
                    options.append((f, t))
        order = list(rng.permutation(len(options)))
        for i in order:
            f, t = options[int(i)]
            prev = plan.moves[k - 1]
            p = model.place({af: at.xy, f: t.xy}, near_wrist_xy_mm=prev.wrist_xy_mm,
                            heading_hint_deg=prev.heading_deg, heading_range_deg=(-50.0, 50.0))
            if p is not None:
                return k, PlannedMove({f: t}, f, p.wrist_xy_mm, p.heading_deg)
    return None


def build_script(
    name: str,
    route: Route,
    model: HandModel,
    plan: ClimbPlan | None,
    rng: np.random.Generator,
    *,
    fps: float = 30.0,
    colour_map: ColourMap | None = None,
    other_model: HandModel | None = None,
) -> Script | None:
    """The timeline and event log of script ``name`` (see module doc) on a planned climb.

    Returns None when the plan does not allow this fault (e.g. too few moves); the caller then
    tries another route. ``plan`` may be None only for ``empty``.
    """
    if name not in SCRIPTS:
        raise ValueError(f"script must be one of {SCRIPTS}, got {name!r}")
    cmap = colour_map or ColourMap()
    tm = _Timing()
    tl = _Timeline(fps)
    if name == "empty":
        return Script(name, fps, tl.n(2.0), None, [], [], None)
    if plan is None or not plan.summit:
        return None
    expected: str | None = None
    nudges: list[CardNudge] = []
    other_keys: list[Keyframe] = []
    hover_mm = float(rng.uniform(12.0, 30.0)) if name == "bad_start" else None
    _begin(tl, plan, model, tm, hover_mm=hover_mm)
    if name in ("clean", "bad_start"):
        _run_moves(tl, plan, plan.moves, tm, model)
        tl.key(tm.end_s)
        expected = None if name == "clean" else name
    elif name in ("wrong_finger", "used_hold"):
        fm = _fault_move(name, plan, model, route, cmap, rng)
        if fm is None:
            return None
        k, mv = fm
        _run_moves(tl, plan, plan.moves[:k], tm, model)
        tl.travel(mv.wrist_xy_mm, mv.heading_deg, tm.travel_s, lifted=tuple(mv.added))
        for f, t in mv.added.items():
            tl.down(f, t, tm.down_s)
        tl.key(0.4)
        _lift_all(tl, tm, rise_mm=20.0)
        expected = name
    elif name == "no_contact":
        if len(plan.moves) < 2:
            return None
        k = int(rng.integers(1, len(plan.moves)))
        _run_moves(tl, plan, plan.moves[:k], tm, model)
        tl.key(0.2)
        _lift_all(tl, tm, rise_mm=15.0)
        tl.key(0.5)
        expected = "no_contact"
    elif name in ("card_moved", "other_hand"):
        if len(plan.moves) < 2:
            return None
        k = int(rng.integers(1, len(plan.moves)))
        _run_moves(tl, plan, plan.moves[:k], tm, model)
        f0 = tl.frame
        _run_moves(tl, plan, plan.moves[k:], tm, model)
        tl.key(tm.end_s)
        if name == "card_moved":
            nudge = _pick_nudge(route, plan, k, f0, tl, rng)
            if nudge is None:
                return None
            nudges.append(nudge)
            tl.event(nudge.frame0 + 1, type="card_moved", card=nudge.card)
        else:
            if other_model is None:
                return None
            touch = _other_hand_keys(route, plan, k, f0, tl, model, other_model, rng)
            if touch is None:
                return None
            other_keys, touch_frame = touch
            tl.event(touch_frame, type="other_hand")
        expected = name
    tl.events.sort(key=lambda e: (e["frame"], 0 if e["type"] == "up" else 1))
    return Script(name, fps, tl.frame + 1, plan, tl.keys, tl.events, expected, nudges, other_keys)


def _card_centres(route: Route) -> dict[int, tuple[float, float]]:
    from games.grimpe.route import slot_centre_mm

    return {p.number: slot_centre_mm(p.col, p.row) for p in route.placements}


def _pick_nudge(route: Route, plan: ClimbPlan, k: int, f0: int, tl: _Timeline,
                rng: np.random.Generator) -> CardNudge | None:
    """Nudge the card farthest from every target of the climb around move ``k``."""
    used = [plan.start.xy] + [t.xy for mv in plan.moves for t in mv.added.values()]
    best, best_d = None, -1.0
    for card, c in _card_centres(route).items():
        d = min(math.dist(c, u) for u in used)
        if d > best_d:
            best, best_d = card, d
    if best is None or best_d < 30.0:
        return None
    ang = rng.uniform(0, 2 * np.pi)
    dist_mm = rng.uniform(8, 14)
    n = tl.n(0.25)
    return CardNudge(int(best), f0, f0 + n, float(dist_mm * np.cos(ang)),
                     float(dist_mm * np.sin(ang)), float(rng.uniform(-12, 12)))


def _with_forearm(lm: np.ndarray | None) -> np.ndarray:
    """(N, 2) table points covered by a posed hand: its landmarks and its forearm's axis
    (from the wrist away from the middle finger's root, 250 mm)."""
    assert lm is not None
    back = lm[0, :2] - lm[9, :2]
    back = back / max(float(np.linalg.norm(back)), 1e-9)
    arm = lm[0, :2] + np.arange(20.0, 260.0, 20.0)[:, None] * back[None, :]
    return np.concatenate([lm[:, :2], arm])


def _other_hand_keys(route: Route, plan: ClimbPlan, k: int, f0: int, tl: _Timeline,
                     model: HandModel, other: HandModel, rng: np.random.Generator
                     ) -> tuple[list[Keyframe], int] | None:
    """The other hand comes in from its side, presses a card with the index, and leaves,
    staying clear (≥ 30 mm) of the climbing hand meanwhile."""
    fps = tl.fps

    def n(s: float) -> int:
        return max(1, int(round(s * fps)))

    window = range(f0, f0 + n(2.1) + 1, 3)
    climb = np.concatenate([_with_forearm(_pose_at(tl.keys, model, f)) for f in window])
    side = -1.0 if other.style.handedness == "left" else 1.0
    cands = []
    for card, c in _card_centres(route).items():
        for du, dv in ((side * 12.0, -20.0), (0.0, -22.0), (side * 20.0, 0.0), (0.0, 15.0)):
            tgt = (c[0] + du, c[1] + dv)
            d = float(np.min(np.hypot(climb[:, 0] - tgt[0], climb[:, 1] - tgt[1])))
            cands.append((d, card, tgt))
    cands.sort(key=lambda x: -x[0])
    for d, card, tgt in cands[:12]:
        if d < 60.0:
            break
        p = other.place({"index": tgt}, heading_hint_deg=side * 20.0)
        if p is None:
            continue
        lm = _with_forearm(p.landmarks_mm)
        gap = np.min(np.linalg.norm(lm[:, None, :] - climb[None, :, :], axis=-1))
        if gap < 45.0:
            continue
        away = (p.wrist_xy_mm[0] + side * 50.0, p.wrist_xy_mm[1] - 70.0)
        rest = {f: Rest() for f in FINGERS}
        lifted = dict(rest, index=Lifted(30.0))
        down = dict(rest, index=Down(*tgt))
        a = f0
        keys = [
            Keyframe(a, away, p.heading_deg, rest),
            Keyframe(a + n(0.5), p.wrist_xy_mm, p.heading_deg, lifted),
            Keyframe(a + n(0.8), p.wrist_xy_mm, p.heading_deg, down),
            Keyframe(a + n(1.2), p.wrist_xy_mm, p.heading_deg, down),
            Keyframe(a + n(1.5), p.wrist_xy_mm, p.heading_deg, lifted),
            Keyframe(a + n(2.1), away, p.heading_deg, rest),
        ]
        return keys, a + n(0.8)
    return None
