"""``tw.fit`` and the request budgets (issue 14): the model's context window by default, the
same per-request limits as ``encode``, and huge old tool outputs cut with a marker."""

from __future__ import annotations

from typing import Any

import pytest
from test_budgets import photo, session

import toolwire as tw
from toolwire.content import ToolCall
from toolwire.context import CUT_CHARS
from toolwire.messages import Assistant, JsonOutput, TextOutput, ToolResult, User
from toolwire.model_facts import context_window
from toolwire.plan.budgets import RequestTooLargeError, text_bytes
from toolwire.tokens import estimate_tokens

GROQ = "groq:meta-llama/llama-4-scout-17b-16e-instruct"


def logs(sizes: list[int], json_at: int | None = None) -> list[Any]:
    """A session of tool turns returning texts of ``sizes`` characters (one as JSON)."""
    messages: list[Any] = [User(content="Read the logs.")]
    for i, size in enumerate(sizes):
        messages.append(Assistant(content=[ToolCall(id=f"c{i}", name="logs", arguments={})]))
        value: Any = {"lines": "y" * size} if i == json_at else "x" * size
        messages.append(ToolResult.of(f"c{i}", "logs", value))
    return messages


def test_without_max_tokens_fit_uses_the_models_context_window() -> None:
    model = "anthropic:claude-sonnet-4-5"
    window = context_window(model)
    assert window == 200_000
    messages = logs([300_000] * 4)
    fitted = tw.fit(messages, model)
    assert fitted == tw.fit(messages, model, max_tokens=window)
    assert estimate_tokens(fitted, model).total <= window


def test_a_10_mb_tool_result_is_cut_with_a_marker_saying_how_much_was_left_out() -> None:
    messages = logs([10_000_000, 100, 100, 100])
    fitted = tw.fit(messages, "anthropic:claude-sonnet-4-5")
    cut = fitted[2].output
    assert isinstance(cut, TextOutput) and cut.value.startswith("x" * CUT_CHARS)
    assert f"{10_000_000 - CUT_CHARS:,} more characters" in cut.value
    assert fitted[3:] == messages[3:]


def test_json_outputs_are_cut_too_and_oldest_first() -> None:
    messages = logs([2_000_000, 2_000_000, 50], json_at=0)
    assert isinstance(messages[2].output, JsonOutput)
    fitted = tw.fit(messages, GROQ, max_tokens=10**9, keep_last_turns=1)
    assert "more characters of this output left out" in fitted[2].output.value
    assert text_bytes(fitted) <= 4_000_000


def test_the_byte_budget_binds_where_tokens_do_not() -> None:
    messages = logs([1_500_000, 1_500_000, 1_500_000, 10])
    fitted = tw.fit(messages, GROQ, max_tokens=10**9)
    assert text_bytes(fitted) <= 4_000_000
    assert fitted[2].output.value.endswith("to fit the request budget.]")
    assert fitted[-4:] == messages[-4:]


def test_the_last_turns_are_never_cut() -> None:
    messages = logs([10, 5_000_000])
    with pytest.raises(RequestTooLargeError):
        tw.fit(messages, GROQ, max_tokens=10**9)


def test_files_beyond_the_request_budgets_become_their_text_oldest_first() -> None:
    messages = session([photo(i) for i in range(10)])
    fitted = tw.fit(messages, "mistral:pixtral-12b-latest", max_tokens=10**9, evict_to=1)
    texts = [m for m in fitted if isinstance(m, ToolResult) and "photo-" in str(m.output)]
    files = [
        m for m in fitted if isinstance(m, ToolResult) and isinstance(m.output.value[0], tw.File)
    ]
    assert len(files) == 8 and files[0].call_id == "call_2"
    assert texts[0].output.value[0].text.startswith("[Image: photo-0.jpg")


def test_an_unknown_context_window_asks_for_max_tokens() -> None:
    with pytest.raises(tw.ToolwireError, match="max_tokens="):
        tw.fit(logs([10]), "openai-compatible:my-local-model")
