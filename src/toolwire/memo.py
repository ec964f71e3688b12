"""The memo layer: every cache that serves re-encoding, in one object at the ``encode`` boundary.

An agent re-encodes its whole, growing history after every model reply. Every earlier message is
the very same frozen object as the last time, so most of an encode's work was done before.
``Memo`` keeps that work; ``MEMO`` is the process's memo, which ``encode``, ``estimate_tokens``
and the view pass to the planner. Planning functions take the memo (or a memoised function)
as an argument and never import it; encoders reach the base64 cache through ``b64``.

What it keeps, how much, and for how long — the one place these bounds are stated:

- ``base64``: base64 text per content (sha256) and prefix, so a data URL is built once too
  (``b64.Base64Cache``). Bound: ``b64.CACHE_LIMIT`` characters (256 MB), least recently used
  out; a value over a quarter of the bound is not kept. Keyed by content, so never stale.
- ``fitted``: what the image fitter answered per (File object, cell, fitter): parsing every
  image's header (and wrapping a resized one) on every encode is avoided. One entry per live
  File; it leaves with its File and holds the fitted File, never the original. (The resized
  bytes themselves are kept by imagefit's own bounded cache.)
- ``turns``: per tool turn (an assistant message's results, with the user message the planner
  merges after them) its steps, decisions and refusals, keyed by the identity of the
  capabilities, the assistant message, the results, the merged message, the position and the
  policy; weak references make sure a recycled ``id`` never serves a stale plan. Bound:
  ``TURN_LIMIT`` entries, oldest out; an entry leaves with its assistant message. Not used
  with a URL fetcher (I/O) or when a request budget leaves files out (that depends on the
  rest of the conversation).
- ``last``: the last plan per target and policy, its messages held weakly: an encode whose
  messages begin with exactly those resumes from that plan's last group. Bound: ``PLAN_LIMIT``
  plans, oldest out; a plan leaves with its history's last tool result.
- ``clean``: plan steps found free of lone surrogates, by identity, weakly held, so the
  payload is not walked for them again. Bound: ``CLEAN_LIMIT``, oldest out; an entry leaves
  with its step. A step is frozen but the dicts inside it are not: mutating a ToolCall's
  arguments in place after an encode is not seen.

``clear()`` empties all of them (tests and benchmarks measure cold encodes with it).
"""

from __future__ import annotations

import threading
import weakref
from collections import OrderedDict
from collections.abc import Callable, Hashable, Sequence
from contextlib import suppress
from dataclasses import dataclass
from typing import Any

from .b64 import Base64Cache

TURN_LIMIT = 4096
PLAN_LIMIT = 8
CLEAN_LIMIT = 8192

_Key = tuple[Hashable, ...]
#: A resumed plan: the first message index to plan again, and the steps, decisions and group
#: marks before it.
Resumed = tuple[int, tuple[Any, ...], tuple[Any, ...], tuple[tuple[int, int, int], ...]]


class Memo:
    """Every cache that serves re-encoding (see the module docstring for bounds)."""

    def __init__(self) -> None:
        self.base64 = Base64Cache()
        self.turns = TurnMemo()
        self.last = LastPlans()
        self._fitted: dict[tuple[int, int, Any], tuple[Any, Any, str | None]] = {}
        self._fitters: dict[Any, Callable[[Any, Any], tuple[Any, str | None]]] = {}
        self._clean: dict[int, weakref.ref[Any]] = {}
        self._lock = threading.Lock()

    def clear(self) -> None:
        """Forget everything."""
        self.base64.clear()
        self.turns.clear()
        self.last.clear()
        self._fitted.clear()
        self._clean.clear()

    def fitted(
        self, fit: Callable[[Any, Any], tuple[Any, str | None]]
    ) -> Callable[[Any, Any], tuple[Any, str | None]]:
        """``fit(file, cell)`` answered once per File object, cell and fitter (the same
        memoised function for the same fitter, so plans keyed by it are found again)."""
        known = self._fitters.get(fit)
        if known is not None:
            return known

        def fit_once(file: Any, cell: Any) -> tuple[Any, str | None]:
            key = (id(file), id(cell), fit)  # ids: hashing a Cell's fields costs more
            hit = self._fitted.get(key)
            if hit is not None and hit[0] is cell:  # the entry pins its cell: ids not reused
                return hit[1] or file, hit[2]
            result, note = fit(file, cell)
            self._fitted[key] = (cell, None if result is file else result, note)
            weakref.finalize(file, self._fitted.pop, key, None)
            return result, note

        self._fitters[fit] = fit_once
        return fit_once

    def is_clean(self, step: Any, has_lone_surrogate: Callable[[Any], bool]) -> bool:
        """Whether ``step`` holds no lone surrogate (remembered while the step lives)."""
        key = id(step)
        ref = self._clean.get(key)
        if ref is not None and ref() is step:
            return True
        if has_lone_surrogate(step):
            return False
        clean = self._clean
        with self._lock:
            if len(clean) >= CLEAN_LIMIT:
                del clean[next(iter(clean))]  # the oldest
            clean[key] = weakref.ref(step, lambda _, key=key: clean.pop(key, None))  # type: ignore[misc]
        return True


@dataclass(frozen=True)
class PlannedTurn:
    """What planning one tool turn added: steps, decisions and unsupported files, in order."""

    steps: tuple[Any, ...]
    decisions: tuple[Any, ...]
    unsupported: tuple[Any, ...]


class TurnMemo:
    """Planned tool turns by the identity of everything their outcome depends on."""

    def __init__(self) -> None:
        self.entries: OrderedDict[_Key, tuple[tuple[weakref.ref[Any], ...], PlannedTurn]] = (
            OrderedDict()
        )
        self._lock = threading.Lock()

    def get(self, objects: Sequence[Any], context: tuple[Hashable, ...]) -> PlannedTurn | None:
        """The tool turn planned for exactly these objects in this context, or None."""
        key = (*context, *map(id, objects))
        with self._lock:
            hit = self.entries.get(key)
            if hit is None:
                return None
            refs, turn = hit
            for ref, obj in zip(refs, objects, strict=True):
                if ref() is not obj:
                    return None
            with suppress(KeyError):  # dropped meanwhile by a finalizer (see _drop)
                self.entries.move_to_end(key)
            return turn

    def put(self, objects: Sequence[Any], context: tuple[Hashable, ...], turn: PlannedTurn) -> None:
        """Remember ``turn``; ``objects[1]`` (the assistant message) bounds its lifetime."""
        key = (*context, *map(id, objects))
        refs = tuple(weakref.ref(obj) for obj in objects)
        with self._lock:
            self.entries[key] = (refs, turn)
            with suppress(KeyError):
                self.entries.move_to_end(key)
            while len(self.entries) > TURN_LIMIT:
                self.entries.popitem(last=False)
        weakref.finalize(objects[1], self._drop, key, refs)

    def clear(self) -> None:
        with self._lock:
            self.entries.clear()

    def _drop(self, key: _Key, refs: tuple[weakref.ref[Any], ...]) -> None:
        # No lock: the collector may run this finalizer inside any allocation, including one
        # made while the lock is held. Single dict operations are atomic; a lost race is a miss.
        hit = self.entries.get(key)
        if hit is not None and hit[0] is refs:  # not a newer entry that reuses the ids
            self.entries.pop(key, None)


@dataclass(frozen=True)
class _LastPlan:
    owner: Any  # the Capabilities object it was planned for (its id is in the key)
    refs: tuple[weakref.ref[Any], ...]  # the messages, weakly
    marks: tuple[tuple[int, int, int], ...]  # per message group: first index, steps, decisions
    steps: tuple[Any, ...]
    decisions: tuple[Any, ...]


class LastPlans:
    """The last plan per target and policy, for a history that grows by appending."""

    def __init__(self) -> None:
        self.plans: OrderedDict[_Key, _LastPlan] = OrderedDict()
        self._lock = threading.Lock()

    def resume(
        self, caps: Any, context: tuple[Hashable, ...], messages: Sequence[Any]
    ) -> Resumed | None:
        """Where to go on planning ``messages`` when they begin with the very messages of the
        last plan for this target and policy: the first message of that plan's last group
        (which what follows may change: a user message merged into a tool turn), and the
        steps, decisions and group marks before it. None when there is nothing to reuse."""
        with self._lock:
            last = self.plans.get((id(caps), *context))
        if last is None or last.owner is not caps or not last.marks:
            return None
        if len(last.refs) > len(messages):
            return None
        for ref, message in zip(last.refs, messages, strict=False):
            if ref() is not message:
                return None
        start, steps, decisions = last.marks[-1]
        return start, last.steps[:steps], last.decisions[:decisions], last.marks[:-1]

    def remember(
        self,
        caps: Any,
        context: tuple[Hashable, ...],
        messages: Sequence[Any],
        anchor: Any,
        plan: tuple[Sequence[tuple[int, int, int]], Sequence[Any], Sequence[Any]],
    ) -> None:
        """Keep a finished plan (marks, steps, decisions) while ``anchor`` lives: the history's
        last tool result, which no step refers to, so dropping the history drops the plan."""
        marks, steps, decisions = plan
        refs = tuple(weakref.ref(m) for m in messages)
        entry = _LastPlan(caps, refs, tuple(marks), tuple(steps), tuple(decisions))
        key = (id(caps), *context)
        with self._lock:
            self.plans[key] = entry
            with suppress(KeyError):
                self.plans.move_to_end(key)
            while len(self.plans) > PLAN_LIMIT:
                self.plans.popitem(last=False)
        weakref.finalize(anchor, self._forget, key, id(entry))  # the id: not kept alive

    def clear(self) -> None:
        with self._lock:
            self.plans.clear()

    def _forget(self, key: _Key, entry_id: int) -> None:
        # Lock-free, as TurnMemo._drop is.
        if id(self.plans.get(key)) == entry_id:
            self.plans.pop(key, None)


#: The process's memo.
MEMO = Memo()
