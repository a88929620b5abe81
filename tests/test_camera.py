import numpy as np
import pytest

from vision.camera import (
    LOW_CAMERA_DEG,
    CameraModel,
    apply_homography,
    axis_scale_log_ratio,
    camera_centre_from_homography,
    camera_placement,
    default_intrinsics,
    homography_from_pose,
    look_at,
    plausible_focal,
)


def _oblique():
    return look_at((640, 480), (30, -250, 520), (0, 200, 0), hfov_deg=62,
                   dist=(-0.12, 0.03, 0.001, -0.0005, 0.0))


def test_project_and_back_to_plane_round_trip():
    cam = _oblique()
    rng = np.random.default_rng(1)
    pts = np.column_stack([rng.uniform(-150, 150, 200), rng.uniform(50, 400, 200)])
    px = cam.project(pts)
    inside = (px[:, 0] > 0) & (px[:, 0] < 639) & (px[:, 1] > 0) & (px[:, 1] < 479)
    assert inside.sum() > 100
    back = cam.pixels_to_plane(px[inside])
    assert np.abs(back - pts[inside]).max() < 1e-3


def test_top_down_camera_shows_up_the_wall_as_image_up():
    cam = look_at((640, 480), (0, 200, 700), (0, 200, 0))
    low, high = cam.project(np.array([[0, 100, 0], [0, 300, 0]]))
    assert high[1] < low[1]  # larger y (up the wall) is higher in the image
    right = cam.project(np.array([[100, 200, 0]]))[0]
    assert right[0] > 320


def test_render_plane_puts_texture_pixels_where_project_says():
    cam = _oblique()
    px_per_mm, origin = 2.0, (-300.0, 600.0)
    tex = np.zeros((1400, 1200, 3), np.uint8)
    # a white dot at table (40, 250) mm
    u, v = int((40 - origin[0]) * px_per_mm), int((origin[1] - 250) * px_per_mm)
    tex[v - 6:v + 7, u - 6:u + 7] = 255
    img = cam.render_plane(tex, px_per_mm, origin)
    ys, xs = np.nonzero(img[:, :, 0] > 128)
    expected = cam.project(np.array([[40 + 0.25, 250 - 0.25, 0]]))[0]
    assert abs(xs.mean() - expected[0]) < 1.0 and abs(ys.mean() - expected[1]) < 1.0


def test_validation_names_expected_and_actual():
    with pytest.raises(ValueError, match=r"K: expected shape \(3, 3\), got \(2, 2\)"):
        CameraModel((640, 480), np.eye(2))
    cam = _oblique()
    again = CameraModel.from_dict(cam.to_dict())
    assert np.allclose(again.project([[10, 20, 0]]), cam.project([[10, 20, 0]]))


@pytest.mark.parametrize("eye, hfov", [((380, 190, 320), 60.0), ((-470, 40, 430), 55.0),
                                       ((30, -250, 520), 70.0)])
def test_camera_centre_from_an_oblique_homography(eye: tuple, hfov: float) -> None:
    cam = look_at((640, 480), eye, (0, 150, 0), hfov_deg=hfov)
    c = camera_centre_from_homography(cam.H_image_from_table(), (640, 480))
    assert c is not None
    assert np.abs(c - np.asarray(eye, float)).max() < 1.0  # the focal length is found too


def test_camera_centre_straight_above_takes_the_default_field_of_view() -> None:
    # looking straight down the focal length cannot be told: the default one is used, which
    # puts the camera at the right place over the table but at the height that focal implies
    cam = look_at((640, 480), (10, 200, 600), (10, 200, 0), hfov_deg=60)
    c = camera_centre_from_homography(cam.H_image_from_table(), (640, 480))
    assert c is not None and np.abs(c - [10, 200, 600]).max() < 1.0
    wider = look_at((640, 480), (10, 200, 600), (10, 200, 0), hfov_deg=75)
    c = camera_centre_from_homography(wider.H_image_from_table(), (640, 480))
    assert c is not None and np.hypot(c[0] - 10, c[1] - 200) < 1.0 and c[2] > 600 * 1.2


def test_camera_centre_does_not_depend_on_the_homographys_scale_or_a_mirrored_plane() -> None:
    cam = look_at((640, 480), (380, 190, 320), (0, 150, 0))
    H = cam.H_image_from_table()
    for scaled in (-H, -3 * H, 0.01 * H):
        c = camera_centre_from_homography(scaled, (640, 480))
        assert c is not None and np.abs(c - [380, 190, 320]).max() < 1.0
    # the same table with its y axis turned round: the camera is at y -190 there
    c = camera_centre_from_homography(H @ np.diag([1.0, -1.0, 1.0]), (640, 480))
    assert c is not None and np.abs(c - [380, -190, 320]).max() < 1.0


def test_camera_centre_of_a_degenerate_homography_is_none() -> None:
    assert camera_centre_from_homography(np.full((3, 3), np.nan), (640, 480)) is None
    assert camera_centre_from_homography(np.zeros((3, 3)), (640, 480)) is None


@pytest.mark.parametrize("eye, hfov", [((380, 190, 320), 60.0), ((-470, 40, 430), 55.0),
                                       ((10, 200, 600), 60.0)])
def test_a_cameras_homography_stretches_no_axis_and_a_stretched_one_does(eye: tuple, hfov: float) -> None:
    cam = look_at((640, 480), eye, (0, 150, 0), hfov_deg=hfov)
    H = cam.H_image_from_table()
    f = plausible_focal(H, (640, 480))
    K = default_intrinsics((640, 480))
    if f is not None:
        K[0, 0] = K[1, 1] = f
    assert axis_scale_log_ratio(H, K) < 0.01
    assert axis_scale_log_ratio(-3 * H, K) < 0.01  # known up to its scale
    # the same view with the table's x axis stretched by a fifth: no camera gives it
    assert axis_scale_log_ratio(H @ np.diag([1.2, 1.0, 1.0]), K) > 0.15
    assert axis_scale_log_ratio(np.zeros((3, 3)), K) == float("inf")


def test_homography_from_pose_is_the_cameras_own() -> None:
    cam = look_at((640, 480), (380, 190, 320), (0, 150, 0), hfov_deg=60)
    P = np.array([[0, 100], [60, 120], [-40, 180], [30, 230], [80, 160]], float)
    Q = cam.project(np.column_stack([P, np.zeros(len(P))]))
    H = homography_from_pose(P, Q, default_intrinsics((640, 480)))
    assert H is not None
    far = np.array([[-150, 0], [200, 300], [0, 400]], float)
    truth = cam.project(np.column_stack([far, np.zeros(len(far))]))
    assert np.abs(apply_homography(H, far) - truth).max() < 0.05
    assert homography_from_pose(P[:3], Q[:3], default_intrinsics((640, 480))) is None


@pytest.mark.parametrize("eye", [(380, 190, 320), (-470, 40, 430), (10, 150, 600), (0, -400, 300)])
def test_the_camera_is_placed_from_the_route_homography(eye: tuple) -> None:
    """camera_placement of the centre camera_centre_from_homography finds (no lens distortion):
    the height, the distance along the table and the elevation seen from the route's middle,
    as the camera was put; ``low`` below LOW_CAMERA_DEG."""
    middle = np.array([0.0, 150.0])
    cam = look_at((640, 480), eye, (0, 150, 0), hfov_deg=60)
    found = camera_centre_from_homography(cam.H_image_from_table(), (640, 480))
    assert found is not None
    got = camera_placement(found, middle)
    d = float(np.hypot(eye[0] - middle[0], eye[1] - middle[1]))
    truth = float(np.degrees(np.arctan2(eye[2], d)))
    assert got["elevation_deg"] == pytest.approx(truth, abs=1.0)
    assert got["height_mm"] == pytest.approx(eye[2], rel=0.03)
    assert got["distance_mm"] == pytest.approx(d, abs=0.03 * np.hypot(d, eye[2]))
    assert got["low"] == (truth < LOW_CAMERA_DEG)


def test_camera_placement_straight_above_and_bad_input() -> None:
    above = camera_placement(np.array([0.0, 150.0, 500.0]), np.array([0.0, 150.0]))
    assert above == {"height_mm": 500.0, "distance_mm": 0.0, "elevation_deg": 90.0, "low": False}
    assert camera_placement(np.array([0.0, -400.0, 300.0]), np.zeros(2))["elevation_deg"] == pytest.approx(36.9)
    with pytest.raises(ValueError, match="3 finite numbers"):
        camera_placement(np.array([0.0, np.nan, 1.0]), np.zeros(2))
