"""fit(): conversations brought within a budget, and the invariants it must never break.

A turn begins at each User message and at each Assistant message right after a tool result
(the next step of a tool loop), and runs to the next such beginning. The property
test draws random conversations (system prompt, user turns, assistant messages with
thinking and parallel tool calls, tool results with text, JSON, errors, denials and files)
and random budgets, and checks every invariant on each.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from toolwire.content import File, Text, Thinking, ToolCall
from toolwire.context import OMITTED, ContextBudgetError, fit, protected_start
from toolwire.errors import ToolwireError
from toolwire.messages import (
    Assistant,
    ContentOutput,
    ExecutionDeniedOutput,
    System,
    ToolResult,
    User,
)
from toolwire.tokens import estimate_tokens

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
MODEL = "anthropic:claude-sonnet-4-5"
MODELS = [
    MODEL,
    "openai:gpt-4o",
    "google:gemini-2.5-flash",
    "google:gemini-3-pro-preview",
    "bedrock:us.anthropic.claude-sonnet-4-5-20250929-v1:0",
]


@cache
def example(name: str) -> File:
    return File.from_bytes((EXAMPLES / name).read_bytes(), name=name)


def total(messages: list[Any], model: str = MODEL) -> int:
    return estimate_tokens(messages, model).total


def shot(call_id: str, *names: str) -> list[Any]:
    """An assistant call and its result carrying the named example files."""
    call = ToolCall(id=call_id, name="look", arguments={"n": call_id})
    files = [example(n) for n in names]
    return [Assistant([call]), ToolResult.of(call_id, "look", [*files, f"seen {call_id}"])]


def three_turns() -> list[Any]:
    return [
        System("You inspect files."),
        User("First."),
        *shot("a", "photo.png", "report.pdf"),
        User("Second."),
        *shot("b", "photo.png"),
        User("Third."),
        *shot("c", "photo.png"),
    ]


def test_a_conversation_within_budget_comes_back_unchanged():
    messages = three_turns()
    fitted = fit(messages, MODEL, total(messages))
    assert all(a is b for a, b in zip(fitted, messages, strict=True))


def test_the_oldest_file_in_a_tool_result_becomes_text_first():
    messages = three_turns()
    fitted = fit(messages, MODEL, total(messages) - 1, keep_last_turns=1)
    photo, pdf, text = fitted[3].output.value
    assert photo == Text(text=example("photo.png").text_fallback())
    assert pdf == example("report.pdf")
    assert fitted[4:] == messages[4:]


def as_text(result: ToolResult) -> ToolResult:
    """The result with each file replaced by its text fallback."""
    parts = [
        Text(text=p.text_fallback()) if isinstance(p, File) else p for p in result.output.value
    ]
    return ToolResult(call_id=result.call_id, name=result.name, output=ContentOutput(value=parts))


def test_text_results_are_omitted_only_after_every_older_file_is_text():
    messages = three_turns()
    files_as_text = [as_text(m) if i in (3, 6) else m for i, m in enumerate(messages)]
    fitted = fit(messages, MODEL, total(files_as_text) - 1, keep_last_turns=1)
    assert fitted[3].output.value == OMITTED.format(name="look")
    assert fitted[6] == files_as_text[6]
    assert fitted[7:] == messages[7:]


def test_a_budget_even_the_minimum_exceeds_is_a_clear_error():
    messages = three_turns()
    with pytest.raises(ContextBudgetError, match=r"needs at least [\d,]+ tokens") as caught:
        fit(messages, MODEL, 100, keep_last_turns=1)
    error = caught.value
    assert error.minimum > 100 == error.budget
    assert "the last 1 turn(s) alone take" in str(error)
    assert total(fit(messages, MODEL, error.minimum, keep_last_turns=1)) <= error.minimum


def test_keep_last_turns_zero_lets_every_tool_result_be_reduced():
    messages = three_turns()
    fitted = fit(messages, MODEL, total(messages) - 1, keep_last_turns=0)
    assert fitted[3] != messages[3]
    assert protected_start(messages, 0) == len(messages)
    assert protected_start(messages, 5) == 0


def test_an_agent_loop_after_one_user_message_has_a_turn_per_step():
    messages = [
        User("Book a flight."),
        *shot("a", "photo.png"),
        *shot("b", "photo.png"),
        *shot("c", "photo.png"),
    ]
    assert protected_start(messages, 2) == 3  # the last two steps: calls b and c with results
    fitted = fit(messages, MODEL, total(messages) - 1)
    assert fitted[2].output.value[0] == Text(text=example("photo.png").text_fallback())
    assert fitted[3:] == messages[3:]


def test_negative_budgets_are_refused():
    with pytest.raises(ToolwireError, match="max_tokens >= 0"):
        fit(three_turns(), MODEL, -1)


def test_error_results_stay_errors_when_omitted():
    call = ToolCall(id="e", name="fail", arguments={})
    messages = [
        User("Go."),
        Assistant([call]),
        ToolResult.of("e", "fail", RuntimeError("disk full " * 200)),
        User("Again."),
    ]
    fitted = fit(messages, MODEL, total(messages) - 50, keep_last_turns=1)
    assert fitted[2].is_error
    assert fitted[2].output.value == OMITTED.format(name="fail")


# --- properties over random conversations ---------------------------------------------------

FILES = [
    "photo.png",
    "sample.webp",
    "report.pdf",
    "tone.wav",
    "notes.md",
    "clip.mp4",
    "rotated.jpg",
]
words = st.text(alphabet="abcdefghij klmnop,.0123", min_size=0, max_size=120)
outputs = st.one_of(
    words,
    st.dictionaries(st.sampled_from(["a", "b", "rows"]), st.integers(), max_size=3),
    st.lists(st.one_of(words, st.sampled_from(FILES).map(example)), min_size=1, max_size=4),
    words.map(RuntimeError),
    st.just(ExecutionDeniedOutput(reason="not allowed")),
)


@st.composite
def conversations(draw: st.DrawFn) -> list[Any]:
    messages: list[Any] = [System(draw(words))] if draw(st.booleans()) else []
    ids = iter(range(10_000))
    for _ in range(draw(st.integers(1, 5))):
        messages.append(User(draw(words) or "hi"))
        for _ in range(draw(st.integers(0, 3))):
            calls = [
                ToolCall(
                    id=f"call{next(ids)}",
                    name=draw(st.sampled_from(["look", "read"])),
                    arguments={},
                )
                for _ in range(draw(st.integers(1, 3)))
            ]
            thinking = [Thinking(text=draw(words), signature="sig", provider="anthropic")]
            messages.append(Assistant([*thinking[: draw(st.integers(0, 1))], *calls]))
            messages += [ToolResult.of(c.id, c.name, draw(outputs)) for c in calls]
        if draw(st.booleans()):
            messages.append(Assistant(draw(words) or "ok"))
    return messages


def candidate_files(messages: list[Any], protected: int) -> list[tuple[int, int]]:
    return [
        (i, j)
        for i, m in enumerate(messages[:protected])
        if isinstance(m, ToolResult) and isinstance(m.output, ContentOutput)
        for j, part in enumerate(m.output.value)
        if isinstance(part, File)
    ]


def is_omitted(result: ToolResult) -> bool:
    return getattr(result.output, "value", None) == OMITTED.format(name=result.name)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    messages=conversations(), model=st.sampled_from(MODELS), keep=st.integers(0, 3), data=st.data()
)
def test_fit_keeps_every_invariant_on_random_conversations(messages, model, keep, data):
    full = total(messages, model)
    try:
        least = fit(messages, model, 0, keep_last_turns=keep) and 0
    except ContextBudgetError as error:
        least = error.minimum
    budget = data.draw(
        st.one_of(st.integers(0, full), st.integers(min(least, full), full)), label="budget"
    )
    try:
        fitted = fit(messages, model, budget, keep_last_turns=keep)
    except ContextBudgetError as error:
        event("budget cannot be met")
        assert error.minimum > budget
        fitted = fit(messages, model, error.minimum, keep_last_turns=keep)
        budget = error.minimum
    assert total(fitted, model) <= budget
    protected = protected_start(messages, keep)
    # Nothing removed or reordered; only tool results before the last turns change.
    assert len(fitted) == len(messages)
    for before, after in zip(messages, fitted, strict=True):
        assert type(before) is type(after)
        if isinstance(before, ToolResult):
            assert (after.call_id, after.name) == (before.call_id, before.name)
        else:
            assert after is before  # assistant messages whole: thinking stays with its calls
    assert all(a is b for a, b in zip(messages[protected:], fitted[protected:], strict=True))
    # Files become their text fallback oldest first: the replaced ones are a prefix.
    spots = candidate_files(messages, protected)
    replaced = [
        not isinstance(getattr(fitted[i].output, "value", [None] * (j + 1))[j], File)
        if isinstance(fitted[i].output, ContentOutput)
        else True
        for i, j in spots
    ]
    assert replaced == sorted(replaced, reverse=True)
    for (i, j), done in zip(spots, replaced, strict=True):
        if done and isinstance(fitted[i].output, ContentOutput):
            assert fitted[i].output.value[j] == Text(
                text=messages[i].output.value[j].text_fallback()
            )
    # Whole results are omitted only once every older file is text, and oldest first.
    omitted = [
        i
        for i in range(protected)
        if isinstance(fitted[i], ToolResult)
        and is_omitted(fitted[i])
        and not is_omitted(messages[i])
    ]
    event(
        f"files replaced: {'some' if any(replaced) else 'none'}, results omitted: {bool(omitted)}"
    )
    if omitted:
        assert all(replaced)
        for i in range(omitted[-1]):
            m = fitted[i]
            if (
                isinstance(m, ToolResult)
                and i not in omitted
                and not isinstance(m.output, ExecutionDeniedOutput)
            ):
                shorter = ToolResult.of(m.call_id, m.name, OMITTED.format(name=m.name))
                assert total([m], model) <= total([shorter], model)
