"""The README's examples run: every line of its "Try it" block, through the real CLI."""

import re
import shlex
from pathlib import Path

import pytest

from ui.cli import main

ROOT = Path(__file__).resolve().parents[1]


def _try_it_lines() -> list[str]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    block = re.search(r"## Try it\s+```sh\n(.*?)```", text, re.S)
    assert block, "README.md has no '## Try it' sh block"
    return [ln.strip() for ln in block.group(1).splitlines() if ln.strip()]


def test_try_it_block_is_not_empty():
    assert len(_try_it_lines()) >= 5


@pytest.mark.parametrize("line", _try_it_lines())
def test_readme_example_runs(line, monkeypatch, capsys):
    words = shlex.split(line)
    assert words[0] == "arbitre"
    monkeypatch.chdir(ROOT)
    assert main(words[1:]) == 0
    assert capsys.readouterr().out.strip(), f"{line!r} printed nothing"
