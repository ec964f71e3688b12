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
from typing import Any

from ..capability import Capabilities
from ..counts import oldest_left_out
from ..errors import ToolwireError, UnsupportedContentError
from ..messages import ToolResult, base_type
from ..providers import wire_named
from ..routes import Fetcher
from ..sources import BytesSource
from . import ids
from .budgets import binds, left_out
from .cache import CachePoints, cache_points
from .files import NO_BUDGET, Budget, Policy
from .layout import Planner
from .tally import LONE, Tally, fits
from .values import (
    BRIDGE_TEXT,
    Decision,
    Limit,
    Mode,
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
    render_reason,
    see_text,
    system_text,
)
from .wire_rules import check_wire_rules, wire_rules

__all__ = [
    "BRIDGE_TEXT", "CachePoints", "Decision", "Limit", "Mode", "OnUnsupported", "Plan",
    "PlannedResult", "Position", "Repeat", "Resize", "Step", "ToolTurn", "label_see",
    "label_this", "mark_repeats", "plan", "see_text",
]  # fmt: skip


def plan(
    messages: Sequence[Any],
    caps: Capabilities,
    *,
    on_unsupported: OnUnsupported = "error",
    fetch: Fetcher | None = None,
    fit: Callable[..., Any] | None = None,
    memo: Any = None,
    reserve: int = 0,
    cache: bool = False,
    tools: bool = False,
    converters: Mapping[str, Callable[..., Any]] | None = None,
) -> Plan:
    """Lay ``messages`` out for the target described by ``caps``.

    Raises UnsupportedContentError listing every file no route can carry (unless
    ``on_unsupported="text"``; ``"convert"`` converts them: plan.convert, with the caller's
    ``converters`` first) and ConversationError for tool turns that break the rules.
    """
    if on_unsupported not in ("error", "convert", "text"):
        raise ToolwireError(
            f'on_unsupported must be "error", "convert" or "text", not {on_unsupported!r}'
        )
    messages = list(messages)
    fetch = _once(fetch) if fetch is not None else None  # the layout may run twice
    policy = Policy(
        caps, on_unsupported, fetch, fit, tuple(converters.items()) if converters else ()
    )
    # Budgets: measured exactly before the layout where conversions count or a measured body
    # overshot; else in the layout's walk (plan.tally), and exactly only if that may bind.
    exact = reserve > 0 or (on_unsupported == "convert" and binds(caps.budgets))
    budget = NO_BUDGET
    if exact:
        policy, budget = _budgets(messages, policy, reserve, memo)
    planner, scrub = _groups(messages, policy, budget, memo)  # route → … → budgets
    if not exact and not fits(planner.tally, caps):
        policy, budget = _budgets(messages, policy, reserve, memo)
        if budget.binds:  # the oldest files left out: laid out again
            planner, scrub = _groups(messages, policy, budget, memo)
    if planner.unsupported:
        raise UnsupportedContentError(_target(caps), planner.unsupported, caps.accepted())
    wire = wire_named(caps.wire)
    steps = wire_rules(tuple(planner.steps), wire)  # layout: the wire's rules
    check_wire_rules(steps, wire, caps)
    names = ids.ToolNames.of(steps, wire)  # ids: tool-call ids and names
    return Plan(
        caps,
        steps,
        mark_repeats(planner.decisions, planner.sources),
        names=names,
        wire=wire,
        scrub=scrub,  # ids: a step (or, measured by the tally, a message) holds a lone surrogate
        sign_first_call=caps.thought_signatures == "required",
        cache=cache_points(steps, caps, tools) if cache else None,  # cache points (plan.cache)
        bound=planner.tally.bound,
        system=system_text(steps),
    )


def _budgets(messages: list[Any], policy: Policy, reserve: int, memo: Any) -> tuple[Policy, Budget]:
    """The request budgets measured exactly (plan.budgets, counts): the oldest files they leave
    out, the images they re-fit, the conversions they shrink."""
    caps = policy.caps
    measures = memo.measures if memo is not None else None
    fitted = left_out(messages, caps, policy.fit, reserve, policy, measures)
    policy = replace(policy, shrunk=fitted.shrunk)  # converted images the budgets keep
    budget = Budget(oldest_left_out(messages, caps), left=fitted.left, refit=fitted.refit,
                    shrunk=fitted.shrunk)  # fmt: skip
    return policy, budget


def _once(fetch: Fetcher) -> Fetcher:
    """``fetch``, downloading each URL once for one plan (its budgets and layouts share it)."""
    fetched: dict[str, bytes] = {}

    def fetch_once(url: str) -> bytes:
        if url not in fetched:
            fetched[url] = fetch(url)
        return fetched[url]

    return fetch_once


def _target(caps: Capabilities) -> str:
    return f"{caps.provider}:{caps.model}"


def _groups(messages: list[Any], policy: Policy, budget: Budget, memo: Any) -> tuple[Planner, bool]:
    """The layout of every group, and whether a step holds a lone surrogate (plan.ids).

    A history resumes from the kept plan it shares the most first groups with
    (memo.LastPlans), with the tally of the groups before (plan.tally) and, if its steps held
    no lone surrogate, without walking them again. The tally's count of messages holding one
    answers for the steps unless a file became text toolwire made (a conversion or a text
    fallback): every other string of a step is one of the messages' or ASCII."""
    pages = memo.measures.pages if memo is not None else None
    planner = Planner(policy, budget, Tally(policy.caps, policy.fit, pages))
    reusable = (
        memo is not None and (budget is NO_BUDGET or not budget.binds) and policy.fetch is None
    )
    context = (policy.on_unsupported, policy.fit, policy.converters)
    found = memo.last.resume(policy.caps, context, messages) if reusable else None
    start, replaces, checked = 0, None, 0
    if found is not None:
        (start, steps, decisions, sources, marks, tally), replaces, clean = found
        planner.steps, planner.decisions = list(steps), list(decisions)
        planner.sources, planner.marks = list(sources), list(marks)
        planner.tally[:] = tally
        checked = len(steps) if clean else 0
    planner.run(messages, start)
    if _MADE_TEXT.isdisjoint([d.mode for d in planner.decisions]):
        scrub = planner.tally[LONE] > 0
    else:
        scrub = ids.needs_scrub(planner.steps[checked:])
    anchor = None  # the latest tool result: a kept plan is found by it (memo.LastPlans)
    for message in reversed(messages):
        if type(message) is ToolResult or base_type(message) is ToolResult:
            anchor = message
            break
    if reusable and anchor is not None and not planner.unsupported:
        layout = (planner.marks, planner.steps, planner.decisions, planner.sources)
        memo.last.remember(policy.caps, context, messages, anchor, layout, replaces, not scrub)
    return planner, scrub


#: Modes whose text toolwire made from a file's contents (plan.convert, text fallbacks).
_MADE_TEXT = frozenset(("text", "converted"))


def mark_repeats(decisions: list[Decision], sources: list[Any]) -> tuple[Decision, ...]:
    """The decisions, where content sent earlier in the request (same bytes, same URL or file
    id) says which file of which message it repeats; ``sources``: each decision's file's.

    The repeat is still sent, so every message stays self-contained: referring back to the
    first copy on the wire differs per provider.
    """
    keys = _content_keys(sources)
    if keys is None:  # every file in-memory bytes of a length no other has: no repeat
        return tuple(decisions)
    first: dict[tuple[str, Any], Decision] = {}
    marked = []
    for decision, key in zip(decisions, keys, strict=True):
        earlier = first.get(key)
        if earlier is None:
            first[key] = decision
        else:
            repeat = Repeat(earlier.identifier, earlier.message_index)
            decision = replace(
                decision, repeats=repeat, reason=render_reason(decision.reason, repeat)
            )
        marked.append(decision)
    return tuple(marked)


def _content_keys(sources: list[Any]) -> list[tuple[str, Any]] | None:
    """A key per source, equal for the same content; None when no source can repeat another.
    In-memory bytes of a length no other in-memory file has (and no other local file to
    compare with) cannot repeat one: they are keyed by identity, and not hashed (the hash of
    every file was most of a cold encode)."""
    lengths: dict[int, int] = {}
    alone = True  # so far, every source in-memory bytes of a length of its own
    for source in sources:
        if type(source) is BytesSource:
            size = len(source.data)
            alone = alone and size not in lengths
            lengths[size] = lengths.get(size, 0) + 1
        elif source.is_local:  # a local file of another kind: every length may repeat it
            lengths, alone = {}, False
            break
        else:
            alone = False
    if alone:
        return None
    keys: list[tuple[str, Any]] = []
    for source in sources:
        if type(source) is BytesSource and lengths.get(len(source.data)) == 1:
            keys.append(("alone", id(source)))
        else:
            keys.append(("local" if source.is_local else source.type, source.sha256()))
    return keys
