"""Per file, the first passes of the plan: route → convert → budgets.

- route: where the target's table lets the file go (routes.route: native, sibling,
  fallback, or "none" with the reason);
- convert: a file no route carries, converted to what the target takes, with
  ``on_unsupported="convert"`` (DESIGN.md §5.2; plan.convert). It runs when the file is
  settled (``settled``), after the budgets, so a file the budgets leave out is converted
  too;
- budgets: per-request limits (the count limits of counts.py, the request budgets of
  plan.budgets): the *oldest* files beyond them are left out, whatever their route, and
  described instead (``on_budget="evict"``) or refused with a BudgetError.

What is still "none" after the three is refused (listed in the UnsupportedContentError),
converted (``on_unsupported="convert"``) or, with ``on_unsupported="text"``, replaced by its
text fallback: ``Settled``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..capability import Capabilities, Cell
from ..content import File, text_part
from ..counts import count_limit
from ..routes import Fetcher, Route, route
from .values import Limit, Mode, OnBudget, OnUnsupported, limit_sentence

Fit = Callable[[File, Cell], tuple[File, str | None]]

#: A budget that binds is brought down to this share of its limit, so that the requests of
#: the next turns start alike (prompt caches keep serving them): plan.budgets, counts. Half:
#: each step frees room for as many files as it keeps, so a loop of large screenshots still
#: reuses the cached prefix on most turns (bench/budgets.py --cache).
EVICT_TO = 0.5


@dataclass(frozen=True)
class Policy:
    """What every file of one plan is decided with: the target and the caller's choices."""

    caps: Capabilities
    on_unsupported: OnUnsupported
    fetch: Fetcher | None
    fit: Fit | None
    #: The caller's converters (``encode(..., converters=)``) as (pattern, fn) pairs.
    converters: tuple[tuple[str, Any], ...] = ()
    #: id(File) -> (at most this many images its conversion makes, the note, the budget that
    #: bound): the request budgets (plan.budgets) take an old conversion's images first.
    shrunk: Any = None
    on_budget: OnBudget = "evict"
    #: Where a budget that binds is brought down to (a share of its limit): plan.budgets.
    evict_to: float = EVICT_TO


@dataclass(frozen=True)
class Settled:
    """One file's outcome: its mode and what is sent (the File, or a Text for text mode;
    for "converted", the (mode, part) pairs of plan.convert); ``refused`` carries the reason
    when nothing is sent and the policy is "error"."""

    mode: Mode
    sent: Any
    reason: str
    notes: tuple[str, ...] = ()
    refused: str | None = None
    converted_to: Any = None
    limit: Limit | None = None


def routed(file: File, in_tool_result: bool, policy: Policy) -> Route:
    """Pass 1, route: the best route the target's table gives ``file`` at its position."""
    return route(file, in_tool_result, policy.caps, policy.fetch, policy.fit)


@dataclass
class Budget:
    """Pass 3, budgets: per cell with a ``max_count``, how many of its files, oldest first,
    one request leaves out (counts.oldest_left_out), and how many were met so far; ``left``:
    (message index, id(File)) -> the limit that leaves that occurrence out, the oldest media
    beyond the request's budgets (plan.budgets); ``refit``: id(File) -> the image re-fitted
    to the bytes left."""

    excess: dict[Cell, int]
    met: dict[Cell, int] = field(default_factory=dict)
    left: dict[tuple[int, int], Limit] = field(default_factory=dict)
    refit: dict[int, tuple[File, str, Limit]] = field(default_factory=dict)
    shrunk: dict[int, tuple[int, str, Limit]] = field(default_factory=dict)

    @property
    def binds(self) -> bool:
        """Whether a budget changes some file (earlier layouts cannot be reused then)."""
        return bool(self.excess or self.left or self.refit or self.shrunk)

    def counted_out(self, file: File, caps: Capabilities) -> Route | None:
        """The "none" route naming the limit for a file a count budget leaves out (its cell's
        oldest files), asked before the file is routed, so that such a file is never
        downloaded; None for a file the counts keep. Each call counts ``file`` against its
        cell (the cell of its media type, as counts.oldest_left_out counts). The counts come
        first: they count every file of the conversation, those the request's other budgets
        leave out too, so both leave out the oldest."""
        cell = caps.cell(file.media_type)
        if cell is None or cell not in self.excess:
            return None
        met = self.met[cell] = self.met.get(cell, 0) + 1
        if met > self.excess[cell]:
            return None
        limit = count_limit(cell, self.excess[cell])
        return Route("none", file, limit_sentence(limit), (), cell, limit)

    def admitted(self, file: File, chosen: Route, index: int = -1) -> Route:
        """``chosen``, or a "none" route naming the limit for a file the request's other
        budgets leave out (a count budget's: ``counted_out``), or the image they re-fit.
        (Most plans have no budget: ``NO_BUDGET``, which the layout does not ask.)"""
        if self.left and (index, id(file)) in self.left:
            limit = self.left[(index, id(file))]
            return Route("none", file, limit_sentence(limit), (), chosen.cell, limit)
        if self.refit and id(file) in self.refit and chosen.mode != "none":
            smaller, note, limit = self.refit[id(file)]
            return Route(chosen.mode, smaller, chosen.reason, (note,), chosen.cell, limit)
        return chosen


#: The budget of a plan whose request budgets were not measured (the tally found the
#: conversation within every limit: plan.tally), shared: nothing of it is ever changed.
NO_BUDGET = Budget({})


def settled(
    file: File, chosen: Route, policy: Policy, in_tool_result: bool = True, text_above: bool = False
) -> Settled:
    """A carried file as routed; else its refusal, its conversion or its text. ``text_above``:
    the message holds the file's declared text before it (read_file's results)."""
    if chosen.mode != "none":
        return Settled(chosen.mode, chosen.file, chosen.reason, chosen.notes, limit=chosen.limit)
    if chosen.limit is not None and policy.on_budget == "error":  # a budget leaves it out
        return _evicted(file, chosen, policy, text_above)
    if policy.on_unsupported == "convert":
        from .convert import conversion

        return conversion(file, chosen, policy, in_tool_result)
    if chosen.limit is not None:  # a request budget leaves the file out
        return _evicted(file, chosen, policy, text_above)
    if policy.on_unsupported == "error":
        if text_above:  # nothing is lost: the message holds what the model would read of it
            reason = f"its description sent, its text being above it: {chosen.reason}"
            return Settled("text", text_part(text_fallback(file, True)), reason)
        return Settled("text", text_part(""), chosen.reason, refused=chosen.reason)
    reason = f"replaced by its text fallback: {chosen.reason}"
    return Settled("text", text_part(text_fallback(file, text_above)), reason)


def _evicted(file: File, chosen: Route, policy: Policy, text_above: bool) -> Settled:
    """A file a request budget leaves out: its description (``evicted_text``), or, with
    ``on_budget="error"``, refused (the planner raises BudgetError)."""
    limit = chosen.limit
    if policy.on_budget == "error":
        return Settled("text", text_part(""), chosen.reason, refused=chosen.reason, limit=limit)
    reason = f"left out, its description sent instead: {chosen.reason}"
    return Settled("text", text_part(evicted_text(file, text_above)), reason, limit=limit)


def evicted_text(file: File, text_above: bool) -> str:
    """What the model reads for a file left out of a request: the file's description, and
    its declared text unless the message already holds it above the file. The same on every
    request (no count or budget in it), so a prompt cache keeps serving it."""
    if text_above:
        return file.description(f"{_LEFT_OUT}; its text is above")
    head = file.description(_LEFT_OUT)
    return f"{head}\n{file.text}" if file.text else head


def text_fallback(file: File, text_above: bool) -> str:
    """A file's text fallback (``File.text_fallback``), without the declared text the
    message already holds above it (read_file puts a PDF's text both in its header and in
    the File's ``text``)."""
    return file.description("its text is above") if text_above else file.text_fallback()


_LEFT_OUT = "left out of this request for size"
#: The note of a PDF sent with document citations enabled (``Capabilities.pdf_citations``).
READ_VISUALLY = (
    "sent with document citations enabled, so the model reads its pages as images and text "
    "(without them Converse sends its extracted text only)"
)
#: Its note where the request also holds documents of other types (plan._citations).
NO_CITATIONS = (
    "sent without document citations, as the request also holds documents other than PDFs "
    "(citations go on all of a request's documents or none): the model reads its text only"
)
