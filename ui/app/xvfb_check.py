"""Start the dashboard for real under Xvfb with the xcb platform (not offscreen), cv2 imported
first: the case where cv2's bundled Qt plugins break PySide6 on a desktop.

    python -m ui.app.xvfb_check [--seconds 4] [--screenshot out/screenshots/xvfb.png]

Needs Debian's ``xvfb libxcb-icccm4 libxcb-keysyms1 libxkbcommon-x11-0 libxcb-cursor0``.
Prints a JSON report; exit 0 when the window came up and was captured, 1 when it failed, 77
when Xvfb is not installed (skip).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

__all__ = ["XVFB_PACKAGES", "check"]

XVFB_PACKAGES = ("xvfb", "libxcb-icccm4", "libxcb-keysyms1", "libxkbcommon-x11-0",
                 "libxcb-cursor0")
ROOT = Path(__file__).resolve().parents[2]


def _free_display() -> int:
    for n in range(91, 140):
        if not Path(f"/tmp/.X11-unix/X{n}").exists() and not Path(f"/tmp/.X{n}-lock").exists():
            return n
    raise RuntimeError("no free X display number between :91 and :139")


def check(seconds: float = 4.0, screenshot: Path | None = None, timeout_s: float = 90.0) -> dict:
    """Run ``arbitre dashboard --sample`` on a fresh Xvfb display; returns a report dict."""
    xvfb = shutil.which("Xvfb")
    if xvfb is None:
        return {"ok": None, "reason": "Xvfb is not installed; apt-get install " + " ".join(XVFB_PACKAGES)}
    n = _free_display()
    server = subprocess.Popen([xvfb, f":{n}", "-screen", "0", "1366x850x24", "-nolisten", "tcp"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        for _ in range(100):
            if Path(f"/tmp/.X11-unix/X{n}").exists():
                break
            time.sleep(0.05)
        shot = screenshot or Path(tempfile.mkdtemp()) / "xvfb.png"
        env = {k: v for k, v in os.environ.items() if k not in ("QT_QPA_PLATFORM", "WAYLAND_DISPLAY")}
        env.update(DISPLAY=f":{n}", QT_QPA_PLATFORM="xcb", PYTHONPATH=str(ROOT))
        db = Path(tempfile.mkdtemp()) / "xvfb.sqlite3"
        code = ("import cv2, sys; from ui.cli import main; sys.exit(main(sys.argv[1:]))")
        cmd = [sys.executable, "-c", code, "dashboard", "--db", str(db), "--sample",
               "--lang", "en", "--screenshot", str(shot), "--quit-after", str(seconds)]
        t0 = time.monotonic()
        proc = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=timeout_s)
        report = {
            "ok": proc.returncode == 0 and shot.is_file() and shot.stat().st_size > 10_000,
            "returncode": proc.returncode, "display": f":{n}", "platform": "xcb",
            "screenshot": str(shot), "seconds": round(time.monotonic() - t0, 1),
            "stderr_tail": [ln for ln in proc.stderr.splitlines()
                            if "W0000" not in ln and "I0000" not in ln][-8:],
        }
        return report
    finally:
        server.terminate()
        try:
            server.wait(5)
        except subprocess.TimeoutExpired:
            server.kill()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seconds", type=float, default=4.0)
    ap.add_argument("--screenshot", type=Path, default=None)
    a = ap.parse_args(argv)
    r = check(a.seconds, a.screenshot)
    print(json.dumps(r, indent=1))
    if r["ok"] is None:
        return 77
    return 0 if r["ok"] else 1


if __name__ == "__main__":
    sys.exit(main())
