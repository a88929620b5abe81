"""Errors a user can act on. The command line prints them without a traceback and exits 2."""


class UserError(Exception):
    """Bad input or an unusable device: the message says what was wrong and what to do."""

    exit_code = 2
