"""Each target's turns with their figures: tokens (estimated) and bytes, per turn and in total."""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..capability import Capabilities, capabilities
from ..content import File, Json, Text, Thinking, ToolCall
from ..model_facts import context_window as facts_context_window
from ..plan import OnUnsupported
from ..request import plan_request, spell
from ..tokens import estimate_tokens
from .layout import Turn, laid_out


@dataclass(frozen=True)
class Target:
    """One model's view: its turns, tokens per turn and per decision, bytes, totals.

    ``decision_tokens`` maps ``id(decision)`` to its estimated tokens. ``context_window`` is
    the model's per models.dev (model_facts), or None where the dataset does not say.
    """

    model: str
    caps: Capabilities
    turns: tuple[Turn, ...]
    turn_tokens: tuple[int, ...]
    turn_bytes: tuple[int, ...]
    decision_tokens: dict[int, int]
    request_bytes: int
    context_window: int | None = None

    @property
    def total_tokens(self) -> int:
        return sum(self.turn_tokens)


def target(messages: Sequence[Any], model: str, on_unsupported: OnUnsupported) -> Target:
    """Plan ``messages`` for ``model`` once (``plan_request``, as ``encode`` does), then cut
    that plan into turns, estimate it and measure it as spelled."""
    caps = capabilities(model)
    planned = plan_request(messages, model, on_unsupported=on_unsupported, capabilities=caps)
    turns = laid_out(messages, planned)
    estimate = estimate_tokens(messages, model, on_unsupported=on_unsupported, plan=planned)
    per_turn = tuple(sum(estimate.per_message[t.first : t.last + 1]) for t in turns)
    decisions = [d for t in turns for d in t.decisions]
    tokens = estimate.for_decisions(decisions)
    decision_tokens = {id(d): n for d, n in zip(decisions, tokens, strict=True) if n is not None}
    request = spell(planned)
    request_bytes = len(json.dumps(request.to_json(), ensure_ascii=False).encode())
    return Target(
        model,
        caps,
        turns,
        per_turn,
        tuple(turn_bytes(t) for t in turns),
        decision_tokens,
        request_bytes,
        facts_context_window(model),
    )


def turn_bytes(turn: Turn) -> int:
    """Bytes the turn's parts take on the wire: text as UTF-8, files as base64 (or their URL)."""
    return sum(
        part_bytes(shown.part)
        for step in turn.steps
        for block in step.blocks
        for shown in block.parts
    )


def part_bytes(part: Any) -> int:
    if isinstance(part, File):
        if not part.source.is_local:
            return len(part.source.describe().encode())
        return 4 * math.ceil(len(part.read()) / 3)
    if isinstance(part, Text):
        return len(part.text.encode())
    if isinstance(part, Json):
        return len(part.compact().encode())
    if isinstance(part, Thinking):
        return len((part.text or part.signature or "").encode())
    if isinstance(part, ToolCall):
        return len(part.name.encode()) + len(json.dumps(part.arguments).encode())
    return 0
