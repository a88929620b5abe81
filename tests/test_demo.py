"""`arbitre demo` (what `make run` does) without a display: the sample video is judged in the
terminal, and the clip's ground truth is shown beside the verdict."""

import json

from ui.cli import main


def test_demo_without_display_judges_the_sample_video(monkeypatch, capsys):
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    assert main(["demo", "--json"]) == 0
    captured = capsys.readouterr()
    verdict = json.loads(captured.out)
    assert verdict["result"] in {"summit", "fault", "incomplete"}
    assert isinstance(verdict["score"], int) and verdict["events"]
    assert "No display found" in captured.err
    assert "Ground truth of this synthetic clip: summit" in captured.err
