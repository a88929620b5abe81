"""Errors a user can act on. The command line prints them without a traceback and exits 2."""


class UserError(Exception):
    """Bad input or an unusable device: the message says what was wrong and what to do."""

    exit_code = 2


def check_output_path(path: str, what: str) -> None:
    """Raise a :class:`UserError` when ``path`` cannot be written (its folder missing or not
    writable, or ``path`` a folder), before any long work whose result would go there: the
    user learns it at once, not after judging a whole video. ``what``: the file's role in the
    message ("the events", "the annotated video")."""
    import os
    from pathlib import Path

    p = Path(path)
    folder = p.parent if str(p.parent) else Path(".")
    if p.is_dir():
        raise UserError(f"{path}: is a folder; give a file name for {what}")
    if not folder.is_dir():
        raise UserError(f"{path}: cannot write {what} there: the folder {folder} does not exist")
    if not os.access(folder, os.W_OK) or (p.exists() and not os.access(p, os.W_OK)):
        raise UserError(f"{path}: cannot write {what} there: no permission to write; choose "
                        "another place")
