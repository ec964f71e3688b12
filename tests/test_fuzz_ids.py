"""Fuzzing tool-call ids, tool names and text over every wire (toolwire.plan.ids).

Ids, names, arguments, text and thinking are drawn from every Unicode category, lone
surrogates and control characters included, plus ids other providers really send. For every
target, each encoded Request must pass the wire's strict SDK validator, its ids and names must
match the target's published rule (written out here, apart from plan.ids), the mapping
must be stable (encode twice → the same payload) and injective within the request (different
ids never share a wire id, nor different names a wire name), every call must be answered
under its own id, and the JSON of the request must encode as UTF-8.
"""

from __future__ import annotations

import importlib
import inspect
import json
import re
import unicodedata
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from toolwire.capability import capabilities
from toolwire.content import File, Text, Thinking, ToolCall
from toolwire.errors import ToolwireError
from toolwire.messages import Assistant, ToolResult, User
from toolwire.request import encode

#: One model per wire (and groq, which speaks openai_chat through its own SDK types).
MODELS = [
    "anthropic:claude-sonnet-4-5",
    "openai:gpt-5",
    "openai-chat:gpt-4.1",
    "groq:meta-llama/llama-4-scout-17b-16e-instruct",
    "google:gemini-2.5-flash",
    "google-vertex:gemini-3.1-pro",
    "bedrock:us.anthropic.claude-sonnet-4-5-20250929-v1:0",
    "bedrock:amazon.nova-pro-v1:0",
    "mistral:mistral-large-latest",
    "cohere:command-r-plus",
    "ollama:llama3.1:8b",
]
_NAME = r"[a-zA-Z0-9_-]{1,64}"
#: The published rules (see plan.ids for the sources): wire -> (id rule, name rule).
RULES: dict[str, tuple[str, str]] = {
    "anthropic": (r"[a-zA-Z0-9_-]{1,64}", _NAME),
    "openai_responses": (r"(?s).{0,64}", _NAME),
    "openai_chat": (r"(?s).{0,40}", _NAME),
    "google": (r"(?s).*", r"[a-zA-Z_][a-zA-Z0-9_.:-]{0,127}"),
    "bedrock": (r"[a-zA-Z0-9_.:-]{1,64}", _NAME),
    "mistral": (r"[a-zA-Z0-9]{9}", _NAME),
    "cohere": (r"(?s).*", r"(?s).*"),
    "ollama": (r"(?s).*", r"(?s).*"),
}
FUZZ = settings(
    max_examples=60,
    deadline=None,
    database=None,  # nothing written into the work tree
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

#: One character of each of the 30 Unicode general categories (Lu Ll Lt Lm Lo, Mn Mc Me, Nd Nl
#: No, Pc Pd Ps Pe Pi Pf Po, Sm Sc Sk So, Zs Zl Zp, Cc Cf Cs Co Cn).
EVERY_CATEGORY = (
    "Aa\u01c5\u02b0\u05d0\u0301\u0903\u20dd\u0663\u216b\u00bd\u203f\u2013()\u00ab\u00bb!+\u20ac^"
    "\u00a9\u3000\u2028\u2029\x00\u200b\ud800\ue000\u0378"
)
any_char = st.one_of(
    st.sampled_from(EVERY_CATEGORY),
    st.characters(exclude_categories=()),  # every category but surrogates
    st.characters(categories=["Cs"]),  # lone surrogates, valid in JSON as \ud800
    st.characters(categories=["Cc", "Cf", "Zl", "Zp"]),
    st.sampled_from("_-.:/ a9Z"),
)
texts = st.lists(any_char, max_size=24).map("".join)  # st.text would drop surrogates
REAL_IDS = [
    "functions.screenshot:0",  # Kimi on Groq
    "toolu_01A09q90qw90lq917835lq9",
    "call_kZ3b8fQ1x9",
    "D681PevKs",
    "tooluse_abc.def:1",
    "fc_68af401",
    "c" * 65,
    "",
]
ids = st.one_of(st.sampled_from(REAL_IDS), texts, st.text("ab_-.:", min_size=38, max_size=70))
names = st.one_of(
    st.sampled_from(["fetch", "mcp.files/read file", "3d-render", "get.weather", "n" * 70]),
    texts,
)
arguments = st.dictionaries(texts, st.one_of(texts, st.integers(), st.lists(texts, max_size=2)))


@st.composite
def histories(draw: st.DrawFn, provider: str) -> list[Any]:
    """One or two assistant turns of tool calls with distinct ids, each answered; thinking
    as if the target's provider wrote it (unsigned, so only some wires carry it)."""
    call_ids = draw(st.lists(ids, min_size=1, max_size=4, unique=True))
    split = draw(st.integers(0, len(call_ids) - 1))
    messages: list[Any] = [User("Go. " + draw(texts))]  # blank: see test_bedrock
    for turn_ids in (call_ids[: split + 1], call_ids[split + 1 :]):
        if not turn_ids:
            continue
        calls = [ToolCall(id=i, name=draw(names), arguments=draw(arguments)) for i in turn_ids]
        thinking = Thinking(text=draw(texts), provider=provider)
        messages.append(Assistant([thinking, Text(text=draw(texts)), *calls]))
        for call in calls:
            output = draw(st.one_of(texts, st.builds(lambda k, v: {k: v}, texts, texts)))
            messages.append(ToolResult.of(call.id, call.name, output))
    return messages


def validator(wire: str) -> Callable[[dict[str, Any], str], None]:
    """The wire's strict validator (tests/providers/strict_<wire>.py) as validate(kwargs, model)."""
    validate = importlib.import_module(f"providers.strict_{wire}").validate
    if len(inspect.signature(validate).parameters) == 1:
        return lambda kwargs, model: validate(kwargs)
    return validate  # type: ignore[no-any-return]


def tool_pairs(wire: str, kwargs: dict[str, Any]) -> tuple[list[tuple[str, str]], list[str]]:
    """(id, name) of every call in the payload, in order, and the id each result answers."""
    if wire == "anthropic":
        blocks = [b for m in kwargs["messages"] for b in m["content"]]
        calls = [(b["id"], b["name"]) for b in blocks if b["type"] == "tool_use"]
        return calls, [b["tool_use_id"] for b in blocks if b["type"] == "tool_result"]
    if wire == "openai_responses":
        items = kwargs["input"]
        calls = [(i["call_id"], i["name"]) for i in items if i.get("type") == "function_call"]
        return calls, [i["call_id"] for i in items if i.get("type") == "function_call_output"]
    if wire == "google":
        parts = [p for c in kwargs["contents"] for p in c["parts"]]
        calls = [
            (p["function_call"]["id"], p["function_call"]["name"])
            for p in parts
            if "function_call" in p
        ]
        return calls, [p["function_response"]["id"] for p in parts if "function_response" in p]
    if wire == "bedrock":
        blocks = [b for m in kwargs["messages"] for b in m["content"]]
        calls = [
            (b["toolUse"]["toolUseId"], b["toolUse"]["name"]) for b in blocks if "toolUse" in b
        ]
        return calls, [b["toolResult"]["toolUseId"] for b in blocks if "toolResult" in b]
    messages = kwargs["messages"]
    spelled = [c for m in messages for c in m.get("tool_calls") or []]
    key = "tool_name" if wire == "ollama" else "tool_call_id"
    results = [m[key] for m in messages if m["role"] == "tool"]
    if wire == "ollama":  # no ids on this wire: calls are answered by name, in order
        return [(c["function"]["name"], c["function"]["name"]) for c in spelled], results
    return [(c["id"], c["function"]["name"]) for c in spelled], results


def originals(messages: list[Any]) -> list[tuple[str, str]]:
    return [(p.id, p.name) for m in messages if isinstance(m, Assistant) for p in m.tool_calls]


def check_injective(pairs: list[tuple[str, str]]) -> None:
    """The same original always gets the same value, different originals different ones."""
    forward: dict[str, str] = {}
    for original, spelled in pairs:
        assert forward.setdefault(original, spelled) == spelled, f"{original!r} spelled twice"
    assert len(set(forward.values())) == len(forward), f"two originals share a value: {forward}"


def test_the_fuzzed_characters_cover_every_unicode_category() -> None:
    categories = {unicodedata.category(c) for c in EVERY_CATEGORY}
    assert len(categories) == 30 == len(EVERY_CATEGORY)


@pytest.mark.parametrize("model", MODELS)
@pytest.mark.slow
def test_fuzzed_ids_names_and_text_encode_to_valid_stable_injective_payloads(model: str) -> None:
    wire = capabilities(model).wire
    id_rule, name_rule = (re.compile(rule) for rule in RULES[wire])
    validate = validator(wire)

    @FUZZ
    @given(histories(capabilities(model).provider))
    def check(messages: list[Any]) -> None:
        request = encode(messages, model)
        validate(request.kwargs, model)
        payload = json.dumps(request.to_json(), ensure_ascii=False)
        payload.encode("utf-8")
        assert json.dumps(encode(messages, model).to_json(), ensure_ascii=False) == payload
        calls, answered = tool_pairs(wire, request.kwargs)
        sent = originals(messages)
        assert [c[0] for c in calls] == answered  # each call answered under its own id, in order
        assert all(id_rule.fullmatch(i) and name_rule.fullmatch(n) for i, n in calls), calls
        if wire != "ollama":
            check_injective([(o[0], c[0]) for o, c in zip(sent, calls, strict=True)])
        check_injective([(o[1], c[1]) for o, c in zip(sent, calls, strict=True)])

    check()


@pytest.mark.parametrize("model", MODELS)
def test_fuzzed_file_names_never_raise_anything_but_a_toolwire_error(model: str) -> None:
    """A text file named with any characters is carried, or refused with a ToolwireError."""

    @FUZZ
    @given(texts)
    def check(name: str) -> None:
        try:
            file = File.from_bytes(b"# Notes\n\nplain text\n", "text/markdown", name=name or None)
            call = ToolCall(id="call_1", name="fetch", arguments={})
            messages = [User("Go."), Assistant([call]), ToolResult.of("call_1", "fetch", file)]
            request = encode(messages, model, on_unsupported="text")
        except ToolwireError:
            return
        json.dumps(request.to_json(), ensure_ascii=False).encode("utf-8")

    check()
