"""The memo layer: every cache that serves re-encoding, in one object at the ``encode`` boundary.

An agent re-encodes its whole, growing history after every model reply, and a server may load
that history anew from storage every turn. So what was planned and spelled for a message is
kept by what the message holds, not by which object it is: a kept plan is matched by equal
messages (the very same object is equal at once; a message loaded anew compares by content),
and a step's spelling by the step's content digest (``toolwire.digest``). Messages are frozen
and hold tuples, so nothing changes behind a cache; change one by building a new one
(``model_copy``). The dicts and lists of JSON data inside a message (a ToolCall's
``arguments``, a Json part's or a JSON output's value) are the exception: edit a copy.
``Memo`` keeps that work; ``MEMO`` is the process's memo, which ``encode``, ``estimate_tokens``
and the view pass to the planner (and ``decode`` reads the prepared tools of). Planning functions take the memo (or a memoised function)
as an argument and never import it; encoders reach the base64 cache through ``b64``.

What it keeps, how much, and for how long — the one place these bounds are stated:

- ``base64``: base64 text per content (sha256) and prefix, so a data URL is built once too
  (``b64.Base64Cache``). Bound: ``b64.CACHE_LIMIT`` characters (256 MB), least recently used
  out; a value over a quarter of the bound is not kept. Keyed by content, so never stale.
- ``fitted``: what the image fitter answered per (file content, cell, fitter), where it
  changed the file: resizing every screenshot of a history on every encode is avoided, for
  a history loaded anew too. Bound: ``FITTED_LIMIT`` answers and ``FITTED_BYTES`` bytes of
  fitted images, least recently used out. Keyed by content (``File.digest``), so never
  stale.
- ``last``: the latest plans per target and policy, one per history (``PLAN_LIMIT`` in all,
  least recently used out; each holds its messages and steps): an encode whose messages
  begin with a kept plan's resumes from the first group they change (a history that only
  grew: after its last group, or at it where the message that follows joins it, a user
  message after a tool turn), with what the passes after the layout made of the steps
  before it (plan.passed). The encode takes the plan over (it is no longer kept while its
  lists grow) and keeps it again once planned. Not used with a URL fetcher (I/O) or where a byte, page or document
  budget changes a file; where a count budget does (Bedrock's 20 images), the groups before
  the first file it now treats otherwise are kept. Each group keeps the budgets' tally of
  the messages before it (plan.tally), so a resumed history measures its new messages only;
  the tally also counts the messages holding a lone surrogate. Where a file became text
  toolwire made, the new steps are walked for them instead.
- ``spelled``: each step's spelling per wire, by the step's content digest, with the
  answers it was spelled with (ids, names: ``providers.wire.Spelling``) and each item's size
  where a byte budget measured it (``SPELLED_LIMIT`` steps and ``SPELLED_CHARS`` characters,
  least recently used out); and per history its latest request's run of spelled steps
  (``RUN_LIMIT`` runs), so a grown history's request reuses the items of its first steps
  at once (taking the run over, as an encode does a plan). Items are kept as copies of those given to a caller.
- ``tools``: each tool as a family of targets takes it (``tools.repair.PreparedTool``:
  repaired, strict settled, the parameters as its dialect sends them, the notes), by the
  tool's content digest (every field, ``tools.repair.tool_digest``) and the schema rules it
  was prepared for (``tools.rules``: the one capability fact preparing reads). Bound:
  ``TOOLS_LIMIT`` tools and ``TOOLS_CHARS`` characters, least recently used out; a tool over
  a quarter of that is not kept. The values are read-only or read as copies.
- ``tool_fragments``: a request's tools spelled (the keyword-argument fragment) and its size
  on the wire, by the prepared tools' keys, the tool choice, the wire and whether a cache
  mark follows them, so a byte budget adds that size to the plan's bound instead of
  measuring the body (``FRAGMENTS_LIMIT`` fragments and ``TOOLS_CHARS`` characters, least
  recently used out). Read as copies.
- ``measures`` (plan.measure, for the request budgets where the layout's tally may break a
  limit): per history (its first two messages), target, fitter and converters, each
  message's measures and their sum (``RUN_LIMIT`` histories, least recently used out; each
  holds its messages, matched by identity: the budgets name the files they leave out by
  which File they are); a PDF's page count by its content's sha256 (``PAGES_LIMIT``,
  oldest out).

``clear()`` empties all of them (tests and benchmarks measure cold encodes with it).
"""

from __future__ import annotations

import bisect
import contextlib
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass, field
from operator import itemgetter
from typing import Any

from .b64 import Base64Cache
from .sources import BytesSource

PLAN_LIMIT = 32
RUN_LIMIT = 32
PAGES_LIMIT = 4096
SPELLED_LIMIT = 65536
SPELLED_CHARS = 256 * 1024 * 1024
FITTED_LIMIT = 4096
FITTED_BYTES = 256 * 1024 * 1024
TOOLS_LIMIT = 4096
TOOLS_CHARS = 64 * 1024 * 1024
FRAGMENTS_LIMIT = 32

_Key = tuple[Hashable, ...]
#: Per message group: its first index, and the steps, decisions and budget tally before it.
_Mark = tuple[int, int, int, tuple[int, ...]]


class Memo:
    """Every cache that serves re-encoding (see the module docstring for bounds)."""

    def __init__(self) -> None:
        self.base64 = Base64Cache()
        self.last = LastPlans()
        self.measures = MeasureMemo()
        self.spelled = SpelledSteps()
        self.tools = Kept(TOOLS_LIMIT)
        self.tool_fragments = Kept(FRAGMENTS_LIMIT)
        #: Per (file content, cell, fitter): the fitted file (None: the caller's own, left as
        #: it is) and the fitter's note.
        self.fitted_images = Kept(FITTED_LIMIT, FITTED_BYTES)
        self._fitters: dict[Any, Callable[[Any, Any], tuple[Any, str | None]]] = {}

    def clear(self) -> None:
        """Forget everything."""
        self.base64.clear()
        self.last.clear()
        self.measures.clear()
        self.spelled.clear()
        self.tools.clear()
        self.tool_fragments.clear()
        self.fitted_images.clear()

    def fitted(
        self, fit: Callable[[Any, Any], tuple[Any, str | None]]
    ) -> Callable[[Any, Any], tuple[Any, str | None]]:
        """``fit(file, cell)`` answered once per file content (``File.digest``), cell and
        fitter, where it changed the file or says why not (a file that fits as it is is asked
        again: reading an image's header costs less than keeping an entry for it); the same
        memoised function for the same fitter, so plans keyed by it are found again."""
        known = self._fitters.get(fit)
        if known is not None:
            return known

        def fit_once(file: Any, cell: Any) -> tuple[Any, str | None]:
            key = (file.digest, cell, fit)  # the cell by its limits: a re-fit to the bytes left
            hit = self.fitted_images.get(key)
            if hit is not None:
                kept, note = hit
                return kept or file, note  # None: the caller's own file, as it is
            result, note = fit(file, cell)
            if result is file and note is not None:
                self.fitted_images.keep(key, (None, note), 0)  # left as it is, and why
            elif result is not file and isinstance(result.source, BytesSource):
                self.fitted_images.keep(key, (result, note), len(result.source.data))
            return result, note

        self._fitters[fit] = fit_once
        return fit_once


class MeasureMemo:
    """What plan.measure keeps between encodes; plan.measure reads and fills it."""

    def __init__(self) -> None:
        #: (id(caps), id(fitter), converters, ids of the first two messages) -> the measures.
        self.runs: dict[Any, Any] = {}
        #: A PDF's sha256 -> its page count (at most ``PAGES_LIMIT``).
        self.pages: dict[str, int] = {}

    def clear(self) -> None:
        self.runs.clear()
        self.pages.clear()


@dataclass(frozen=True)
class Resumed:
    """Where a kept plan lets planning go on: from message ``start``, with the steps,
    decisions (and each decision's file's source), group marks and budget tally (plan.tally)
    of the groups before it (``upto``: how many steps and decisions those are); ``passed``:
    what the passes after the layout made of those steps or of some first ones of them
    (plan.passed carries it on), where the kept plan has that, else None; ``clean``: no step
    before it holds a lone surrogate."""

    start: int
    steps: list[Any]
    decisions: list[Any]
    sources: list[Any]
    marks: list[_Mark]
    tally: tuple[int, ...]
    passed: Any
    clean: bool
    key: _Key
    #: The count budgets its groups were laid out in (plan.files.Budget.excess).
    counts: Mapping[Any, int] = field(default_factory=dict)
    upto: tuple[int, int] = (0, 0)
    #: The kept plan's ids and names (plan.ids.ToolNames), where it goes on after all of it.
    names: Any = None


@dataclass(frozen=True)
class _LastPlan:
    owner: Any  # the Capabilities object it was planned for (its id is in the key)
    messages: tuple[Any, ...]  # the messages planned (immutable values)
    marks: list[_Mark]  # per message group: first index, steps, decisions, tally
    steps: list[Any]
    decisions: list[Any]
    sources: list[Any]  # of each decision's file
    #: plan.passed.Passed of the steps before the first group it laid out (it resumed a
    #: kept plan there): some first steps of those before its last group.
    passed: Any
    clean: bool = False  # no step holds a lone surrogate
    counts: Mapping[Any, int] = field(default_factory=dict)  # Budget.excess it was laid out in
    tally: tuple[int, ...] = ()  # the budgets' tally after its last group (plan.tally)
    whole: Any = None  # plan.passed.Passed of all its steps
    #: ``joins(message, index)``: whether a message that came next would join its last group
    #: (plan.layout.Planner.joins); None where nothing would.
    joins: Callable[[Any, int], bool] | None = None
    names: Any = None  # its plan's ids and names (plan.ids.ToolNames), a grown one's start

    def mark(self, group: int) -> _Mark:
        """The mark of ``group``; past the last group, the end."""
        if group < len(self.marks):
            return self.marks[group]
        return (len(self.messages), len(self.steps), len(self.decisions), self.tally)


_START = itemgetter(0)  # a group mark's first message index
#: A kept plan found for a history: how many of its first groups the history shares, its key,
#: the plan, and the mark of the group after those, read as kept (LastPlans.find).
Found = tuple[int, _Key, _LastPlan, _Mark]


class LastPlans:
    """The latest plans per target and policy (one per history), for histories that grow."""

    def __init__(self) -> None:
        #: (id(caps), *policy, (length, first and last message's digests)) -> the plan; most
        #: recently used last. (Two histories alike in those keep one plan between them; a
        #: plan is resumed only as far as its messages are equal.)
        self.plans: OrderedDict[_Key, _LastPlan] = OrderedDict()
        self._lock = threading.Lock()

    def resume(
        self,
        found: Found | None,
        counts: Mapping[Any, int] | None = None,
        same_counts: Callable[[tuple[int, ...], Mapping[Any, int], Mapping[Any, int]], bool]
        | None = None,
    ) -> Resumed | None:
        """Where to go on planning ``messages`` from the kept plan for this target and policy
        that shares the most of their first groups: the first group whose messages (or the one
        after them, which a group looks at to know where it ends) are not the messages
        planned. A history that only grew goes on after its last group, or re-plans that
        group where the message that follows joins it (a user message after a tool turn:
        ``_LastPlan.joins``). None when nothing is shared.
        ``found``: the kept plan and how many groups it shares (``find``).

        ``counts``: how many of the oldest files per cell this plan's count budgets leave out
        (plan.files.Budget.excess); a group is reused only where ``same_counts(tally before
        it, the kept plan's counts, counts)`` says every file before it fares the same."""
        if found is None:
            return None
        groups, key, last, _ = found
        with self._lock:  # handed over: no longer kept, the planner goes on in its lists
            if self.plans.get(key) is not last:  # another encode took it meanwhile
                return None
            if same_counts is not None:
                counts = counts or {}
                while groups > 0 and not same_counts(last.mark(groups)[3], last.counts, counts):
                    groups -= 1
                if groups == 0:
                    return None
            start, steps, decisions, tally = last.mark(groups)
            passed = {len(last.marks): last.whole, len(last.marks) - 1: last.passed}.get(groups)
            del self.plans[key]
            del last.steps[steps:], last.decisions[decisions:], last.sources[decisions:]
            del last.marks[groups:]
        return Resumed(
            start,
            last.steps,
            last.decisions,
            last.sources,
            last.marks,
            tally,
            passed,
            last.clean,
            key,
            last.counts,
            (steps, decisions),
            last.names if groups == len(last.marks) else None,
        )

    @staticmethod
    def counted(found: Found | None) -> tuple[tuple[int, ...], int] | None:
        """The tally (plan.tally) of the messages shared with the kept plan ``found``, and
        how many those are (then the count budgets count only the rest); None where none is
        kept."""
        if found is None:
            return None
        start, _, _, tally = found[3]
        return tally, start

    def find(
        self, caps: Any, context: tuple[Hashable, ...], messages: tuple[Any, ...]
    ) -> Found | None:
        """The kept plan for this target and policy sharing the most first groups with
        ``messages``, and how many (planning asks once, for its counts and its layouts)."""
        if not self.plans:  # a process's first encode: nothing kept (read without the lock)
            return None
        prefix = (id(caps), *context)
        best: Found | None = None
        with self._lock:  # read as kept: a plan resumed meanwhile is its planner's to change
            for key, last in reversed(self.plans.items()):
                if key[:-1] != prefix or last.owner is not caps:
                    continue
                same = _shared(last.messages, messages)
                groups = bisect.bisect_left(last.marks, same, key=_START) - 1  # reusable before
                grown = same == len(last.messages) < len(messages)
                if grown and (last.joins is None or not last.joins(messages[same], same)):
                    groups = len(last.marks)  # its last group closed: all of it reused
                if groups > 0 and (best is None or groups > best[0]):
                    best = (groups, key, last, last.mark(groups))
        return best

    def remember(
        self,
        caps: Any,
        context: tuple[Hashable, ...],
        messages: tuple[Any, ...],
        plan: tuple[list[_Mark], list[Any], list[Any], list[Any]],
        passed: Any,
        replaces: _Key | None = None,
        clean: bool = False,
        counts: Mapping[Any, int] | None = None,
        *,
        whole: Any,
        tally: tuple[int, ...],
        joins: Callable[[Any, int], bool] | None,
        names: Any = None,
    ) -> None:
        """Keep a finished plan (marks, steps, decisions, their sources: the planner's own
        lists, which it hands over and no longer changes; ``passed``: the passes after the
        layout over the steps before the first group it laid out, ``whole``: over all of
        them) for the messages of ``messages``. ``replaces``: the key of the plan it resumed
        (the same history, shorter); ``clean``: no step holds a lone surrogate; ``counts``:
        the count budgets it was laid out in (plan.files.Budget.excess); ``tally``: the
        budget tally after its last group; ``joins``: whether a message would join that group
        (then a history that goes on with it lays that group out again)."""
        marks, steps, decisions, sources = plan
        key = (id(caps), *context, (len(messages), messages[0].digest, messages[-1].digest))
        entry = _LastPlan(
            caps, messages, marks, steps, decisions, sources, passed, clean, dict(counts or {}),
            tally, whole, joins, names,
        )  # fmt: skip
        with self._lock:
            if replaces is not None:
                self.plans.pop(replaces, None)
            self.plans[key] = entry
            self.plans.move_to_end(key)  # a key kept before keeps its place when set
            while len(self.plans) > PLAN_LIMIT:
                self.plans.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self.plans.clear()


def _shared(kept: tuple[Any, ...], new: tuple[Any, ...]) -> int:
    """How many first values (messages, steps) the two share: equal values, compared as whole
    tuples first (an agent's history only grows), which takes the same object as equal without
    looking into it; a message loaded anew is compared by its content."""
    if kept == new[: len(kept)]:
        return len(kept)
    same = 0
    for old, value in zip(kept, new, strict=False):
        if old != value:
            break
        same += 1
    return same


class SpelledSteps:
    """Each step's spelling per wire, by the step's content digest (``Wire.spell``), with
    what it asked of its request (ids, names: ``providers.wire.Spelling``). Bound:
    ``SPELLED_LIMIT`` steps and ``SPELLED_CHARS`` characters of strings (base64 included),
    least recently used out; a step over a quarter of that is not kept.

    The items kept are a copy of those a request was given, and a later request is given
    the kept ones: a caller who edits a request's newest messages in place (a cache mark on
    the last block) edits only that request. Items of older steps are shared with later
    requests of the same history: copy a request (``Request.to_json``) to edit those.
    """

    def __init__(self) -> None:
        #: (wire, step digest, spelling variant: Spelling.variant) -> (items, asked, characters, sizes).
        self.steps: OrderedDict[
            tuple[str, bytes, Hashable], tuple[list[Any], Any, int, list[int | None]]
        ] = OrderedDict()
        self.chars = 0
        #: Per history, its latest request's steps spelled (``providers.wire.Run``): (wire,
        #: spelling variant, run), the most recent last.
        self.runs: list[tuple[str, Hashable, Any]] = []
        self._lock = threading.Lock()

    def get(
        self, key: tuple[str, bytes, Hashable]
    ) -> tuple[list[Any], Any, list[int | None]] | None:
        found = self.steps.get(key)
        if found is None:
            return None
        with contextlib.suppress(KeyError):  # another thread let it go meanwhile
            self.steps.move_to_end(key)  # one C call: atomic, no lock needed
        return found[0], found[1], found[3]

    def keep(
        self,
        key: tuple[str, bytes, Hashable],
        items: list[Any],
        asked: Any,
        sizes: list[int | None],
    ) -> list[Any]:
        copied = _copied(items)
        copy: list[Any] = copied[0]
        chars: int = copied[1]
        if chars > SPELLED_CHARS // 4:
            return copy
        with self._lock:
            old = self.steps.pop(key, None)
            self.chars += chars - (old[2] if old is not None else 0)
            self.steps[key] = (copy, asked, chars, sizes)
            while len(self.steps) > SPELLED_LIMIT or self.chars > SPELLED_CHARS:
                self.chars -= self.steps.popitem(last=False)[1][2]
        return copy

    def take_run(self, wire: str, sign: Hashable, steps: tuple[Any, ...]) -> tuple[int, Any] | None:
        """The kept run of ``wire`` sharing the most first steps with ``steps`` (compared
        as whole tuples first: equal steps are mostly the very same objects, kept by the
        plan's own memo), and how many it shares; None when none shares one. It is handed
        over, no longer kept: the request cuts and grows its lists, then keeps it again
        (``keep_run``). A request of the same history spelled meanwhile in another thread
        finds none and spells from each step's kept items."""
        with self._lock:
            best: tuple[int, Any] | None = None
            for name, signs, run in self.runs:
                if name == wire and signs == sign:
                    same = _shared(run.steps, steps)
                    if same and (best is None or same > best[0]):
                        best = (same, run)
            if best is not None:
                self.runs = [kept for kept in self.runs if kept[2] is not best[1]]
        return best

    def keep_run(self, wire: str, sign: Hashable, run: Any) -> None:
        with self._lock:
            self.runs.append((wire, sign, run))
            del self.runs[:-RUN_LIMIT]

    def clear(self) -> None:
        with self._lock:
            self.steps.clear()
            self.runs = []
            self.chars = 0


class Kept:
    """Values kept by a content key (``tools``, ``tool_fragments``, ``fitted_images``): at
    most ``limit`` values and ``chars`` characters (a fitted image's: its bytes), least
    recently used out; a value over a quarter of ``chars`` is not kept. Its users keep only values that are read-only or read as copies."""

    def __init__(self, limit: int, chars: int = TOOLS_CHARS) -> None:
        self.limit = limit
        self.max_chars = chars
        #: key -> (the value, its characters); most recently used last.
        self.entries: OrderedDict[Hashable, tuple[Any, int]] = OrderedDict()
        self.chars = 0
        self._lock = threading.Lock()

    def get(self, key: Hashable) -> Any:
        found = self.entries.get(key)
        if found is None:
            return None
        with contextlib.suppress(KeyError):  # another thread let it go meanwhile
            self.entries.move_to_end(key)
        return found[0]

    def keep(self, key: Hashable, value: Any, chars: int) -> None:
        if chars > self.max_chars // 4:
            return
        with self._lock:
            old = self.entries.pop(key, None)
            self.chars += chars - (old[1] if old is not None else 0)
            self.entries[key] = (value, chars)
            while len(self.entries) > self.limit or self.chars > self.max_chars:
                self.chars -= self.entries.popitem(last=False)[1][1]

    def clear(self) -> None:
        with self._lock:
            self.entries.clear()
            self.chars = 0


def _copied(value: Any) -> tuple[Any, int]:
    """A copy of a spelled item (JSON-shaped: its dicts and lists new, its strings, bytes and
    numbers shared, as ``copy.deepcopy`` would), and the characters (and bytes) of every
    string it holds, keys included: the size the memo's bound counts. One walk makes both, as
    each turn of an agent keeps the items of its new steps."""
    if isinstance(value, str | bytes):
        return value, len(value)
    if isinstance(value, dict):
        copy, chars = {}, 0
        for key, item in value.items():
            copy[key], size = _copied(item)
            chars += len(key) + size
        return copy, chars
    if isinstance(value, list | tuple):
        items, chars = [], 0
        for item in value:
            kept, size = _copied(item)
            items.append(kept)
            chars += size
        return (items if isinstance(value, list) else tuple(items)), chars
    return value, 0


#: The process's memo.
MEMO = Memo()
