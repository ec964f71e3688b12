"""``fit``: a conversation brought within a token budget by shrinking old tool results.

A *turn* begins at each User message and at each Assistant message that follows a tool
result (the model's next step in a tool loop), and runs up to the next such beginning. In a
chat a turn is a user message and the replies to it; in an agent loop that runs on tool
results after one user message, each step (the assistant's message with its thinking and
tool calls, and the results of those calls) is a turn, so a long loop is not one turn that
could never be reduced. Messages before the first turn (a system prompt) belong to none.

``fit`` never touches the last ``keep_last_turns`` turns, never removes or reorders a
message, and never edits a System, User or Assistant message: so every ToolCall keeps its
ToolResult right after its assistant message, and thinking stays with its turn. What it
changes, oldest first, until the estimate (``estimate_tokens``) is within budget:

1. files in older tool results, one at a time, become their text fallback
   (``[Image: cat.png, 640x480, 24 KB]``, a PDF's declared text);
2. huge texts in older tool results (beyond ``CUT_CHARS``: a 10 MB log, a JSON dump) are cut
   to their start and a marker saying how much was left out;
3. then older tool results as a whole, one at a time, become a one-line note saying the
   output was omitted (an error result stays an error), where that is shorter.

Without ``max_tokens`` the budget is the model's context window (models.dev, through
model_facts). The request budgets of encode (DESIGN.md §5.3) hold too: files that the
target's per-request limits leave out (plan.budgets, oldest first) become their text first,
and the reductions go on while the text is beyond ``max_request_bytes``.

When even that is over budget, ContextBudgetError says how many tokens the minimum needs.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from .capability import Capabilities
from .content import File, Text
from .errors import ToolwireError
from .messages import (
    Assistant,
    ContentOutput,
    ErrorJsonOutput,
    ErrorTextOutput,
    ExecutionDeniedOutput,
    JsonOutput,
    Message,
    TextOutput,
    ToolResult,
    User,
)
from .plan.budgets import HEADROOM, text_bytes, too_large
from .plan.files import EVICT_TO
from .tokens import Estimator

#: What an omitted tool result says instead.
OMITTED = "[Output of {name} omitted to fit the context window.]"
#: Texts longer than this (characters) in older tool results are cut to it, with ``CUT``.
CUT_CHARS = 20_000
CUT = "\n[… {left:,} more characters of this output left out to fit the request budget.]"


class ContextBudgetError(ToolwireError, ValueError):
    """Even with every older tool result reduced, the conversation exceeds the budget.

    ``minimum`` is the estimate of that most reduced conversation; ``budget`` the limit asked.
    """

    def __init__(self, message: str, *, minimum: int, budget: int) -> None:
        super().__init__(message)
        self.minimum = minimum
        self.budget = budget


def fit(
    messages: Sequence[Message],
    model: str,
    max_tokens: int | None = None,
    *,
    keep_last_turns: int = 2,
    capabilities: Capabilities | Mapping[str, object] | None = None,
    fit_images: bool = True,
    evict_to: float = EVICT_TO,
) -> list[Message]:
    """``messages`` within ``max_tokens`` estimated input tokens for ``model`` (default: its
    context window) and within its request budgets.

    Returns a new list (unchanged messages are the same objects); the input is not modified.
    ``capabilities``, ``fit_images`` and ``evict_to`` mean what they mean for ``encode``:
    the files its request budgets leave out become their descriptions here. Raises
    ContextBudgetError when the last ``keep_last_turns`` turns and what cannot be reduced
    already exceed the budget.

    >>> history = fit(history, "anthropic:claude-sonnet-4-6", 150_000)   # doctest: +SKIP
    """
    max_tokens = _checked(model, max_tokens, keep_last_turns)
    estimator = Estimator(model, capabilities, fit_images=fit_images)
    protected = protected_start(messages, keep_last_turns)
    out = within_budgets(list(messages), estimator.caps, fit_images, evict_to)
    sizes = [estimator.message(i, m)[0] for i, m in enumerate(out)]
    total = sum(sizes)
    text = Bytes(out, estimator.caps)
    for index, changed, always in _reductions(out, protected):
        if total <= max_tokens and text.fits:
            return out
        new_size = estimator.message(index, changed)[0]
        if always or new_size < sizes[index] or text.shrinks(out[index], changed):
            text.replace(out[index], changed)
            out[index] = changed
            total += new_size - sizes[index]
            sizes[index] = new_size
    if total <= max_tokens and text.fits:
        return out
    if total <= max_tokens:
        raise too_large(estimator.caps, text.size)
    raise _over_budget(model, max_tokens, total, sum(sizes[protected:]), keep_last_turns)


def _checked(model: str, max_tokens: int | None, keep_last_turns: int) -> int:
    """``max_tokens`` (the model's context window when None), both limits non-negative."""
    if max_tokens is None:
        max_tokens = _context_window(model)
    if max_tokens < 0 or keep_last_turns < 0:
        raise ToolwireError(
            f"fit needs max_tokens >= 0 and keep_last_turns >= 0, not {max_tokens} and "
            f"{keep_last_turns}"
        )
    return max_tokens


def protected_start(messages: Sequence[Any], keep_last_turns: int) -> int:
    """Index of the first message of the last ``keep_last_turns`` turns (0 when there are no
    more turns than that, ``len(messages)`` when ``keep_last_turns`` is 0)."""
    if keep_last_turns == 0:
        return len(messages)
    starts = [
        i
        for i, m in enumerate(messages)
        if isinstance(m, User)
        or (isinstance(m, Assistant) and i > 0 and isinstance(messages[i - 1], ToolResult))
    ]
    return starts[-keep_last_turns] if len(starts) > keep_last_turns else 0


def _reductions(messages: list[Any], protected: int) -> Iterator[tuple[int, ToolResult, bool]]:
    """Each step, oldest first: (index, reduced message, whether it applies even when it is
    not smaller). Files first (each one always becomes text), then whole results.

    Reads ``messages`` as the caller updates it, so each step builds on the previous ones.
    """
    for index in range(protected):
        while _has_files(messages[index]):
            yield index, _first_file_as_text(messages[index]), True
    for index in range(protected):
        cut = _cut(messages[index])
        if cut is not None:
            yield index, cut, False
    for index in range(protected):
        result = messages[index]
        if isinstance(result, ToolResult) and not isinstance(result.output, ExecutionDeniedOutput):
            yield index, _omitted(result), False


def _has_files(message: Any) -> bool:
    """A tool result with a File in its output."""
    if not isinstance(message, ToolResult) or not isinstance(message.output, ContentOutput):
        return False
    return any(isinstance(part, File) for part in message.output.value)


def _first_file_as_text(result: ToolResult) -> ToolResult:
    assert isinstance(result.output, ContentOutput)  # a result with files (_has_files)
    parts = list(result.output.value)
    at, file = next((i, part) for i, part in enumerate(parts) if isinstance(part, File))
    parts[at] = Text(text=file.text_fallback())
    return ToolResult(
        call_id=result.call_id, name=result.name, output=ContentOutput(value=tuple(parts))
    )


def _omitted(result: ToolResult) -> ToolResult:
    note = OMITTED.format(name=result.name)
    is_error = isinstance(result.output, ErrorTextOutput | ErrorJsonOutput)
    output = ErrorTextOutput(value=note) if is_error else TextOutput(value=note)
    return ToolResult(call_id=result.call_id, name=result.name, output=output)


def _over_budget(
    model: str, budget: int, minimum: int, protected: int, keep_last_turns: int
) -> ContextBudgetError:
    return ContextBudgetError(
        f"{model}: the conversation needs at least {minimum:,} tokens (estimated), over the "
        f"budget of {budget:,}, even with every older tool result reduced to a note; the last "
        f"{keep_last_turns} turn(s) alone take {protected:,}. Raise max_tokens, lower "
        f"keep_last_turns, or shorten the system prompt or the last turns.",
        minimum=minimum,
        budget=budget,
    )


def _context_window(model: str) -> int:
    """The model's context window in tokens (models.dev), for ``fit`` without ``max_tokens``."""
    from .model_facts import context_window

    window = context_window(model)
    if window is None:
        raise ToolwireError(
            f"fit: the context window of {model} is not known (models.dev has no entry for "
            f"it); pass max_tokens=..."
        )
    return window


def within_budgets(
    messages: list[Any], caps: Capabilities, fit_images: bool, evict_to: float = EVICT_TO
) -> list[Any]:
    """``messages`` with the files that the request budgets leave out replaced by their text,
    in tool results (user messages are never edited): the files whose Decision names a
    ``limit`` in the plan ``encode`` makes (``plan_request``), so what ``fit`` returns is
    within every budget the plan applies — bytes, images, PDF pages, a cell's ``max_count``."""
    from .request import plan_request

    target = f"{caps.provider}:{caps.model}"
    try:
        planned = plan_request(
            messages, target, on_unsupported="text", capabilities=caps, fit_images=fit_images,
            evict_to=evict_to,
        )  # fmt: skip
    except ToolwireError:  # a text too large, a corrupt image: the reductions below go on,
        return messages  # and encode says what is wrong
    left: dict[int, list[bool]] = {}  # message index -> per file, in order: left out
    for decision in planned.decisions:
        out = decision.limit is not None and decision.mode == "text"
        left.setdefault(decision.message_index, []).append(out)
    result = []
    for index, message in enumerate(messages):
        if _has_files(message) and any(left.get(index, ())):
            marks = iter(left[index])
            parts = tuple(
                Text(text=p.text_fallback()) if isinstance(p, File) and next(marks, False) else p
                for p in message.output.value
            )
            message = ToolResult(
                call_id=message.call_id, name=message.name, output=ContentOutput(value=parts)
            )
        result.append(message)
    return result


class Bytes:
    """The conversation's text bytes as the target's wire sends them (plan.budgets.text_bytes
    in the wire's JSON style: a quote or a backslash takes two bytes, a control character six,
    a non-ASCII one its UTF-8 or its ``\\u`` escapes), against its ``max_request_bytes``
    (with the headroom encode keeps): what fit returns, encode does not refuse for its text."""

    def __init__(self, messages: list[Any], caps: Capabilities) -> None:
        from .providers import wire_named

        limit = caps.budgets.max_request_bytes
        self.limit = limit - HEADROOM if limit else None
        self.style = wire_named(caps.wire).size
        self.size = self.of(messages) if limit else 0

    def of(self, messages: list[Any]) -> int:
        return text_bytes(messages, self.style)

    @property
    def fits(self) -> bool:
        return self.limit is None or self.size <= self.limit

    def shrinks(self, old: Any, new: Any) -> bool:
        return not self.fits and self.of([new]) < self.of([old])

    def replace(self, old: Any, new: Any) -> None:
        if self.limit is not None:
            self.size += self.of([new]) - self.of([old])


def _cut(message: Any) -> ToolResult | None:
    """A tool result whose text (or JSON) beyond ``CUT_CHARS`` is cut, with the marker."""
    if not isinstance(message, ToolResult):
        return None
    output = message.output
    if isinstance(output, TextOutput | ErrorTextOutput):
        text = output.value
    elif isinstance(output, JsonOutput | ErrorJsonOutput):
        text = json.dumps(output.value, ensure_ascii=False)
    else:
        return None
    if len(text) <= CUT_CHARS:
        return None
    cut = text[:CUT_CHARS] + CUT.format(left=len(text) - CUT_CHARS)
    kind = ErrorTextOutput if isinstance(output, ErrorTextOutput | ErrorJsonOutput) else TextOutput
    return ToolResult(call_id=message.call_id, name=message.name, output=kind(value=cut))
