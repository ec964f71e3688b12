"""Where the shown messages come from: a conversation given whole, or a stored session that
may grow while it is shown (``--follow``).

A stored session is polled by its own message count (``SessionStore.count``: one small
query about that session, whatever else the store holds) and loaded again only when the
count moved; the load reads rows, not blobs (``verify=False``: a file's bytes are read and
checked when the view first needs them).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from ..messages import Message


class Feed(Protocol):
    """Messages to show; ``poll`` gives the whole list again when it changed, else None."""

    name: str

    def messages(self) -> list[Message]: ...

    def poll(self) -> list[Message] | None: ...


@dataclass
class Conversation:
    """A conversation given whole (a JSON file, or messages from Python): it never changes."""

    given: Sequence[Message]
    name: str = "conversation"

    def messages(self) -> list[Message]:
        return list(self.given)

    def poll(self) -> list[Message] | None:
        return None


@dataclass
class StoredSession:
    """A session of a ``SessionStore``; a session the store does not hold (or no longer
    holds) is the StoreError ``load`` and ``count`` raise (it names the closest ids)."""

    store: Any
    session_id: str
    name: str = ""
    _count: int = field(default=-1, init=False)

    def __post_init__(self) -> None:
        self.name = self.name or f"session {self.session_id}"

    def messages(self) -> list[Message]:
        loaded: list[Message] = self.store.load(self.session_id, verify=False)
        self._count = len(loaded)
        return loaded

    def poll(self) -> list[Message] | None:
        """The session again if messages were appended since the last load, else None."""
        count: int = self.store.count(self.session_id)  # StoreError once it was deleted
        if count == self._count:
            return None
        return self.messages()
