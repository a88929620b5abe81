"""Reading Quoridor from rendered frames whose answer is known (fixed seeds).

Budget: ~25 s on 2 cores (three scenes at 1280×720 and two short videos).
"""

from __future__ import annotations

import argparse

import cv2
import numpy as np
import pytest

from games.quoridor import QuoridorGame
from vision.quoridor.geometry import (
    NUM_SEGMENTS,
    segments_from_walls,
    wall_segments,
    walls_from_segments,
)
from vision.quoridor.draw import annotate
from vision.quoridor.locate import find_board
from vision.quoridor.reader import BoardReader
from vision.quoridor.watch import GameWatcher
from vision.synth.quoridor_scene import play_game, random_scene, render_game


def test_walls_from_segments_round_trip_and_odd_runs() -> None:
    walls = {"a1h", "c1h", "e3v", "h8v", "d5h"}
    occ = segments_from_walls(walls)
    assert occ.sum() == 2 * len(walls)
    back, problems = walls_from_segments(occ)
    assert back == walls and problems == []
    assert wall_segments("e3h") == (2 * 9 + 4, 2 * 9 + 5)
    odd = np.zeros(NUM_SEGMENTS, bool)
    odd[[3, 4, 5]] = True
    got, problems = walls_from_segments(odd)
    assert got == {"d1h"} and len(problems) == 1


def _read_game_positions(seed: int, *, markers: bool, tilt_deg: float, players: int) -> int:
    """Render positions of a generated game, read each frame, assert every cell and groove."""
    rng = np.random.default_rng(seed)
    scene = random_scene(seed, players=players, markers=markers, tilt_deg=tilt_deg)
    game = QuoridorGame(num_players=players)
    start, _ = scene.render(game.pawn_squares(), [], rng=rng)
    pose = find_board(start)
    assert pose.method == ("markers" if markers else "outline")
    reader = BoardReader(pose, players)
    reader.learn_start(start)
    checked = 0
    prior: frozenset[str] = frozenset()
    for ply, text in enumerate(play_game(rng, players, 24)):
        game.play_notation(text)
        if ply % 4 != 3:
            continue
        pos = game.position()
        frame, occluded = scene.render(list(pos.pawns), list(pos.walls), rng=rng)
        assert not occluded
        reading = reader.read(frame, prior)
        assert reading.clear, reading.problems
        assert reading.pawns == pos.pawns, f"ply {ply}"
        assert reading.walls == pos.walls, f"ply {ply}"
        reader.learn_state(frame, reading)
        prior = reading.walls
        checked += 1
    before = frame.copy()
    drawn = annotate(frame, pose, reading)
    assert np.array_equal(frame, before) and drawn.shape == frame.shape
    assert not np.array_equal(drawn, frame)
    return checked


def test_reads_clear_frames_from_straight_above_with_markers() -> None:
    assert _read_game_positions(101, markers=True, tilt_deg=0.0, players=2) >= 5


def test_reads_clear_frames_oblique_without_markers() -> None:
    assert _read_game_positions(102, markers=False, tilt_deg=38.0, players=4) >= 5


def _watch(path: str, players: int) -> GameWatcher:
    cap = cv2.VideoCapture(path)
    watcher = GameWatcher(players)
    i = 0
    while True:
        ok, frame = cap.read()
        if not ok:
            break
        watcher.update(frame, i)
        i += 1
    cap.release()
    return watcher


def test_decodes_a_short_rendered_game_with_hands(tmp_path) -> None:
    r = render_game(103, tmp_path, players=2, max_plies=7, tilt_deg=25.0)
    assert any(f["occluded"] for f in r.truth["frames"])
    watcher = _watch(str(r.video_path), 2)
    assert watcher.ready
    assert watcher.record == r.truth["moves"]
    assert watcher.uncertain == []
    assert all(0 < e.confidence <= 1 for e in watcher.events)


def test_illegal_change_is_reported_as_uncertain(tmp_path) -> None:
    # P1 e1→e2, P2 e9→e8, then P1 e2→e4: two squares, no pawn to jump (illegal)
    r = render_game(104, tmp_path, players=2, record=["e2", "e8", "e4", "e7"], tilt_deg=15.0)
    watcher = _watch(str(r.video_path), 2)
    assert watcher.record[:2] == ["e2", "e8"]
    assert watcher.record[2] == "?"
    unc = watcher.uncertain
    assert len(unc) >= 1 and unc[0].ply == 2
    assert "e4" in unc[0].candidates
    assert "not_adjacent" in unc[0].reason
    # watching goes on from the position seen: P2's next move is read again
    assert watcher.record[3] == "e7"
    summary = watcher.summary()
    assert summary["moves"][2] == "?" and summary["uncertain"][0]["ply"] == 2


def test_watch_command_rejects_unreadable_video(tmp_path) -> None:
    from ui import quoridor_watch
    from ui.errors import UserError

    bad = tmp_path / "not_a_video.mp4"
    bad.write_bytes(b"this is not a video")
    parser = argparse.ArgumentParser()
    quoridor_watch.add_parser(parser.add_subparsers())
    args = parser.parse_args(["watch", str(bad), "--json"])
    with pytest.raises(UserError) as exc:
        args.func(args)
    assert exc.value.exit_code == 2
    assert "not_a_video.mp4" in str(exc.value)


def _reading(pawns: tuple[str, ...], walls: set[str]):
    from vision.quoridor.reader import BoardReading

    return BoardReading(pawns, frozenset(walls), segments_from_walls(walls).astype(np.int8),
                        clear=True, hand=False)


def test_two_changes_and_a_removed_wall_are_questions_not_moves() -> None:
    watcher = GameWatcher(2)
    # both pawns moved between two clear views
    ev = watcher._decode(_reading(("e2", "e8"), set()), 40)
    assert ev.uncertain and ev.move is None and "more than one change" in ev.reason
    assert "e2" in ev.candidates
    assert watcher.record == ["?"]
    # watching goes on from what was seen: P2 to move, pawns on e2/e8
    assert watcher.game.position().pawns == ("e2", "e8") and watcher.game.current_player() == 1
    ev = watcher._decode(_reading(("e2", "e8"), {"e5h"}), 60)
    assert not ev.uncertain and ev.move == "e5h"
    # a wall taken back
    ev = watcher._decode(_reading(("e2", "e8"), set()), 80)
    assert ev.uncertain and "taken away" in ev.reason
    assert watcher.record == ["?", "e5h", "?"]
    assert watcher.summary()["uncertain"][1]["ply"] == 2
