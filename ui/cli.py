"""The ``arbitre`` command line.

Each ``ui/cmd_*.py`` module adds its subcommands through ``register(subparsers)`` and imports
anything heavy (cv2, mediapipe, Qt) only inside the command's function, so that quick commands
(``arbitre quoridor moves``) answer in well under a second.
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys
from collections.abc import Sequence

import ui
from ui.errors import UserError

__version__ = "0.1.0"


def _command_modules() -> list[str]:
    return sorted(m.name for m in pkgutil.iter_modules(ui.__path__) if m.name.startswith("cmd_"))


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="arbitre",
        description="Arbitre: a webcam referee for tabletop games (Grimpe!, Quoridor).",
    )
    parser.add_argument("--version", action="version", version=f"arbitre {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in _command_modules():
        importlib.import_module(f"ui.{name}").register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    func = getattr(args, "func", None)
    if func is None:
        # A group without its subcommand: show that group's help.
        (getattr(args, "parser", None) or parser).print_help(sys.stderr)
        return 2
    try:
        return int(func(args) or 0)
    except UserError as exc:
        print(f"arbitre: error: {exc}", file=sys.stderr)
        return exc.exit_code
    except KeyboardInterrupt:
        print("arbitre: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
