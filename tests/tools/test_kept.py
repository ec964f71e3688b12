"""Prepared tools kept between requests (``MEMO.tools``; tools.repair.prepared_tools): keyed by
every field of the tool and the schema rules, bounded, and never changed by a caller."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

import toolwire as tw
from toolwire.capability import capabilities
from toolwire.memo import MEMO
from toolwire.request import encode
from toolwire.tools import Tool, repair
from toolwire.tools.repair import prepared_tools, tool_digest

from .helpers import MODELS, sample_tools, validate

HELLO = [tw.User("hi")]
#: Names a target refuses in three ways (Claude's key pattern, Gemini's, OpenAI strict's
#: formats), so each family's preparation differs.
ODD = Tool(
    "odd",
    "Odd names and formats.",
    {
        "type": "object",
        "properties": {
            "$filter": {"type": "string", "format": "uri"},
            "page size": {"type": "integer"},
            "tags": {"type": "array"},
        },
        "required": ["$filter"],
    },
    strict="auto",
)


@pytest.fixture(autouse=True)
def _forget() -> Any:
    forget()
    yield
    forget()


def forget() -> None:
    MEMO.tools.clear()
    MEMO.tool_fragments.clear()


def cold(model: str, tools: list[Tool], **kwargs: Any) -> dict[str, Any]:
    """The request's kwargs with nothing kept before or after."""
    forget()
    kept = encode(HELLO, model, tools=tools, **kwargs).kwargs
    forget()
    return kept


@pytest.mark.parametrize("provider", sorted(MODELS))
def test_a_kept_preparation_spells_what_a_cold_one_does(provider) -> None:
    model = MODELS[provider]
    tools = [*sample_tools(), ODD]
    first = encode(HELLO, model, tools=tools).kwargs
    assert MEMO.tools.entries  # kept
    again = encode(HELLO, model, tools=[t.model_copy() for t in tools]).kwargs
    assert again == first == cold(model, tools)
    validate(again, model)


def prepared_names(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The names of the tools prepared from now on, in order (``repair.prepare_tool`` counted)."""
    calls: list[str] = []
    prepare = repair.prepare_tool

    def counted(tool: Tool, rules: Any) -> Any:
        calls.append(tool.name)
        return prepare(tool, rules)

    monkeypatch.setattr(repair, "prepare_tool", counted)
    return calls


def test_a_tool_loaded_anew_is_not_prepared_again(monkeypatch) -> None:
    calls = prepared_names(monkeypatch)
    encode(HELLO, MODELS["openai"], tools=[ODD])
    stored = json.loads(ODD.model_dump_json())
    encode(HELLO, MODELS["openai"], tools=[Tool(**stored)])  # equal content, a new object
    assert calls == ["odd"]
    encode(HELLO, MODELS["google"], tools=[ODD])  # other rules: prepared for them
    assert calls == ["odd", "odd"]


def test_the_key_holds_the_schema_rules_the_only_capability_fact_read() -> None:
    """Two targets alike but for ``tool_schema`` get each their own preparation, whichever
    came first; and preparing reads nothing else of the capabilities."""
    model = MODELS["openai-chat"]
    as_claude = capabilities(model, {"tool_schema": "claude-on-openai-chat"})
    plain = cold(model, [ODD])
    renamed = cold(model, [ODD], capabilities=as_claude)
    assert plain != renamed
    assert encode(HELLO, model, tools=[ODD]).kwargs == plain
    assert encode(HELLO, model, tools=[ODD], capabilities=as_claude).kwargs == renamed
    assert encode(HELLO, model, tools=[ODD]).kwargs == plain

    read: set[str] = set()

    class Watched:
        def __getattr__(self, name: str) -> Any:
            read.add(name)
            return getattr(as_claude, name)

    prepared_tools([ODD, *sample_tools()], Watched(), MEMO.tools)  # type: ignore[arg-type]
    assert read == {"tool_schema"}


def test_the_digest_covers_every_field_and_takes_lone_surrogates() -> None:
    base = Tool("t", "d", {"type": "object", "properties": {"a": {}, "b": {}}})
    variants = [
        base.model_copy(update={"name": "u"}),
        base.model_copy(update={"description": "e"}),
        base.model_copy(update={"strict": True}),
        base.model_copy(update={"strict": "auto"}),
        Tool("t", "d", {"type": "object", "properties": {"b": {}, "a": {}}}),  # key order is sent
        Tool("t", "d \ud800", base.parameters),
        Tool("t", "d \ufffd", base.parameters),
    ]
    digests = {tool_digest(t) for t in [base, *variants]}
    assert len(digests) == len(variants) + 1
    assert tool_digest(variants[5]) == tool_digest(Tool("t", "d \ud800", base.parameters))


@pytest.mark.parametrize("provider", ["anthropic", "openai", "google", "bedrock", "ollama"])
def test_a_caller_editing_a_request_leaves_the_next_request_as_it_was(provider) -> None:
    model = MODELS[provider]
    tools = [*sample_tools(strict=True), ODD]
    first = encode(HELLO, model, tools=tools).kwargs
    fragment = first["config"] if provider == "google" else first  # the tools' part
    expected = copy.deepcopy(fragment)
    for key in ("tools", "toolConfig", "tool_choice"):
        _scribble(fragment.get(key))
    again = encode(HELLO, model, tools=tools).kwargs
    assert (again["config"] if provider == "google" else again) == expected


def _scribble(value: Any) -> None:
    """Change every dict and list inside ``value`` in place."""
    if isinstance(value, dict):
        for item in list(value.values()):
            _scribble(item)
        value["scribbled"] = True
    elif isinstance(value, list):
        for item in value:
            _scribble(item)
        value.append("scribbled")


def test_the_kept_tools_are_bounded(monkeypatch) -> None:
    monkeypatch.setattr(MEMO.tools, "limit", 5)
    tools = [Tool(f"t{i}", "A tool.") for i in range(12)]
    encode(HELLO, MODELS["anthropic"], tools=tools)
    assert len(MEMO.tools.entries) == 5
    assert MEMO.tools.chars == sum(chars for _, chars in MEMO.tools.entries.values())
    monkeypatch.setattr(MEMO.tools, "max_chars", 400)  # a tool over a quarter is not kept
    MEMO.tools.clear()
    big = Tool("big", "x" * 200)
    encode(HELLO, MODELS["anthropic"], tools=[big])
    assert not MEMO.tools.entries


def test_a_tool_that_cannot_be_prepared_is_refused_every_time() -> None:
    bad = Tool("bad", "", {"type": "object", "properties": {"a": {}}}, strict=True)
    for _ in range(2):
        with pytest.raises(tw.ToolDefinitionError, match="say its type"):
            encode(HELLO, MODELS["openai"], tools=[bad])
    assert not MEMO.tools.entries


@pytest.mark.parametrize("provider", ["anthropic", "bedrock", "openai", "google"])
@pytest.mark.parametrize("cache", [False, True])
def test_a_byte_budget_trusts_the_bound_with_the_tools_own_size(provider, cache) -> None:
    """With tools, the body is not measured where the plan's bound plus the kept tools
    fragment's size is within the budget, and that sum is never below the body sent; where
    it is not within, the body is measured."""
    from toolwire.plan.budgets import HEADROOM
    from toolwire.wire_size import wire_bytes

    model = MODELS[provider]
    tools = [*sample_tools(), ODD]
    for _ in range(2):  # spelled, then kept
        request = encode(HELLO, model, tools=tools, cache=cache, tool_choice="auto")
        assert request.plan is not None and request.plan.bound is not None
        assert request.size is None  # trusted: not measured
        fragment = MEMO.tool_fragments.entries
        assert len(fragment) == 1
        size = next(iter(fragment.values()))[0][1]
        body = wire_bytes(request.kwargs, request.plan.wire.size)
        assert body <= request.plan.bound + size
    tight = request.plan.bound + size + HEADROOM - 1  # the sum just over the budget
    measured = encode(
        HELLO, model, tools=tools, cache=cache, tool_choice="auto",
        capabilities=capabilities(model, {"max_request_bytes": tight}),
    )  # fmt: skip
    assert measured.size == wire_bytes(measured.kwargs, measured.plan.wire.size)  # type: ignore[union-attr]


def test_decoding_a_reply_uses_the_tools_encode_prepared(monkeypatch) -> None:
    """tw.decode(..., tools=) maps renamed parameters back with the kept preparation: an agent
    that encodes and decodes every turn prepares each tool once."""
    calls = prepared_names(monkeypatch)
    model = MODELS["anthropic"]
    sent = encode(HELLO, model, tools=[ODD]).kwargs["tools"][0]["input_schema"]["properties"]
    reply = {
        "id": "msg_1",
        "type": "message",
        "role": "assistant",
        "model": "claude-sonnet-4-5",
        "content": [
            {"type": "tool_use", "id": "toolu_1", "name": "odd", "input": dict.fromkeys(sent, 1)}
        ],
        "stop_reason": "tool_use",
        "usage": {"input_tokens": 1, "output_tokens": 1},
    }
    for _ in range(2):
        call = tw.decode(reply, model, tools=[ODD]).content[0]
        assert isinstance(call, tw.ToolCall)
        assert call.arguments == {"$filter": 1, "page size": 1, "tags": 1}
    assert calls == ["odd"]
