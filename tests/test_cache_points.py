"""encode(..., cache=True) (plan/cache.py and its spelling): where the prompt-cache marks go,
how many, on which targets, and the billed-token split of toolwire.cost."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest
from tools.helpers import validate  # tests/tools: strict SDK checks, tools included

from toolwire.capability import capabilities
from toolwire.content import File, ToolCall
from toolwire.cost import BilledTokens, PromptCache
from toolwire.errors import CapabilityError, MissingDependencyError
from toolwire.messages import Assistant, System, ToolResult, User
from toolwire.request import encode
from toolwire.tools import Tool

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
ANTHROPIC = "anthropic:claude-sonnet-4-5"
BEDROCK_CLAUDE = "bedrock:us.anthropic.claude-sonnet-4-5-20250929-v1:0"
BEDROCK_NOVA = "bedrock:amazon.nova-pro-v1:0"
TOOLS = [Tool("look", "Look at the next page.", {"type": "object", "properties": {}})]


def session(turns: int, system: bool = True, pdf_at: int | None = None) -> list[Any]:
    """A system prompt, a user request, then ``turns`` tool turns, each with a text result and
    every other one an image (``pdf_at``: that turn's result is a PDF)."""
    messages: list[Any] = [System("Be brief.")] if system else []
    messages.append(User("Read the pages."))
    for k in range(turns):
        parts: list[Any] = [f"page {k}"]
        if k == pdf_at:
            parts.append(File.from_path(EXAMPLES / "report.pdf"))
        elif k % 2 == 0:
            parts.append(File.from_path(EXAMPLES / "photo.png", name=f"photo{k}.png"))
        messages.append(Assistant([ToolCall(id=f"c{k}", name="look", arguments={})]))
        messages.append(ToolResult.of(f"c{k}", "look", parts if len(parts) > 1 else parts[0]))
    return messages


def cache_controls(value: Any) -> int:
    """How many cache_control marks a payload holds, anywhere."""
    if isinstance(value, dict):
        return ("cache_control" in value) + sum(cache_controls(v) for v in value.values())
    if isinstance(value, list):
        return sum(cache_controls(v) for v in value)
    return 0


def cache_blocks(value: Any) -> list[str]:
    """The JSON path of every Bedrock cachePoint block."""
    found: list[str] = []

    def walk(node: Any, path: str) -> None:
        if isinstance(node, dict):
            if "cachePoint" in node:
                found.append(path)
            for key, child in node.items():
                walk(child, f"{path}.{key}")
        elif isinstance(node, list):
            for index, child in enumerate(node):
                walk(child, f"{path}[{index}]")

    walk(value, "")
    return found


def test_anthropic_marks_the_last_tool_the_system_prompt_and_the_request_end() -> None:
    request = encode(session(3), ANTHROPIC, tools=TOOLS, cache=True)
    kwargs = request.kwargs
    assert kwargs["tools"][-1]["cache_control"] == {"type": "ephemeral"}
    assert kwargs["system"] == [
        {"type": "text", "text": "Be brief.", "cache_control": {"type": "ephemeral"}}
    ]
    assert kwargs["cache_control"] == {"type": "ephemeral"}  # automatic: the last block
    assert cache_controls(kwargs["messages"]) == 0  # no message bytes change as the loop grows
    assert [str(p) for p in request.cache_points] == [
        "after the tools",
        "after the system prompt",
        "end of the request (automatic)",
    ]
    validate(kwargs, ANTHROPIC)


def test_anthropic_never_carries_more_than_its_four_marks() -> None:
    limit = capabilities(ANTHROPIC).cache
    assert limit is not None and limit.max_points == 4
    kwargs = encode(session(12), ANTHROPIC, tools=TOOLS, cache=True).kwargs
    assert cache_controls(kwargs) <= 4


def test_without_cache_the_request_carries_no_mark() -> None:
    for model in (ANTHROPIC, BEDROCK_CLAUDE):
        request = encode(session(3), model, tools=TOOLS)
        assert cache_controls(request.kwargs) == 0 and cache_blocks(request.kwargs) == []
        assert request.cache_points == []
    assert isinstance(encode(session(1), ANTHROPIC).kwargs["system"], str)


def test_bedrock_claude_puts_cache_points_beside_the_latest_two_tool_results() -> None:
    request = encode(session(4), BEDROCK_CLAUDE, tools=TOOLS, cache=True)
    kwargs = request.kwargs
    assert kwargs["toolConfig"]["tools"][-1] == {"cachePoint": {"type": "default"}}
    assert kwargs["system"][-1] == {"cachePoint": {"type": "default"}}
    messages = kwargs["messages"]
    marked = [
        i for i, m in enumerate(messages) if {"cachePoint": {"type": "default"}} in m["content"]
    ]
    assert marked == [len(messages) - 3, len(messages) - 1]  # the latest two tool turns
    for index in marked:
        content = messages[index]["content"]
        assert "toolResult" in content[0] and "cachePoint" in content[-1]  # beside, at the end
    inside = [p for p in cache_blocks(messages) if "toolResult" in p]
    assert inside == []  # never inside a toolResult
    assert len(cache_blocks(kwargs)) == 4
    assert [str(p) for p in request.cache_points][2:] == [
        "end of tool turn 3",
        "end of tool turn 4",
    ]
    validate(kwargs, BEDROCK_CLAUDE)


def test_bedrock_spends_the_window_on_tool_turns_when_there_are_no_tools_or_system() -> None:
    kwargs = encode(session(5, system=False), BEDROCK_CLAUDE, cache=True).kwargs
    assert len(cache_blocks(kwargs)) == 2  # the window: the latest two tool turns
    assert "system" not in kwargs


def test_bedrock_closes_the_fallback_user_message_after_the_tool_turn() -> None:
    """A PDF goes to a user message after the tool turn (and a bridge): the group ends there."""
    kwargs = encode(session(2, pdf_at=1), BEDROCK_CLAUDE, cache=True).kwargs
    last = kwargs["messages"][-1]
    assert "document" in last["content"][0] or any("document" in b for b in last["content"])
    assert last["content"][-1] == {"cachePoint": {"type": "default"}}
    validate(kwargs, BEDROCK_CLAUDE)


def test_bedrock_marks_nova_and_not_families_without_prompt_caching() -> None:
    assert cache_blocks(encode(session(2), BEDROCK_NOVA, tools=TOOLS, cache=True).kwargs)
    llama = encode(session(2), "bedrock:meta.llama4-maverick-17b-instruct-v1:0", cache=True)
    assert cache_blocks(llama.kwargs) == [] and llama.cache_points == []


@pytest.mark.parametrize(
    "model",
    ["openai:gpt-5", "openai-chat:gpt-4o", "google:gemini-2.5-pro", "mistral:mistral-large-latest"],
)
def test_targets_that_cache_automatically_get_the_same_request_with_cache(model: str) -> None:
    plain = encode(session(3), model, tools=TOOLS)
    cached = encode(session(3), model, tools=TOOLS, cache=True)
    assert json.dumps(cached.to_json(), sort_keys=True) == json.dumps(
        plain.to_json(), sort_keys=True
    )
    assert cached.cache_points == []


def breakpoints(value: Any) -> int:
    """How many prompt_cache_breakpoint marks a payload holds, anywhere."""
    if isinstance(value, dict):
        here = "prompt_cache_breakpoint" in value
        return here + sum(breakpoints(v) for v in value.values())
    if isinstance(value, list):
        return sum(breakpoints(v) for v in value)
    return 0


def test_openai_responses_from_gpt_5_6_marks_the_end_of_every_tool_turn() -> None:
    model = "openai:gpt-5.6"
    request = encode(session(3), model, tools=TOOLS, cache=True)
    outputs = [i for i in request.kwargs["input"] if i.get("type") == "function_call_output"]
    mark = {"mode": "explicit"}
    assert [o["output"][-1]["prompt_cache_breakpoint"] for o in outputs] == [mark] * 3
    assert outputs[1]["output"] == [
        {"type": "input_text", "text": "page 1", "prompt_cache_breakpoint": mark}
    ]  # a text output becomes one part to carry the mark
    assert [str(p) for p in request.cache_points] == [f"end of tool turn {n}" for n in (1, 2, 3)]
    validate(request.kwargs, model)
    assert breakpoints(encode(session(3), "openai:gpt-5.2", cache=True).kwargs) == 0


def test_openai_chat_from_gpt_5_6_marks_the_last_message_of_every_tool_turn() -> None:
    model = "openai-chat:gpt-5.6"
    kwargs = encode(session(2), model, tools=TOOLS, cache=True).kwargs
    marked = [m for m in kwargs["messages"] if breakpoints(m)]
    assert len(marked) == 2 and breakpoints(kwargs) == 2
    validate(kwargs, model)


def test_openai_keeps_its_earliest_80_marks_and_adds_no_more() -> None:
    """Marks never move (prefix stability), so past the 80 the service matches, none is added."""
    kwargs = encode(session(85, system=False), "openai:gpt-5.6", cache=True).kwargs
    assert breakpoints(kwargs) == 80
    outputs = [i for i in kwargs["input"] if i.get("type") == "function_call_output"]
    assert breakpoints(outputs[79]) == 1 and breakpoints(outputs[80:]) == 0


def test_a_cache_table_without_evidence_is_refused_naming_the_key() -> None:
    with pytest.raises(CapabilityError, match="evidence"):
        capabilities(ANTHROPIC, {"cache": {"marks": "anthropic", "max_points": 4}})


def test_a_cache_table_with_unknown_marks_is_refused() -> None:
    with pytest.raises(CapabilityError, match="marks"):
        capabilities(ANTHROPIC, {"cache": {"marks": "gemini", "evidence": "docs x"}})


def test_an_override_can_switch_marks_off() -> None:
    caps = {"cache": {"marks": "none", "evidence": "https://example.com/no-cache"}}
    request = encode(session(2), ANTHROPIC, capabilities=caps, cache=True)
    assert cache_controls(request.kwargs) == 0 and request.cache_points == []


# --- billed tokens (toolwire.cost) -----------------------------------------------------------


def run(model: str, turns: int, cache: bool) -> list[BilledTokens]:
    simulator = PromptCache(model)
    messages = session(0)
    bills = []
    for k in range(turns):
        messages += session(k + 1)[-2:]
        request = encode(messages, model, tools=TOOLS, cache=cache)
        bills.append(simulator.send(messages, request, tools=TOOLS))
    return bills


def test_anthropic_with_cache_reads_what_the_previous_request_wrote() -> None:
    bills = run(ANTHROPIC, 4, cache=True)
    first, second = bills[0], bills[1]
    assert first.cache_read == 0 and first.cache_write == first.total and first.uncached == 0
    assert second.cache_read == first.total  # the whole previous request
    assert second.cache_write == second.total - first.total
    assert (second.write_rate, second.read_rate) == (1.25, 0.1)  # capabilities.toml
    assert second.equivalents == pytest.approx(second.cache_read * 0.1 + second.cache_write * 1.25)


def test_without_cache_anthropic_bills_every_token_uncached() -> None:
    bills = run(ANTHROPIC, 3, cache=False)
    assert all(b.cache_read == b.cache_write == 0 and b.uncached == b.total for b in bills)


def test_bedrock_window_reads_the_previous_turn_and_writes_the_new_one() -> None:
    bills = run(BEDROCK_CLAUDE, 3, cache=True)
    assert bills[2].cache_read == bills[1].total
    assert bills[2].uncached == 0


def test_openai_reads_the_sent_prefix_in_128_token_steps_once_past_1024() -> None:
    bills = run("openai:gpt-5", 6, cache=False)  # automatic: no marks needed
    assert bills[0].cache_read == 0
    reads = [b.cache_read for b in bills if b.cache_read]
    assert reads and all(r % 128 == 0 and r >= 1024 for r in reads)
    assert all(b.cache_write == 0 for b in bills) and bills[-1].read_rate == 0.1


def test_openai_gpt_5_6_reads_at_its_breakpoints_and_implicitly_without_them() -> None:
    marked = run("openai:gpt-5.6", 3, cache=True)
    assert marked[2].cache_read == marked[1].total and marked[2].uncached == 0
    implicit = run("openai:gpt-5.6", 6, cache=False)  # prompt_cache_options.mode "implicit"
    assert any(b.cache_read for b in implicit) and all(b.cache_write == 0 for b in implicit)


def test_a_target_without_cache_facts_bills_everything_uncached() -> None:
    bills = run("mistral:mistral-large-latest", 2, cache=True)
    assert all(b.uncached == b.total and b.equivalents == b.total for b in bills)


def test_price_names_the_extra_to_install_when_genai_prices_is_missing(monkeypatch) -> None:
    monkeypatch.setitem(sys.modules, "genai_prices", None)  # import genai_prices fails
    with pytest.raises(MissingDependencyError, match=r"pip install 'toolwire\[prices\]'"):
        BilledTokens(1000).price(ANTHROPIC)


def test_price_comes_from_the_genai_prices_dataset() -> None:
    assert BilledTokens(1000).price(ANTHROPIC) > 0


@pytest.mark.parametrize("model", [ANTHROPIC, BEDROCK_CLAUDE])
@pytest.mark.parametrize("blank", ["", "  \n"])
def test_a_blank_system_prompt_gets_no_mark(model: str, blank: str) -> None:
    """Bedrock leaves an empty system prompt out (its mark had nowhere to go: KeyError), and
    Anthropic rejects a blank text block: the mark goes to the tool turns instead."""
    messages = [System(text=blank), *session(3, system=False)]
    request = encode(messages, model, cache=True)
    assert "after the system prompt" not in [str(p) for p in request.cache_points]
    validate(request.kwargs, model)
    system = request.kwargs.get("system")
    assert not system or all(
        "cache_control" not in b and "cachePoint" not in b for b in system if isinstance(b, dict)
    )
