"""Synthetic Grimpe scenes: the ground truth is consistent with the rules, the judge and the
pixels, scenes are deterministic, `arbitre synth grimpe` writes what it says, and the committed
sample_videos/ hold together. Budget: ~15 s of CPU (few rendered frames at 640×480; about
40–90 s wall on a busy 2-core machine)."""

from __future__ import annotations

import json
import math
from pathlib import Path

import cv2
import numpy as np
import pytest

from games.grimpe.climb import judge_events
from games.grimpe.route import Route
from ui.cli import main as arbitre
from vision.landmarks import FINGERTIPS
from vision.synth.cards_art import RING_WIDTH_MM
from vision.synth.climb_script import SCRIPTS
from vision.synth.grimpe_scene import GrimpeScene, SceneConfig
from vision.synth.scene import Scene

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ROOT / "sample_videos"


def _judge_cli(tmp_path: Path, route_json: dict, events: list[dict], capsys) -> dict:
    route_file = tmp_path / "route.json"
    events_file = tmp_path / "events.jsonl"
    route_file.write_text(json.dumps(route_json))
    events_file.write_text("".join(json.dumps(e) + "\n" for e in events))
    capsys.readouterr()
    assert arbitre(["grimpe", "judge", str(route_file), str(events_file), "--json"]) == 0
    return _without_line(json.loads(capsys.readouterr().out))


def _without_line(obj):
    """The judge's evidence read from a file also names its line: not part of the verdict."""
    if isinstance(obj, dict):
        return {k: _without_line(v) for k, v in obj.items() if k != "line"}
    if isinstance(obj, list):
        return [_without_line(v) for v in obj]
    return obj


@pytest.fixture(scope="module")
def scenes() -> dict[str, GrimpeScene]:
    return {s: GrimpeScene(SceneConfig(seed=21, script=s)) for s in SCRIPTS}


@pytest.mark.parametrize("script", SCRIPTS)
def test_events_name_route_targets_and_verdict_is_the_judges(script, scenes, tmp_path, capsys):
    scene = scenes[script]
    gt = scene.ground_truth(frames=False)
    ids = {h["id"] for h in gt["route"]["holds"]}
    cards = {c["number"] for c in gt["route"]["cards"]}
    for e in gt["events"]:
        assert e["frame"] < gt["num_frames"]
        assert math.isclose(e["t"], e["frame"] / gt["fps"], abs_tol=1e-3)
        if e["type"] == "down":
            assert e["target"] in ids | {"start", "finish"}, e
        if e["type"] == "card_moved":
            assert e["card"] in cards
    assert [e["frame"] for e in gt["events"]] == sorted(e["frame"] for e in gt["events"])
    verdict = _judge_cli(tmp_path, gt["route"], gt["events"], capsys)
    assert verdict == gt["expected_verdict"]
    if script == "clean":
        assert verdict["result"] == "summit" and verdict["score"] > 0
    elif script == "empty":
        assert gt["events"] == [] and verdict["result"] == "incomplete"
    else:
        assert verdict["result"] == "fault"
        assert verdict["fault"]["code"] == script == gt["expected_fault"]


def test_grimpe_scene_is_a_scene(scenes):
    scene = scenes["empty"]
    assert isinstance(scene, Scene)
    assert set(scene.extra_files()) == {"route.json", "events.jsonl"}


def test_fingertips_are_on_their_target_when_down(scenes):
    scene = scenes["clean"]
    holds = {h.id: h for h in scene.route.holds()}
    zones = {"start": scene.route.start_zone_mm(), "finish": scene.route.finish_zone_mm()}
    downs = [e for e in scene.events if e["type"] == "down"]
    assert len(downs) >= 3
    for e in downs:
        lm = scene.script.hand_mm(scene.model, e["frame"])
        tip = lm[FINGERTIPS[e["finger"]]]
        assert abs(tip[2]) < 0.5  # touching the table
        if e["target"] in holds:
            h = holds[e["target"]]
            assert math.hypot(tip[0] - h.x_mm, tip[1] - h.y_mm) < h.radius_mm * 0.5
            truth = scene.frame_truth(e["frame"], visibility=False)[0]
            px = np.array(truth["landmarks_px"][FINGERTIPS[e["finger"]]])
            centre = scene.camera.project(np.array([[h.x_mm, h.y_mm, 0.0]]))[0]
            edge = scene.camera.project(np.array([[h.x_mm + h.radius_mm, h.y_mm, 0.0]]))[0]
            assert np.linalg.norm(px - centre) < np.linalg.norm(edge - centre)
        else:
            assert zones[e["target"]].contains(tip[0], tip[1])
    # the frame before a down the tip is still in the air
    for e in downs[1:]:
        lm = scene.script.hand_mm(scene.model, e["frame"] - 1)
        assert lm[FINGERTIPS[e["finger"]]][2] > 0.5


def test_a_bad_start_never_touches_the_start_zone(scenes):
    """``bad_start``: the start finger comes over the start zone and stays in the air (the
    hand in its start position), and the climb's first down is on a hold."""
    scene = scenes["bad_start"]
    plan = scene.script.plan
    first = scene.events[0]
    assert first["type"] == "down" and first["target"] not in ("start", "finish")
    assert not any(e["type"] == "down" and e["target"] == "start" for e in scene.events)
    zone = scene.route.start_zone_mm()
    tips = np.array([scene.script.hand_mm(scene.model, i)[FINGERTIPS[plan.start_finger]]
                     for i in range(first["frame"] + 1)])
    assert tips[:, 2].min() > 5.0  # never on the table
    assert tips[:, 2].max() > 12.0
    assert sum(zone.contains(x, y) for x, y, _ in tips) >= len(tips) // 2  # over the zone


def test_raised_joints_are_drawn_with_the_cameras_parallax():
    """An oblique camera sees a joint above the table moved away from it, as a real camera
    does: the truth is the camera's projection of the 3D joint, and the hand is drawn there (a
    hovering finger no longer looks like a pressing one)."""
    scene = GrimpeScene(SceneConfig(seed=32, camera="oblique", script="clean"))
    down = next(e for e in scene.events if e["type"] == "down" and e["target"] != "start")
    tips_z = {i: scene.hands_mm(i)[0][2][list(FINGERTIPS.values()), 2]
              for i in range(down["frame"], scene.num_frames)}
    i = next(i for i, z in tips_z.items() if z.max() > 25.0 and z.min() < 0.5)  # one lifted
    lm = scene.hands_mm(i)[0][2]
    truth = np.array(scene.frame_truth(i)[0]["landmarks_px"])
    flat = scene.camera.project(np.column_stack([lm[:, :2], np.zeros(21)]))
    shift = np.linalg.norm(truth - flat, axis=1)
    pressing = [t for t in FINGERTIPS.values() if abs(lm[t, 2]) < 0.5]
    assert pressing and (shift[pressing] < 0.5).all()
    high = lm[:, 2] > 20.0
    assert high.sum() >= 5 and (shift[high] > 0.25 * lm[high, 2]).all()
    # drawn flat (as generator synth-1 did), the truth is the joints' table-plane projection
    flat_scene = GrimpeScene(SceneConfig(seed=32, camera="oblique", script="clean", parallax=False))
    flat_truth = np.array(flat_scene.frame_truth(i)[0]["landmarks_px"])
    np.testing.assert_allclose(flat_truth, flat, atol=0.01)
    # seen_mm puts each joint on its camera ray: same pixel as the 3D joint
    seen = scene.seen_mm(lm)
    on_table = scene.camera.project(np.column_stack([seen[:, :2], np.zeros(21)]))
    np.testing.assert_allclose(on_table, truth, atol=0.01)
    # the pixels: with the hand drawn in, every raised landmark's pixel changes, and the table
    # left where the flat drawing would have put the raised fingertips (pixels it no longer
    # covers) stays as it was, up to the cast shadow
    c = scene._canvas
    base = scene._base(i)
    drawn = base.copy()
    scene._draw_hands(drawn, i)
    img0 = scene.camera.render_plane(base, c.px_per_mm, c.origin_mm).astype(np.float32)
    img1 = scene.camera.render_plane(drawn, c.px_per_mm, c.origin_mm).astype(np.float32)
    change = np.abs(img1 - img0).sum(axis=2)
    col, row = np.round(truth[:, 0]).astype(int), np.round(truth[:, 1]).astype(int)
    assert (change[row[high], col[high]] > 60).all()
    tips = [t for t in FINGERTIPS.values() if lm[t, 2] > 8.0 and shift[t] > 12.0]
    assert tips, "a lifted fingertip far enough from its flat place"
    fc, fr = np.round(flat[tips, 0]).astype(int), np.round(flat[tips, 1]).astype(int)
    assert (change[fr, fc] < change[row[tips], col[tips]]).all()


def _ring_colour(img: np.ndarray, scene: GrimpeScene, x: float, y: float, r: float) -> str | None:
    a = np.linspace(0, 2 * np.pi, 24, endpoint=False)
    rr = r + RING_WIDTH_MM / 2
    pts = np.column_stack([x + rr * np.cos(a), y + rr * np.sin(a), np.zeros_like(a)])
    px = np.round(scene.camera.project(pts)).astype(int)
    h, w = img.shape[:2]
    if not ((px[:, 0] >= 0) & (px[:, 0] < w) & (px[:, 1] >= 0) & (px[:, 1] < h)).all():
        return None
    bgr = np.median(img[px[:, 1], px[:, 0]].astype(np.float32), axis=0)
    hsv = cv2.cvtColor(bgr.reshape(1, 1, 3).astype(np.uint8), cv2.COLOR_BGR2HSV)[0, 0]
    hue, sat, val = (int(v) for v in hsv)
    if val < 90 and sat < 110:
        return "black"
    if sat < 90:
        return "grey"
    if hue < 10 or hue >= 165:
        return "red"
    if 15 <= hue < 40:
        return "yellow"
    if 40 <= hue < 85:
        return "green"
    if 95 <= hue < 135:
        return "blue"
    return f"hue{hue}"


@pytest.mark.parametrize("seed,camera", [(31, "top"), (32, "oblique"), (33, "top")])
def test_hold_rings_are_drawn_where_the_ground_truth_says(seed, camera):
    scene = GrimpeScene(SceneConfig(seed=seed, camera=camera, script="empty", num_frames=1))
    img = scene.render_frame(0)
    holds = scene.ground_truth(frames=False)["route"]["holds"]
    seen = 0
    for h in holds:
        got = _ring_colour(img, scene, h["x_mm"], h["y_mm"], h["radius_mm"])
        if got is None:
            continue
        seen += 1
        assert got == h["colour"], (h, got)
    assert seen >= 0.9 * len(holds)
    # a hole shows the table, not the ring: its centre differs from its ring
    for h in holds:
        ring = _median_bgr(img, scene, h["x_mm"], h["y_mm"], h["radius_mm"] + RING_WIDTH_MM / 2)
        hole = _median_bgr(img, scene, h["x_mm"], h["y_mm"], 0.4 * h["radius_mm"])
        if ring is not None and hole is not None:
            assert np.abs(ring - hole).max() > 30, h


def _median_bgr(img, scene, x, y, r):
    a = np.linspace(0, 2 * np.pi, 24, endpoint=False)
    pts = np.column_stack([x + r * np.cos(a), y + r * np.sin(a), np.zeros_like(a)])
    px = np.round(scene.camera.project(pts)).astype(int)
    h, w = img.shape[:2]
    if not ((px[:, 0] >= 0) & (px[:, 0] < w) & (px[:, 1] >= 0) & (px[:, 1] < h)).all():
        return None
    return np.median(img[px[:, 1], px[:, 0]].astype(np.float32), axis=0)


def test_same_seed_same_scene_other_seed_other_scene():
    cfg = SceneConfig(seed=41, camera="top", script="wrong_finger", num_frames=40)
    a, b = GrimpeScene(cfg), GrimpeScene(cfg)
    ga, gb = a.ground_truth(frames=False), b.ground_truth(frames=False)
    assert json.dumps(ga, sort_keys=True) == json.dumps(gb, sort_keys=True)
    assert a.frame_truth(30) == b.frame_truth(30)
    assert np.array_equal(a.render_frame(30), b.render_frame(30))
    c = GrimpeScene(SceneConfig(seed=42, camera="top", script="wrong_finger", num_frames=40))
    assert c.ground_truth(frames=False)["route"] != ga["route"] or \
        c.ground_truth(frames=False)["camera"] != ga["camera"]


def test_card_moved_scene_moves_the_named_card(scenes):
    scene = scenes["card_moved"]
    (nudge,) = scene.script.nudges
    event = next(e for e in scene.events if e["type"] == "card_moved")
    assert event["card"] == nudge.card and nudge.frame0 < event["frame"] <= nudge.frame1
    before = scene._base(nudge.frame0)
    after = scene._base(nudge.frame1)
    changed = np.abs(before.astype(int) - after.astype(int)).max(axis=2) > 40
    ys, xs = np.nonzero(changed)
    assert len(xs) > 100
    c = scene._canvas
    centre = next(cen for name, cen, _ in __import__(
        "vision.synth.grimpe_route", fromlist=["x"]).route_card_poses(scene.route) if name == nudge.card)
    cx = (centre[0] - c.origin_mm[0]) * c.px_per_mm
    cy = (c.origin_mm[1] - centre[1]) * c.px_per_mm
    # every changed pixel is around that card
    assert np.hypot(xs - cx, ys - cy).max() < 70 * c.px_per_mm


def test_cli_writes_video_and_ground_truth(tmp_path, capsys):
    out = tmp_path / "scene"
    rc = arbitre(["synth", "grimpe", "--seed", "5", "--out", str(out), "--frames", "6"])
    assert rc == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["frames"] == 6
    gt = json.loads((out / "ground_truth.json").read_text())
    assert gt["num_frames"] == 6 and len(gt["frames"]) == 6
    assert Route.from_json((out / "route.json").read_text()).to_json() == gt["route"]
    events = [json.loads(line) for line in (out / "events.jsonl").read_text().splitlines()]
    assert events == gt["events"]
    for fr in gt["frames"]:
        for hand in fr["hands"]:
            assert np.array(hand["landmarks_px"]).shape == (21, 2)
            assert len(hand["visible"]) == 21
    cap = cv2.VideoCapture(str(out / "video.mp4"))
    n = 0
    while True:
        ok, img = cap.read()
        if not ok:
            break
        assert img.shape == (480, 640, 3)
        n += 1
    assert n == 6
    assert gt["config"]["parallax"] is True and gt["generator_version"] == "synth-3"
    # --flat: the hand drawn as before synth-2, its truth on the table plane
    flat = tmp_path / "flat"
    assert arbitre(["synth", "grimpe", "--seed", "5", "--out", str(flat), "--frames", "1",
                    "--flat"]) == 0
    gt_flat = json.loads((flat / "ground_truth.json").read_text())
    assert gt_flat["config"]["parallax"] is False
    lm_mm = np.array(gt_flat["frames"][0]["hands"][0]["landmarks_mm"])
    from vision.camera import CameraModel

    cam = CameraModel.from_dict(gt_flat["camera"])
    on_table = cam.project(np.column_stack([lm_mm[:, :2], np.zeros(21)]))
    np.testing.assert_allclose(gt_flat["frames"][0]["hands"][0]["landmarks_px"], on_table,
                               atol=0.01)
    assert arbitre(["synth", "grimpe", "--seed", "5", "--out", str(out), "--frames", "0"]) == 2


def _sample_dirs() -> list[Path]:
    if not SAMPLES.is_dir():
        return []
    return sorted(d for d in SAMPLES.iterdir()
                  if (d / "ground_truth.json").exists() and d.name != "example_climb")


def test_committed_samples_cover_the_required_cases():
    dirs = _sample_dirs()
    assert len(dirs) >= 4
    gts = [json.loads((d / "ground_truth.json").read_text()) for d in dirs]
    results = {(g["script"], g["camera_kind"], g["expected_verdict"]["result"]) for g in gts}
    assert any(s == "clean" and r == "summit" for s, _, r in results)
    assert any(r == "fault" for _, _, r in results)
    assert any(c == "oblique" for _, c, _ in results)
    assert any(s == "empty" for s, _, _ in results)
    total = sum(f.stat().st_size for d in dirs for f in d.rglob("*") if f.is_file())
    assert total <= 15 * 1024 * 1024


@pytest.mark.parametrize("sample", _sample_dirs(), ids=lambda d: d.name)
def test_committed_sample_is_consistent(sample: Path):
    gt = json.loads((sample / "ground_truth.json").read_text())
    route = json.loads((sample / "route.json").read_text())
    events = [json.loads(line) for line in (sample / "events.jsonl").read_text().splitlines()]
    assert route == gt["route"] and events == gt["events"]
    ids = {h["id"] for h in route["holds"]}
    assert all(e["target"] in ids | {"start", "finish"} for e in events if e["type"] == "down")
    assert judge_events(route, events).to_json() == gt["expected_verdict"]
    assert gt["num_frames"] / gt["fps"] <= 15.0
    assert tuple(gt["image_size"]) in ((640, 480), (1280, 720))
    assert len(gt["frames"]) == gt["num_frames"]
    cap = cv2.VideoCapture(str(sample / gt["video"]))
    assert cap.isOpened()
    n = 0
    while cap.grab():
        n += 1
    assert n == gt["num_frames"]
    ok, img = cv2.VideoCapture(str(sample / gt["video"])).read()
    assert ok and (img.shape[1], img.shape[0]) == tuple(gt["image_size"])


def test_seed_lists_parse_ranges_and_reject_bad_text():
    from vision.synth.seeds import parse_seeds

    assert parse_seeds(["5000-5002", "77"]) == [5000, 5001, 5002, 77]
    assert parse_seeds("1,2,5-7") == [1, 2, 5, 6, 7]
    with pytest.raises(ValueError):
        parse_seeds("x")
