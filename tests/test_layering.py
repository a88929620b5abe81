"""The architecture's one-way flow, enforced: games/ is pure, vision/ knows nothing of the UI."""

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

FORBIDDEN = {
    "games": {"cv2", "mediapipe", "PySide6", "ui", "vision", "calibration"},
    "vision": {"PySide6", "ui"},
    "calibration": {"PySide6", "ui"},
}


def imported_top_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add(node.module.split(".")[0])
    return found


@pytest.mark.parametrize("package", sorted(FORBIDDEN))
def test_package_does_not_import_forbidden_layers(package):
    files = sorted((ROOT / package).rglob("*.py"))
    assert files, f"{package}/ has no Python files"
    offenders = {
        str(f.relative_to(ROOT)): sorted(imported_top_modules(f) & FORBIDDEN[package])
        for f in files
    }
    offenders = {k: v for k, v in offenders.items() if v}
    assert not offenders, f"{package}/ must not import {sorted(FORBIDDEN[package])}: {offenders}"


def test_the_checker_catches_a_forbidden_import(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text("def f():\n    from PySide6 import QtCore\n    import cv2.aruco\n")
    assert imported_top_modules(bad) == {"PySide6", "cv2"}
