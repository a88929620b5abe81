"""Hold detection on rendered empty routes whose answer is known exactly (vision.synth)."""

from __future__ import annotations

import numpy as np
import pytest

from vision.camera import CameraModel
from vision.route_detect import RouteDetector, detect_rings, fit_route, route_holds_from_json
from vision.synth.grimpe_scene import GrimpeScene, SceneConfig


def _empty_scene(seed: int, camera: str):
    scene = GrimpeScene(SceneConfig(seed=seed, camera=camera, script="empty", num_frames=1))
    gt = scene.ground_truth()
    cam = CameraModel.from_dict(gt["camera"])
    holds = gt["route"]["holds"]
    truth_px = cam.project(np.array([[h["x_mm"], h["y_mm"]] for h in holds]))
    return scene.render_frame(0), gt, holds, truth_px


@pytest.mark.parametrize("seed,camera", [(4101, "top"), (4102, "oblique")])
def test_rings_found_with_their_colours_and_centres(seed, camera):
    frame, gt, holds, truth_px = _empty_scene(seed, camera)
    rings, _ = detect_rings(frame)
    matched = set()
    for ring in rings:
        d = np.linalg.norm(truth_px - ring.centre_px, axis=1)
        j = int(np.argmin(d))
        assert d[j] < 0.5 * ring.radius_px, f"ring at {ring.centre_px} is not on a hold"
        assert ring.colour == holds[j]["colour"], f"hold {holds[j]['id']}: {ring.colour}"
        matched.add(j)
    missed = [holds[j]["id"] for j in range(len(holds)) if j not in matched]
    assert len(matched) >= len(holds) - 1, f"missed {missed}"


def test_route_file_gives_every_hold_its_id_and_position():
    frame, gt, holds, truth_px = _empty_scene(4103, "top")
    det = RouteDetector(gt["route"])
    obs = det.update(frame, 0, None)
    assert obs is not None and det.done
    assert obs.holds.ids == tuple(h["id"] for h in holds)
    assert obs.holds.colours == tuple(h["colour"] for h in holds)
    err = np.linalg.norm(obs.holds.centres_px - truth_px, axis=1)
    assert err.max() < 2.0, f"centre errors {err.round(2)}"
    # zones land where the route says (start zone centre within a few pixels)
    cam = CameraModel.from_dict(gt["camera"])
    z = gt["route"]["zones"]["start"]
    start_px = cam.project(np.array([[z["x_mm"], z["y_mm"]]]))[0]
    assert np.linalg.norm(obs.start_zone_px.mean(0) - start_px) < 6.0


def test_fit_route_rejects_a_route_that_is_not_there():
    frame, gt, holds, _ = _empty_scene(4104, "top")
    rings, _ = detect_rings(frame)
    # a route whose holds are all of one colour absent from the scene cannot be matched
    absent = {"black", "blue", "green", "yellow", "red"} - {r.colour for r in rings}
    if not absent:
        absent = {"blue"}
        rings = [r for r in rings if r.colour != "blue"]
    colour = sorted(absent)[0]
    fake = [dict(h, colour=colour) for h in holds]
    assert fit_route(rings, route_holds_from_json({"holds": fake})) is None
