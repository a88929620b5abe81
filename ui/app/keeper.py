"""The base of the dashboard's models: a database, the game being kept, and listeners.

Widgets subscribe and are called after every command that ran; commands are plain objects
with ``run(keeper)``, so tests drive them without a window.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar, Generic, TypeVar

from games.store import GameStore

S = TypeVar("S")


class Keeper(Generic[S]):
    """Holds ``store`` and ``session`` (the game being kept, or None)."""

    #: Raised, with :attr:`no_session_message`, when a command needs a game and there is none.
    session_error: ClassVar[type[Exception]] = ValueError
    no_session_message: ClassVar[str] = "no game in progress: start a new game or resume one"

    def __init__(self, store: GameStore) -> None:
        self.store = store
        self.session: S | None = None
        self._listeners: list[Callable[[], None]] = []

    def subscribe(self, listener: Callable[[], None]) -> None:
        self._listeners.append(listener)

    def notify(self) -> None:
        for fn in list(self._listeners):
            fn()

    def run(self, command: Any) -> Any:
        result = command.run(self)
        self.notify()
        return result

    def require_session(self) -> S:
        if self.session is None:
            raise self.session_error(self.no_session_message)
        return self.session

    def latest_active_session(self) -> S | None:
        """The most recent unfinished game of this kind in the store, or None."""
        raise NotImplementedError

    def resume_latest(self) -> S | None:
        self.session = self.latest_active_session()
        self.notify()
        return self.session
