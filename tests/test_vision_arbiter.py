"""The event arbiter: two video events closer than their timing uncertainty are fed to the judge
in the order that makes no fault of order, or that scores more; a placement's own fault, real
faults, and events farther apart, stand."""

import json
from pathlib import Path

import pytest

from games.grimpe.climb import ClimbJudge
from vision.arbiter import EventArbiter

EXAMPLE = Path(__file__).resolve().parents[1] / "sample_videos" / "example_climb"
ROUTE = json.loads((EXAMPLE / "route.json").read_text())


def _events() -> list[dict]:
    return [json.loads(line) for line in (EXAMPLE / "events.jsonl").read_text().splitlines() if line.strip()]


def _judge(events: list[dict], window_s: float) -> tuple[dict, EventArbiter]:
    judge = ClimbJudge(ROUTE)
    arb = EventArbiter(judge, window_s=window_s)
    arb.push(events, 0.0)
    arb.flush()
    return judge.verdict().to_json(), arb


def _retime(events: list[dict], finger: str, type_: str, t: float) -> list[dict]:
    out = [dict(e) for e in events]
    e = next(e for e in out if e["finger"] == finger and e["type"] == type_ and e["t"] > 3.0)
    e["t"] = t
    return out


def test_in_order_stream_is_judged_unchanged():
    verdict, arb = _judge(_events(), 0.35)
    assert (verdict["result"], verdict["score"]) == ("summit", 5)
    assert arb.reordered == []
    assert [e["t"] for e in arb.released] == [e["t"] for e in _events()]


def test_release_seen_just_before_the_placement_is_not_no_contact():
    # the anchor (ring) is seen lifting 0.1 s before the middle finger is seen arriving
    ev = _retime(_events(), "ring", "up", 3.0)
    ev = _retime(ev, "middle", "down", 3.1)
    plain = ClimbJudge(ROUTE).feed_all(sorted(ev, key=lambda e: e["t"])).to_json()
    assert plain["fault"]["code"] == "no_contact"  # what a naive order would say
    verdict, arb = _judge(ev, 0.35)
    assert (verdict["result"], verdict["score"]) == ("summit", 5)
    assert len(arb.reordered) == 1
    sw = arb.reordered[0]
    assert sw["moved"]["finger"] == "middle" and sw["before"]["finger"] == "ring"
    assert sw["fault_avoided"] == "no_contact"
    assert [e["t"] for e in arb.released] == sorted(e["t"] for e in arb.released)


def test_placement_seen_just_before_the_release_is_not_early_place():
    ev = [dict(e) for e in _events()]
    # little's release (2.4 s) seen 0.2 s late, after the middle finger arrived at 2.5 s
    for e in ev:
        if e["finger"] == "little" and e["type"] == "up":
            e["t"] = 2.6
        if e["finger"] == "middle" and e["type"] == "down":
            e["t"] = 2.5
    plain = ClimbJudge(ROUTE).feed_all(sorted(ev, key=lambda e: e["t"])).to_json()
    assert plain["fault"]["code"] == "early_place"
    verdict, arb = _judge(ev, 0.35)
    assert (verdict["result"], verdict["score"]) == ("summit", 5)
    assert arb.reordered[0]["fault_avoided"] == "early_place"


def _move2(finger: str, target: str, t_down: float, t_ring_up: float) -> list[dict]:
    """The example with move 2 made by ``finger`` into ``target`` (at ``t_down``), the ring
    anchor seen lifting at ``t_ring_up``."""
    ev = [dict(e) for e in _events()]
    for e in ev:
        if e["finger"] == "middle" and e["type"] == "down":
            e.update(finger=finger, target=target, t=t_down)
        if e["finger"] == "middle" and e["type"] == "up":
            e["finger"] = finger
        if e["finger"] == "ring" and e["type"] == "up":
            e["t"] = t_ring_up
    return ev


@pytest.mark.parametrize(("finger", "target", "code"), [
    ("little", "11a", "used_hold"),  # the little finger back into the hold it left at 2.4 s
    ("index", "7b", "wrong_finger"),  # green is the middle finger's
])
def test_a_placement_fault_is_not_hidden_by_a_release_seen_just_before(finger, target, code):
    # the climber put a finger into a forbidden hold while the anchor was still down; the anchor
    # is seen lifting 0.1 s before it: nothing on the table (no_contact) is an artefact of the
    # timing, the forbidden placement is not
    ev = _move2(finger, target, 3.1, 3.0)
    plain = ClimbJudge(ROUTE).feed_all(sorted(ev, key=lambda e: e["t"])).to_json()
    assert plain["fault"]["code"] == "no_contact"
    verdict, arb = _judge(ev, 0.35)
    assert verdict["fault"]["code"] == code
    assert verdict["fault"]["finger"] == finger and verdict["score"] == 0
    assert arb.reordered[0]["fault_avoided"] == "no_contact"
    # in the true order it is the same fault, of course
    assert _judge(_move2(finger, target, 3.1, 3.7), 0.35)[0]["fault"]["code"] == code


def test_a_fault_of_its_own_is_not_replaced_by_a_later_one():
    # a wrong-colour placement, then 0.1 s later a used hold: the first fault stands
    ev = _move2("index", "7b", 3.1, 3.7)
    ev.append({"t": 3.2, "type": "down", "finger": "little", "target": "11a", "frame": 96})
    verdict, arb = _judge(ev, 0.35)
    assert verdict["fault"]["code"] == "wrong_finger" and verdict["fault"]["finger"] == "index"
    assert arb.reordered == []


def test_a_placement_fault_long_after_the_release_leaves_no_contact():
    verdict, arb = _judge(_move2("little", "11a", 3.5, 3.0), 0.35)
    assert verdict["fault"]["code"] == "no_contact"
    assert arb.reordered == []


def _three_finger_move2(t_index_down: float) -> list[dict]:
    """The example with the index also put into 7a (blue) in move 2, and lifted at 4.0 s."""
    ev = [dict(e) for e in _events()]
    ev += [{"t": t_index_down, "type": "down", "finger": "index", "target": "7a", "frame": 108},
           {"t": 4.0, "type": "up", "finger": "index", "frame": 120}]
    return ev


def test_a_placement_seen_just_after_the_move_ended_counts_in_it():
    truth, _ = _judge(_three_finger_move2(3.5), 0.35)
    assert (truth["result"], truth["score"]) == ("summit", 7)  # 3 + 3 + 1
    # the index seen 0.1 s after the ring's lift that ends move 2: read in that order, move 2
    # has two fingers and the index starts a move of its own (here a surplace)
    ev = _three_finger_move2(3.8)
    plain = ClimbJudge(ROUTE).feed_all(sorted(ev, key=lambda e: e["t"])).to_json()
    assert plain["fault"]["code"] == "surplace"
    verdict, arb = _judge(ev, 0.35)
    assert (verdict["result"], verdict["score"]) == ("summit", 7)
    sw = arb.reordered[0]
    assert sw["fault_avoided"] is None and sw["points"] == (4, 6)
    assert sw["moved"]["finger"] == "index" and sw["before"]["finger"] == "ring"


def test_a_placement_seen_after_the_window_starts_the_next_move():
    verdict, arb = _judge(_three_finger_move2(3.8), 0.05)
    assert verdict["fault"]["code"] == "surplace"
    assert arb.reordered == []


@pytest.mark.parametrize("gap", [0.5, 1.0])
def test_a_gap_longer_than_the_window_is_a_real_fault(gap):
    ev = _retime(_events(), "ring", "up", 3.0)
    ev = _retime(ev, "middle", "down", 3.0 + gap)
    verdict, arb = _judge(ev, 0.35)
    assert verdict["fault"]["code"] == "no_contact"
    assert arb.reordered == []


def test_window_zero_never_reorders():
    ev = _retime(_events(), "ring", "up", 3.0)
    ev = _retime(ev, "middle", "down", 3.1)
    verdict, arb = _judge(ev, 0.0)
    assert verdict["fault"]["code"] == "no_contact"
    assert arb.reordered == []


def test_events_are_held_for_the_delay():
    judge = ClimbJudge(ROUTE)
    arb = EventArbiter(judge, delay_s=0.6, window_s=0.35)
    ev = _events()
    assert arb.push(ev[:2], 1.0) == []  # 0.5 s is not yet 0.6 s old at 1.0 s
    out = arb.push([], 1.15)
    assert [e["t"] for e in out] == [0.5]
    assert judge.status()["down"] == {"thumb": "start"}


def test_bad_settings_are_refused():
    with pytest.raises(ValueError):
        EventArbiter(ClimbJudge(ROUTE), delay_s=0.2, window_s=0.35)


@pytest.mark.parametrize(("lang", "words"), [
    ("en", ("down index", "up ring", "2 points fewer", "the doubt goes to the climber")),
    ("fr", ("2 points de moins", "le doute profite au grimpeur")),
])
def test_the_judge_video_text_says_why_an_order_was_chosen(lang, words):
    from ui.grimpe_video import _text

    judge = ClimbJudge(ROUTE)
    arb = EventArbiter(judge, window_s=0.35)
    arb.push(_three_finger_move2(3.8), 0.0)
    arb.flush()
    verdict = dict(judge.verdict().to_json(), events=arb.released, reordered=arb.reordered)
    line = next(x for x in _text(verdict, lang).splitlines() if x.strip().startswith(("order", "ordre")))
    for w in words:
        assert w in line, line


@pytest.mark.parametrize("events", [
    _move2("little", "11a", 3.1, 3.0),  # a used hold seen just after the release
    _three_finger_move2(3.8),  # a placement counted in the move it was seen just after
    _retime(_retime(_events(), "ring", "up", 3.0), "middle", "down", 3.1),
])
def test_the_released_log_judged_again_gives_the_same_verdict(events, tmp_path):
    """The review judges an attempt again from its events file (the events as the arbiter
    released them, in that order): the reorderings are kept, so the verdict is the same."""
    from games.grimpe.climb import RouteHolds, judge_events, load_events

    verdict, arb = _judge(events, 0.35)
    assert arb.reordered
    log = tmp_path / "events.jsonl"
    log.write_text("".join(json.dumps(e) + "\n" for e in arb.released))
    again = judge_events(ROUTE, load_events(log, RouteHolds.of(ROUTE))).to_json()
    def key(v: dict) -> tuple:
        f = v["fault"] or {}
        return v["result"], v["score"], f.get("code"), f.get("t"), f.get("finger"), len(v["moves"])

    assert key(again) == key(verdict)


def test_a_later_event_the_judge_refuses_is_not_a_reason_to_reorder():
    # a release seen early, then an event the judge cannot take (a hold the route does not
    # have): looking ahead must not fail, and the fault of order stands
    ev = _retime(_events(), "ring", "up", 3.0)
    ev = [e for e in ev if not (e["finger"] == "middle" and e["type"] == "down")]
    ev.append({"t": 3.1, "type": "down", "finger": "middle", "target": "99z", "frame": 93})
    judge = ClimbJudge(ROUTE)
    arb = EventArbiter(judge, window_s=0.35)
    out = arb.push(sorted(ev, key=lambda e: e["t"])[:7], 3.0 + arb.delay_s)  # to the ring's lift
    assert judge.verdict().fault.code == "no_contact" and arb.reordered == []
    assert out[-1]["finger"] == "ring" and arb.pending[0]["target"] == "99z"


def test_a_placement_seen_just_after_the_summit_does_not_undo_it():
    """The last lift leaves the thumb alone on the finish zone (summit); a placement seen 0.05 s
    later would score more fed first (a three-finger move), but then no finger is alone on the
    finish zone and the climb has no summit: points count only at the summit, so the order
    seen stands (sample clean_oblique had been judged incomplete this way)."""
    ev = _events()
    truth, _ = _judge(ev, 0.35)
    assert truth["result"] == "summit"
    late = ev + [{"t": 5.25, "type": "down", "finger": "index", "target": "7a", "frame": 157}]
    swapped = sorted(late, key=lambda e: e["t"])
    swapped[-2:] = [dict(swapped[-1], t=5.2), swapped[-2]]  # the placement fed before the last lift
    plain = ClimbJudge(ROUTE).feed_all(swapped).to_json()
    assert plain["result"] == "incomplete"
    assert sum(m["points"] for m in plain["moves"]) > truth["score"]
    verdict, arb = _judge(late, 0.35)
    assert (verdict["result"], verdict["score"]) == ("summit", truth["score"])
    assert arb.reordered == []
