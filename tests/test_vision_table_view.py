"""The table view: an oblique camera's image rectified to the table plane (holds become circles
of one size, nothing is mirrored) and hand tracking run on it, landmarks back in the image."""

import json
from pathlib import Path

import numpy as np
import pytest

from vision.route_detect import RouteDetector
from vision.table_view import TableView, needs_view
from vision.video import VideoReader

SAMPLES = Path(__file__).resolve().parents[1] / "sample_videos"


def _route(name: str):
    route_json = json.loads((SAMPLES / name / "route.json").read_text())
    det = RouteDetector(route_json)
    with VideoReader(SAMPLES / name / "video.mp4") as vr:
        for i, _, frame in vr:
            det.update(frame, i)
            if det.done:
                return det.observation, frame, route_json
    return det.observation, frame, route_json


@pytest.fixture(scope="module")
def oblique():
    return _route("clean_oblique")


def test_only_the_oblique_camera_needs_a_view(oblique):
    top, _, _ = _route("clean_top")
    assert not needs_view(top)
    assert needs_view(oblique[0])


def test_view_is_the_table_from_above_and_keeps_handedness(oblique):
    route, frame, route_json = oblique
    h, w = frame.shape[:2]
    view = TableView.for_route(route, (w, h))
    in_view = view.route(route)
    assert in_view.holds.ids == route.holds.ids
    assert np.allclose(in_view.holds.centres_px, view.to_view(route.holds.centres_px), atol=1e-3)
    # the view is the table seen from above: route mm -> view px is a uniform scale (no shear,
    # no perspective) everywhere on the route
    from vision.table_view import _local_jacobian

    GH = view.G_view_from_image @ np.asarray(route.H_image_from_route, np.float64)
    for hd in route_json["holds"]:
        J = _local_jacobian(GH, np.array([hd["x_mm"], hd["y_mm"]]))
        assert np.allclose(np.abs(J), np.diag([view.px_per_mm] * 2), atol=0.01 * view.px_per_mm), J
    img = view.warp(frame)
    assert img.shape[:2] == (view.size_wh[1], view.size_wh[0])
    # image -> view -> image is the identity, and the map keeps the image's handedness
    pts = np.array([[10.0, 20.0], [300.0, 200.0], [600.0, 50.0]])
    assert np.allclose(view.to_image(view.to_view(pts)), pts, atol=1e-3)
    a, b, c = view.to_view(np.array([[0.0, 0.0], [10.0, 0.0], [0.0, 10.0]]))
    assert np.cross(b - a, c - a) > 0


def test_view_has_no_more_pixels_than_the_camera_gives(oblique):
    """MediaPipe's time grows with the pixels it is given: the view is at most the image's own
    pixel count (it would be ~1.8 times it at the image's resolution near its centre here)."""
    route, frame, _ = oblique
    h, w = frame.shape[:2]
    view = TableView.for_route(route, (w, h))
    wide = TableView.for_route(route, (w, h), max_pixels_factor=4.0)
    assert view.size_wh[0] * view.size_wh[1] <= 1.01 * w * h
    assert wide.size_wh[0] * wide.size_wh[1] > 1.3 * w * h  # the cap is what limits it
    assert view.px_per_mm < wide.px_per_mm


def test_hands_tracked_in_the_view_come_back_in_image_pixels(oblique):
    from vision.hands import HandTracker

    route, _, _ = _route("clean_oblique")
    found_direct, found_view, dist = 0, 0, []
    with VideoReader(SAMPLES / "clean_oblique" / "video.mp4") as vr, \
            HandTracker(max_num_hands=1) as direct, HandTracker(max_num_hands=1) as rect:
        view = None
        for i, t, frame in vr:
            h, w = frame.shape[:2]
            view = view or TableView.for_route(route, (w, h))
            if i % 6:
                continue
            a = direct.update(frame, t)
            b = rect.update(frame, t, view=view)
            assert b.image_size == (w, h)
            found_direct += bool(a.hands)
            found_view += bool(b.hands)
            if a.hands and b.hands:
                palm = np.linalg.norm(a.hands[0].landmarks_px[0] - a.hands[0].landmarks_px[9])
                dist.append(np.median(np.linalg.norm(a.hands[0].landmarks_px - b.hands[0].landmarks_px, axis=1)) / palm)
            if i > 120:
                break
    assert found_view >= found_direct - 1
    # the same hand, in the same place of the image (within a fraction of the palm)
    assert dist and np.median(dist) < 0.15, dist
