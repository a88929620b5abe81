"""Order the video's contact events for the judge, within their timing uncertainty.

A down or up seen on video is dated to within about 0.1–0.2 s (the finger's descent and rise
take 6–8 frames, and the detector needs a few frames to be sure). When two events of the
climbing hand are closer than that, their order is not known, yet the rules may turn on it:

- the last anchor finger seen lifting 0.1 s *before* the next finger is seen arriving reads as
  ``no_contact`` (nothing on the table), while the climber almost always placed first;
- a finger seen arriving 0.1 s *before* the last release is seen reads as ``early_place``.

A fair referee does not call a fault on an order its own timing cannot tell: when feeding the
next event would make the judge call a fault, and a later event within ``window_s`` fed first
makes both go through without one, :class:`EventArbiter` feeds that one first (its time moved
to just before). Faults that do not depend on such an order stand (a hand really in the air for
longer than the window, a wrong colour, a used hold...). So does such a fault carried by the
later event itself: when the next event's fault is one of order (``no_contact``,
``early_place``, ``surplace``) and the later event, fed first, is a placement faulty whatever
the order (a wrong colour, a used hold, the start zone again, off target), the later event goes
first and its fault is the verdict (a climber who puts a finger into a burnt hold as the anchor
is seen lifting made that fault, not a doubtful ``no_contact``).

The doubt also goes to the climber for the score: a placement seen less than ``window_s`` after
a lift that ends a move (both without a fault in either order) is counted in that move when
that order scores more (the lift seen early or the placement late, as the truth is on rendered
climbs, where a release comes 0.9 s before the next placement). Points count only at the summit:
an order that reaches it (the last lift leaving a finger alone on the finish zone) is not given
up for one that scores more moves without it. Every reordering is kept in
:attr:`EventArbiter.reordered` (with ``fault_avoided``, or ``points``: the points so far in the
seen order and in the order fed) so a reviewer can see it.

The arbiter holds events for ``delay_s`` (longer than ``window_s`` plus the detector's own
confirmation lag) so that the later event is known when the earlier one is judged.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

from games.grimpe.climb import EventError

__all__ = ["EventArbiter"]

_CONTACT = ("down", "up")
#: faults that turn on the order of two nearby events
_ORDER_FAULTS = ("no_contact", "early_place", "surplace")
#: faults a placement carries whatever the order of the events around it
_OWN_FAULTS = ("wrong_finger", "used_hold", "restart_zone", "off_target")


def _order_key(e: dict[str, Any]) -> tuple[float, int]:
    return (float(e["t"]), 0 if e["type"] == "up" else 1)


class EventArbiter:
    """Hold events for ``delay_s``, then feed them to ``judge`` (a
    :class:`games.grimpe.climb.ClimbJudge`) in time order, swapping two contact events less
    than ``window_s`` apart when only the other order avoids a fault (see the module doc).

    ``push(events, now_s)`` → the events released to the judge (in the order fed, times
    adjusted); ``flush()`` releases everything. :attr:`released` lists them all and
    :attr:`reordered` the swaps made (``{"moved", "before", "fault_avoided"}``).
    """

    def __init__(self, judge: Any, *, delay_s: float = 0.6, window_s: float = 0.35) -> None:
        if window_s < 0 or delay_s < window_s:
            raise ValueError(f"need 0 <= window_s <= delay_s, got window {window_s}, delay {delay_s}")
        self.judge = judge
        self.delay_s = float(delay_s)
        self.window_s = float(window_s)
        self.pending: list[dict[str, Any]] = []
        self.released: list[dict[str, Any]] = []
        self.reordered: list[dict[str, Any]] = []
        #: called with each event once it is fed to the judge (e.g. to keep the judge's state)
        self.on_feed: Callable[[dict[str, Any]], None] | None = None

    def push(self, events: list[dict[str, Any]], now_s: float, *, flush: bool = False) -> list[dict[str, Any]]:
        self.pending.extend(events)
        self.pending.sort(key=_order_key)
        out: list[dict[str, Any]] = []
        while self.pending and (flush or self.pending[0]["t"] <= now_s - self.delay_s):
            ev = self._choose()
            if self.released and ev["t"] < self.released[-1]["t"]:
                ev = dict(ev, t=self.released[-1]["t"], t_seen=ev.get("t_seen", ev["t"]))
            self.released.append(ev)
            out.append(ev)
            if self.judge is not None:
                self.judge.feed(_for_judge(ev))
            if self.on_feed is not None:
                self.on_feed(ev)
        return out

    def flush(self) -> list[dict[str, Any]]:
        return self.push([], float("inf"), flush=True)

    # --- internals ------------------------------------------------------------------------
    def _trial(self, events: list[dict[str, Any]]) -> Any:
        """A copy of the judge fed ``events`` in order, up to the first fault; None when it
        refuses one of them (:class:`EventError`)."""
        j = copy.deepcopy(self.judge)
        try:
            for e in events:
                j.feed(_for_judge(e))
                if j.phase == "fault":
                    break
        except EventError:
            return None
        return j

    def _faults(self, events: list[dict[str, Any]]) -> bool:
        """Would feeding ``events`` (in order) make the judge call a fault? (An event the judge
        refuses counts as one here.)"""
        j = self._trial(events)
        return j is None or j.phase == "fault"

    def _choose(self) -> dict[str, Any]:
        """Pop the next event to feed: the head, or a later contact event within the window
        when feeding that one first avoids the head's fault, or replaces a fault of order with
        one the later event carries whatever the order (module doc)."""
        head = self.pending[0]
        if (self.judge is None or self.window_s <= 0 or head["type"] not in _CONTACT
                or getattr(self.judge, "ended", False)):
            return self.pending.pop(0)
        if not self._faults([head]):
            return self._favour(head)
        code = self._fault_code([head])
        for i in range(1, len(self.pending)):
            other = self.pending[i]
            if other["t"] - head["t"] > self.window_s:
                break
            if other["type"] not in _CONTACT or other.get("finger") == head.get("finger"):
                continue
            moved = dict(other, t=head["t"], t_seen=other["t"])
            if not self._faults([moved, head]) or (
                    code in _ORDER_FAULTS and self._fault_code([moved]) in _OWN_FAULTS):
                self.pending.pop(i)
                self.reordered.append({"moved": moved, "before": head, "fault_avoided": code})
                return moved
        return self.pending.pop(0)

    def _points(self, events: list[dict[str, Any]]) -> tuple[bool, int] | None:
        """(summit reached, points scored so far) after feeding ``events``; None if they make a
        fault. Points count only at the summit, so an order that reaches it is worth more than
        one that scores more moves without it."""
        j = self._trial(events)
        if j is None or j.phase == "fault":
            return None
        return j.phase == "summit", int(j.status()["points_so_far"])

    def _favour(self, head: dict[str, Any]) -> dict[str, Any]:
        """Pop the next event to feed when the head makes no fault: a placement seen within the
        window after the head's lift, when feeding it first scores more without a fault."""
        if head["type"] == "up":
            for i in range(1, len(self.pending)):
                other = self.pending[i]
                if other["t"] - head["t"] > self.window_s:
                    break
                if other["type"] != "down" or other.get("finger") == head.get("finger"):
                    continue
                moved = dict(other, t=head["t"], t_seen=other["t"])
                seen, swapped = self._points([head, other]), self._points([moved, head])
                if seen is not None and swapped is not None and swapped > seen:
                    self.pending.pop(i)
                    self.reordered.append({"moved": moved, "before": head, "fault_avoided": None,
                                           "points": (seen[1], swapped[1])})
                    return moved
        return self.pending.pop(0)

    def _fault_code(self, events: list[dict[str, Any]]) -> str | None:
        """The fault feeding ``events`` would make the judge call (None: none; ``"refused"``:
        an event the judge refuses)."""
        j = self._trial(events)
        if j is None:
            return "refused"
        return j.fault.code if j.fault is not None else None


def _for_judge(ev: dict[str, Any]) -> dict[str, Any]:
    e = {k: v for k, v in ev.items() if k != "t_seen"}
    if e["type"] == "down" and e.get("target") == "off":
        e["target"] = "none"
    return e
