"""Contact detection against exact ground truth, on a rendered climb the classifier was not
trained on (sample_videos/wrong_finger_top, seed 12; see ``trained_on`` in the model file), with
the real MediaPipe tracker; and the small learned model's plumbing (features, determinism).
Verdict accuracy is measured by ``python -m vision.bench_judge`` (a single spurious event can
change a verdict; on this clip it currently does)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from vision.contact_model import (
    FEATURE_NAMES,
    MODEL_PATH,
    STAY_FEATURE_NAMES,
    ContactNet,
    camera_cues,
    camera_rays,
    hand_pose,
    lookahead_features,
    lookahead_names,
    palm_centre,
    stay_names,
)
from vision.observations import RouteObservation
from vision.pipeline import GrimpeReferee
from vision.train_contact import _members, train_mlp
from vision.video import VideoReader

CLIP = Path(__file__).resolve().parents[1] / "sample_videos" / "wrong_finger_top"
TOL_S = 0.2


def _referee_verdict(clip_dir: Path) -> dict:
    """The referee's verdict on a sample clip, every frame fed as a camera would."""
    route = json.loads((clip_dir / "route.json").read_text())
    gt = json.loads((clip_dir / "ground_truth.json").read_text())
    ref = GrimpeReferee(route, fps=gt["fps"])
    with VideoReader(clip_dir / "video.mp4") as vr:
        for i, t, frame in vr:
            ref.update(frame, t, i)
    verdict = ref.finish()
    ref.close()
    return verdict


@pytest.fixture(scope="module")
def judged() -> tuple[dict, dict]:
    return json.loads((CLIP / "ground_truth.json").read_text()), _referee_verdict(CLIP)


def test_clip_is_held_out_of_training() -> None:
    model = json.loads(MODEL_PATH.read_text())
    gt = json.loads((CLIP / "ground_truth.json").read_text())
    assert not any(s.startswith(f"seed {gt['seed']} ") for s in model["trained_on"])


def test_contact_events_match_ground_truth(judged: tuple[dict, dict]) -> None:
    gt, verdict = judged
    truth = [e for e in gt["events"] if e["type"] in ("down", "up")]
    pred = [e for e in verdict["events"] if e["type"] in ("down", "up")]
    found = []
    used: set[int] = set()
    for e in truth:
        for j, p in enumerate(pred):
            if j in used or p["type"] != e["type"] or p["finger"] != e["finger"]:
                continue
            if p.get("target") != e.get("target") or abs(p["t"] - e["t"]) > TOL_S:
                continue
            used.add(j)
            found.append(e)
            break
    # The model trained on 43 clips (held-out seeds 6001-6016: event F1 0.73 -> 0.80, verdicts
    # 3 -> 6/16) misses this clip's faulty placement (index into a hold of another colour,
    # P below the wrong-colour bar) that the 27-clip model found: 4 of 6 events are found.
    assert len(found) >= len(truth) - 2, (truth, pred)
    assert len(pred) - len(used) <= 2, pred
    # the start and the first placement (the move the judge needs first) are among those found
    first_two = [e for e in truth if e["type"] == "down"][:2]
    assert all(e in found for e in first_two), (first_two, pred)


def test_model_file_matches_features() -> None:
    model = json.loads(MODEL_PATH.read_text())
    on_names = lookahead_names(tuple(model["on"].get("lookahead", ())))
    stay_feats = stay_names(tuple(model["stay"].get("lookahead", ())))
    on = ContactNet(model["on"], on_names)
    stay = ContactNet(model["stay"], stay_feats)
    assert on_names[:len(FEATURE_NAMES)] == FEATURE_NAMES
    assert stay_feats[:len(STAY_FEATURE_NAMES)] == STAY_FEATURE_NAMES
    p = on.predict(np.zeros((3, len(on_names)), np.float32))
    q = stay.predict(np.zeros((2, len(stay_feats)), np.float32))
    assert p.shape == (3,) and q.shape == (2,) and np.all((p > 0) & (p < 1)) and np.all((q > 0) & (q < 1))


def test_training_is_deterministic_and_learns() -> None:
    rng = np.random.default_rng(3)
    X = rng.normal(size=(400, 4))
    y = (X[:, 0] * X[:, 1] > 0).astype(float)  # needs the hidden layer (not linearly separable)
    a = train_mlp(X, y, hidden=8, iters=400)
    b = train_mlp(X, y, hidden=8, iters=400)
    assert a == b
    net = ContactNet(dict(a, features=["a", "b", "c", "d"]), ("a", "b", "c", "d"))
    assert float(((net.predict(X) > 0.5) == (y > 0.5)).mean()) >= 0.9


def test_nets_from_several_starts_are_averaged() -> None:
    rng = np.random.default_rng(4)
    X = rng.normal(size=(300, 4))
    y = (X[:, 0] * X[:, 1] > 0).astype(float)
    names = ("a", "b", "c", "d")
    w = _members(X, y, 3, hidden=8, iters=300)
    assert len(w["members"]) == 3 and w["members"][0] != w["members"][1]  # other starting weights
    assert _members(X, y, 1, hidden=8, iters=300) == w["members"][0]  # one net: its weights as they are
    ens = ContactNet(dict(w, features=list(names)), names)
    singles = [ContactNet(dict(m, features=list(names)), names) for m in w["members"]]
    assert ens.size == 3 and singles[0].size == 1
    np.testing.assert_allclose(ens.predict(X), np.mean([n.predict(X) for n in singles], axis=0), atol=1e-6)
    assert float(((ens.predict(X) > 0.5) == (y > 0.5)).mean()) >= 0.9


def test_a_net_trained_further_starts_from_the_given_one() -> None:
    """``init``: training starts from a given net's weights and keeps its normalisation; zero
    iterations give it back, a few on other data move it from there, and a net of another
    shape is refused. ``_members`` starts each member from the given members in turn."""
    rng = np.random.default_rng(5)
    X = rng.normal(size=(300, 4))
    y = (X[:, 0] * X[:, 1] > 0).astype(float)
    base = train_mlp(X, y, hidden=8, iters=300)
    X2 = rng.normal(loc=0.5, size=(300, 4))
    y2 = (X2[:, 0] > 0.5).astype(float)
    same = train_mlp(X2, y2, hidden=8, iters=0, init=base)
    assert same == base  # its weights and normalisation (not X2's)
    further = train_mlp(X2, y2, hidden=8, iters=50, lr=0.01, init=base)
    assert further["mean"] == base["mean"] and further["W1"] != base["W1"]
    fresh = train_mlp(X2, y2, hidden=8, iters=50, lr=0.01)
    d_further = np.abs(np.array(further["W1"]) - np.array(base["W1"])).max()
    d_fresh = np.abs(np.array(fresh["W1"]) - np.array(base["W1"])).max()
    assert d_further < d_fresh  # it stayed near where it started
    with pytest.raises(ValueError, match="another recipe"):
        train_mlp(X2[:, :3], y2, hidden=8, iters=10, init=base)
    two = _members(X, y, 2, hidden=8, iters=100)
    again = _members(X2, y2, 3, init=two, hidden=8, iters=0)
    assert again["members"] == [two["members"][0], two["members"][1], two["members"][0]]


def _route_of_clip():
    """The route observation the referee builds from the sample clip's first frame."""
    route = json.loads((CLIP / "route.json").read_text())
    gt = json.loads((CLIP / "ground_truth.json").read_text())
    ref = GrimpeReferee(route, fps=gt["fps"])
    with VideoReader(CLIP / "video.mp4") as vr:
        for i, t, frame in vr:
            ref.update(frame, t, i)
            if ref.route is not None:
                break
    ref.close()
    return ref.route


def exact_recording() -> dict:
    """The sample clip as :func:`vision.train_contact.record_clip` would keep it, with the
    ground truth's exact landmarks instead of MediaPipe's (the route as the referee finds it)."""
    gt = json.loads((CLIP / "ground_truth.json").read_text())
    rec = []
    for fr in gt["frames"]:
        hands = [h for h in fr["hands"] if h["role"] == "climbing"]
        lm = np.asarray(hands[0]["landmarks_px"], np.float32) if hands else None
        rec.append((lm, float(fr["t"]), int(fr["frame"]), None))
    return {"gt": gt, "route_json": json.loads((CLIP / "route.json").read_text()),
            "route": _route_of_clip(), "rec": rec, "other": [], "name": CLIP.name}


def _rescue_when_the_thumb_lifts(det, route, target: str, p_index: float, end_s: float = 1.0, lm_at=None):
    """The decoder's rescue when the thumb, the only finger down (on the start zone), lifts at
    7/15 s: before it, 8 processed frames at 15 per s with the index over ``target`` with P
    ``p_index`` from 0 s to ``end_s`` (the thumb at 0.9); landmarks fixed, or ``lm_at(i)`` in
    frame ``i``. Returns what :meth:`ContactDetector._rescue` puts down (or None)."""
    det.started = True
    det.state[0] = "start"
    lm = np.random.default_rng(0).uniform(100.0, 200.0, (21, 2)).astype(np.float32)
    for i in range(8):
        t = i / 15
        cands = [None, target if t <= end_s + 1e-6 else None, None, None, None]
        prob = np.array([0.9, p_index if cands[1] else 0.0, 0, 0, 0], np.float32)
        det._recent.append((t, 2 * i, cands, prob, lm if lm_at is None else lm_at(i)))
    return det._rescue(0, 7 / 15, route)


@pytest.mark.parametrize(("p_index", "end_s", "own", "other_ok", "found"), [
    (0.3, 0.5, True, False, True), (0.05, 0.5, True, False, False), (0.3, 0.2, True, False, False),
    (0.3, 0.5, False, False, False), (0.3, 0.5, False, True, True)])
def test_missed_placement_is_rescued_when_the_last_finger_lifts(p_index: float, end_s: float, own: bool,
                                                                other_ok: bool, found: bool) -> None:
    """The decoder's move-structure rule: when the only finger down lifts, the other finger's
    recent run over a hold (weak but above ``rescue_level``, lasting until the lift) is put
    down, dated to the start of that run; too weak or long gone, nothing is invented, and a
    hold of another colour than the finger's (a ``wrong_finger`` fault) is not guessed unless
    ``rescue_other_colour``."""
    from vision.contact import ContactDetector, ContactParams

    route = _route_of_clip()
    assert route is not None and len(route.holds)
    det = ContactDetector(ContactParams(rescue_other_colour=other_ok))
    index_colour = det._colours(route)[0][1]  # the holds of the index's colour
    assert index_colour.any() and not index_colour.all()
    hold = route.holds.ids[int(np.flatnonzero(index_colour == own)[0])]
    ev = _rescue_when_the_thumb_lifts(det, route, hold, p_index, end_s)
    if not found:
        assert ev is None and det.state[1] is None
        return
    assert ev is not None and ev["type"] == "down" and ev["finger"] == "index" and ev["target"] == hold
    assert ev["t"] == 0.0 and ev["frame"] == 0
    assert det.state[1] == hold


@pytest.mark.parametrize(("p_index", "end_s", "found"), [
    (0.3, 0.47, True), (0.3, 0.07, True), (0.05, 0.47, False)])
def test_a_missed_summit_needs_some_evidence(p_index: float, end_s: float, found: bool) -> None:
    """The finish zone in the rescue: a finger over the Arrivée card with P from
    ``rescue_finish_level`` is put down on it, even when it left the card since (the summit is
    the last move); one whose P stayed under it (a finger of a hand lifting near the card) is
    not."""
    from vision.contact import ContactDetector

    route = _route_of_clip()
    det = ContactDetector()
    assert 0.05 < det.p.rescue_finish_level < 0.3
    ev = _rescue_when_the_thumb_lifts(det, route, "finish", p_index, end_s)
    if not found:
        assert ev is None
        return
    assert ev is not None and (ev["finger"], ev["target"], ev["frame"]) == ("index", "finish", 0)


@pytest.mark.parametrize(("hand_moved", "index_moved", "travel_palm", "found"), [
    (0.0, 0.0, 0.3, False), (0.5, 0.5, 0.3, True), (0.5, 0.0, 0.3, False), (0.5, 0.5, 0.0, False),
    (0.2, 0.2, 0.3, False)])
def test_after_a_reach_the_finger_that_moved_is_rescued_even_into_another_colour(
        hand_moved: float, index_moved: float, travel_palm: float, found: bool) -> None:
    """``travel_palm``: the hand moved on (``hand_moved`` palm sizes) since the last down was
    confirmed, then its only finger down lifts. The index, which moved with it
    (``index_moved``), lies over a hold of another colour with weak evidence (P 0.02, under
    ``rescue_level``): it is put down there (the placement's own fault is then judged, not
    ``no_contact``). A hand that stays put, an index that stayed where it was (a resting
    neighbour), a short move or the rule off: nothing is invented."""
    from vision.contact import ContactDetector, ContactParams, palm_size_px
    from vision.landmarks import FINGER_JOINTS

    route = _route_of_clip()
    det = ContactDetector(ContactParams(travel_palm=travel_palm))
    assert det.p.travel_level < 0.02 < det.p.rescue_level
    hold = route.holds.ids[int(np.flatnonzero(~det._colours(route)[0][1])[0])]  # not the index's colour
    lm0 = np.random.default_rng(0).uniform(100.0, 200.0, (21, 2)).astype(np.float32)
    palm = palm_size_px(lm0)
    det._moved_from(lm0)  # where the hand was when the thumb went down
    lm = lm0.copy()
    lm[:, 0] += hand_moved * palm  # the hand moves right
    tip = FINGER_JOINTS["index"].tip
    lm[tip, 0] = lm0[tip, 0] + index_moved * palm
    det._track_travel(lm)
    ev = _rescue_when_the_thumb_lifts(det, route, hold, 0.02, lm_at=lambda i: lm)  # over the hold until the lift
    if not found:
        assert ev is None and det.state[1] is None
        return
    assert ev is not None and (ev["type"], ev["finger"], ev["target"], ev["frame"]) == ("down", "index", hold, 0)
    assert det.state[1] == hold
    assert det._travel == 0.0  # measured again from the placement


@pytest.mark.parametrize(("own", "p_index", "found"), [
    (True, 0.02, False), (True, 0.05, True), (False, 0.02, True)])
def test_after_a_reach_a_weak_run_into_the_fingers_own_colour_still_needs_some_evidence(
        own: bool, p_index: float, found: bool) -> None:
    """``travel_own_level``: the reach lowers the rescue's bar to ``travel_level`` only into a
    hold of another colour (placements there must pass ``wrong_level`` to be seen, and are
    missed under it). Into the finger's own colour the classifier has no such bar: a run with
    P under ``travel_own_level`` there is a finger passing over the hold, not a placement."""
    from vision.contact import ContactDetector, palm_size_px

    route = _route_of_clip()
    det = ContactDetector()
    assert det.p.travel_level < 0.02 < det.p.travel_own_level < 0.05 < det.p.rescue_level
    hold = route.holds.ids[int(np.flatnonzero(det._colours(route)[0][1] == own)[0])]
    lm0 = np.random.default_rng(0).uniform(100.0, 200.0, (21, 2)).astype(np.float32)
    det._moved_from(lm0)
    lm = lm0.copy()
    lm[:, 0] += 0.5 * palm_size_px(lm0)  # the hand and the index moved on
    det._track_travel(lm)
    ev = _rescue_when_the_thumb_lifts(det, route, hold, p_index, lm_at=lambda i: lm)
    assert (ev is not None and (ev["finger"], ev["target"]) == ("index", hold)) == found


def test_a_rescued_placement_is_dated_to_when_the_fingertip_settled() -> None:
    """A finger sliding over its target before it presses (the finish card is large) is not
    down yet: the rescue dates the placement to the first frame from which the fingertip stays
    within ``settle_palm`` of where it ends, not to the start of the run over the target."""
    from vision.contact import ContactDetector, ContactParams, palm_size_px
    from vision.landmarks import FINGER_JOINTS

    route = _route_of_clip()
    hold = route.holds.ids[int(np.flatnonzero(ContactDetector()._colours(route)[0][1])[0])]  # the index's colour
    base = np.random.default_rng(0).uniform(100.0, 200.0, (21, 2)).astype(np.float32)
    palm = palm_size_px(base)
    tip = FINGER_JOINTS["index"].tip
    for settle, first in ((0.1, 4), (0.0, 0)):
        det = ContactDetector(ContactParams(settle_palm=settle))

        def slide(i: int):  # the index tip slides 0.3 palm a frame until frame 4, then stays
            lm = base.copy()
            lm[tip, 0] -= 0.3 * palm * max(4 - i, 0)
            return lm

        ev = _rescue_when_the_thumb_lifts(det, route, hold, 0.3, lm_at=slide)
        assert ev is not None and ev["finger"] == "index" and ev["frame"] == 2 * first


def _scripted_events(det, route, cands_at, probs_at, frames: int = 31, lm_at=None, stay_at=None) -> list[dict]:
    """Run the decoder of ``det`` on scripted classifier outputs for ``frames`` processed frames
    at 15 per s (2 s): ``cands_at(t)`` the five fingers' targets, ``probs_at(t)`` their P (for
    the frame being decided, the oldest pending one); the still-down classifier says 0.9, or
    ``stay_at(t)``; the landmarks are fixed, or ``lm_at(t)``."""
    from vision.contact_model import FEATURE_NAMES

    n_feat = len(FEATURE_NAMES)

    def update(lm, t, route_, occ, prior, eye=None, start_weight=1.0):  # (targets, X, contact points) of one frame
        return cands_at(t), np.zeros((5, n_feat), np.float32), np.zeros((5, 2), np.float32)

    det.features.update = update  # type: ignore[method-assign]
    # the frame being decided is the oldest pending one
    det.on_net.predict = lambda X: np.asarray(  # type: ignore[method-assign]
        probs_at(det._pending[0].t_s), np.float32)
    det.stay_net.predict = lambda x: np.full(  # type: ignore[method-assign]
        len(x), 0.9 if stay_at is None else stay_at(det._done[-1].t_s), np.float32)  # the frame decided
    lm = np.random.default_rng(0).uniform(100.0, 200.0, (21, 2)).astype(np.float32)
    events = []
    for i in range(frames):
        events += det.update(lm if lm_at is None else lm_at(lm, i / 15), i / 15, 2 * i, route, None)[1]
    return events + det.finish()


@pytest.mark.parametrize(("t_index", "placed"), [(0.2, False), (0.8, True)])
def test_a_finger_laid_down_with_the_start_is_not_a_placement(t_index: float, placed: bool) -> None:
    """A hand landing on the start zone lays its neighbours on the cards beside it: a contact
    on a hold beginning less than ``start_grace_s`` after the start must last ``prestart_s``
    (here 0.3 s of clear evidence is not enough); the same contact later is a placement.
    The decoder runs on scripted classifier outputs (the thumb on the start zone from 0 s,
    the index on a hold of its own colour for 0.3 s from ``t_index``)."""
    from games.grimpe.cards import ColourMap
    from vision.contact import ContactDetector, ContactParams, own_colour

    route = _route_of_clip()
    own = own_colour(route, ColourMap())
    hold = route.holds.ids[int(np.flatnonzero(own[1])[0])]  # the index's own colour
    det = ContactDetector(ContactParams(), colour_map=ColourMap())
    assert 0.2 < det.p.start_grace_s < 0.8  # between the two cases

    def index_on(t: float) -> bool:
        return t_index - 1e-6 <= t <= t_index + 0.3 + 1e-6

    events = _scripted_events(
        det, route, lambda t: ["start", hold if index_on(t) else None, None, None, None],
        lambda t: [0.95, 0.95 if index_on(t) else 0.0, 0, 0, 0])
    downs = [(e["finger"], e["target"]) for e in events if e["type"] == "down"]
    assert downs[0] == ("thumb", "start")
    assert (("index", hold) in downs) == placed


@pytest.mark.parametrize(("rest_palm", "moves", "thumb_lifts", "index_down_at"), [
    (0.0, False, False, (0.0, 0.0)),   # rule off: the resting index is confirmed with the start
    (0.3, False, False, None),         # resting all along: never a placement
    (0.3, True, False, (0.8, 0.8)),    # it reaches another hold (0.6 palm away) at 0.8 s: placed
    (0.3, False, True, (0.47, 1.47)),  # pressing all along: rescued when the thumb lifts at 1.47 s
])                                     # (dated within the rescue's second before the lift)
def test_a_finger_resting_beside_the_start_is_not_placed_until_it_moves(
        rest_palm: float, moves: bool, thumb_lifts: bool, index_down_at: tuple | None) -> None:
    """``start_rest_palm``: a contact on a hold that began with the start (less than
    ``start_grace_s`` after it) is not confirmed while the finger stays where it was when the
    start was confirmed: a neighbour laid on the card beside the start zone as the hand landed.
    A finger that moved on to another hold is placed there; and a finger that was really
    down on the first all along is rescued when the start finger lifts. Scripted classifier
    outputs: the thumb on the start zone from 0 s, the index on a hold of its own colour from
    0 s with P 0.95, for 2 s (or on another one from 0.8 s)."""
    from games.grimpe.cards import ColourMap
    from vision.contact import ContactDetector, ContactParams, own_colour

    route = _route_of_clip()
    own = own_colour(route, ColourMap())
    hold, other = (route.holds.ids[int(i)] for i in np.flatnonzero(own[1])[:2])  # index's colour
    det = ContactDetector(ContactParams(start_rest_palm=rest_palm), colour_map=ColourMap())

    def reached(t: float) -> bool:
        return moves and t >= 0.8 - 1e-6

    def lm_at(lm: np.ndarray, t: float) -> np.ndarray:
        if not reached(t):
            return lm
        out = lm.copy()  # the index's tip 0.6 palm away from where it rested
        out[8] += 0.6 * np.linalg.norm(lm[0] - lm[9])
        return out

    def lifted(t: float) -> bool:
        return thumb_lifts and t >= 1.47 - 1e-6

    events = _scripted_events(
        det, route, lambda t: [None if lifted(t) else "start", other if reached(t) else hold, None, None, None],
        lambda t: [0.0 if lifted(t) else 0.95, 0.95, 0, 0, 0], lm_at=lm_at,
        stay_at=lambda t: 0.0 if lifted(t) else 0.9)
    downs = [(e["finger"], e["target"], e["t"]) for e in events if e["type"] == "down"]
    assert downs[0][:2] == ("thumb", "start")
    index = [t for f, tg, t in downs if f == "index"]
    if index_down_at is None:
        assert index == []
    else:
        assert len(index) == 1 and index_down_at[0] - 1e-6 <= index[0] <= index_down_at[1] + 1e-6, downs


@pytest.mark.parametrize(("p_index", "finish"), [(0.6, ["ring"]), (0.97, ["index"])])
def test_the_finish_zone_goes_to_the_most_likely_finger(p_index: float, finish: list[str]) -> None:
    """A resting neighbour over the Arrivée card, seen there a frame before the finger that
    really goes to the finish zone, does not take the zone: while another finger is more
    likely on it, a finger is not put down there (and once one is, a second one needs the bar
    of a second finger on the zone). Scripted classifier outputs: the thumb on the start zone
    from 0 s, the index over the finish zone from 1.0 s with ``p_index``, the ring from 1.07 s
    with 0.95."""
    from games.grimpe.cards import ColourMap
    from vision.contact import ContactDetector, ContactParams

    route = _route_of_clip()
    det = ContactDetector(ContactParams(), colour_map=ColourMap())

    def on(t: float) -> tuple[bool, bool]:
        return t >= 1.0 - 1e-6, t >= 1.066

    def cands(t: float) -> list:
        i_on, r_on = on(t)
        return ["start", "finish" if i_on else None, None, "finish" if r_on else None, None]

    def probs(t: float) -> list:
        i_on, r_on = on(t)
        return [0.95, p_index if i_on else 0.0, 0, 0.95 if r_on else 0.0, 0]

    events = _scripted_events(det, route, cands, probs)
    assert [e["finger"] for e in events if e["type"] == "down" and e["target"] == "finish"] == finish


@pytest.mark.parametrize(("p_late", "down_at"), [(0.52, None), (0.9, 1.0)])
def test_a_weak_run_waits_for_more_evidence(p_late: float, down_at: float | None) -> None:
    """``min_conf``: the index over a hold of its own colour from 1.0 s with P 0.52 (above
    ``on_level``, under ``min_conf``) is not put down; when P rises to ``p_late`` from 1.4 s,
    the run's mean reaches ``min_conf`` and the down is dated to where the run began.
    Scripted classifier outputs, the thumb on the start zone from 0 s."""
    from games.grimpe.cards import ColourMap
    from vision.contact import ContactDetector, ContactParams, own_colour

    route = _route_of_clip()
    hold = route.holds.ids[int(np.flatnonzero(own_colour(route, ColourMap())[1])[0])]
    det = ContactDetector(ContactParams(back_s=0.0), colour_map=ColourMap())  # dated to the run's start
    assert det.p.on_level < 0.52 < det.p.min_conf

    def probs(t: float) -> list:
        p = 0.0 if t < 1.0 - 1e-6 else (0.52 if t < 1.4 - 1e-6 else p_late)
        return [0.95, p, 0, 0, 0]

    events = _scripted_events(
        det, route, lambda t: ["start", hold if t >= 1.0 - 1e-6 else None, None, None, None], probs)
    downs = [e for e in events if e["type"] == "down" and e["finger"] == "index"]
    if down_at is None:
        assert downs == []
    else:
        assert len(downs) == 1 and downs[0]["target"] == hold and abs(downs[0]["t"] - down_at) < 1e-3


@pytest.mark.parametrize(("moved", "placed"), [(0.6, True), (0.1, False)])
def test_a_hand_that_reached_and_let_go_placed_a_finger(moved: float, placed: bool) -> None:
    """The reach rule through the whole decoder: the thumb goes down on the start zone, then
    the hand moves ``moved`` palm sizes (0.4-0.8 s), the index lies over a hold of another
    colour with P 0.02 from 1.0 s, and the thumb lifts at 1.4 s (the still-down classifier
    drops, for every finger down). After a reach the index is put down there, dated to 1.0 s,
    before the lift; a hand that stayed put just lets go (``no_contact`` for the judge)."""
    from games.grimpe.cards import ColourMap
    from vision.contact import ContactDetector, own_colour, palm_size_px

    route = _route_of_clip()
    hold = route.holds.ids[int(np.flatnonzero(~own_colour(route, ColourMap())[1])[0])]
    det = ContactDetector(colour_map=ColourMap())

    def lm_at(lm0: np.ndarray, t: float) -> np.ndarray:
        lm = lm0.copy()
        lm[:, 0] += moved * palm_size_px(lm0) * float(np.clip((t - 0.4) / 0.4, 0.0, 1.0))
        return lm

    def lifted(t: float) -> bool:
        return t >= 1.4 - 1e-6

    events = _scripted_events(
        det, route, lambda t: [None if lifted(t) else "start", hold if t >= 1.0 - 1e-6 else None, None, None, None],
        lambda t: [0.0 if lifted(t) else 0.95, 0.02 if t >= 1.0 - 1e-6 else 0.0, 0, 0, 0], lm_at=lm_at,
        stay_at=lambda t: 0.0 if lifted(t) else 0.9)
    seen = [(e["type"], e["finger"], e.get("target"), round(e["t"], 2)) for e in sorted(events, key=lambda e: e["t"])]
    downs = [e for e in seen if e[0] == "down"]
    assert downs == [("down", "thumb", "start", 0.0)] + ([("down", "index", hold, 1.0)] if placed else [])
    assert ("up", "thumb", None, 1.4) in seen


def test_lookahead_features_are_changes_and_same_target() -> None:
    """A later frame adds, per finger, how the cues changed since this frame and whether the
    finger is still over the same target; a frame without a hand adds zeros."""
    rng = np.random.default_rng(1)
    X = rng.normal(size=(5, len(FEATURE_NAMES))).astype(np.float32)
    later = X + 1.0
    tg = ["3a", None, "start", "3a", None]
    out = lookahead_features(X, tg, [(["3a", None, "finish", "3a", "4b"], later), None])
    k = (len(out[0]) - len(FEATURE_NAMES)) // 2
    assert out.shape == (5, len(FEATURE_NAMES) + 2 * k)
    np.testing.assert_array_equal(out[:, :len(FEATURE_NAMES)], X)
    np.testing.assert_allclose(out[:, len(FEATURE_NAMES):len(FEATURE_NAMES) + k - 1], 1.0, atol=1e-5)
    assert list(out[:, len(FEATURE_NAMES) + k - 1]) == [1.0, 0.0, 0.0, 1.0, 0.0]
    assert not out[:, len(FEATURE_NAMES) + k:].any()


def _spy_start(det) -> list[float]:
    """The times of the frames the detector ``det`` featurises with the start zone weighed as a
    hold of another colour (the climb started): for :func:`on_samples`' ``started_s``."""
    times: list[float] = []
    update = det.features.update

    def spy(lm, t_s, route, occlusion, prior, eye, start_weight=1.0):
        if start_weight != 1.0:
            times.append(t_s)
        return update(lm, t_s, route, occlusion, prior, eye, start_weight)

    det.features.update = spy
    return times


def test_detector_decides_on_the_features_it_was_trained_on() -> None:
    """The detector decides a frame once the frames its model looks ahead to have come, and
    the last frames when the video ends (``finish``). What it decides on must be exactly what
    training builds from the whole clip: same look-ahead, same end of clip, same frames
    without a hand (here the clip's exact landmarks, one processed frame in five dropped)."""
    from vision.bench_judge import _colour_map
    from vision.contact import ContactDetector
    from vision.train_contact import clip_eye, on_samples

    route = _route_of_clip()
    gt = json.loads((CLIP / "ground_truth.json").read_text())
    rec: list = []
    clip = {"gt": gt, "route": route, "rec": rec}
    eye = clip_eye(clip)  # where the camera is, as training finds it
    assert eye is not None
    for fr in gt["frames"]:
        hands = [h for h in fr["hands"] if h["role"] == "climbing"]
        lost = not hands or fr["frame"] % 10 == 4
        lm = None if lost else np.asarray(hands[0]["landmarks_px"], np.float32)
        rec.append((lm, float(fr["t"]), int(fr["frame"]), None))
    det = ContactDetector(colour_map=_colour_map(gt))
    assert max(det.lookahead) >= 2  # the model kept looks ahead
    seen: list[np.ndarray] = []
    predict = det.on_net.predict
    det.on_net.predict = lambda X: (seen.append(X.copy()), predict(X))[1]  # type: ignore[method-assign]
    started = _spy_start(det)
    decided_while_running = 0
    for lm, t, f, occ in rec:
        if f % 2 == 0:
            det.update(lm, t, f, route, occ, eye=eye)
            decided_while_running = len(seen)
    det.finish()
    assert started, "the detector saw the start"
    _, _, rows = on_samples(clip, 2, det.lookahead, chooser=det.features.chooser, started_s=started[0])
    expected = [r[3] for r in rows if r[3] is not None]
    assert len(seen) == len(expected) > decided_while_running  # the last ones wait for finish
    for a, b in zip(seen, expected):
        np.testing.assert_array_equal(a, b)


def test_still_down_classifier_looks_back_as_far_as_its_model_says(monkeypatch: pytest.MonkeyPatch) -> None:
    """A model's classifiers may look back (negative offsets), the still-down one further than
    the contact one: each decision then sees the frame that many processed frames earlier (the
    clip's first one before it), as training builds it from the whole clip."""
    from vision.bench_judge import _colour_map
    from vision.contact import ContactDetector
    from vision.contact_model import StayReference

    model = json.loads(MODEL_PATH.read_text())
    back = min(model["on"]["lookahead"]) - 4  # further back than the contact classifier
    ahead = (back, 2)
    names = stay_names(ahead)
    rng = np.random.default_rng(0)
    X = rng.normal(size=(40, len(names))).astype(np.float32)
    stay = train_mlp(X, (X[:, 0] > 0).astype(float), hidden=4, iters=5)
    model["stay"] = dict(stay, features=list(names), lookahead=list(ahead))
    route = _route_of_clip()
    gt = json.loads((CLIP / "ground_truth.json").read_text())
    det = ContactDetector(model=model, colour_map=_colour_map(gt))
    times: list[float] = []
    checked: list[tuple[float, float]] = []
    still_down = det._still_down

    def spy_still_down(k, cur, ob, p_on, at):  # type: ignore[no-untyped-def]
        times.append(ob.t_s)
        return still_down(k, cur, ob, p_on, at)

    features_ahead = StayReference.features_ahead

    def spy_ahead(self, x, future):  # type: ignore[no-untyped-def]
        if future[0] is not None:
            checked.append((times[-1], future[0][1]))
        return features_ahead(self, x, future)

    monkeypatch.setattr(det, "_still_down", spy_still_down)
    monkeypatch.setattr(StayReference, "features_ahead", spy_ahead)
    processed = [float(fr["t"]) for fr in gt["frames"] if fr["frame"] % 2 == 0]
    for fr in gt["frames"]:
        if fr["frame"] % 2 == 0:
            hands = [h for h in fr["hands"] if h["role"] == "climbing"]
            lm = np.asarray(hands[0]["landmarks_px"], np.float32) if hands else None
            det.update(lm, float(fr["t"]), int(fr["frame"]), route, None)
    det.finish()
    assert len(checked) > 20  # a finger was down for a while
    for t, t_back in checked:
        i = processed.index(t)
        assert t_back == processed[max(i + back, 0)]


@pytest.mark.parametrize(("p_start", "started"), [(0.6, False), (0.8, True)])
def test_a_start_needs_more_evidence_than_a_placement(p_start: float, started: bool) -> None:
    """``start_min_conf``: a hand lands over the start zone before a finger presses on it, and
    everything after is judged from the start. A thumb over the zone for 2 s with P
    0.6 (it would confirm a placement on a hold: ``min_conf``) is not a start; with P 0.8 it
    is, dated to when its run began."""
    from vision.contact import ContactDetector

    route = _route_of_clip()
    det = ContactDetector()
    assert det.p.min_conf < 0.6 < det.p.start_min_conf < 0.8
    events = _scripted_events(det, route, lambda t: ["start", None, None, None, None],
                              lambda t: [p_start, 0, 0, 0, 0])
    downs = [(e["finger"], e["target"], e["t"]) for e in events if e["type"] == "down"]
    assert downs == ([("thumb", "start", 0.0)] if started else [])
    assert det.started == started


@pytest.mark.parametrize(("over_until", "now", "evidence", "expect"), [
    (0.8, 0.8, 0.4, ["down"]),          # still on the start zone when the placement is confirmed
    (0.8, 1.2, 0.4, ["down", "up"]),    # left the zone since: down, then up when it left
    (0.2, 0.8, 0.4, []),                # left before the placement began: not the start finger
    (0.8, 0.8, 0.3, []),                # hardly any evidence: hovering over the zone, no start
])
def test_missed_start_is_rescued_when_the_first_placement_is_on_a_hold(
        over_until: float, now: float, evidence: float, expect: list[str]) -> None:
    """The rules' start: one finger on the start zone first. When the first finger confirmed
    lands on a hold, a finger that was over the start zone (weak evidence, but at least
    ``start_rescue_level``) from before that placement began until it began is put down on the
    start zone; one gone before is not, nor one with less evidence (a bad start: the finger
    stayed in the air)."""
    from vision.contact import ContactDetector

    route = _route_of_clip()
    assert route is not None and route.zone_px("start") is not None
    hold = route.holds.ids[0]
    det = ContactDetector()
    assert 0.3 < det.p.start_rescue_level < 0.4
    far = np.full((21, 2), -5000.0, np.float32)  # no contact point near any zone
    for i in range(int(round(now * 15)) + 1):  # 15 processed frames/s
        t = i / 15
        on = t <= over_until + 1e-6
        cands = [None, hold if t >= 0.4 else None, "start" if on else None, None, None]
        prob = np.array([0, 0.9 if t >= 0.4 else 0, evidence if on else 0, 0, 0], np.float32)
        det._recent.append((t, 2 * i, cands, prob, far))
    ev = det._start_rescue(1, 0.4, route)
    assert [e["type"] for e in ev] == expect
    if not expect:
        assert not det.started and det.state[2] is None
        return
    assert ev[0]["finger"] == "middle" and ev[0]["target"] == "start" and ev[0]["t"] == 0.0
    assert det.started
    if "up" in expect:
        assert det.state[2] is None and abs(ev[1]["t"] - (over_until + 1 / 15)) < 1e-3
    else:
        assert det.state[2] == "start"


@pytest.mark.parametrize(("target", "gap_s", "kept"), [("3a", 0.2, False), ("3a", 0.5, True),
                                                       ("4b", 0.2, True)])
def test_a_finger_put_back_on_the_hold_it_just_left_never_left_it(target: str, gap_s: float,
                                                                     kept: bool) -> None:
    """A lift followed within ``relift_s`` by the same finger going down on the same target
    is a break in MediaPipe's pose, not a lift (it would read as a used hold): both events
    are dropped. Later, or onto another target, both stand. A lift is held until then."""
    from vision.contact import ContactDetector

    det = ContactDetector()
    up = {"t": 1.0, "type": "up", "finger": "index", "frame": 30, "confidence": 0.9}
    det._left[id(up)] = "3a"
    det._t_decided = 1.0
    assert det._settle([up]) == []  # held back
    down = {"t": 1.0 + gap_s, "type": "down", "finger": "index", "target": target,
            "frame": 30 + round(30 * gap_s), "confidence": 0.9}
    det._t_decided = down["t"]
    out = det._settle([down])
    out += det._settle([], flush=True)
    assert sorted(e["type"] for e in out) == (["down", "up"] if kept else [])


@pytest.mark.parametrize("used_ok", [False, True])
def test_a_rescue_does_not_guess_a_placement_into_a_hold_being_left(used_ok: bool) -> None:
    """``rescue_used_hold``: a rescue is a guess, dated before the lift that asked for it; it
    must not be a placement the rules fault. The index is on a hold from 0.7 s, the middle
    hovers over the same hold from 0.9 s to 2 s (P 0.3, under the bar of a placement but over
    the rescue's); the thumb and the index lift at 1.6 s. Rescuing the middle into the index's hold, dated
    while the index was still in it, would be an ``occupied_hold`` (and after the lift, a
    ``used_hold``) the climber never made: nothing is rescued, the lift stands (the judge
    then calls ``no_contact``). The old rule (``used_ok``) rescued it. The decoder runs on
    scripted classifier outputs, as in the tests above."""
    from games.grimpe.cards import ColourMap
    from vision.contact import ContactDetector, ContactParams, own_colour

    route = _route_of_clip()
    own = own_colour(route, ColourMap())
    hold = route.holds.ids[int(np.flatnonzero(own[2] & ~own[1])[0])]  # the middle's colour
    # (the dab off: it would take the index's own placement, of another colour, for a missed one)
    det = ContactDetector(ContactParams(rescue_used_hold=used_ok, dab_level=0), colour_map=ColourMap())

    def on(t: float, t0: float, t1: float = 1.6) -> bool:  # the thumb and index let go at 1.6 s
        return t0 - 1e-6 <= t < t1 - 1e-6

    def cands(t: float) -> list:
        return ["start" if on(t, 0) else None, hold if on(t, 0.7) else None,
                hold if on(t, 0.9, 2.0) else None, None, None]

    def probs(t: float) -> list:
        return [0.95 * on(t, 0), 0.95 * on(t, 0.7), 0.3 * on(t, 0.9, 2.0), 0, 0]

    # (the still-down classifier sure the fingers left: the last one down needs it under
    # ``last_stay_level``)
    events = _scripted_events(det, route, cands, probs, stay_at=lambda t: 0.9 if t < 1.6 - 1e-6 else 0.01)
    downs = [(e["finger"], e["target"]) for e in events if e["type"] == "down"]
    assert downs[:2] == [("thumb", "start"), ("index", hold)]
    ups = sorted(e["finger"] for e in events if e["type"] == "up")
    assert (("middle", hold) in downs) == used_ok
    assert ups == (["index", "middle", "thumb"] if used_ok else ["index", "thumb"])
    assert det._lifted_from == {hold: 1 + used_ok}  # the lifts from it (the zones are not counted)


@pytest.mark.parametrize(("index_down", "stay", "ups"), [
    (False, 0.15, []),                  # the last finger down: 0.15 is not sure enough
    (False, 0.01, ["thumb"]),           # sure: the hand let go (a no_contact)
    (True, 0.15, ["thumb"]),            # the index still down: the usual bar for the thumb...
])                                      # ...then the index is the last one down
def test_the_last_finger_down_lifts_only_when_the_still_down_classifier_is_surer(
        index_down: bool, stay: float, ups: list[str]) -> None:
    """``last_stay_level``: lifting the last finger down ends the climb (``no_contact``), and a
    finger pressing steeply often has a still-down P under ``stay_level`` for a while. The
    thumb is on the start zone from 0 s (and the index on a hold of its colour from 0.5 s);
    from 1.2 s the contact classifier says 0.1 and the still-down classifier ``stay`` for
    every finger down. The last finger down lifts only under ``last_stay_level``; one with
    another still down lifts under ``stay_level``."""
    from games.grimpe.cards import ColourMap
    from vision.contact import ContactDetector, own_colour

    route = _route_of_clip()
    own = own_colour(route, ColourMap())
    hold = route.holds.ids[int(np.flatnonzero(own[1] & ~own[2])[0])]  # the index's colour
    det = ContactDetector(colour_map=ColourMap())
    assert det.p.last_stay_level < 0.15 < det.p.stay_level

    def cands(t: float) -> list:
        return ["start", hold if index_down and t >= 0.5 - 1e-6 else None, None, None, None]

    def probs(t: float) -> list:
        p = 0.95 if t < 1.2 - 1e-6 else 0.1
        return [p, p if cands(t)[1] else 0.0, 0, 0, 0]

    events = _scripted_events(det, route, cands, probs, stay_at=lambda t: 0.9 if t < 1.2 - 1e-6 else stay)
    downs = [(e["finger"], e["target"]) for e in events if e["type"] == "down"]
    assert downs == [("thumb", "start")] + ([("index", hold)] if index_down else [])
    assert sorted(e["finger"] for e in events if e["type"] == "up") == ups
    assert (det.state[1] == hold) == index_down  # the index still down at the end


def test_a_hold_left_for_a_moment_is_not_a_used_hold_to_the_rescue() -> None:
    """A lift undone (the finger back on its hold within ``relift_s``) never left the hold:
    it no longer keeps a rescue out of it."""
    from vision.contact import ContactDetector

    det = ContactDetector()
    up = {"t": 1.0, "type": "up", "finger": "index", "frame": 30, "confidence": 0.9}
    det._left[id(up)] = "3a"
    det._lifted_from["3a"] = 1  # as the lift counted it
    det._t_decided = 1.0
    assert det._settle([up]) == []
    back = {"t": 1.2, "type": "down", "finger": "index", "target": "3a", "frame": 36, "confidence": 0.9}
    assert det._settle([back]) == []
    assert det._lifted_from["3a"] == 0


def test_a_placement_rescued_for_a_lift_that_was_not_one_is_taken_back() -> None:
    """When the last finger down "lifts", a missed placement is rescued (put down); if the
    finger is back on its hold within ``relift_s``, the lift never was, and neither was the
    reason for the rescue: the rescued down is dropped and that finger is up again."""
    from vision.contact import ContactDetector

    det = ContactDetector()
    rescued = {"t": 0.8, "type": "down", "finger": "middle", "target": "4b", "frame": 24,
               "confidence": 0.2}
    up = {"t": 1.0, "type": "up", "finger": "index", "frame": 30, "confidence": 0.9}
    det.state[2] = "4b"  # what _rescue set
    det._left[id(up)] = "3a"
    det._rescued[id(up)] = [rescued]
    det._t_decided = 1.0
    assert det._settle([rescued, up]) == []  # both wait for the lift to be sure
    back = {"t": 1.2, "type": "down", "finger": "index", "target": "3a", "frame": 36, "confidence": 0.9}
    det._t_decided = 1.2
    assert det._settle([back]) == [] and det._settle([], flush=True) == []
    assert det.state[2] is None
    # a real lift: the rescue and the lift both go out once the lift is sure
    det2 = ContactDetector()
    det2._left[id(up)] = "3a"
    det2._rescued[id(up)] = [rescued]
    det2._t_decided = 1.0
    assert det2._settle([rescued, up]) == []
    det2._t_decided = 1.0 + det2.p.relift_s + det2.p.relift_wait_s + 0.05
    assert sorted(e["type"] for e in det2._settle([])) == ["down", "up"]


def test_a_return_dated_back_but_confirmed_late_still_cancels_the_lift() -> None:
    """A finger back on the target it left is confirmed once its P is high enough, and dated
    back to when it was over the target again: a return dated within ``relift_s`` of the lift
    but decided up to ``relift_wait_s`` later still cancels the lift; without the wait the lift
    had gone out, and the return was a new down (judged ``used_hold``)."""
    from vision.contact import ContactDetector, ContactParams

    up = {"t": 3.0, "type": "up", "finger": "ring", "frame": 90, "confidence": 0.9}
    back = {"t": 3.07, "type": "down", "finger": "ring", "target": "18a", "frame": 92, "confidence": 0.6}
    det = ContactDetector()
    assert det.p.relift_wait_s > 0
    det._left[id(up)] = "18a"
    det._t_decided = 3.0
    assert det._settle([up]) == []
    det._t_decided = 3.0 + det.p.relift_s + 0.5 * det.p.relift_wait_s  # past relift_s: still held
    assert det._settle([]) == []
    assert det._settle([back]) == [] and det._settle([], flush=True) == []
    det0 = ContactDetector(ContactParams(relift_wait_s=0.0))
    det0._left[id(up)] = "18a"
    det0._t_decided = 3.0
    assert det0._settle([up]) == []
    det0._t_decided = 3.0 + det0.p.relift_s + 0.5 * det.p.relift_wait_s
    assert [e["type"] for e in det0._settle([])] == ["up"]
    assert [e["type"] for e in det0._settle([back])] == ["down"]


def _dab_before_the_thumb_lifts(det, route, target: str, p_index: float, frames):
    """The thumb, the only finger down (on the start zone), lifts at 16/15 s; the index was
    over ``target`` with P ``p_index`` in the processed ``frames`` (15 per s) before it, and
    over nothing in the others. Returns what :meth:`ContactDetector._dab` gives."""
    det.started = True
    det.state[0] = "start"
    lm = np.random.default_rng(0).uniform(100.0, 200.0, (21, 2)).astype(np.float32)
    for i in range(16):
        cands = [None, target if i in frames else None, None, None, None]
        prob = np.array([0.9, p_index if cands[1] else 0.0, 0, 0, 0], np.float32)
        det._recent.append((i / 15, 2 * i, cands, prob, lm))
    return det._dab(0, (16 / 15, 32), route)


@pytest.mark.parametrize(("p_index", "frames", "own", "found"), [
    (0.8, range(8, 14), False, True),   # a clear dab into a hold of another colour, lifted 0.2 s before
    (0.55, range(8, 14), False, False),  # too weak
    (0.8, range(8, 10), False, False),   # too short
    (0.8, range(1, 6), False, False),    # lifted 0.73 s before the last finger: too long ago
    (0.8, range(8, 14), True, False),    # the finger's own colour: the usual bar applies
    (0.8, (8, 9, 11, 12, 13), False, True),  # MediaPipe lost the tip for one frame: one run
    (0.8, (8, 9, 12, 13), False, False),     # two frames: two runs, each too short
])
def test_a_dab_into_a_hold_of_another_colour_is_judged_when_the_hand_lets_go(
        p_index: float, frames: tuple[int, ...], own: bool, found: bool) -> None:
    """``dab_level``: a finger put briefly into a hold of another colour (under the bar of
    ``wrong_level``, so not confirmed) and lifted, then the last finger down lifts: the
    placement is given as a down and an up before the lift (the judge then rules
    ``wrong_finger``, not ``no_contact``). Weak, short or long-gone runs and holds of the
    finger's own colour give nothing. A run survives a frame without the finger over the hold
    (``gap_s``), as a run towards a down does."""
    from vision.contact import ContactDetector

    route = _route_of_clip()
    det = ContactDetector()
    assert det.p.on_level <= 0.55 < det.p.dab_level <= 0.8 < det.p.wrong_level
    index_colour = det._colours(route)[0][1]
    hold = route.holds.ids[int(np.flatnonzero(index_colour == own)[0])]
    ev = _dab_before_the_thumb_lifts(det, route, hold, p_index, frames)
    if not found:
        assert ev == []
        return
    down, up = ev
    assert (down["type"], down["finger"], down["target"], down["frame"]) == ("down", "index", hold, 16)
    assert (up["type"], up["finger"], up["frame"]) == ("up", "index", 28)
    assert down["confidence"] == pytest.approx(p_index, abs=1e-3)  # the frames over the hold
    assert down["t"] < up["t"] < 16 / 15 and det.state[1] is None  # it is not down any more


def test_a_dab_judged_for_a_lift_that_was_not_one_is_taken_back() -> None:
    """The dab's down and up wait for the lift they were found for; if that finger is back on
    its target within ``relift_s``, neither is given."""
    from vision.contact import ContactDetector

    det = ContactDetector()
    dab = [{"t": 0.5, "type": "down", "finger": "index", "target": "4b", "frame": 15, "confidence": 0.8},
           {"t": 0.8, "type": "up", "finger": "index", "frame": 24, "confidence": 0.8}]
    up = {"t": 1.0, "type": "up", "finger": "thumb", "frame": 30, "confidence": 0.9}
    det._left[id(up)] = "3a"
    det._rescued[id(up)] = dab
    det._t_decided = 1.0
    assert det._settle([*dab, up]) == []
    back = {"t": 1.2, "type": "down", "finger": "thumb", "target": "3a", "frame": 36, "confidence": 0.9}
    det._t_decided = 1.2
    assert det._settle([back]) == [] and det._settle([], flush=True) == []


def _finger_over(tip: np.ndarray, u: np.ndarray, palm: float = 60.0) -> np.ndarray:
    """Landmarks (21, 2) of a hand whose index finger points along ``u`` with its tip at
    ``tip``, palm size ``palm``; the other fingers far off the route."""
    u = np.asarray(u, np.float64) / np.linalg.norm(u)
    lm = np.full((21, 2), -5000.0)
    lm[8], lm[7], lm[6], lm[5] = tip, tip - 0.25 * palm * u, tip - 0.5 * palm * u, tip - 0.8 * palm * u
    lm[0] = tip - 2.0 * palm * u
    lm[9] = lm[0] + palm * u
    return lm.astype(np.float32)


def test_a_zone_under_the_contact_point_beats_a_hold_scoring_under_the_bar() -> None:
    """A fingertip going from the finish zone into the nearest hold: while the finger's
    contact point is on the zone, the zone is its target unless the hold lies well under the
    tip (its score at least ``_ZONE_OVER_HOLD``; a summit was read on the hold beside it)."""
    from dataclasses import replace

    import cv2

    from vision.contact_model import _ALONG_EXPECTED, _ZONE_MARGIN, _ZONE_OVER_HOLD, best_targets

    route = _route_of_clip()
    no_zone = replace(route, finish_zone_px=None)
    zone = route.zone_px("finish").astype(np.float32)
    c = zone.mean(0).astype(np.float64)
    H = route.holds
    h = H.centres_px[int(np.argmin(np.linalg.norm(H.centres_px - c, axis=1)))].astype(np.float64)
    u = (h - c) / np.linalg.norm(h - c)
    palm = 60.0
    seen = []
    for x in np.linspace(0.0, 1.0, 201):
        tip = c + x * (h - c)
        lm = _finger_over(tip, u, palm)
        contact = tip + _ALONG_EXPECTED * palm * u
        inside = cv2.pointPolygonTest(zone, (float(contact[0]), float(contact[1])), True)
        on_zone = inside >= -_ZONE_MARGIN * palm
        hold, score = best_targets(lm, no_zone)[0][1], float(best_targets(lm, no_zone)[1][1])
        target = best_targets(lm, route)[0][1]
        if not on_zone or hold in (None, "start"):
            continue
        assert target == (hold if score >= _ZONE_OVER_HOLD else "finish"), (x, score)
        seen.append(score)
    seen_a = np.array(seen)
    assert (seen_a >= _ZONE_OVER_HOLD).any()  # the hold under the tip wins
    assert ((seen_a >= 0.5) & (seen_a < _ZONE_OVER_HOLD)).any()  # a hold beside it no longer


@pytest.mark.parametrize("sticky", [1.0, 1.25])
def test_a_finger_between_two_holds_keeps_the_hold_it_was_over(sticky: float) -> None:
    """``sticky_target``: a fingertip between two neighbouring holds, MediaPipe's tip moving a
    little between frames, keeps the hold it was over unless the other one is clearly better
    placed (the classifier's evidence is per target: a target flickering between two holds
    breaks the run of evidence). Without it, the better placed hold is taken at once."""
    from vision.contact_model import ContactFeatures, best_targets

    route = _route_of_clip()
    H = route.holds
    pairs = [(i, j) for i in range(len(H)) for j in range(len(H)) if i != j
             and 1.5 < np.linalg.norm(H.centres_px[i] - H.centres_px[j]) / H.radii_px[i] < 2.6]
    i, j = pairs[0]
    a, b = H.centres_px[i].astype(np.float64), H.centres_px[j].astype(np.float64)
    w = (b - a) / np.linalg.norm(b - a)
    u = np.array([-w[1], w[0]])  # the finger crosses the line between the holds
    mid, half = (a + b) / 2, np.linalg.norm(b - a) / 2

    def lm_at(x: float) -> np.ndarray:  # x: -1 over hold a, +1 over hold b
        return _finger_over(mid + x * half * w + 0.2 * 60.0 * u, u)

    def score(lm: np.ndarray, hold: int) -> float:
        prior = np.zeros((5, len(H)))
        prior[1, hold] = 1.0
        return float(best_targets(lm, route, prior)[1][1])

    # just past the middle: hold b better placed, by less than the stickiness
    x = next(x for x in np.linspace(0.0, 0.6, 61)
             if 1.05 < score(lm_at(x), j) / max(score(lm_at(x), i), 1e-9))
    assert score(lm_at(x), j) / score(lm_at(x), i) < 1.25
    fe = ContactFeatures(sticky=sticky)
    assert fe.update(lm_at(-0.8), 0.0, route, None)[0][1] == H.ids[i]
    assert fe.update(lm_at(x), 1 / 15, route, None)[0][1] == (H.ids[i] if sticky > 1 else H.ids[j])
    assert fe.update(lm_at(0.8), 2 / 15, route, None)[0][1] == H.ids[j]  # clearly over b now


@pytest.mark.parametrize(("start_self", "downs"), [(False, [("index", "hold")]),
                                                   (True, [("index", "start")])])
def test_a_start_read_as_the_hold_beside_the_start_zone(start_self: bool, downs: list) -> None:
    """``start_self``: before the climb has started, the first finger confirmed lands on a
    hold beside the Départ card while its own contact point lies on the start zone (the
    classifier's target there is the hold): the start rescue may take that finger itself as
    the start finger, and the hold is then not a placement. Scripted classifier outputs."""
    from games.grimpe.cards import ColourMap
    from vision.contact import ContactDetector, ContactParams

    route = _route_of_clip()
    hold = route.holds.ids[0]
    zone = route.zone_px("start")
    lm_on_start = _finger_over(zone.mean(0) + 0.2 * 60.0 * np.array([0.0, -1.0]), np.array([0.0, -1.0]))
    det = ContactDetector(ContactParams(start_self=start_self), colour_map=ColourMap())
    # the hold is yellow (the ring's colour): the index's P clears the bar of a hold of
    # another colour (ContactParams.wrong_level)
    events = _scripted_events(det, route, lambda t: [None, hold, None, None, None],
                              lambda t: [0.0, 0.95, 0, 0, 0], lm_at=lambda lm, t: lm_on_start)
    got = [(e["finger"], e["target"]) for e in events if e["type"] == "down"]
    assert got == [(f, hold if tg == "hold" else tg) for f, tg in downs]


def _flat_hand(heading: np.ndarray, at: np.ndarray) -> np.ndarray:
    """(21, 2) landmarks of a flat hand at ``at`` whose fingers point along ``heading``."""
    u = heading / np.linalg.norm(heading)
    v = np.array([-u[1], u[0]])
    lm = np.zeros((21, 2))
    lm[0] = at - 60 * u
    for k, base in enumerate((1, 5, 9, 13, 17)):
        side = (k - 2) * 18.0
        for j in range(4):
            lm[base + j] = at + side * v + (j * 20.0 - (30 if k == 0 else 0)) * u
    return lm.astype(np.float32)


def test_camera_cues_tell_where_the_camera_is_from_the_hand() -> None:
    route = _route_of_clip()
    H = np.asarray(route.H_image_from_route, np.float64)
    from vision.camera import apply_homography

    mm_at = np.array([0.0, 150.0])
    at = apply_homography(H, mm_at[None])[0]
    eye = np.array([0.0, 150.0 - 400.0, 400.0])  # 45 degrees down the wall from the hand
    # the direction away from the camera, as seen: up the wall
    away = apply_homography(H, (mm_at + [0.0, 10.0])[None])[0] - at
    def cues(lm: np.ndarray, eye: np.ndarray | None) -> tuple[np.ndarray, np.ndarray]:
        return camera_cues(lm, camera_rays(lm, route, eye))

    tan_p, along_p = cues(_flat_hand(away, at), eye)
    _, along_m = cues(_flat_hand(-away, at), eye)
    side = np.array([-away[1], away[0]])
    _, along_s = cues(_flat_hand(side, at), eye)
    assert np.allclose(tan_p, tan_p[0]) and 0.9 < tan_p[0] < 1.1  # the palm is 400 mm out, 400 up
    assert (along_p > 0.8).all() and (along_m < -0.8).all()  # pointing away / towards the camera
    assert (np.abs(along_s) < 0.35).all()  # across
    assert np.abs(along_p).max() < 1.5
    none = cues(_flat_hand(away, at), None)
    assert not none[0].any() and not none[1].any()


def test_the_route_keeps_its_inverse_homography_and_the_camera_rays_use_it(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # inverse_3x3 gives numpy's inverse without LAPACK (and a clear error for a singular
    # matrix); the route inverts its homography once, on first use, and camera_rays (every
    # processed frame) uses that inverse: no inverse at all on the frames after the first
    from vision import camera

    route = _route_of_clip()
    H = np.asarray(route.H_image_from_route, np.float64)
    rng = np.random.default_rng(5)
    for M in [H, *rng.normal(size=(20, 3, 3))]:
        inv = camera.inverse_3x3(M)
        assert np.allclose(inv, np.linalg.inv(M), rtol=1e-9, atol=1e-12 * np.abs(inv).max())
        assert np.allclose(inv @ M, np.eye(3), atol=1e-9)
    with pytest.raises(np.linalg.LinAlgError):
        camera.inverse_3x3(np.array([[1.0, 2.0, 3.0], [2.0, 4.0, 6.0], [0.0, 1.0, 1.0]]))

    calls = []
    real = camera.inverse_3x3

    def counted(M: np.ndarray) -> np.ndarray:
        calls.append(1)
        return real(M)

    def lapack(*args: object, **kwargs: object) -> None:
        raise AssertionError("np.linalg.inv called")

    monkeypatch.setattr(camera, "inverse_3x3", counted)
    monkeypatch.setattr(np.linalg, "inv", lapack)
    fresh = RouteObservation(route.holds, route.start_zone_px, route.finish_zone_px, H)
    assert RouteObservation(route.holds).H_route_from_image is None
    at = camera.apply_homography(H, np.array([[0.0, 150.0]]))[0]
    lm = _flat_hand(np.array([0.0, -1.0]), at)
    eye = np.array([0.0, -250.0, 400.0])
    rays = [camera_rays(lm + k, fresh, eye) for k in range(5)]
    assert len(calls) == 1
    assert np.allclose(fresh.H_route_from_image @ H, np.eye(3), atol=1e-9)
    # the rays themselves: the palm's tangent from the eye's height and the distance on the
    # table, found again here with the inverse computed independently
    palm_mm = camera.apply_homography(real(H), palm_centre(lm)[None])[0]
    tan = np.linalg.norm(palm_mm - eye[:2]) / eye[2]
    assert rays[0] is not None and rays[0][0] == pytest.approx(tan) and 0.5 < tan < 2.0
    assert all(r is not None and abs(r[0] - tan) < 0.05 for r in rays[1:])


def test_hand_pose_is_read_in_the_hands_own_frame() -> None:
    pose_names = FEATURE_NAMES[FEATURE_NAMES.index("pose_mcp_x"):]
    col = pose_names.index
    lm = _flat_hand(np.array([0.3, -1.0]), np.array([320.0, 240.0])).astype(np.float64)
    a = np.deg2rad(60.0)
    rot = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
    lm[8] = lm[7] + rot @ (lm[7] - lm[6])  # the index bends 60 degrees at its last joint
    pose = hand_pose(lm.astype(np.float32))
    assert pose.shape == (5, len(pose_names)) and np.isfinite(pose).all()
    # the middle finger's knuckle is the x axis' unit; straight fingers do not bend
    assert np.allclose(pose[2, [col("pose_mcp_x"), col("pose_mcp_y")]], [1.0, 0.0], atol=1e-6)
    assert np.allclose(pose[2:, [col("bend_pip"), col("bend_dip")]], 0.0, atol=1e-5)
    assert abs(abs(pose[1, col("bend_dip")]) - a) < 1e-5 and abs(pose[1, col("bend_pip")]) < 1e-5
    for k, f in enumerate(("thumb", "index", "middle", "ring", "little")):
        assert pose[k, col(f"to_{f}_x")] == 0 and pose[k, col(f"to_{f}_y")] == 0
    # where the index tip lies from the middle finger's tip, in palm sizes
    palm = np.linalg.norm(lm[9] - lm[0])
    assert np.isclose(np.hypot(pose[2, col("to_index_x")], pose[2, col("to_index_y")]),
                      np.linalg.norm(lm[8] - lm[12]) / palm, atol=1e-5)
    # the same hand turned, moved and seen closer has the same pose
    b = np.deg2rad(-127.0)
    turn = np.array([[np.cos(b), -np.sin(b)], [np.sin(b), np.cos(b)]])
    moved = (1.7 * lm @ turn.T + [55.0, -30.0]).astype(np.float32)
    assert np.allclose(hand_pose(moved), pose, atol=1e-5)
    # the mirror image (the other hand) differs only by the mirror sign
    mirrored = lm * [-1.0, 1.0]
    pm = hand_pose(mirrored.astype(np.float32))
    assert np.allclose(pm[:, col("mirror")], -pose[:, col("mirror")])
    keep = [i for i in range(len(pose_names)) if i != col("mirror")]
    assert np.allclose(pm[:, keep], pose[:, keep], atol=1e-5)


@pytest.mark.parametrize(("eye_height", "shifted"), [(400.0, True), (2000.0, False)])
def test_an_oblique_camera_moves_the_contact_point_towards_it(eye_height: float, shifted: bool) -> None:
    # MediaPipe reads a pressing fingertip above the table, so seen obliquely it lies further
    # from the camera than the contact: the contact point is taken back towards the camera
    # (ContactParams.camera_shift), but not for a camera looking down steeply
    from dataclasses import replace

    from vision.camera import apply_homography
    from vision.contact import ContactParams, contact_features

    route = _route_of_clip()
    H = np.asarray(route.H_image_from_route, np.float64)
    mm_at = np.array([0.0, 600.0])  # far above the route: no target under any finger
    at = apply_homography(H, mm_at[None])[0]
    eye = np.array([0.0, 600.0 - 400.0, eye_height])
    lm = _flat_hand(apply_homography(H, (mm_at + [30.0, 0.0])[None])[0] - at, at)
    p = ContactParams()
    assert p.camera_shift > 0
    plain = contact_features(replace(p, camera_shift=0.0))
    moved = contact_features(p)
    t0, X0, pts0 = plain.update(lm, 0.0, route, None, None, eye)
    t1, X1, pts1 = moved.update(lm, 0.0, route, None, None, eye)
    assert t0 == t1 == [None] * 5
    assert np.array_equal(X0, X1)  # the features of a finger over nothing do not change
    i = FEATURE_NAMES.index("cam_tan")
    assert X1[0, i] == pytest.approx(400.0 / eye_height, rel=0.05)
    d_mm = apply_homography(np.linalg.inv(H), pts1) - apply_homography(np.linalg.inv(H), pts0)
    if shifted:
        assert (d_mm[:, 1] < -5).all()  # towards the camera, down the wall
        assert (np.abs(d_mm[:, 0]) < 0.5 * np.abs(d_mm[:, 1])).all()
    else:
        assert np.abs(d_mm).max() < 1e-3


@pytest.mark.parametrize("name", ["wrong_finger_top", "clean_oblique"])
def test_a_recorded_clip_replays_to_the_referees_own_events(name: str, judged: tuple[dict, dict]) -> None:
    """Training and the benchmarks replay the contact stage on recordings
    (:func:`vision.train_contact.record_clip`): the replay must see what the referee saw (the
    landmarks, the route, the camera's place; on an oblique camera all in the table view) and
    so give its contact events and verdict."""
    from vision.bench_judge import _colour_map
    from vision.contact import ContactDetector
    from vision.train_contact import judge_recording, record_clip, replay_contacts

    clip_dir = CLIP.parent / name
    live = judged[1] if clip_dir == CLIP else _referee_verdict(clip_dir)
    clip = record_clip(clip_dir, 2)
    gt = clip["gt"]
    assert (clip["view"] is not None) == (gt["camera_kind"] == "oblique")
    events = replay_contacts(ContactDetector(colour_map=_colour_map(gt)), clip, 2)

    def contact(evs: list[dict]) -> list[tuple]:
        # in time order, as the referee gives its judge the events (the detector holds a
        # rescued down until its lift, so it may emit it after a later event)
        return sorted(((e["type"], e.get("finger"), e.get("target"), e["frame"]) for e in evs
                       if e["type"] in ("down", "up")), key=lambda e: (e[3], e[0], e[1], e[2] or ""))

    assert contact(events) == contact(live["events"]) != []
    _, n_pred, _, _, v = judge_recording(ContactDetector(colour_map=_colour_map(gt)), clip, 2)
    assert n_pred == len(events)
    assert (v["result"], v["score"]) == (live["result"], live["score"])


def test_contact_trees_trained_on_a_clip_drive_the_detector() -> None:
    """``train_contact --trees``: the contact classifier of a model trained on the sample clip
    (its exact landmarks, the route as the referee finds it) is boosted trees that tell the
    clip's presses from the rest, and the detector runs on such a model."""
    from vision.bench_judge import _colour_map
    from vision.contact import ContactDetector
    from vision.train_contact import _fit, on_samples

    clip = exact_recording()
    gt, route, rec = clip["gt"], clip["route"], clip["rec"]
    model = _fit([clip], 2, lookahead=(2, 4), stay_ahead=(2,), trees=15, leaves=8)
    assert model["on"]["kind"] == "trees" and len(model["on"]["trees"]) == 15
    assert model["on"]["features"] == list(lookahead_names((2, 4)))
    assert "W1" in model["stay"]  # the still-down classifier stays a perceptron
    det = ContactDetector(model=model, colour_map=_colour_map(gt))
    assert det.on_net.kind == "trees" and det.lookahead == (2, 4)
    X, y, _ = on_samples(clip, 2, (2, 4))
    p = det.on_net.predict(X)
    assert y.sum() >= 10 and p[y > 0.5].mean() > 0.7 and p[y < 0.5].mean() < 0.3
    events = []
    for lm, t, f, occ in rec:
        if f % 2 == 0:
            events += det.update(lm, t, f, route, occ)[1]
    events += det.finish()
    assert any(e["type"] == "down" for e in events)


def test_target_candidates_are_the_targets_under_the_finger() -> None:
    """The learned chooser's candidates: a hold the index finger points into is one, with the
    geometric cues of :func:`best_targets` (along -0.2 palm sizes: the contact point on it,
    across 0, score 1, first in rank); a hold far from the finger is not; the finish zone is
    one when the contact point is inside it (its distance outside negative)."""
    from vision.contact_model import _ALONG_EXPECTED, TARGET_FEATURE_NAMES, target_candidates

    route = _route_of_clip()
    H = route.holds
    col = {n: i for i, n in enumerate(TARGET_FEATURE_NAMES)}
    palm = 60.0
    h = H.centres_px[0].astype(np.float64)
    u = np.array([0.6, -0.8])
    lm = _finger_over(h - _ALONG_EXPECTED * palm * u, u, palm)
    names, X, res = target_candidates(lm, route)[1]
    assert H.ids[0] in names
    x = X[names.index(H.ids[0])]
    assert x[col["along"]] == pytest.approx(_ALONG_EXPECTED, abs=1e-4)
    assert x[col["across"]] == pytest.approx(0.0, abs=1e-4)
    assert x[col["geo"]] == pytest.approx(1.0, abs=1e-4) and x[col["geo_rank"]] == 0
    assert x[col["contact_d"]] == pytest.approx(0.0, abs=1e-3) and x[col["is_zone"]] == 0
    assert res[names.index(H.ids[0]), 0] == pytest.approx(1.0, abs=1e-4)
    far = np.linalg.norm(H.centres_px - h, axis=1) > 3 * palm
    assert far.any() and not any(H.ids[i] in names for i in np.flatnonzero(far))
    c = route.zone_px("finish").astype(np.float64).mean(0)
    names, X, _ = target_candidates(_finger_over(c - _ALONG_EXPECTED * palm * u, u, palm), route)[1]
    assert "finish" in names
    x = X[names.index("finish")]
    assert x[col["is_zone"]] == 1 and x[col["zone_kind"]] == 2 and x[col["contact_d"]] < 0


def test_a_learned_target_chooser_trained_on_a_clip_drives_the_detector() -> None:
    """``train_contact --chooser-trees``: a model with a learned target chooser, trained on the
    sample clip (exact landmarks), chooses the target each pressing finger is truly down on,
    the detector runs it, and training builds the classifier's samples on the same choice.
    A chooser with other cues is refused."""
    from vision.bench_judge import _colour_map
    from vision.contact import ContactDetector
    from vision.contact_model import TARGET_FEATURE_NAMES, TargetChooser
    from vision.train_contact import _fit, _labels, clip_eye, on_samples

    clip = exact_recording()
    gt, route, rec = clip["gt"], clip["route"], clip["rec"]
    model = _fit([clip], 2, lookahead=(2,), stay_ahead=(2,), trees=10, leaves=8, chooser_trees=20)
    assert model["target"]["features"] == list(TARGET_FEATURE_NAMES)
    det = ContactDetector(model=model, colour_map=_colour_map(gt))
    assert isinstance(det.features.chooser, TargetChooser)
    lab = _labels(gt)
    right = pressing = 0
    seen: list[np.ndarray] = []
    predict = det.on_net.predict
    det.on_net.predict = lambda X: (seen.append(X.copy()), predict(X))[1]  # type: ignore[method-assign]
    started = _spy_start(det)
    for lm, t, f, occ in rec:
        if f % 2 == 0:
            det.update(lm, t, f, route, occ, eye=clip_eye(clip))
            ob = det._pending[-1] if det._pending else det._done[-1]
            for k in range(5):
                if lab[f][k] is not None and ob.lm is not None:
                    pressing += 1
                    right += ob.cands[k] == lab[f][k]
    det.finish()
    assert pressing >= 20 and right >= 0.9 * pressing
    _, _, rows = on_samples(clip, 2, det.lookahead, chooser=det.features.chooser,
                            started_s=started[0] if started else np.inf)
    expected = [r[3] for r in rows if r[3] is not None]
    assert len(seen) == len(expected)
    for a, b in zip(seen, expected):
        np.testing.assert_array_equal(a, b)
    with pytest.raises(ValueError, match="retrain"):
        TargetChooser(dict(model["target"], features=["geo"]))


def test_once_started_the_start_zone_weighs_as_a_hold_of_another_colour() -> None:
    """After the start, going back to the start zone is a fault (``restart_zone``): the target
    chooser then weighs the zone as a hold of another colour, so a finger over both the Départ
    card and a hold is given the hold unless the zone is far likelier. The thumb truly on the
    start zone keeps it; the ring finger resting beside it (sample clip, 0.67 s) is given the
    hold beside. The detector weighs the zone so only once it has seen the start."""
    from vision.bench_judge import _colour_map
    from vision.contact import ContactDetector

    clip = exact_recording()
    route = clip["route"]
    det = ContactDetector(colour_map=_colour_map(clip["gt"]))
    lm, t, f, occ = clip["rec"][20]
    prior = det.colour_prior(route)
    before = det.features.chooser.choose(lm, route, prior, None, occ, 0.0, 1.0)[0]
    after = det.features.chooser.choose(lm, route, prior, None, occ, 0.0, det.p.other_colour_weight)[0]
    assert before[0] == after[0] == "start"  # the thumb, pressing on the zone
    assert before[3] == "start" and after[3] not in (None, "start", "finish")
    weights = []  # (the detector started, the start zone's weight given to the features)
    update = det.features.update

    def spy(lm, t_s, route, occlusion, prior, eye, start_weight=1.0):
        weights.append((det.started, start_weight))
        return update(lm, t_s, route, occlusion, prior, eye, start_weight)

    det.features.update = spy
    for lm, t, f, occ in clip["rec"]:
        det.update(lm, t, f, route, occ)
    assert weights[0] == (False, 1.0) and weights[-1] == (True, det.p.other_colour_weight)
    assert all(w == 1.0 for s, w in weights if not s)
