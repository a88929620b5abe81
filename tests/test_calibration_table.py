"""Table plane from the corner markers, the moved-camera check, colours and printed targets."""

import json

import cv2
import numpy as np
import pytest

from calibration.colours import card_regions, fit_colour_model
from calibration.file import Calibration, Lens, load_calibration
from calibration.patterns import parse_pattern
from calibration.synthetic import (
    SyntheticCamera, colour_card_scene, default_camera, table_scene,
)
from calibration.table import MarkerLayout, check_table, fit_table
from calibration.targets import A4_MM, charuco_page, marker_layout, markers_page

LAYOUT = marker_layout(600, 400, 50)


@pytest.fixture(scope="module")
def synth():
    return SyntheticCamera(default_camera((640, 480)))


@pytest.fixture(scope="module")
def lens(synth):
    cam = synth.camera
    return Lens(cam.image_size, cam.K, cam.dist)


def _route_error_mm(cal, cam):
    gx, gy = np.meshgrid(np.linspace(0, 600, 25), np.linspace(0, 400, 17))
    pts = np.column_stack([gx.ravel(), gy.ravel()])
    return np.linalg.norm(cal.image_to_table_mm(cam.project(pts)) - pts, axis=1)


@pytest.mark.parametrize("eye", [(300, -250, 750), (300, 200, 900)])
def test_homography_maps_the_route_area_within_half_a_millimetre(synth, lens, eye):
    img, cam = table_scene(synth.camera, LAYOUT, eye_mm=eye, target_mm=(300, 200, 0),
                           synth=synth, seed=1)
    fit = fit_table(img, MarkerLayout.from_dict(LAYOUT), lens)
    assert fit.missing == [] and fit.table.undistorted
    err = _route_error_mm(Calibration(lens=lens, table=fit.table), cam)
    assert np.sqrt(np.mean(err ** 2)) < 0.5
    assert fit.table.residual_rms_mm < 1.0
    # without the lens the same image is mapped much worse: the undistortion matters
    plain = fit_table(img, MarkerLayout.from_dict(LAYOUT), None)
    err_plain = _route_error_mm(Calibration(table=plain.table), cam)
    assert np.sqrt(np.mean(err_plain ** 2)) > 3 * np.sqrt(np.mean(err ** 2))
    assert any("no lens" in w for w in plain.warnings)


def test_posed_camera_from_the_table_plane(synth, lens):
    img, cam = table_scene(synth.camera, LAYOUT, eye_mm=(300, -250, 750),
                           target_mm=(300, 200, 0), synth=synth, seed=1)
    cal = Calibration(lens=lens, table=fit_table(img, MarkerLayout.from_dict(LAYOUT), lens).table)
    posed = cal.camera_model()
    assert np.linalg.norm(posed.centre_world_mm - cam.centre_world_mm) < 5.0
    pts = np.array([[100.0, 50.0, 0.0], [500.0, 350.0, 0.0], [300.0, 200.0, 40.0]])
    assert np.abs(posed.project(pts) - cam.project(pts)).max() < 0.5  # also 40 mm above


def test_wrong_layout_shows_in_the_residual(synth, lens):
    img, _ = table_scene(synth.camera, LAYOUT, eye_mm=(300, -250, 750), target_mm=(300, 200, 0),
                         synth=synth)
    good = fit_table(img, MarkerLayout.from_dict(LAYOUT), lens)
    wrong = fit_table(img, MarkerLayout.rectangle(600, 400, 40), lens)  # markers are 50 mm
    assert wrong.table.residual_rms_mm > 3 * good.table.residual_rms_mm
    assert any("disagree with the layout" in w for w in wrong.warnings)


def test_check_table_says_when_the_camera_moved(synth, lens):
    layout = MarkerLayout.from_dict(LAYOUT)
    ref, _ = table_scene(synth.camera, LAYOUT, eye_mm=(300, -250, 750),
                         target_mm=(300, 200, 0), synth=synth, seed=1)
    cal = Calibration(lens=lens, table=fit_table(ref, layout, lens).table)
    same, _ = table_scene(synth.camera, LAYOUT, eye_mm=(300, -250, 750),
                          target_mm=(300, 200, 0), synth=synth, seed=2)  # new noise only
    moved, _ = table_scene(synth.camera, LAYOUT, eye_mm=(315, -250, 750),
                           target_mm=(300, 200, 0), synth=synth, seed=2)
    still = check_table(same, cal)
    assert still.moved is False and still.shift_px_median < 0.3
    gone = check_table(moved, cal)
    assert gone.moved is True and "moved" in gone.message
    blank = np.full_like(ref, 120)
    assert check_table(blank, cal).moved is None


def test_missing_markers_are_named(synth, lens):
    img, _ = table_scene(synth.camera, LAYOUT, eye_mm=(300, -250, 750), target_mm=(300, 200, 0),
                         synth=synth)
    with pytest.raises(ValueError, match=r"missing ids \[0, 1, 2, 3\], dictionary 5x5_50"):
        fit_table(img, MarkerLayout.rectangle(600, 400, 50, "5x5_50"), lens)


def test_cli_table_check_table_and_file(synth, tmp_path, capsys):
    from ui.cli import main

    img, _ = table_scene(synth.camera, LAYOUT, eye_mm=(300, -250, 750), target_mm=(300, 200, 0),
                         synth=synth)
    moved, _ = table_scene(synth.camera, LAYOUT, eye_mm=(320, -250, 750),
                           target_mm=(300, 200, 0), synth=synth)
    cv2.imwrite(str(tmp_path / "t.png"), img)
    cv2.imwrite(str(tmp_path / "m.png"), moved)
    cal, prev = tmp_path / "cal.txt", tmp_path / "top.png"
    assert main(["calibrate", "table", str(tmp_path / "t.png"), "--markers-mm", "600x400",
                 "--out", str(cal), "--preview", str(prev), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["undistorted"] is False and out["markers_missing"] == []
    loaded = load_calibration(cal)
    assert np.allclose(loaded.table.T_table_from_image, out["T_table_from_image"])
    assert cv2.imread(str(prev)) is not None
    assert main(["calibrate", "check-table", str(tmp_path / "t.png"), "--calibration",
                 str(cal)]) == 0
    assert main(["calibrate", "check-table", str(tmp_path / "m.png"), "--calibration",
                 str(cal)]) == 1
    assert "moved" in capsys.readouterr().out


def test_colour_model_from_the_card_classifies_every_patch(synth):
    img = colour_card_scene(synth.camera, light_bgr=(0.55, 0.8, 1.0), synth=synth)  # warm light
    regions = card_regions(img)
    model = fit_colour_model(img, regions)
    assert model.warnings == []
    assert model.gains_bgr[0] > 1.5 * model.gains_bgr[2]  # the blue channel is boosted
    for name, mask in regions.items():
        names, conf = model.classify(model.lab(img[mask]))
        assert (names == name).mean() > 0.98, name
    # white balance makes the white patch neutral despite the warm light
    assert np.hypot(*model.classes["white"].mean_lab[1:]) < 2.0


def test_dim_warm_light_warns_that_blue_and_black_are_too_close(synth):
    img = colour_card_scene(synth.camera, light_bgr=(0.04, 0.1, 0.2), noise_sigma=3,
                            synth=synth)
    model = fit_colour_model(img, card_regions(img))
    assert any("black and blue are too close" in w for w in model.warnings)
    assert any("dim" in w for w in model.warnings)


def test_printed_targets_are_at_exact_size(tmp_path):
    pattern = parse_pattern("charuco:8x11", 22, 16)
    page, (x0, y0) = charuco_page(pattern)
    dpi = 200
    img = page.raster(dpi)
    det = pattern.detect(img)
    assert det is not None and len(det.ids) == pattern.n_corners
    ppm = dpi / 25.4
    expected = (det.object_mm[:, :2] + [x0, y0]) * ppm - 0.5
    assert np.abs(det.image_px - expected).max() < 0.6  # < 0.08 mm on paper
    pdf = tmp_path / "b.pdf"
    page.save_pdf(pdf)
    assert b"/MediaBox [ 0 0 595.27" in pdf.read_bytes()  # A4 in points
    mpage = markers_page(LAYOUT)
    r = mpage.raster(dpi)
    assert r.shape == (round(A4_MM[1] * ppm), round(A4_MM[0] * ppm))
    d = cv2.aruco.ArucoDetector(cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50))
    corners, ids, _ = d.detectMarkers(r)
    assert sorted(ids.ravel().tolist()) == [0, 1, 2, 3]
    for c in corners:
        side_mm = np.linalg.norm(c[0, 1] - c[0, 0]) / ppm
        assert abs(side_mm - 50) < 0.3


def test_cli_print_targets_and_colours(synth, tmp_path, capsys):
    from ui.cli import main

    assert main(["calibrate", "print-board", "--out", str(tmp_path / "b.pdf"), "--dpi", "100"]) == 0
    assert main(["calibrate", "print-markers", "--out", str(tmp_path / "m.pdf"), "--dpi", "100",
                 "--markers-mm", "500x350", "--marker-mm", "60"]) == 0
    assert main(["calibrate", "print-colour-card", "--out", str(tmp_path / "c.pdf"),
                 "--dpi", "100"]) == 0
    for name in ("b.pdf", "b.png", "m.pdf", "m.png", "c.pdf", "c.png"):
        assert (tmp_path / name).stat().st_size > 1000, name
    layout = json.loads((tmp_path / "m.json").read_text())
    assert layout["layout_mm"] == [500.0, 350.0] and layout["marker_size_mm"] == 60.0
    assert MarkerLayout.from_dict(layout).corners_mm[2].mean(axis=0).tolist() == [500.0, 350.0]
    assert main(["calibrate", "print-board", "--square-mm", "40", "--out",
                 str(tmp_path / "x.pdf")]) == 2
    assert "does not fit on A4" in capsys.readouterr().err

    img = colour_card_scene(synth.camera, synth=synth)
    cv2.imwrite(str(tmp_path / "card.png"), img)
    cal = tmp_path / "cal.txt"
    assert main(["calibrate", "colours", str(tmp_path / "card.png"), "--card", "--out", str(cal),
                 "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert set(out["colours"]) == {"white", "grey", "black", "blue", "green", "yellow", "red"}
    assert out["warnings"] == [] and out["missing_ring_colours"] == []
    assert load_calibration(cal).colours.names == list(out["colours"])
    assert main(["calibrate", "colours", str(tmp_path / "card.png"), "--region", "white=1,2"]) == 2
    assert "NAME=X,Y,W,H" in capsys.readouterr().err
