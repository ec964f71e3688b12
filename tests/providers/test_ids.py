"""Tool-call ids and names every wire accepts (toolwire.plan.ids), through encode."""

from __future__ import annotations

import copy
import json
import os
import re
import subprocess
import sys
from collections.abc import Callable
from typing import Any

import pytest

from toolwire.capability import capabilities
from toolwire.content import Text, Thinking, ToolCall
from toolwire.messages import Assistant, ToolResult, User
from toolwire.plan import plan
from toolwire.plan.ids import accepted_id, accepted_name, wire_kwargs, wire_text
from toolwire.request import encode

from .strict_anthropic import validate as validate_anthropic
from .strict_bedrock import validate as validate_bedrock
from .strict_google import validate as validate_google
from .strict_mistral import validate as validate_mistral
from .strict_openai_chat import validate as validate_openai_chat
from .strict_openai_responses import validate as validate_responses

ANTHROPIC = "anthropic:claude-sonnet-4-5"
RESPONSES = "openai:gpt-5"
CHAT = "openai-chat:gpt-4.1"
GEMINI = "google:gemini-2.5-flash"
BEDROCK = "bedrock:us.anthropic.claude-sonnet-4-5-20250929-v1:0"
MISTRAL = "mistral:mistral-large-latest"
#: Published rules, written out here independently of plan.ids.
ANTHROPIC_ID = re.compile(r"[a-zA-Z0-9_-]+")
TOOL_NAME = re.compile(r"[a-zA-Z0-9_-]{1,64}")


def history(*calls: tuple[str, str]) -> list[Any]:
    """One assistant turn making each (id, name) call, and a result for each."""
    turn = Assistant([ToolCall(id=i, name=n, arguments={"q": 1}) for i, n in calls])
    return [User("Go."), turn, *(ToolResult.of(i, n, "done") for i, n in calls)]


def anthropic_ids(kwargs: dict[str, Any]) -> tuple[list[str], list[str]]:
    blocks = [b for m in kwargs["messages"] for b in m["content"]]
    uses = [b["id"] for b in blocks if b["type"] == "tool_use"]
    return uses, [b["tool_use_id"] for b in blocks if b["type"] == "tool_result"]


def test_kimi_ids_from_groq_reach_anthropic_as_valid_ids_matched_in_call_and_result() -> None:
    kwargs = encode(history(("functions.screenshot:0", "screenshot")), ANTHROPIC).kwargs
    validate_anthropic(kwargs)
    uses, results = anthropic_ids(kwargs)
    assert uses == results and ANTHROPIC_ID.fullmatch(uses[0])
    assert uses[0] == accepted_id("anthropic", "functions.screenshot:0") != "functions.screenshot:0"


@pytest.mark.parametrize("original", ["call 1", "tööl_1", "x" * 65, "", "a\ud800b"])
def test_ids_anthropic_rejects_become_valid_ids_of_at_most_64_characters(original: str) -> None:
    uses, results = anthropic_ids(encode(history((original, "t")), ANTHROPIC).kwargs)
    assert uses == results and ANTHROPIC_ID.fullmatch(uses[0]) and len(uses[0]) <= 64


@pytest.mark.parametrize(
    ("model", "original"),
    [
        (ANTHROPIC, "toolu_01A09q90qw90lq917835lq9"),
        (RESPONSES, "call_" + "a" * 59),
        (RESPONSES, "functions.screenshot:0"),
        (CHAT, "call_" + "a" * 35),
        (GEMINI, "any id: at all"),
        (BEDROCK, "tooluse_a-b_c-d_1"),
        (MISTRAL, "D681PevKs"),
        ("cohere:command-r-plus", "get_weather_kn9s1x7q0z4c"),
    ],
)
def test_ids_a_target_accepts_pass_through_byte_identical(model: str, original: str) -> None:
    payload = json.dumps(encode(history((original, "t")), model).to_json())
    assert payload.count(json.dumps(original)) == 2  # in the call and in its result


@pytest.mark.parametrize(
    ("model", "wire", "limit"),
    [(RESPONSES, "openai_responses", 64), (CHAT, "openai_chat", 40)],
)
def test_openai_ids_over_the_length_limit_are_rewritten_in_call_and_result(
    model: str, wire: str, limit: int
) -> None:
    long = "call_" + "a" * limit
    request = encode(history((long, "t")), model)
    (validate_responses if wire == "openai_responses" else validate_openai_chat)(request.kwargs)
    payload = json.dumps(request.to_json())
    short = accepted_id(wire, long)
    assert long not in payload and len(short) <= limit
    assert payload.count(json.dumps(short)) == 2


def test_rewritten_ids_are_the_same_in_another_process_with_another_hash_seed() -> None:
    code = "from toolwire.plan.ids import accepted_id as a; print(a('anthropic', 'x y'))"
    env = {**os.environ, "PYTHONHASHSEED": "12345"}
    other = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    )
    assert other.stdout.strip() == accepted_id("anthropic", "x y")


def test_a_rewritten_id_never_takes_an_id_that_passed_through() -> None:
    clash = accepted_id("mistral", "toolu_01")  # "7a95b7039", a valid Mistral id itself
    kwargs = encode(history(("toolu_01", "t"), (clash, "t")), MISTRAL).kwargs
    validate_mistral(kwargs)
    ids = [call["id"] for call in kwargs["messages"][1]["tool_calls"]]
    assert ids[1] == clash and ids[0] != clash and len(set(ids)) == 2


def test_a_rewrite_asked_for_after_the_id_it_would_take_still_avoids_it() -> None:
    """The mapping is made as the encoder asks (plan.ids._Mapping): here the id that passes
    through is asked for first, and the rewrite that follows must still not take it."""
    clash = accepted_id("mistral", "toolu_01")
    kwargs = encode(history((clash, "t"), ("toolu_01", "t")), MISTRAL).kwargs
    validate_mistral(kwargs)
    ids = [call["id"] for call in kwargs["messages"][1]["tool_calls"]]
    results = [m["tool_call_id"] for m in kwargs["messages"][2:]]
    assert ids == results and ids[0] == clash and ids[1] != clash and len(set(ids)) == 2


def test_two_ids_whose_hashes_share_nine_digits_still_get_different_mistral_ids() -> None:
    first, second = "call 298611", "call 414652"  # sha256 hex digests both begin 817bcb5c5
    assert accepted_id("mistral", first) == accepted_id("mistral", second) == "817bcb5c5"
    kwargs = encode(history((first, "t"), (second, "t")), MISTRAL).kwargs
    validate_mistral(kwargs)
    ids = [call["id"] for call in kwargs["messages"][1]["tool_calls"]]
    results = [m["tool_call_id"] for m in kwargs["messages"][2:]]
    assert ids == results and ids[0] == "817bcb5c5" != ids[1]


@pytest.mark.parametrize("model", [ANTHROPIC, RESPONSES, CHAT, BEDROCK, MISTRAL])
def test_tool_names_the_target_forbids_are_rewritten_readably_and_stably(model: str) -> None:
    request = encode(history(("call_1", "mcp.files/read file")), model)
    payload = json.dumps(request.to_json())
    assert "mcp.files/read file" not in payload
    name = re.search(r'"(mcp_files_read_file_[0-9a-f]{8})"', payload)
    assert name is not None and TOOL_NAME.fullmatch(name.group(1))
    assert (
        json.dumps(encode(history(("call_1", "mcp.files/read file")), model).to_json()) == payload
    )


def test_gemini_keeps_dotted_names_and_rewrites_colons_long_names_and_a_leading_digit() -> None:
    """The Gemini API and Vertex take 64 characters, no colon (google-genai's docstring says
    128 with colons: the APIs refuse that)."""
    long = "a" * 70
    names = (("c1", "mcp.files.read"), ("c2", "3d-render"), ("c3", "mcp.files:read"), ("c4", long))
    kwargs = encode(history(*names), GEMINI).kwargs
    validate_google(kwargs, GEMINI)
    calls = [p["function_call"]["name"] for p in kwargs["contents"][1]["parts"]]
    answers = [p["function_response"]["name"] for p in kwargs["contents"][2]["parts"]]
    assert calls == answers and calls[0] == "mcp.files.read"
    assert all(re.fullmatch(r"[a-zA-Z_][a-zA-Z0-9_.-]{0,63}", c) for c in calls)
    assert calls[2] != "mcp.files:read" and calls[3] != long


def test_bedrock_names_outside_toolname_are_rewritten_and_pass_botocore() -> None:
    kwargs = encode(history(("tooluse_1", "get weather")), BEDROCK).kwargs
    validate_bedrock(kwargs, BEDROCK)
    assert kwargs["messages"][1]["content"][0]["toolUse"]["name"] == accepted_name(
        "bedrock", "get weather"
    )


def test_responses_item_ids_that_do_not_begin_with_fc_are_left_out() -> None:
    good = ToolCall(id="call_1", name="t", arguments={}, signature="fc_1", provider="openai")
    bad = ToolCall(id="call_2", name="t", arguments={}, signature="rs_2", provider="openai")
    messages = [User("Go."), Assistant([good, bad])]
    messages += [ToolResult.of("call_1", "t", "a"), ToolResult.of("call_2", "t", "b")]
    kwargs = encode(messages, RESPONSES).kwargs
    validate_responses(kwargs)
    assert [item.get("id") for item in kwargs["input"][1:3]] == ["fc_1", None]


MODELS = [
    ANTHROPIC,
    RESPONSES,
    CHAT,
    GEMINI,
    BEDROCK,
    MISTRAL,
    "cohere:command-r-plus",
    "ollama:llama3.1:8b",
    "groq:meta-llama/llama-4-scout-17b-16e-instruct",
]


@pytest.mark.parametrize("model", MODELS)
def test_lone_surrogates_anywhere_become_u_fffd_instead_of_a_unicode_error(model: str) -> None:
    call = ToolCall(id="c\ud800", name="fetch\udfff", arguments={"k\ud800": ["v\udc00"]})
    thinking = Thinking(text="hm\ud800", provider=model.split(":")[0])
    messages = [
        User("Hi \ud800"),
        Assistant([thinking, Text(text="ok\udfff"), call]),
        ToolResult.of("c\ud800", "fetch\udfff", ["out\ud800", {"j\ud800": 1}]),
    ]
    request = encode(messages, model)
    text = json.dumps(request.to_json(), ensure_ascii=False)
    text.encode("utf-8")
    assert "\ufffd" in text


def test_wire_text_joins_split_surrogate_pairs_and_copies_only_what_changes() -> None:
    arguments = {"a": ["x"], "b": "\ud83d\ude00\ud800"}
    cleaned = wire_text({"keep": arguments["a"], "fix": arguments})
    assert cleaned["fix"] == {"a": ["x"], "b": "\U0001f600\ufffd"}
    assert cleaned["keep"] is arguments["a"] and arguments["b"] == "\ud83d\ude00\ud800"
    same = {"m": [{"t": "plain é"}]}
    assert wire_text(same) is same


def test_a_payload_without_lone_surrogates_is_not_copied_and_a_later_turn_with_one_is_cleaned() -> (
    None
):
    messages = history(("call_1", "t"))
    laid_out = plan(messages, capabilities(ANTHROPIC))
    kwargs: dict[str, Any] = {"messages": [{"role": "user", "content": "Go."}]}
    assert wire_kwargs(kwargs, laid_out) is kwargs
    assert wire_kwargs(kwargs, laid_out) is kwargs  # the steps are remembered as clean
    encode(messages, ANTHROPIC)
    later = encode([*messages, User("more \ud800")], ANTHROPIC).kwargs
    assert later["messages"][-1]["content"][-1]["text"] == "more \ufffd"


def _break_anthropic(kwargs: dict[str, Any]) -> None:
    kwargs["messages"][1]["content"][0]["id"] = "functions.x:0"


def _break_responses(kwargs: dict[str, Any]) -> None:
    kwargs["input"][1]["call_id"] = "c" * 65


def _break_chat(kwargs: dict[str, Any]) -> None:
    kwargs["messages"][1]["tool_calls"][0]["function"]["name"] = "get.weather"


def _break_google(kwargs: dict[str, Any]) -> None:
    kwargs["contents"][1]["parts"][0]["function_call"]["name"] = "3d render"
    kwargs["contents"][2]["parts"][0]["function_response"]["name"] = "3d render"


def _break_mistral(kwargs: dict[str, Any]) -> None:
    kwargs["messages"][1]["tool_calls"][0]["function"]["name"] = "a/b"


@pytest.mark.parametrize(
    ("model", "validate", "damage"),
    [
        (ANTHROPIC, validate_anthropic, _break_anthropic),
        (RESPONSES, validate_responses, _break_responses),
        (CHAT, validate_openai_chat, _break_chat),
        (GEMINI, lambda kwargs: validate_google(kwargs, GEMINI), _break_google),
        (MISTRAL, validate_mistral, _break_mistral),
    ],
)
def test_the_strict_validators_reject_an_id_or_name_the_target_rejects(
    model: str, validate: Callable[[dict[str, Any]], None], damage: Callable[[Any], None]
) -> None:
    kwargs = copy.deepcopy(encode(history(("call_1", "fetch")), model).kwargs)
    validate(kwargs)
    damage(kwargs)
    with pytest.raises(ValueError, match=r"name|id|call_id"):
        validate(kwargs)
