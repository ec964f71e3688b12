"""Tool turns planned once and reused while the same messages are encoded again.

An agent re-encodes its whole, growing history after every turn. Every earlier tool turn is
made of the very same frozen message objects as the last time, so its layout, its decisions
and its refusals are the same too; planning it again (call order, routes, image headers,
labels) was most of the cost of an encode on targets that take raw bytes. The planner asks
here first.

An entry is keyed by the identity of everything the outcome depends on: the capabilities
object, the turn's messages (the assistant message, its results, a user message merged after
them), the turn's position, the unsupported-file policy and the image fitter. It holds weak
references to those objects and is used only while each is still the very object it was made
for, so a recycled ``id`` never serves a stale plan. It leaves when the assistant message is
collected, and the oldest go beyond ``LIMIT`` entries. The planner does not cache turns planned
with a URL fetcher (I/O) or under a per-request count limit (which depends on the rest of the
conversation).
"""

from __future__ import annotations

import threading
import weakref
from collections import OrderedDict
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Any

#: Most tool turns remembered (an entry holds only references to the plan's parts).
LIMIT = 4096


@dataclass(frozen=True)
class PlannedTurn:
    """What planning one tool turn added: steps, decisions and unsupported files, in order."""

    steps: tuple[Any, ...]
    decisions: tuple[Any, ...]
    unsupported: tuple[Any, ...]


_Key = tuple[Hashable, ...]
_entries: OrderedDict[_Key, tuple[tuple[weakref.ref[Any], ...], PlannedTurn]] = OrderedDict()
_lock = threading.Lock()


def get(objects: Sequence[Any], context: tuple[Hashable, ...]) -> PlannedTurn | None:
    """The turn planned for exactly these objects in this context, or None."""
    key = _key(objects, context)
    with _lock:
        hit = _entries.get(key)
        if hit is None:
            return None
        refs, turn = hit
        if any(ref() is not obj for ref, obj in zip(refs, objects, strict=True)):
            return None
        _entries.move_to_end(key)
        return turn


def put(objects: Sequence[Any], context: tuple[Hashable, ...], turn: PlannedTurn) -> None:
    """Remember ``turn``; ``objects[1]`` (the assistant message) bounds its lifetime."""
    key = _key(objects, context)
    refs = tuple(weakref.ref(obj) for obj in objects)
    with _lock:
        _entries[key] = (refs, turn)
        _entries.move_to_end(key)
        while len(_entries) > LIMIT:
            _entries.popitem(last=False)
    weakref.finalize(objects[1], _drop, key, refs)


def clear() -> None:
    """Forget every planned turn (tests and benchmarks)."""
    with _lock:
        _entries.clear()


def _key(objects: Sequence[Any], context: tuple[Hashable, ...]) -> _Key:
    return (*context, *map(id, objects))


def _drop(key: _Key, refs: tuple[weakref.ref[Any], ...]) -> None:
    with _lock:
        hit = _entries.get(key)
        if hit is not None and hit[0] is refs:  # not a newer entry that reuses the ids
            del _entries[key]
