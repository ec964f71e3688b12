"""Conversions kept per content: an LRU bounded by the bytes it holds (``BYTES``).

Keys are built by ``convert`` from the sha256 of the file's bytes, its media type and name,
and what the target and budgets change about the result; values are immutable, so a hit is a
dictionary lookup. An entry's size is the bytes of its File parts plus the characters of its
Text parts; one larger than the whole bound is not kept.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Hashable
from typing import Generic, TypeVar

#: What the memo holds at most, in bytes of converted output (default 256 MB).
BYTES = 256 * 1024 * 1024

V = TypeVar("V")


class Memo(Generic[V]):
    """A thread-safe LRU of values whose sizes add up to at most ``bound`` bytes."""

    def __init__(self, bound: int = BYTES) -> None:
        self.bound = bound
        self._entries: OrderedDict[Hashable, tuple[V, int]] = OrderedDict()
        self._held = 0
        self._lock = threading.Lock()

    def get(self, key: Hashable) -> V | None:
        """The value kept for ``key`` (now the most recently used), or None."""
        with self._lock:
            entry = self._entries.get(key)
            if entry is None:
                return None
            self._entries.move_to_end(key)
            return entry[0]

    def put(self, key: Hashable, value: V, size: int) -> None:
        """Keep ``value``, dropping the least recently used entries beyond the bound."""
        if size > self.bound:
            return
        with self._lock:
            old = self._entries.pop(key, None)
            if old is not None:
                self._held -= old[1]
            self._entries[key] = (value, size)
            self._held += size
            while self._held > self.bound:
                _, (_, dropped) = self._entries.popitem(last=False)
                self._held -= dropped

    def clear(self) -> None:
        """Forget every entry."""
        with self._lock:
            self._entries.clear()
            self._held = 0

    @property
    def held(self) -> int:
        """The bytes the entries add up to now."""
        return self._held

    def __len__(self) -> int:
        return len(self._entries)
