"""The calibration file: round trip, atomic save, and clear errors for malformed files."""

import numpy as np
import pytest

from calibration.colours import fit_colour_model
from calibration.file import (
    Calibration, CalibrationFileError, Lens, TablePlane, dumps_calibration, load_calibration,
    save_calibration,
)


def _calibration() -> Calibration:
    rng = np.random.default_rng(3)
    img = np.zeros((60, 120, 3), np.uint8)
    img[:, :40] = (225, 235, 240)
    img[:, 40:80] = (35, 30, 30)
    img[:, 80:] = (40, 60, 200)
    img = np.clip(img + rng.normal(0, 3, img.shape), 0, 255).astype(np.uint8)
    colours = fit_colour_model(img, {"white": (0, 0, 40, 60), "black": (40, 0, 40, 60),
                                     "red": (80, 0, 40, 60)})
    lens = Lens((640, 480), [[510.5, 0, 321.25], [0, 511.0, 239.5], [0, 0, 1]],
                [-0.12, 0.03, 0.001, -0.0005, 0.0], {"fx": 0.4, "cx": 0.3}, {"rms_px": 0.21})
    H = np.array([[0.9, 0.05, -200.0], [0.01, -0.95, 300.0], [1e-5, 2e-5, 1.0]])
    table = TablePlane(H, True, 0.12, 0.3, {"ids": [0, 1, 2, 3], "size_mm": 50.0})
    return Calibration(lens, table, colours, {"images": ["x.png"]})


def test_round_trip_keeps_every_number(tmp_path):
    cal = _calibration()
    path = save_calibration(cal, tmp_path / "cal.txt")
    back = load_calibration(path)
    assert np.array_equal(back.lens.K, cal.lens.K)
    assert np.array_equal(back.lens.dist, cal.lens.dist)
    assert np.array_equal(back.table.T_table_from_image, cal.table.T_table_from_image)
    assert back.lens.stddev == cal.lens.stddev
    assert back.colours.names == ["white", "black", "red"]
    assert np.allclose(back.colours.classes["red"].cov_lab, cal.colours.classes["red"].cov_lab)
    px = np.array([[100.0, 200.0], [600.0, 50.0]])
    assert np.allclose(back.image_to_table_mm(px), cal.image_to_table_mm(px))
    # and the mapping is invertible through the lens
    assert np.allclose(back.table_mm_to_image(back.image_to_table_mm(px)), px, atol=1e-6)
    assert not list(tmp_path.glob(".*.tmp"))  # the temporary file was renamed away


def test_file_is_commented_and_names_the_transform_direction():
    text = dumps_calibration(_calibration())
    assert text.startswith("# Arbitre calibration file, format version 1.")
    assert "UNDISTORTED image pixels" in text
    assert '"T_table_from_image": [  # 3x3 homography' in text


def _broken(tmp_path, old: str, new: str):
    text = dumps_calibration(_calibration())
    assert old in text
    p = tmp_path / "bad.txt"
    p.write_text(text.replace(old, new, 1))
    with pytest.raises(CalibrationFileError) as info:
        load_calibration(p)
    return str(info.value), info.value, text.replace(old, new, 1).split("\n")


@pytest.mark.parametrize("old,new,key,words", [
    ('"fx": 510.5', '"fx": -3', "lens.fx", "positive"),
    ('"version": 1', '"version": 7', "version", "unsupported format version 7"),
    ('"dist": [-0.12, 0.03, 0.001, -0.0005, 0.0]', '"dist": [-0.12, 0.03]', "lens.dist",
     "expected shape (5,), got (2,)"),
    ('"cy": 239.5', '"cy": 5000', "lens.cy", "far outside"),
    ('"undistorted": true', '"undistorted": "yes"', "table.undistorted", "true or false"),
    ('"residual_rms_mm": 0.12', '"residual_rms_mm": NaN', "table.residual_rms_mm", "finite"),
    ('"model": "opencv5"', '"model": "fisheye"', "lens.model", "unknown lens model"),
])
def test_malformed_values_name_file_line_key_and_problem(tmp_path, old, new, key, words):
    msg, err, lines = _broken(tmp_path, old, new)
    assert "bad.txt" in msg and key in msg and words in msg
    assert err.line is not None and new.split(":")[0] in lines[err.line - 1]


def test_missing_key_and_syntax_errors_are_located(tmp_path):
    msg, err, lines = _broken(tmp_path, '    "fy": 511.0,  # focal length along y, pixels\n', "")
    assert "missing key 'fy'" in msg and "lens" in msg
    msg, err, lines = _broken(tmp_path, '"cx": 321.25,', '"cx": 321.25')
    assert "not valid calibration text" in msg and err.line is not None
    assert '"cy"' in lines[err.line - 1]  # JSON notices the missing comma at the next key
    msg, _, _ = _broken(tmp_path, '"format": "arbitre-calibration"', '"format": "mrcal"')
    assert "not an Arbitre calibration file" in msg


def test_broken_colour_model_and_missing_file(tmp_path):
    msg, _, _ = _broken(tmp_path, '"gains_bgr": [', '"gains_bgr": [-1, ')
    assert "colours.gains_bgr" in msg
    with pytest.raises(CalibrationFileError, match="no such file"):
        load_calibration(tmp_path / "nope.txt")


def test_table_marker_record_is_validated(tmp_path):
    cal = _calibration()
    cal.table.markers = {"dictionary": "4x4_50", "ids": [0],
                         "corners_mm": {"0": [[0, 0], [1, 0], [1, 1], [0, 1]]},
                         "image_corners_px": {"0": [[5, 5], [9, 5], [9, 9], [5, 9]]}}
    p = save_calibration(cal, tmp_path / "ok.txt")
    assert load_calibration(p).table.markers["ids"] == [0]
    cal.table.markers["image_corners_px"]["0"] = [[5, 5], [9, 5], [9, 9]]
    p = save_calibration(cal, tmp_path / "m.txt")
    with pytest.raises(CalibrationFileError, match=r"table.markers.image_corners_px\): marker 0"):
        load_calibration(p)
