"""Lens calibration on synthetic renders with known intrinsics, and deliberately bad inputs."""

import json

import cv2
import numpy as np
import pytest

from calibration.file import Lens, load_calibration
from calibration.intrinsics import (
    calibrate_intrinsics, calibrate_views, compare_lenses_px, detect_views, seen_grid_points,
)
from calibration.patterns import parse_pattern
from calibration.synthetic import SyntheticCamera, default_camera, render_board_views

CHESS = parse_pattern("chessboard:9x6", 25)
CHARUCO = parse_pattern("charuco:5x7", 25)


@pytest.fixture(scope="module")
def synth():
    return SyntheticCamera(default_camera((640, 480)))


@pytest.fixture(scope="module")
def truth(synth):
    cam = synth.camera
    return Lens(cam.image_size, cam.K, cam.dist)


@pytest.fixture(scope="module")
def good_chess(synth):
    images, _ = render_board_views(CHESS, synth.camera, 24, seed=1, synth=synth)
    return images


def _views(images, pattern=CHESS):
    return detect_views([(f"v{i:02d}.png", g) for i, g in enumerate(images)], pattern)


def _check_against_truth(lens, truth, views):
    assert abs(lens.fx / truth.fx - 1) < 0.005
    assert abs(lens.fy / truth.fy - 1) < 0.005
    assert abs(lens.cx - truth.cx) < 2 and abs(lens.cy - truth.cy) < 2
    # where the board was seen, the lens reproduces the true projection (after the rotation any
    # pose estimate absorbs)
    seen = seen_grid_points(views, truth.image_size, (16, 12))
    assert len(seen) > 0.5 * 16 * 12
    d = compare_lenses_px(truth, lens, points_px=seen)
    assert d.max() < 0.5


def test_good_chessboard_set_is_accepted_and_close_to_the_truth(good_chess, truth):
    views = _views(good_chess)
    rep = calibrate_views(views, CHESS)
    assert rep.accepted, rep.reasons
    assert rep.rms_px < 0.2
    _check_against_truth(rep.lens, truth, views)
    # the reported uncertainty is consistent with the actual error (within 4 sigma)
    assert abs(rep.lens.fx - truth.fx) < 4 * rep.stddev["fx"] + 0.5
    assert rep.cross_validation["p95_px"] < 1.0


def test_partial_charuco_views_are_used(synth, truth):
    images, _ = render_board_views(CHARUCO, synth.camera, 20, seed=4, synth=synth)
    views = _views(images, CHARUCO)
    partial = [v for v in views if v.detection is not None
               and len(v.detection.ids) < CHARUCO.n_corners]
    assert partial  # some views show only part of the board, and are still used
    rep = calibrate_views(views, CHARUCO)
    assert rep.accepted, rep.reasons
    _check_against_truth(rep.lens, truth, views)


def test_agrees_with_plain_opencv_calibrate_camera(good_chess):
    views = _views(good_chess)
    rep = calibrate_views(views, CHESS)
    obj, img = [], []
    grid = np.zeros((6 * 9, 3), np.float32)
    grid[:, :2] = np.mgrid[0:9, 0:6].T.reshape(-1, 2) * 25
    for g in good_chess:
        ok, c = cv2.findChessboardCorners(g, (9, 6))
        if ok:
            c = cv2.cornerSubPix(g, c, (5, 5), (-1, -1),
                                 (cv2.TERM_CRITERIA_EPS | cv2.TERM_CRITERIA_COUNT, 30, 1e-3))
            obj.append(grid)
            img.append(c)
    rms, K, dist, _, _ = cv2.calibrateCamera(obj, img, (640, 480), None, None)
    assert len(obj) >= 20
    assert abs(rep.lens.fx / K[0, 0] - 1) < 0.002 and abs(rep.lens.fy / K[1, 1] - 1) < 0.002
    assert abs(rep.lens.cx - K[0, 2]) < 1.0 and abs(rep.lens.cy - K[1, 2]) < 1.0
    assert abs(rep.rms_px - rms) < 0.05
    seen = seen_grid_points(views, (640, 480), (16, 12))
    assert compare_lenses_px(Lens((640, 480), K, dist), rep.lens, points_px=seen).max() < 0.2


def test_three_views_are_rejected_as_too_few(good_chess):
    rep = calibrate_views(_views(good_chess[:3]), CHESS)
    assert not rep.accepted
    assert "too_few_views" in rep.reason_codes
    assert any("more views" in a for a in rep.advice)


def test_views_all_in_one_corner_are_rejected_for_coverage(synth):
    images, _ = render_board_views(CHESS, synth.camera, 16, seed=2, synth=synth,
                                   region=(0.0, 0.0, 0.4, 0.4), fill=(0.2, 0.3))
    rep = calibrate_views(_views(images), CHESS)
    assert rep.lens is not None and rep.rms_px < 0.3  # the fit itself looks fine...
    assert not rep.accepted  # ...but the verdict says why it cannot be trusted
    assert {"poor_coverage", "corners_not_covered"} <= set(rep.reason_codes)
    assert any("bottom-right corner" in a for a in rep.advice)


def test_blurred_set_is_rejected_as_blurred(synth):
    images, _ = render_board_views(CHESS, synth.camera, 8, seed=3, synth=synth,
                                   blur_sigma_px=4.0)
    rep = calibrate_views(_views(images), CHESS)
    assert not rep.accepted
    assert "blurred" in rep.reason_codes
    assert any("Focus" in a for a in rep.advice)


def test_a_board_never_tilted_is_rejected(synth):
    images, _ = render_board_views(CHESS, synth.camera, 12, seed=5, synth=synth, max_tilt_deg=8)
    rep = calibrate_views(_views(images), CHESS)
    assert not rep.accepted
    assert "little_tilt" in rep.reason_codes
    assert any("Tilt the board" in a for a in rep.advice)


def test_wrong_pattern_size_is_rejected_and_the_right_one_suggested(good_chess, tmp_path):
    for i, g in enumerate(good_chess[:2]):
        cv2.imwrite(str(tmp_path / f"v{i}.png"), g)
    rep = calibrate_intrinsics([tmp_path], parse_pattern("chessboard:8x6", 25))
    assert not rep.accepted and rep.lens is None
    assert rep.reason_codes == ["pattern_not_found"]
    assert rep.suggested_pattern == "chessboard:9x6"


def test_an_outlier_view_is_named_and_left_out(good_chess):
    views = _views(good_chess)
    rng = np.random.default_rng(0)
    bad = views[5].detection
    bad.image_px = bad.image_px + rng.normal(0, 3.0, bad.image_px.shape).astype(np.float32)
    rep = calibrate_views(views, CHESS)
    rejected = {v["name"]: v["reason"] for v in rep.to_json()["views_rejected"]}
    assert list(rejected) == ["v05.png"] and rejected["v05.png"].startswith("outlier")
    assert rep.rms_px < 0.2


def test_cli_json_report_file_and_heat_map(good_chess, tmp_path, capsys):
    from ui.cli import main

    folder = tmp_path / "imgs"
    folder.mkdir()
    for i, g in enumerate(good_chess):
        cv2.imwrite(str(folder / f"v{i:02d}.png"), g)
    cal, png = tmp_path / "cal.txt", tmp_path / "cov.png"
    code = main(["calibrate", "intrinsics", str(folder), "--pattern", "chessboard:9x6",
                 "--square-mm", "25", "--json", "--out", str(cal), "--coverage-png", str(png)])
    out = json.loads(capsys.readouterr().out)
    for key in ("rms_px", "fx", "fy", "cx", "cy", "dist", "image_size", "views_used",
                "views_rejected", "stddev", "cross_validation", "coverage", "verdict", "advice"):
        assert key in out
    assert out["views_used"] == len(good_chess) and out["image_size"] == [640, 480]
    assert code == (0 if out["verdict"]["status"] == "accept" else 1)
    assert code == 0 and out["written"] == str(cal)
    assert load_calibration(cal).lens.fx == pytest.approx(out["fx"])
    heat = cv2.imread(str(png))
    assert heat.shape == (480, 640, 3)


def test_cli_bad_input_exits_2_with_a_message(tmp_path, capsys):
    from ui.cli import main

    assert main(["calibrate", "intrinsics", str(tmp_path / "none"), "--pattern",
                 "chessboard:9x6", "--square-mm", "25"]) == 2
    assert "no such file or folder" in capsys.readouterr().err
    assert main(["calibrate", "intrinsics", str(tmp_path), "--pattern", "chess:9",
                 "--square-mm", "25"]) == 2
    assert "--pattern" in capsys.readouterr().err
    bad = tmp_path / "bad.txt"
    bad.write_text("{ not a calibration")
    assert main(["calibrate", "check", str(bad)]) == 2
    assert "bad.txt, line 1" in capsys.readouterr().err


def test_video_frames_are_sampled_and_named(good_chess, tmp_path):
    from calibration.intrinsics import load_views

    path = tmp_path / "board.avi"
    w = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 10, (640, 480))
    for g in good_chess[:12]:
        w.write(cv2.cvtColor(g, cv2.COLOR_GRAY2BGR))
    w.release()
    frames = list(load_views([path], max_video_frames=4))
    assert [n for n, _ in frames] == ["board.avi#0", "board.avi#3", "board.avi#6", "board.avi#9"]
    views = detect_views(frames, CHESS)
    assert all(v.detection is not None for v in views)
    # the live-camera reader on the same stream keeps only views where the board moved
    from calibration.intrinsics import capture_views

    lines = []
    live = list(capture_views(str(path), CHESS, max_views=5, log=lines.append))
    assert len(live) == 5 and len(lines) == 5 and "corners, board at the" in lines[0]
    with pytest.raises(ValueError, match="cannot open the camera"):
        list(capture_views(str(tmp_path / "no_such.avi"), CHESS))


def test_an_old_opencv_charuco_board_is_recognised(synth):
    from dataclasses import replace

    from calibration.intrinsics import suggest_pattern

    pattern = parse_pattern("charuco:5x6", 25)
    images, _ = render_board_views(replace(pattern, legacy=True), synth.camera, 2, seed=1,
                                   synth=synth)
    assert all(pattern.detect(g) is None for g in images)
    sug = suggest_pattern(images, pattern)
    assert sug is not None and sug.legacy and (sug.cols, sug.rows) == (5, 6)
