"""The procedural hand: kinematics (pose, place, blend, mirroring), the renderer, and real
MediaPipe finding seeded renders. Budget: ~20 s (six 640×480 renders through MediaPipe)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from vision.landmarks import FINGER_JOINTS, FINGERTIPS
from vision.synth.hand import (
    FINGERS,
    Down,
    HandModel,
    HandStyle,
    Lifted,
    Rest,
    blend_poses,
    landmarks_to_canvas_px,
    mediapipe_landmarks_px,
    random_style,
    render_hand,
)

RIGHT = HandModel(HandStyle("right"))
LEFT = HandModel(HandStyle("left"))


def _bones(lm: np.ndarray) -> np.ndarray:
    out = []
    for f in FINGERS:
        j = FINGER_JOINTS[f]
        chain = [j.mcp, j.pip, j.dip, j.tip]
        out += [np.linalg.norm(lm[b] - lm[a]) for a, b in zip(chain, chain[1:])]
    return np.array(out)


# -- kinematics -----------------------------------------------------------------------------


def test_pose_down_lifted_rest():
    states = {"index": Down(-20.0, 150.0), "middle": Lifted(35.0), "ring": Down(22.0, 152.0)}
    lm = RIGHT.pose((0.0, 30.0), 0.0, states)
    assert lm.shape == (21, 3)
    np.testing.assert_allclose(lm[FINGERTIPS["index"]], (-20.0, 150.0, 0.0), atol=1e-9)
    np.testing.assert_allclose(lm[FINGERTIPS["ring"]], (22.0, 152.0, 0.0), atol=1e-9)
    assert lm[FINGERTIPS["middle"]][2] == pytest.approx(35.0, abs=4.0)
    for f in ("thumb", "little"):
        assert lm[FINGERTIPS[f]][2] >= 8.0
    # Palm 40-60 mm above the table with fingers down, and every joint above the table.
    assert 40.0 <= lm[[5, 9, 13, 17], 2].mean() <= 60.0
    assert (np.delete(lm[:, 2], [8, 16]) > 3.0).all()
    # A pressing finger reaches down steeply: its last bone points down more than 45°.
    d = lm[8] - lm[7]
    assert math.degrees(math.atan2(-d[2], np.hypot(d[0], d[1]))) > 45.0


def test_free_fingers_hover_at_their_heights():
    """Over random hands and poses: resting tips stay >= 8 mm up, lifted tips at the asked
    height (within 2 mm), and no joint of a free finger goes below 8 mm."""
    rng = np.random.default_rng(11)
    for _ in range(300):
        model = HandModel(random_style(rng))
        states = {f: Rest() if rng.random() < 0.5 else Lifted(float(rng.uniform(25, 45)))
                  for f in FINGERS}
        if rng.random() < 0.5:  # palm raised by a pressing middle finger
            states["middle"] = Down(0.0, 150.0)
            p = model.place({"middle": (0.0, 150.0)},
                            lifted=[f for f, s in states.items() if isinstance(s, Lifted)])
            assert p is not None
            lm, states = p.landmarks_mm, p.finger_states
        else:
            lm = model.pose((0.0, 0.0), float(rng.uniform(-50, 50)), states)
        for f, st in states.items():
            tip_z = lm[FINGERTIPS[f], 2]
            if isinstance(st, Rest):
                assert tip_z >= 8.0
            elif isinstance(st, Lifted):
                assert tip_z == pytest.approx(st.height_mm, abs=2.0)
            if not isinstance(st, Down):
                assert lm[list(FINGER_JOINTS[f]), 2].min() >= 8.0 - 1e-9


def test_pose_keeps_bone_lengths_and_blend_too():
    a = RIGHT.pose((0.0, 0.0), -20.0, {})
    b = RIGHT.pose((10.0, 5.0), 15.0, {"index": Lifted(40.0), "little": Lifted(30.0)})
    np.testing.assert_allclose(_bones(a), _bones(b), rtol=1e-6)
    for s in (0.25, 0.5, 0.8):
        mid = blend_poses(a, b, s)
        np.testing.assert_allclose(_bones(mid), _bones(a), rtol=1e-6)
    np.testing.assert_allclose(blend_poses(a, b, 0.0), a)
    np.testing.assert_allclose(blend_poses(a, b, 1.0), b)


def test_left_and_right_hands_mirror_each_other():
    """Palm down seen from above, fingers away (+y): a right hand's thumb is on the left (-x)."""
    r = RIGHT.pose((0.0, 0.0), 0.0, {})
    l_ = LEFT.pose((0.0, 0.0), 0.0, {})
    assert r[FINGERTIPS["thumb"], 0] < r[FINGERTIPS["little"], 0]
    assert l_[FINGERTIPS["thumb"], 0] > l_[FINGERTIPS["little"], 0]
    mirrored = l_ * np.array([-1.0, 1.0, 1.0])
    np.testing.assert_allclose(mirrored, r, atol=1e-9)
    # Heading turns the hand counter-clockwise: at +90° the fingers point -x.
    turned = RIGHT.pose((0.0, 0.0), 90.0, {})
    assert turned[9, 0] < -80.0 and abs(turned[9, 1]) < 20.0


def test_pose_strict_rejects_out_of_reach():
    with pytest.raises(ValueError, match="index cannot reach"):
        RIGHT.pose((0.0, 0.0), 0.0, {"index": Down(0.0, 400.0)})
    lm = RIGHT.pose((0.0, 0.0), 0.0, {"index": Down(0.0, 400.0)}, strict=False)
    assert lm[FINGERTIPS["index"], 1] < 400.0
    with pytest.raises(ValueError, match="unknown finger 'pinky'"):
        RIGHT.pose((0.0, 0.0), 0.0, {"pinky": Rest()})


def test_place_reaches_targets_it_accepts():
    rng = np.random.default_rng(3)
    accepted = 0
    for _ in range(30):
        wrist = rng.uniform(-50, 50, 2)
        heading = rng.uniform(-40, 40)
        names = [f for f in FINGERS if rng.random() < 0.5] or ["middle"]
        # Targets taken from a natural pose: comfortable reach along each finger.
        ref = RIGHT.pose(tuple(wrist), heading, {})
        targets = {}
        for f in names:
            j = FINGER_JOINTS[f]
            d = ref[j.pip, :2] - ref[j.mcp, :2]
            targets[f] = tuple(ref[j.mcp, :2] + d / np.linalg.norm(d) * 55.0)
        p = RIGHT.place(targets, lifted=[f for f in ("middle",) if f not in names])
        if p is None:
            continue
        accepted += 1
        assert -60.0 <= p.heading_deg <= 60.0
        for f, (x, y) in targets.items():
            assert p.finger_states[f] == Down(x, y)
            np.testing.assert_allclose(p.landmarks_mm[FINGERTIPS[f]], (x, y, 0.0), atol=1e-9)
        np.testing.assert_allclose(
            RIGHT.pose(p.wrist_xy_mm, p.heading_deg, p.finger_states), p.landmarks_mm)
    assert accepted >= 25


def test_place_refuses_impossible_targets():
    ok = RIGHT.place({"index": (-20.0, 150.0), "ring": (20.0, 150.0)})
    assert ok is not None
    # Too far apart for one hand.
    assert RIGHT.place({"index": (-20.0, 150.0), "ring": (250.0, 150.0)}) is None
    # Crossed fingers: a right hand's index cannot press to the right of its ring finger.
    assert RIGHT.place({"index": (20.0, 150.0), "ring": (-20.0, 150.0)}) is None
    # ...but a left hand can (it is the mirror image).
    assert LEFT.place({"index": (20.0, 150.0), "ring": (-20.0, 150.0)}) is not None
    # Two fingertips on the same point.
    assert RIGHT.place({"index": (0.0, 150.0), "middle": (3.0, 151.0)}) is None
    with pytest.raises(ValueError, match="both targeted and lifted"):
        RIGHT.place({"index": (0.0, 150.0)}, lifted=["index"])


# -- rendering ------------------------------------------------------------------------------


def _canvas() -> np.ndarray:
    rng = np.random.default_rng(0)
    return (120 + rng.integers(0, 20, (700, 600, 3))).astype(np.uint8)


def test_render_draws_hand_and_shadow_deterministically():
    style = HandStyle("right", skin_rgb=(224, 172, 140))
    lm_mm = RIGHT.pose((120.0, 60.0), 10.0, {"index": Down(110.0, 185.0)}, strict=False)
    px = landmarks_to_canvas_px(lm_mm, 2.5, 700)
    a, b = _canvas(), _canvas()
    before = a.copy()
    ra = render_hand(a, px, style, light_dir=(-0.4, -0.4, 0.8), rng=np.random.default_rng(5),
                     px_per_mm=2.5)
    render_hand(b, px, style, light_dir=(-0.4, -0.4, 0.8), rng=np.random.default_rng(5),
                px_per_mm=2.5)
    assert (a == b).all(), "same seed, same image"
    inferred = render_hand(_canvas(), px, style, rng=np.random.default_rng(5)).px_per_mm
    assert inferred == pytest.approx(2.5, rel=0.01)
    assert ra.mask.shape == (700, 600) and ra.mask.dtype == bool
    assert ra.hand_mask.sum() > 10000 and (ra.mask & ~ra.hand_mask).sum() > 10000  # forearm
    x0, y0, x1, y1 = ra.bbox
    outside = np.ones((700, 600), bool)
    outside[y0:y1, x0:x1] = False
    assert (a[outside] == before[outside]).all()
    # Every visible landmark pixel is covered; the tip pressing the table is at height ~0.
    cols, rows = np.round(px[:, 0]).astype(int), np.round(px[:, 1]).astype(int)
    assert ra.mask[rows, cols].all()
    assert ra.height_px[rows[9], cols[9]] > 40 * 2.5
    # The cast shadow darkens the table next to the hand (light from the upper left).
    ring = ~ra.mask & np.roll(ra.mask, (-12, -12), axis=(0, 1))
    assert a[ring].mean() < before[ring].mean() - 10
    # Skin, not table, inside the mask.
    skin_bgr = np.array(style.skin_rgb[::-1], float)
    assert np.abs(a[ra.hand_mask].mean(0) - skin_bgr).mean() < 60


def test_render_throws_the_shadow_from_where_the_joints_really_are():
    """The cast shadow falls from where each surface point really is: a camera looking along
    the light sees each point in front of its own shadow, so hardly any shadow shows beside
    the hand; seen from straight above, it reaches out beside the hand."""
    style = HandStyle("right", skin_rgb=(224, 172, 140))
    lm_mm = RIGHT.pose((120.0, 60.0), 10.0, {"index": Down(110.0, 185.0)}, strict=False)
    px = landmarks_to_canvas_px(lm_mm, 2.5, 700)
    light = np.array([-0.4, -0.4, 0.8])
    middle = px.mean(0)
    along_light = middle * [1, 1, 0] + light / np.linalg.norm(light) * 5000.0
    dark = []
    for eye in (None, tuple(along_light)):
        a = _canvas()
        before = a.copy()
        r = render_hand(a, px, style, light_dir=tuple(light), rng=np.random.default_rng(5),
                        px_per_mm=2.5, eye=eye)
        d = before.astype(float).sum(2) - a.astype(float).sum(2)
        dark.append(d[~r.mask].sum())
    assert dark[1] < 0.6 * dark[0], dark


def test_render_along_the_cameras_rays():
    """With ``eye`` each table pixel shows what the camera's ray through it meets first: a
    fingertip, raised or pressing, is drawn at the table point on the camera's ray through it
    (a raised one away from its foot, where the flat drawing leaves bare table), and the hand,
    nearer the camera than the table, covers more of it."""
    style = HandStyle("right", skin_rgb=(224, 172, 140))
    lm_mm = RIGHT.pose((120.0, 60.0), 10.0, {"index": Down(110.0, 185.0), "little": Lifted(40.0)},
                       strict=False)
    px = landmarks_to_canvas_px(lm_mm, 2.5, 700)
    index, lifted = FINGERTIPS["index"], FINGERTIPS["little"]
    assert px[index, 2] == pytest.approx(0.0, abs=0.5) and px[lifted, 2] > 35 * 2.5
    above = px[0] * [1, 1, 0] + [-100 * 2.5, 0.0, 450 * 2.5]  # 45 cm up, 10 cm beside the wrist
    oblique = px[lifted] * [1, 1, 0] + [0.0, 500 * 2.5, 350 * 2.5]  # off the canvas, low
    flat = render_hand(_canvas(), px, style, rng=np.random.default_rng(5), px_per_mm=2.5)
    for eye in (above, oblique):
        r = render_hand(_canvas(), px, style, rng=np.random.default_rng(5), px_per_mm=2.5,
                        eye=tuple(eye))
        # the table point on the camera's ray through each joint
        seen = eye[:2] + (px[:, :2] - eye[:2]) * (eye[2] / (eye[2] - px[:, 2]))[:, None]
        for tip in (index, lifted):
            col, row = np.round(seen[tip]).astype(int)
            assert r.mask[row, col], tip
            # the ray through the joint meets the hand at or before it (coming from the eye)
            assert r.height_px[row, col] >= px[tip, 2] - 1.0
        seen = seen[lifted]
        assert np.linalg.norm(seen - px[lifted, :2]) > 10 * 2.5  # drawn well away from its foot
        # where it is seen, the flat drawing (seen from straight above) leaves bare table
        col, row = np.round(seen).astype(int)
        assert not flat.mask[row - 2:row + 3, col - 2:col + 3].any()
        assert r.hand_mask.sum() > 1.03 * flat.hand_mask.sum()  # nearer than the table: bigger
    # deterministic; an eye not well above the hand is refused
    a, b = _canvas(), _canvas()
    render_hand(a, px, style, rng=np.random.default_rng(5), px_per_mm=2.5, eye=tuple(oblique))
    render_hand(b, px, style, rng=np.random.default_rng(5), px_per_mm=2.5, eye=tuple(oblique))
    assert (a == b).all()
    with pytest.raises(ValueError, match="eye"):
        render_hand(_canvas(), px, style, eye=(0.0, 0.0, 50.0))


def test_render_validates_inputs():
    with pytest.raises(ValueError, match=r"landmarks_px must have shape \(21, 3\), got \(21, 2\)"):
        render_hand(_canvas(), np.zeros((21, 2)), HandStyle())
    with pytest.raises(ValueError, match="canvas_bgr must be uint8"):
        render_hand(np.zeros((10, 10), np.uint8), np.zeros((21, 3)), HandStyle())
    with pytest.raises(ValueError, match="light_dir"):
        render_hand(_canvas(), np.ones((21, 3)), HandStyle(), light_dir=(0, 0, -1))
    with pytest.raises(ValueError, match="handedness must be 'left' or 'right'"):
        HandStyle("both")


def test_random_style_spread():
    rng = np.random.default_rng(0)
    styles = [random_style(rng) for _ in range(200)]
    assert {s.handedness for s in styles} == {"left", "right"}
    sizes = [s.size_scale for s in styles]
    assert 0.85 <= min(sizes) and max(sizes) <= 1.15
    lum = [sum(s.skin_rgb) / 3 for s in styles]
    assert min(lum) < 80 and max(lum) > 200, "light to dark skin tones"
    assert random_style(rng, "left").handedness == "left"


def test_mediapipe_offsets_turn_with_the_hand():
    lm = landmarks_to_canvas_px(RIGHT.pose((100.0, 100.0), 0.0, {}), 2.0, 600)
    mp = mediapipe_landmarks_px(lm)
    assert mp.shape == (21, 2)
    palm = np.linalg.norm(lm[9, :2] - lm[0, :2])
    shift = np.linalg.norm(mp - lm[:, :2], axis=1)
    assert 0 < shift.max() < 0.25 * palm
    # Rotating the input about a point rotates the output the same way.
    c, s = math.cos(0.7), math.sin(0.7)
    R = np.array([[c, -s], [s, c]])
    rot = lm.copy()
    rot[:, :2] = (lm[:, :2] - 300) @ R.T + 300
    np.testing.assert_allclose(mediapipe_landmarks_px(rot), (mp - 300) @ R.T + 300, atol=1e-6)


# -- MediaPipe on renders -------------------------------------------------------------------


@pytest.fixture(scope="module")
def tracker():
    from vision.hands import HandTracker

    with HandTracker(static_image_mode=True) as t:
        yield t


def test_mediapipe_finds_rendered_hands(tracker):
    """Six seeded renders (3 straight from above, 3 tilted 30-45°): MediaPipe must find at
    least 5 (the benchmark measures ~99 % on fresh seeds; seed 8 straight, five fingers
    bunched on a card, is a miss), each found hand with mean landmark error under 15 % of the
    palm (wrist→middle knuckle) after the offset tables (~4-5 % measured) and the right
    handedness."""
    from vision.synth.bench_hand import make_sample

    found = 0
    for seed in (7, 8, 9):
        for oblique in (False, True):
            s = make_sample(seed, oblique)
            hands = tracker.update(s.image_bgr)
            if not hands.hands:
                continue
            found += 1
            best = min(hands.hands,
                       key=lambda h: np.linalg.norm(h.landmarks_px - s.gt_px, axis=1).mean())
            err = np.linalg.norm(best.landmarks_px - s.gt_px, axis=1).mean()
            assert err < 0.15 * s.palm_px, f"seed {seed} oblique={oblique}: {err:.1f}px"
            assert best.handedness == s.handedness, f"seed {seed} oblique={oblique}"
    assert found >= 5, f"MediaPipe found {found}/6 rendered hands"
