"""Prefix stability (DESIGN.md §5.5): over random agent sessions, the request for turn k+1
begins with the request for turn k, byte for byte as JSON, on every target, with
``cache=True`` marks included.

OpenAI (gpt-5.6 and later) keeps its explicit breakpoints for good. The one documented
exception is Bedrock's window of ``cachePoint`` blocks (plan/cache.py):
Converse has no request-level mark, so the window moves with the loop; without those marker
blocks the prefix is byte-identical, and a request never holds more than the target's 4.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from tools.helpers import MODELS

from toolwire.capability import capabilities
from toolwire.content import File, ToolCall
from toolwire.messages import Assistant, ErrorTextOutput, System, ToolResult, User
from toolwire.request import encode
from toolwire.tools import Tool

PHOTO = (Path(__file__).resolve().parents[1] / "examples" / "photo.png").read_bytes()
TARGETS = sorted(
    {
        *MODELS.values(),
        "bedrock:amazon.nova-pro-v1:0",
        "openai:gpt-4o",
        "google:gemini-2.5-flash",
        "openai:gpt-5.6",
        "openai-chat:gpt-5.6",
    }
)
#: Where each wire keeps its messages; every other key must not change between turns.
HISTORY_KEY = {
    "anthropic": "messages",
    "bedrock": "messages",
    "openai_responses": "input",
    "openai_chat": "messages",
    "google": "contents",
    "mistral": "messages",
    "cohere": "messages",
    "ollama": "messages",
}
TOOLS = [
    Tool("look", "Look something up.", {"type": "object", "properties": {"q": {"type": "string"}}})
]

outputs = st.one_of(
    st.text(min_size=1, max_size=40).filter(str.strip),
    st.dictionaries(st.sampled_from("abc"), st.integers(), min_size=1, max_size=3),
    st.just("image"),
    st.just("error"),
)
tool_turn = st.lists(outputs, min_size=1, max_size=3)
reply_turn = st.text(min_size=1, max_size=30).filter(str.strip)
sessions = st.lists(st.one_of(tool_turn, reply_turn), min_size=2, max_size=6)


def output(value: Any, turn: int, call: int) -> Any:
    if value == "image":
        return [f"shot {turn}.{call}", File.from_bytes(PHOTO, name=f"shot{turn}-{call}.png")]
    if value == "error":
        return ErrorTextOutput(value=f"failed {turn}.{call}")
    return value


def grow(session: list[Any], system: bool) -> list[list[Any]]:
    """The conversation at each point the agent calls the model: after each turn."""
    messages: list[Any] = [System("Answer from the tools.")] if system else []
    messages.append(User("Start."))
    points = []
    for turn, spec in enumerate(session):
        if isinstance(spec, str):
            messages += [Assistant(f"Noted {turn}."), User(spec)]
        else:
            calls = [
                ToolCall(id=f"c{turn}_{i}", name="look", arguments={"q": str(i)})
                for i in range(len(spec))
            ]
            messages.append(Assistant(calls))
            for i, value in enumerate(spec):
                messages.append(ToolResult.of(f"c{turn}_{i}", "look", output(value, turn, i)))
        points.append(list(messages))
    return points


def without_cache_points(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: without_cache_points(v) for k, v in value.items()}
    if isinstance(value, list):
        return [without_cache_points(v) for v in value if not _is_cache_point(v)]
    return value


def _is_cache_point(value: Any) -> bool:
    return isinstance(value, dict) and set(value) == {"cachePoint"}


def cache_point_count(value: Any) -> int:
    if isinstance(value, dict):
        return _is_cache_point(value) + sum(cache_point_count(v) for v in value.values())
    if isinstance(value, list):
        return sum(cache_point_count(v) for v in value)
    return 0


def dumped(items: list[Any]) -> list[str]:
    return [json.dumps(item, sort_keys=True) for item in items]


@pytest.mark.parametrize("model", TARGETS)
@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(session=sessions, system=st.booleans(), with_tools=st.booleans())
@example(
    session=[["image", "image"], ["image", "image"], ["image", "image"]],
    system=False,
    with_tools=False,
)  # six images: Groq's five-image budget binds at the third turn
def test_each_request_begins_with_the_request_before_it(
    model: str, session: list[Any], system: bool, with_tools: bool
) -> None:
    caps = capabilities(model)
    key = HISTORY_KEY[caps.wire]
    tools = TOOLS if with_tools else []
    earlier: dict[str, Any] | None = None
    for messages in grow(session, system):
        request = encode(messages, model, tools=tools, cache=True, on_unsupported="text")
        wire = request.to_json()
        if caps.cache is not None and caps.cache.marks == "bedrock":
            assert cache_point_count(wire) <= caps.cache.max_points
            wire = without_cache_points(wire)
        if request.budgets_bound:
            # A request budget leaves the oldest files out: the window moves, and the prefix
            # with it (tests/test_budgets*.py cover what is left out); compared again from
            # the next request no budget binds.
            earlier = None
            continue
        if earlier is not None:
            before, now = dumped(earlier[key]), dumped(wire[key])
            assert now[: len(before)] == before, f"turn {len(before)}: the prefix changed"
            assert {k: v for k, v in wire.items() if k != key} == {
                k: v for k, v in earlier.items() if k != key
            }
        earlier = wire


def test_bedrock_keeps_the_previous_requests_last_mark_and_moves_only_cache_points() -> None:
    """What the exception allows: the window drops the mark two tool turns back, nothing else;
    the mark that closed request k still closes the same message in request k+1 (its read)."""
    model = MODELS["bedrock"]
    session: list[Any] = [["a"], ["b"], ["c"], ["d"]]
    requests = [encode(m, model, tools=TOOLS, cache=True).to_json() for m in grow(session, True)]
    moved = 0
    for before, now in zip(requests, requests[1:], strict=False):
        size = len(before["messages"])
        assert now["messages"][size - 1] == before["messages"][-1]  # its last mark kept
        moved += now["messages"][:size] != before["messages"]
        stripped = without_cache_points(now)["messages"]
        assert without_cache_points(before)["messages"] == stripped[:size]
    assert moved == 2  # from the third request on, the window drops its oldest mark
