"""Making Qt start cleanly next to OpenCV, and knowing whether there is a display at all.

The non-headless cv2 wheel sets ``QT_QPA_PLATFORM_PLUGIN_PATH`` (to its own Qt5 plugins) and
``QT_QPA_FONTDIR`` when imported; PySide6 then loads cv2's xcb plugin and aborts on a real
desktop. :func:`prepare_qt_environment` removes them; call it after importing cv2 and before
creating the QApplication.
"""

from __future__ import annotations

import os
from collections.abc import MutableMapping

__all__ = ["CV2_QT_VARS", "has_display", "prepare_qt_environment"]

CV2_QT_VARS: tuple[str, ...] = ("QT_QPA_PLATFORM_PLUGIN_PATH", "QT_QPA_FONTDIR")


def prepare_qt_environment(env: MutableMapping[str, str] | None = None) -> list[str]:
    """Remove cv2's Qt variables from ``env`` (default ``os.environ``); returns the names removed."""
    target = os.environ if env is None else env
    removed = [k for k in CV2_QT_VARS if k in target]
    for k in removed:
        del target[k]
    return removed


def has_display(env: MutableMapping[str, str] | None = None) -> bool:
    """True when Qt can show a window: an X11 or Wayland display, or an explicit platform
    (``QT_QPA_PLATFORM``, e.g. ``offscreen`` for tests and screenshots)."""
    e = os.environ if env is None else env
    return any(e.get(k) for k in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM"))
