"""Plans reused while the same messages are encoded again: per tool turn, and per history.

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

The same holds for a whole history: when an encode's messages begin with exactly the messages
of the last plan for that target and policy (an agent appending to its history), the planner
resumes from the last group of that plan instead of walking every earlier message again.
"""

from __future__ import annotations

import threading
import weakref
from collections import OrderedDict
from collections.abc import Hashable, Sequence
from contextlib import suppress
from dataclasses import dataclass
from typing import Any

from .messages import ToolResult

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
        for ref, obj in zip(refs, objects, strict=True):
            if ref() is not obj:
                return None
        with suppress(KeyError):  # dropped meanwhile by a finalizer (see _drop)
            _entries.move_to_end(key)
        return turn


def put(objects: Sequence[Any], context: tuple[Hashable, ...], turn: PlannedTurn) -> None:
    """Remember ``turn``; ``objects[1]`` (the assistant message) bounds its lifetime."""
    key = _key(objects, context)
    refs = tuple(weakref.ref(obj) for obj in objects)
    with _lock:
        _entries[key] = (refs, turn)
        with suppress(KeyError):
            _entries.move_to_end(key)
        while len(_entries) > LIMIT:
            _entries.popitem(last=False)
    weakref.finalize(objects[1], _drop, key, refs)


def clear() -> None:
    """Forget every planned turn and plan (tests and benchmarks)."""
    with _lock:
        _entries.clear()
        _plans.clear()


# --- whole plans: a history that grows by appending -------------------------------------------

#: Most whole plans remembered: one per target and policy an agent encodes for (each leaves
#: with its history, or when plans for other targets push it out).
PLAN_LIMIT = 8


@dataclass(frozen=True)
class _LastPlan:
    owner: Any  # the Capabilities object it was planned for (its id is in the key)
    refs: tuple[weakref.ref[Any], ...]  # the messages, weakly
    marks: tuple[tuple[int, int, int], ...]  # per message group: first index, steps, decisions
    steps: tuple[Any, ...]
    decisions: tuple[Any, ...]


_plans: OrderedDict[_Key, _LastPlan] = OrderedDict()


def resume(
    caps: Any, context: tuple[Hashable, ...], messages: Sequence[Any]
) -> tuple[int, tuple[Any, ...], tuple[Any, ...], tuple[tuple[int, int, int], ...]] | None:
    """Where to go on planning ``messages``, when they begin with the very messages of the
    last plan for this target and policy: the first message of that plan's last group (which
    what follows may change: a user message merged into a tool turn), and the steps, decisions
    and group marks before it. None when there is nothing to reuse."""
    with _lock:
        last = _plans.get((id(caps), *context))
    if last is None or last.owner is not caps or not last.marks or len(last.refs) > len(messages):
        return None
    for ref, message in zip(last.refs, messages, strict=False):
        if ref() is not message:
            return None
    start, steps, decisions = last.marks[-1]
    return start, last.steps[:steps], last.decisions[:decisions], last.marks[:-1]


def remember(
    caps: Any,
    context: tuple[Hashable, ...],
    messages: Sequence[Any],
    marks: Sequence[tuple[int, int, int]],
    steps: Sequence[Any],
    decisions: Sequence[Any],
) -> None:
    """Keep a finished plan for the next encode of the same, longer history.

    The plan's steps hold the history's messages and files, so it is kept only while the
    history's last tool result lives (no step refers to a ToolResult object): dropping the
    conversation drops the plan. A history without tool results is not worth keeping.
    """
    anchor = next((m for m in reversed(messages) if isinstance(m, ToolResult)), None)
    if anchor is None:
        return
    refs = tuple(weakref.ref(m) for m in messages)
    entry = _LastPlan(caps, refs, tuple(marks), tuple(steps), tuple(decisions))
    key = (id(caps), *context)
    with _lock:
        _plans[key] = entry
        with suppress(KeyError):
            _plans.move_to_end(key)
        while len(_plans) > PLAN_LIMIT:
            _plans.popitem(last=False)
    weakref.finalize(anchor, _forget, key, id(entry))  # the id, so the entry is not kept alive


def _forget(key: _Key, entry_id: int) -> None:
    # Lock-free, as _drop is.
    if id(_plans.get(key)) == entry_id:
        _plans.pop(key, None)


def _key(objects: Sequence[Any], context: tuple[Hashable, ...]) -> _Key:
    return (*context, *map(id, objects))


def _drop(key: _Key, refs: tuple[weakref.ref[Any], ...]) -> None:
    # No lock: the collector may run this finalizer inside any allocation, including one made
    # while this module holds its lock. Single dict operations are atomic; losing a race only
    # costs a miss.
    hit = _entries.get(key)
    if hit is not None and hit[0] is refs:  # not a newer entry that reuses the ids
        _entries.pop(key, None)
