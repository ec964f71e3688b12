"""Prompt-cache points: where ``encode(..., cache=True)`` puts the provider's cache marks.

The plan's last pass (DESIGN.md §5.5). It reads the target's ``cache`` facts
(capabilities.toml: ``marks``, ``max_points``) and the laid-out steps, and records
``CachePoints``; encoders only spell them. Targets whose marks are ``"none"`` (Gemini, OpenAI
before gpt-5.6: automatic caching of a byte-identical prefix) get none.

Placement, in the order the budget of ``max_points`` is spent:

1. after the last tool definition (tools come first in the provider's prompt);
2. after the system prompt;
3. at the end of the latest tool turn, where an agent loop's next request starts reading:
   - Anthropic: the request-level automatic mark (``cache_control`` beside ``messages``) that
     the service puts on the last block of the request. It takes one of the 4 slots and is
     spent first. No explicit mark goes into a message, so no message's bytes ever change
     when the conversation grows: request k is byte for byte the start of request k+1.
   - OpenAI gpt-5.6 and later: a ``prompt_cache_breakpoint`` on the last content part of
     every tool turn's group, kept for good: the service writes the latest ones a request
     carries (at most 4) and matches against the latest 80 of the conversation, so marks never
     move and never exceed ``max_points`` (80); beyond that the service's own implicit
     breakpoint carries on. Tools (function definitions) and ``instructions`` take no
     breakpoint; the first tool turn's mark covers them.
   - Bedrock (no automatic mark in Converse): a ``cachePoint`` block closing the group of
     each of the latest tool turns the remaining budget allows (the window: the latest one,
     and the one before it when tools and system take 2 of the 4 checkpoints), appended
     *beside* the ``toolResult`` blocks of that user message, never inside one. The group is
     the tool turn with the user message(s) the plan placed after it (fallback files).

Why prefixes stay stable. Tool and system marks sit in the part of the request that never
changes. Anthropic's moving mark lives outside the messages; OpenAI's marks never move.
Bedrock's window moves by one tool turn per turn: the block a turn drops is a marker, not
content (the provider matches the cached prefix on the content up to a checkpoint), and the
mark that closed request k still closes it in request k+1, so the only bytes that differ between
request k and the start of request k+1 are ``cachePoint`` blocks of the window; every content
block, message and its order is identical (tests/test_prefix_stability.py checks both rules).
A window that never drops a mark would exceed the provider's 4 checkpoints after two turns.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..capability import Capabilities
from ..messages import Assistant, System
from .values import BRIDGE, Step, ToolTurn


@dataclass(frozen=True)
class CachePoint:
    """One prompt-cache mark of a request: ``where`` is "tools", "system", "tool turn" (the end
    of the ``turn``-th tool turn's group, counted from 1) or "automatic" (the request's end)."""

    where: str
    turn: int | None = None

    def __str__(self) -> str:
        if self.where == "tool turn":
            return f"end of tool turn {self.turn}"
        if self.where == "automatic":
            return "end of the request (automatic)"
        return "after the system prompt" if self.where == "system" else "after the tools"


@dataclass(frozen=True)
class CachePoints:
    """Where the prompt-cache marks go for one request.

    ``steps``: indices of plan steps whose provider message ends with a mark; ``automatic``:
    the request-level mark on the last block (Anthropic).
    """

    marks: str
    tools: bool = False
    system: bool = False
    steps: tuple[int, ...] = ()
    automatic: bool = False

    def describe(self, steps: tuple[Step, ...]) -> list[CachePoint]:
        """Each mark, in request order (``Request.cache_points``)."""
        turns = [i for i, s in enumerate(steps) if isinstance(s, ToolTurn)]
        where = [CachePoint("tools")] if self.tools else []
        where += [CachePoint("system")] if self.system else []
        for index in self.steps:
            where.append(CachePoint("tool turn", sum(1 for t in turns if t <= index)))
        where += [CachePoint("automatic")] if self.automatic else []
        return where

    @property
    def count(self) -> int:
        """How many of the provider's cache points this request uses."""
        return int(self.tools) + int(self.system) + len(self.steps) + int(self.automatic)


def cache_points(steps: tuple[Step, ...], caps: Capabilities, tools: bool) -> CachePoints | None:
    """Where the marks go on ``caps``' target (None: the target takes no marks)."""
    facts = caps.cache
    if facts is None or facts.marks == "none" or facts.max_points == 0:
        return None
    budget = facts.max_points
    if facts.marks == "openai":
        return CachePoints("openai", steps=tuple(_group_ends(steps)[:budget]))
    automatic = facts.marks == "anthropic"
    budget -= automatic
    on_tools = tools and budget > 0 and facts.tools
    budget -= on_tools
    on_system = budget > 0 and any(isinstance(s, System) and _holds_text(s.text) for s in steps)
    budget -= on_system
    window: tuple[int, ...] = ()
    if not automatic and budget > 0:
        window = tuple(_group_ends(steps)[-min(budget, 2) :])
    return CachePoints(facts.marks, on_tools, on_system, window, automatic)


def _holds_text(text: str) -> bool:
    """A system prompt of only white space is no block to mark (Bedrock leaves an empty one
    out, and Anthropic rejects a blank text block)."""
    return bool(text) and not text.isspace()


def _group_ends(steps: tuple[Step, ...]) -> list[int]:
    """The last step of each tool turn's group, in order."""
    turns = [i for i, s in enumerate(steps) if isinstance(s, ToolTurn)]
    return sorted({_group_end(steps, i) for i in turns})


def _group_end(steps: tuple[Step, ...], start: int) -> int:
    """The last step of the group a tool turn opens: the tool turn and the user messages the
    plan placed after it (a bridge assistant message between them included)."""
    end = start
    for index in range(start + 1, len(steps)):
        step = steps[index]
        if isinstance(step, Assistant):
            if not _is_bridge(step):
                break
        elif isinstance(step, ToolTurn | System):
            break
        else:
            end = index
    return end


def _is_bridge(step: Assistant) -> bool:
    return step is BRIDGE  # the plan's own (plan.values.BRIDGE)
