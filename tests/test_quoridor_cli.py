"""``arbitre quoridor moves`` and ``hint`` through ``ui.cli.main`` and once as a subprocess."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from ui.cli import main

ROOT = Path(__file__).resolve().parents[1]


def test_moves_lists_legal_moves(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["quoridor", "moves", "e2", "e8"]) == 0
    lines = capsys.readouterr().out.split()
    assert lines[:4] == ["e1", "d2", "f2", "e3"]  # pawn moves first, by square
    assert lines[4:6] == ["a1h", "a1v"] and len(lines) == 4 + 128


def test_moves_accepts_one_quoted_record(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["quoridor", "moves", "e2 e8 e3 e7 e4 e6 e5"]) == 0
    out = capsys.readouterr().out.split()
    assert out[:4] == ["e4", "d6", "f6", "e7"]  # P2 on e6 jumps over P1 on e5 to e4


def test_moves_four_players(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["quoridor", "moves", "--players", "4", "e2"]) == 0
    out = capsys.readouterr().out.split()
    assert out[:3] == ["a4", "b5", "a6"] and len(out) == 3 + 128


def test_illegal_move_exits_2_naming_it(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["quoridor", "moves", "e2", "e8", "e3h", "e3v"]) == 2
    err = capsys.readouterr().err
    assert "move 4 (e3v)" in err and "wall_cross" in err and "e3h" in err
    assert main(["quoridor", "moves", "e2", "e7"]) == 2
    err = capsys.readouterr().err
    assert "move 2 (e7)" in err and "not_adjacent" in err
    assert main(["quoridor", "moves", "e2", "zz9"]) == 2
    assert "move 2" in capsys.readouterr().err


def test_moves_after_the_end(capsys: pytest.CaptureFixture[str]) -> None:
    record = [
        "e2",
        "e8",
        "e3",
        "e7",
        "e4",
        "e6",
        "e5",
        "d6",
        "e6",
        "d5",
        "e7",
        "d4",
        "e8",
        "d3",
        "e9",
    ]
    assert main(["quoridor", "moves", *record]) == 0
    captured = capsys.readouterr()
    assert captured.out == "" and "P1 has won" in captured.err


def test_hint(capsys: pytest.CaptureFixture[str]) -> None:
    from games.quoridor import QuoridorGame

    assert main(["quoridor", "hint", "--time", "0.1", "e2", "e8"]) == 0
    out = capsys.readouterr().out
    lines = dict(line.split(": ", 1) for line in out.strip().splitlines())
    game = QuoridorGame.replay({"num_players": 2}, "e2 e8")
    assert game.parse_move(lines["hint"]) in game.legal_moves()
    assert lines["shortest paths"] == "P1 7, P2 7" and "steps" in lines["score for P1"]


def test_subprocess_answers_without_heavy_imports() -> None:
    code = (
        "import sys; from ui.cli import main; rc = main(['quoridor', 'moves', 'e2', 'e8', 'e3h', 'e3v']); "
        "heavy = [m for m in ('numpy', 'cv2', 'PySide6', 'mediapipe') if m in sys.modules]; "
        "print('HEAVY', heavy, file=sys.stderr); sys.exit(rc)"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code],
        check=False,
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 2
    assert "move 4 (e3v) is illegal" in proc.stderr and "[rule: wall_cross]" in proc.stderr
    assert "HEAVY []" in proc.stderr, proc.stderr
    ok = subprocess.run(
        [sys.executable, "-m", "ui", "quoridor", "moves", "e2", "e8"],
        check=False, cwd=ROOT, capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert ok.returncode == 0 and ok.stdout.split()[:4] == ["e1", "d2", "f2", "e3"]
