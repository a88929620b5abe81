"""`arbitre dashboard` from the command line: no display, screenshots, and a real xcb run under
Xvfb with cv2 imported first (skipped with the reason when Xvfb is not installed)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from ui.cli import main

ROOT = Path(__file__).resolve().parents[1]
SHOTS = ROOT / "out" / "screenshots"


def run_cli(args: list[str], env: dict[str, str], timeout: float = 90) -> subprocess.CompletedProcess:
    code = "import sys; from ui.cli import main; sys.exit(main(sys.argv[1:]))"
    return subprocess.run([sys.executable, "-c", code, *args], env={**env, "PYTHONPATH": str(ROOT)},
                          capture_output=True, text=True, timeout=timeout, cwd=ROOT)


def test_no_display_is_a_user_error(tmp_path, monkeypatch, capsys):
    for var in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM"):
        monkeypatch.delenv(var, raising=False)
    assert main(["dashboard", "--db", str(tmp_path / "x.sqlite3"), "--lang", "en"]) == 2
    err = capsys.readouterr().err
    assert "No display" in err and "Traceback" not in err


def test_bad_arguments_are_user_errors(tmp_path, capsys):
    assert main(["dashboard", "--db", str(tmp_path / "x.sqlite3"), "--video",
                 str(tmp_path / "missing.mp4")]) == 2
    assert "missing.mp4" in capsys.readouterr().err
    assert main(["dashboard", "--screenshot", str(tmp_path / "x.png")]) == 2
    assert "--quit-after" in capsys.readouterr().err


def test_screenshot_and_quit_offscreen(tmp_path):
    shot = SHOTS / "cli_history_fr.png"
    SHOTS.mkdir(parents=True, exist_ok=True)
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    env["QT_QPA_PLATFORM"] = "offscreen"
    r = run_cli(["dashboard", "--db", str(tmp_path / "x.sqlite3"), "--lang", "fr", "--tab",
                 "history", "--screenshot", str(shot), "--quit-after", "1"], env)
    assert r.returncode == 0, r.stderr[-2000:]
    assert shot.is_file() and shot.stat().st_size > 5000


@pytest.mark.skipif(shutil.which("Xvfb") is None,
                    reason="Xvfb not installed (apt-get install xvfb libxcb-icccm4 "
                    "libxcb-keysyms1 libxkbcommon-x11-0 libxcb-cursor0)")
def test_real_xcb_window_under_xvfb_with_cv2_imported_first():
    from ui.app.xvfb_check import check

    report = check(seconds=3.0, screenshot=SHOTS / "xvfb_live.png")
    assert report["ok"], report
