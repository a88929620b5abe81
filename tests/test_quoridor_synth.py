"""The Quoridor renderer: deterministic, drawing what its ground truth says.

Budget: ~6 s (small frames).
"""

from __future__ import annotations

import numpy as np

from games.quoridor import QuoridorGame
from vision.quoridor.geometry import DEFAULT_BOARD, square_coords
from vision.synth.quoridor_scene import play_game, random_scene, render_game


def test_pawns_are_drawn_where_the_truth_says() -> None:
    scene = random_scene(7, players=4, size=(640, 360), tilt_deg=0.0)
    frame, occluded = scene.render(["e1", "a5", "e9", "i5"], ["e3h"], rng=np.random.default_rng(0))
    assert frame.shape == (360, 640, 3) and not occluded
    b = DEFAULT_BOARD
    for k, sq in enumerate(["e1", "a5", "e9", "i5"]):
        c = b.cell_centre_mm(*square_coords(sq))
        top = scene.camera.project(np.array([[c[0], c[1], b.pawn_height_mm - 1]]))[0]
        px = frame[int(round(top[1])), int(round(top[0]))].astype(float)
        want = np.array(scene.style.pawn_bgr[k], float)
        # same hue family: the drawn pixel is nearer this pawn's colour than any other pawn's
        dists = [np.linalg.norm(px / (px.sum() + 1) - np.array(p) / (sum(p) + 1))
                 for p in scene.style.pawn_bgr]
        assert int(np.argmin(dists)) == k, (sq, px, want)


def test_generated_games_are_legal_and_deterministic() -> None:
    a = play_game(np.random.default_rng(3), 2, 30)
    b = play_game(np.random.default_rng(3), 2, 30)
    assert a == b and len(a) > 5
    QuoridorGame.replay({"num_players": 2}, a)  # raises if any move is illegal


def test_game_truth_tracks_moves_and_hands(tmp_path) -> None:
    r = render_game(5, tmp_path, players=2, max_plies=3, size=(640, 360))
    t = r.truth
    assert (tmp_path / "game.mp4").stat().st_size > 0 and (tmp_path / "truth.json").exists()
    frames = t["frames"]
    assert [f["frame"] for f in frames] == list(range(len(frames)))
    assert frames[0]["pawns"] == ["e1", "e9"] and frames[0]["walls"] == [] and not frames[0]["hand"]
    assert frames[-1]["ply"] == len(t["moves"]) == 3
    assert any(f["occluded"] for f in frames)
    # between moves the physical state replays the record
    game = QuoridorGame(num_players=2)
    for k, mv in enumerate(t["moves"]):
        game.play_notation(mv)
        clear = [f for f in frames if f["ply"] == k + 1 and not f["hand"]]
        assert clear, f"no clear frame after move {k + 1}"
        assert clear[-1]["pawns"] == game.pawn_squares()
        assert clear[-1]["walls"] == sorted(w.notation() for w in game.walls())


def test_game_scene_fits_the_scene_protocol_and_renders_by_index() -> None:
    from vision.synth.quoridor_scene import QuoridorGameScene
    from vision.synth.scene import Scene

    scene = QuoridorGameScene(9, players=2, max_plies=2, size=(320, 180))
    assert isinstance(scene, Scene)
    gt = scene.ground_truth()
    assert len(gt["frames"]) == scene.num_frames and gt["moves"] == scene.moves
    a = scene.render_frame(scene.num_frames - 1)
    b = scene.render_frame(scene.num_frames - 1)
    assert a.shape == (180, 320, 3) and np.array_equal(a, b)
