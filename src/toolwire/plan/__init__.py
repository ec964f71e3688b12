"""The planner: the one decider (DESIGN.md §5.1). ``plan`` reads top to bottom as its passes.

Encoders never decide. They receive a Plan whose steps are already in the order and grouping
the provider needs, with what each file becomes, the ids and names the wire gets, and which
thinking the target can verify, and only spell each step in the provider's shape:

- ``System``, ``User`` (parts: Text | File), ``Assistant`` — as in the neutral model;
- ``ToolTurn`` — the results of one *tool turn* (one assistant message's tool calls), in call
  order, each with the parts that go inside it, plus ``extra`` parts that go in the same
  provider message after all results (sibling files, and fallback files or user text where
  the provider merges).

The passes: per file route → convert → budgets (plan.files); layout per group of messages,
replay by issuer included (plan.layout), then the wire's own layout rules
(plan.wire_rules); ids (plan.ids); cache points. The budgets are measured in the layout's
own walk (plan.tally); only where that tally may break a limit are they measured exactly
(plan.budgets) and, if one binds, the groups laid out again with the oldest files left out.
Memoisation is not here: ``memo`` (a ``toolwire.memo.Memo``) comes from the ``encode``
boundary, and without it nothing is kept.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Literal

from ..capability import Capabilities, Cell
from ..counts import count_limit, oldest_left_out
from ..errors import BudgetError, ToolwireError, Unsupported, UnsupportedContentError
from ..providers import Wire, wire_named
from ..routes import Fetcher
from . import ids
from .budgets import binds, left_out
from .cache import CachePoints, cache_points
from .files import EVICT_TO, NO_BUDGET, NO_CITATIONS, READ_VISUALLY, Budget, Policy
from .layout import Planner
from .passed import NOTHING, SENT, Passed, last_message, passed
from .provider_parts import parts_left_out
from .tally import LONE, PARTS, UNSIZED, Tally, fits
from .values import (
    BRIDGE_TEXT,
    Decision,
    Limit,
    Mode,
    OnBudget,
    OnUnsupported,
    Plan,
    PlannedResult,
    Position,
    Repeat,
    Resize,
    Step,
    ToolTurn,
    label_see,
    label_this,
    limit_sentence,
    see_text,
)
from .wire_rules import check_wire_rules

if TYPE_CHECKING:
    from ..memo import Found, Resumed

__all__ = [
    "BRIDGE_TEXT", "CachePoints", "Decision", "Limit", "Mode", "OnBudget", "OnUnsupported", "Plan",
    "PlannedResult", "Position", "Repeat", "Resize", "Step", "ToolTurn", "label_see",
    "label_this", "plan", "see_text",
]  # fmt: skip


def plan(
    messages: Sequence[Any],
    caps: Capabilities,
    *,
    on_unsupported: OnUnsupported = "error",
    on_budget: OnBudget = "evict",
    evict_to: float = EVICT_TO,
    fetch: Fetcher | None = None,
    fit: Callable[..., Any] | None = None,
    memo: Any = None,
    reserve: int = 0,
    cache: bool = False,
    tools: bool = False,
    converters: Mapping[str, Callable[..., Any]] | None = None,
    evicted: Mapping[tuple[int, int], Limit] | None = None,
) -> Plan:
    """Lay ``messages`` out for the target described by ``caps``.

    Raises UnsupportedContentError listing every file no route can carry (unless
    ``on_unsupported="text"``; ``"convert"`` converts them: plan.convert, with the caller's
    ``converters`` first) and ConversationError for tool turns that break the rules. A file a
    request budget leaves out is described instead (``on_budget="evict"``) or refused with a
    BudgetError (``"error"``); a budget that binds is brought down to ``evict_to`` of it.
    ``evicted``: files ((message index, id)) a budget measured outside the plan leaves out as
    well (the context window: plan.context), with the limit that does.
    """
    if on_unsupported not in ("error", "convert", "text"):
        raise ToolwireError(
            f'on_unsupported must be "error", "convert" or "text", not {on_unsupported!r}'
        )
    if on_budget not in ("evict", "error"):
        raise ToolwireError(f'on_budget must be "evict" or "error", not {on_budget!r}')
    if isinstance(evict_to, bool) or not isinstance(evict_to, int | float) or not 0 < evict_to <= 1:
        raise ToolwireError(
            f"evict_to is a share of each limit, above 0 and at most 1, not {evict_to!r}"
        )
    messages = tuple(messages)
    fetch = _once(fetch) if fetch is not None else None  # the layout may run twice
    policy = Policy(
        caps, on_unsupported, fetch, fit, tuple(converters.items()) if converters else (),
        on_budget=on_budget, evict_to=float(evict_to),
    )  # fmt: skip
    # Count budgets (how many of each cell's oldest files are left out) are counted first,
    # from the media types alone: a file they leave out is never routed or downloaded. The
    # other budgets are measured exactly before the layout where conversions count or a
    # measured body overshot; else in the layout's walk (plan.tally), and exactly only if
    # that may bind.
    exact = reserve > 0 or (on_unsupported == "convert" and binds(caps.budgets)) or bool(evicted)
    kept = None  # the kept plan of this history (memo.LastPlans), asked once
    if memo is not None and fetch is None and messages:
        kept = memo.last.find(caps, _context(policy), messages)
    excess = (
        _counts(messages, policy, memo.last.counted(kept) if kept else None)
        if caps.has_count_limits
        else {}
    )
    budget = Budget(excess) if excess else NO_BUDGET
    if exact:
        policy, budget = _budgets(messages, policy, reserve, memo, excess, evicted)
    wire = wire_named(caps.wire)
    planner, scrub, resumed = _groups(messages, policy, budget, memo, kept)  # route → … → budgets
    if not exact and not fits(planner.tally, caps, excess=excess):
        policy, budget = _budgets(messages, policy, reserve, memo, excess)
        if budget.left or budget.refit or budget.shrunk:  # the oldest left out: laid out again
            if resumed is not False:  # the count budgets' layout, kept for the next encode
                _remember(messages, planner, _passes(planner, resumed, wire), resumed, scrub, memo)
            planner, scrub, resumed = _groups(messages, policy, budget, memo, kept)
    if planner.unsupported:
        raise _refused(caps, planner.unsupported)
    before, whole = _passes(planner, resumed, wire)
    check_wire_rules(whole.ruled, wire, caps, start=last_message(before.ruled))
    names = ids.ToolNames.of(whole.ruled, wire, resumed.names if resumed else None)
    if resumed is not False:  # kept for the next encode of this history (memo.LastPlans)
        _remember(messages, planner, (before, whole), resumed, scrub, memo, names)
    citations, decided = _citations(caps, whole)
    return Plan(
        caps,
        whole.ruled,
        decided,
        names=names,  # ids: tool-call ids and names
        wire=wire,
        scrub=scrub,  # ids: a step (or, measured by the tally, a message) holds a lone surrogate
        sign_first_call=caps.thought_signatures == "required",
        pdf_citations=citations,
        reasoning_replay=_reasoning_replay(caps),
        text_parts=caps.text_parts,
        cache=cache_points(whole.ruled, caps, tools) if cache else None,  # plan.cache
        bound=None if planner.tally[UNSIZED] else planner.tally.bound,
        system=whole.system_text,
        parts_left_out=(
            parts_left_out(messages, caps.issuer, caps.wire) if planner.tally[PARTS] else ()
        ),  # walked only where the messages hold provider parts
    )


def _passes(
    planner: Planner, resumed: Resumed | None | Literal[False], wire: Wire
) -> tuple[Passed, Passed]:
    """The passes after the layout (plan.passed) over the steps before the layout went on
    from a kept plan, and over all of them: carried on from the kept plan's passes, its
    decisions recounted where the count budgets changed."""
    layout = (planner.steps, planner.decisions, planner.sources)
    if not resumed:
        return NOTHING, passed(NOTHING, *layout, wire)
    before = resumed.passed if resumed.passed is not None else NOTHING
    excess = planner.budget.excess
    if resumed.counts != excess:  # the kept groups' decisions: recounted
        kept = resumed.upto[1]
        planner.decisions[:kept] = _recounted(planner.decisions[:kept], excess)
        before = replace(before, marked=tuple(_recounted(before.marked, excess)))
    before = passed(before, *layout, wire, upto=resumed.upto)  # the kept ones may stop short
    return before, passed(before, *layout, wire)


def _citations(caps: Capabilities, whole: Passed) -> tuple[bool, tuple[Decision, ...]]:
    """Whether the request's PDFs go with document citations on: where the target's table
    says so and every document it sends is a PDF, as citations go on all of a request's
    documents or none (Anthropic's citations guide) and Converse takes them on PDFs and text
    only. Each PDF sent notes which it is."""
    facts, decisions = caps.pdf_citations, whole.marked
    documents, pdfs = whole.documents
    if facts is None or not facts.enabled or not pdfs:
        return False, decisions
    cited = pdfs == documents
    note = READ_VISUALLY if cited else NO_CITATIONS
    return cited, tuple(
        replace(d, notes=(*d.notes, note)) if _is_sent_pdf(d) else d for d in decisions
    )


def _is_sent_pdf(decision: Decision) -> bool:
    return (
        decision.mode in SENT
        and decision.kind == "document"
        and decision.media_type == "application/pdf"
    )


def _reasoning_replay(caps: Capabilities) -> tuple[str, str] | None:
    """Where the target takes the model's reasoning back (the table's fact), as the plan says
    it to the wire."""
    replay = caps.reasoning_replay
    return (replay.field, replay.on) if replay is not None else None


def _counts(
    messages: tuple[Any, ...], policy: Policy, counted: tuple[tuple[int, ...], int] | None
) -> dict[Cell, int]:
    """How many of each count-limited cell's oldest files the request leaves out
    (counts.oldest_left_out): counted from the messages a kept plan of this history has not
    counted yet (memo.LastPlans: its tally counts each counted cell's files)."""
    caps = policy.caps
    if counted is None:
        return oldest_left_out(messages, caps, None, policy.evict_to)
    tally, start = counted
    slots = caps.counted_order
    before = {c: tally[LONE + 1 + slots[id(c)]] for c in caps.counted_cells}
    return oldest_left_out(messages[start:], caps, before, policy.evict_to)


def _budgets(
    messages: Sequence[Any],
    policy: Policy,
    reserve: int,
    memo: Any,
    excess: dict[Cell, int],
    evicted: Mapping[tuple[int, int], Limit] | None = None,
) -> tuple[Policy, Budget]:
    """The request budgets measured exactly (plan.budgets) on the files the count budgets
    (``excess``) keep: the oldest files they leave out, the images they re-fit, the
    conversions they shrink."""
    measures = memo.measures if memo is not None else None
    fitted = left_out(messages, policy.caps, policy.fit, reserve, policy, measures, excess)
    policy = replace(policy, shrunk=fitted.shrunk)  # converted images the budgets keep
    left = {**fitted.left, **(evicted or {})}
    budget = Budget(excess, left=left, refit=fitted.refit, shrunk=fitted.shrunk)
    return policy, budget


def _once(fetch: Fetcher) -> Fetcher:
    """``fetch``, downloading each URL once for one plan (its budgets and layouts share it)."""
    fetched: dict[str, bytes] = {}

    def fetch_once(url: str) -> bytes:
        if url not in fetched:
            fetched[url] = fetch(url)
        return fetched[url]

    return fetch_once


def _refused(caps: Capabilities, files: list[Unsupported]) -> ToolwireError:
    """The error for the files refused: those no route carries (UnsupportedContentError),
    else those a request budget left out (BudgetError, with ``on_budget="error"``)."""
    unsupported = [f for f in files if f.limit is None]
    if unsupported:
        return UnsupportedContentError(_target(caps), unsupported, caps.accepted())
    return BudgetError(_target(caps), files)


def _target(caps: Capabilities) -> str:
    return f"{caps.provider}:{caps.model}"


def _groups(
    messages: tuple[Any, ...], policy: Policy, budget: Budget, memo: Any, kept: Found | None
) -> tuple[Planner, bool, Resumed | None | Literal[False]]:
    """The layout of every group, whether a step holds a lone surrogate (plan.ids), and the
    kept plan it resumed (None: none; False: a plan that is not kept). ``kept``: the kept plan
    this history shares the most with (memo.LastPlans.find).

    A history resumes from the kept plan it shares the most first groups with
    (memo.LastPlans: equal messages, not the same objects), with the tally of the groups before
    (plan.tally) and, if its steps held no lone surrogate, without walking them again. The
    tally's count of messages holding one answers for the steps unless a file became text
    toolwire made (a conversion or a text fallback): every other string of a step is one of
    the messages' or ASCII."""
    pages = memo.measures.pages if memo is not None else None
    planner = Planner(policy, budget, Tally(policy.caps, policy.fit, pages))
    counted = not (budget.left or budget.refit or budget.shrunk)  # count budgets at most
    reusable = memo is not None and counted and policy.fetch is None
    resumed = None
    if reusable and messages:
        same = _same_counts(policy.caps)
        resumed = memo.last.resume(kept, budget.excess, same)
    start, checked, decided = 0, 0, 0
    if resumed is not None:
        start = resumed.start
        planner.steps, planner.decisions = resumed.steps, resumed.decisions
        planner.sources, planner.marks = resumed.sources, resumed.marks
        planner.tally[:] = resumed.tally
        if budget.excess:  # the files of each counted cell met before it (plan.files.Budget)
            slots = policy.caps.counted_order
            budget.met.update({c: resumed.tally[LONE + 1 + slots[id(c)]] for c in budget.excess})
        checked = len(resumed.steps) if resumed.clean else 0
        decided = len(resumed.decisions) if resumed.clean else 0
    planner.run(messages, start)
    if _MADE_TEXT.isdisjoint([d.mode for d in planner.decisions[decided:]]):
        scrub = planner.tally[LONE] > 0
    else:
        scrub = ids.needs_scrub(planner.steps[checked:])
    return planner, scrub, resumed if reusable else False


def _same_counts(
    caps: Capabilities,
) -> Callable[[tuple[int, ...], Mapping[Any, int], Mapping[Any, int]], bool]:
    """Whether the files before a group fare the same under two count budgets (how many of
    each cell's oldest files are left out: plan.files.Budget.excess), given the tally before
    the group (plan.tally counts each counted cell's files): true where, per cell, as many of
    the files before it are left out under both."""
    slots = caps.counted_order

    def same(tally: tuple[int, ...], kept: Mapping[Any, int], now: Mapping[Any, int]) -> bool:
        for cell in kept.keys() | now.keys():
            met = tally[LONE + 1 + slots[id(cell)]]
            if min(met, kept.get(cell, 0)) != min(met, now.get(cell, 0)):
                return False
        return True

    return same


def _recounted(decisions: Sequence[Decision], excess: Mapping[Any, int]) -> list[Decision]:
    """The decisions, each file a count budget left out naming this request's count (how many
    of how many: ``count_limit``). A group laid out for a shorter history and resumed here
    left out the same files (``_same_counts``), with that history's count in its decisions."""
    now = {(c.max_count or 0, c.evidence): count_limit(c, n) for c, n in excess.items()}
    recounted = []
    for decision in decisions:
        old = decision.limit
        if old is not None and old.name == "max_count":
            new = now.get((old.value, old.source), old)
            if new != old:
                reason = decision.reason.replace(limit_sentence(old), limit_sentence(new))
                decision = replace(decision, limit=new, reason=reason)
        recounted.append(decision)
    return recounted


def _context(policy: Policy) -> tuple[Any, ...]:
    """The settings a kept plan is planned under, besides its target."""
    return (policy.on_unsupported, policy.fit, policy.converters, policy.on_budget, policy.evict_to)


def _remember(
    messages: tuple[Any, ...],
    planner: Planner,
    passes: tuple[Passed, Passed],
    resumed: Resumed | None,
    scrub: bool,
    memo: Any,
    names: ids.ToolNames | None = None,
) -> None:
    """Keep the plan of a history that may grow (memo.LastPlans): its layout, its ids and
    names (``names``: a grown history's carry them on), and the passes
    after the layout over the steps before the first group it laid out and over all of them
    (the next encode carries the first on where it lays the last group out again, else goes
    on from the second)."""
    if planner.unsupported or not messages:
        return
    layout = (planner.marks, planner.steps, planner.decisions, planner.sources)
    replaces = resumed.key if resumed is not None else None
    before, whole = passes
    policy = planner.policy
    memo.last.remember(
        policy.caps, _context(policy), messages, layout, before, replaces, not scrub,
        planner.budget.excess, whole=whole, tally=tuple(planner.tally),
        joins=planner.joins, names=names,
    )  # fmt: skip


#: Modes whose text toolwire made from a file's contents (plan.convert, text fallbacks).
_MADE_TEXT = frozenset(("text", "converted"))
