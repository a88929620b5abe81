"""The bundled Quoridor sample clip: `arbitre quoridor watch` recovers its whole record."""

import json
from pathlib import Path

from ui.cli import main

SAMPLE = Path(__file__).resolve().parents[1] / "sample_videos" / "quoridor_game"


def test_watch_recovers_the_sample_game_record(capsys):
    truth = json.loads((SAMPLE / "truth.json").read_text())
    assert main(["quoridor", "watch", str(SAMPLE / "game.mp4"), "--json"]) == 0
    out = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert out["players"] == truth["players"] == 2
    assert out["moves"] == truth["moves"] and len(out["moves"]) == 12
    assert out["uncertain"] == []
