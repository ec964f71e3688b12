"""Reasoning goes back where the server requires it (issue 32, item 1): DeepSeek's thinking
mode wants ``reasoning_content`` on every assistant message that made tool calls, else the
second request of a tool loop is a 400; any OpenAI-compatible server can be told so per call.

Each request is sent through the official openai SDK to an in-process transport, so what is
checked is the body the SDK sends; the rest of it is validated against the SDK's types.
"""

from __future__ import annotations

import json
from typing import Any

import httpx
import openai
import pytest

import toolwire as tw

from .strict_openai_chat import validate

DEEPSEEK = "openai-compatible:deepseek-v4-pro"
TOOL = tw.Tool(
    "weather",
    "The weather in a city.",
    {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
)


def reply(reasoning: str, call: bool = True, content: str | None = None) -> dict[str, Any]:
    """A DeepSeek-style ChatCompletion: reasoning_content beside content and tool_calls."""
    message: dict[str, Any] = {
        "role": "assistant",
        "content": content,
        "reasoning_content": reasoning,
    }
    if call:
        arguments = json.dumps({"city": "Paris"})
        message["tool_calls"] = [
            {
                "id": "call_0",
                "type": "function",
                "function": {"name": "weather", "arguments": arguments},
            }
        ]
    return {
        "id": "chatcmpl-1",
        "object": "chat.completion",
        "created": 1,
        "model": "deepseek-v4-pro",
        "choices": [
            {"index": 0, "finish_reason": "tool_calls" if call else "stop", "message": message}
        ],
    }


def sent_body(kwargs: dict[str, Any]) -> dict[str, Any]:
    """The JSON body the official openai SDK posts for ``kwargs``."""
    seen: dict[str, Any] = {}

    def answer(request: httpx.Request) -> httpx.Response:
        seen.update(json.loads(request.content))
        return httpx.Response(200, json=reply("done", call=False, content="ok"))

    transport = httpx.Client(transport=httpx.MockTransport(answer))
    client = openai.OpenAI(
        api_key="sk-test", base_url="http://server.test/v1", http_client=transport
    )
    client.chat.completions.create(model="deepseek-v4-pro", **kwargs)
    return seen


def validate_without(kwargs: dict[str, Any], field: str, model: str) -> None:
    """The body is the SDK's types, plus the one field the target's table declares."""
    messages = [{k: v for k, v in m.items() if k != field} for m in kwargs["messages"]]
    validate({**kwargs, "messages": messages}, model)


def tool_loop(model: str) -> list[Any]:
    first = tw.decode(reply("Paris: call weather."), model, tools=[TOOL])
    return [
        tw.User("Weather in Paris?"),
        first,
        tw.ToolResult(call_id="call_0", name="weather", output=tw.TextOutput(value="sunny")),
    ]


def test_the_second_request_of_a_deepseek_tool_loop_carries_the_reasoning_back() -> None:
    request = tw.encode(tool_loop(DEEPSEEK), DEEPSEEK, tools=[TOOL])
    body = sent_body(request.kwargs)
    assistant = body["messages"][1]
    assert assistant["reasoning_content"] == "Paris: call weather."
    assert assistant["tool_calls"][0]["function"]["name"] == "weather"
    validate_without(request.kwargs, "reasoning_content", DEEPSEEK)


def test_an_answer_without_tool_calls_keeps_its_reasoning_to_itself() -> None:
    history = [
        tw.User("Hi"),
        tw.decode(reply("Greet back.", call=False, content="Hello!"), DEEPSEEK),
        tw.User("Weather in Paris?"),
    ]
    body = sent_body(tw.encode(history, DEEPSEEK).kwargs)
    assert "reasoning_content" not in body["messages"][1]


@pytest.mark.parametrize(
    "model", ["openai-compatible:qwen3", "openai-chat:gpt-5", "groq:openai/gpt-oss-20b"]
)
def test_servers_not_known_to_take_reasoning_get_none(model: str) -> None:
    request = tw.encode(tool_loop(model), model, tools=[TOOL])
    assert "reasoning" not in json.dumps(request.kwargs["messages"])


def test_reasoning_of_another_issuer_never_goes_to_deepseek() -> None:
    history = tool_loop("openai-compatible:qwen3")  # decoded as another target's thinking
    claude = tw.Thinking(text="Claude's own.", signature="sig", provider="anthropic")
    history[1] = history[1].model_copy(update={"content": (claude, *history[1].content[1:])})
    body = sent_body(tw.encode(history, DEEPSEEK, tools=[TOOL]).kwargs)
    assert "Claude's own." not in json.dumps(body)


def test_any_compatible_server_can_be_told_where_it_takes_reasoning() -> None:
    model = "openai-compatible:my-glm"
    told = {"reasoning_replay": {"field": "reasoning", "evidence": "our server's docs"}}
    request = tw.encode(tool_loop(model), model, tools=[TOOL], capabilities=told)
    assert sent_body(request.kwargs)["messages"][1]["reasoning"] == "Paris: call weather."
    assert "reasoning" not in json.dumps(tw.encode(tool_loop(model), model, tools=[TOOL]).kwargs)


def test_a_history_spelled_for_one_server_is_spelled_anew_for_the_one_that_takes_reasoning() -> (
    None
):
    """Kept spellings are keyed by what changes them (providers.wire.Spelling.variant)."""
    history = tool_loop(DEEPSEEK)  # the same steps for both: the same wire and issuer
    plain = tw.encode(history, "openai-compatible:qwen3", tools=[TOOL])
    replayed = tw.encode(history, DEEPSEEK, tools=[TOOL])
    assert "reasoning_content" not in plain.kwargs["messages"][1]
    assert replayed.kwargs["messages"][1]["reasoning_content"] == "Paris: call weather."


@pytest.mark.parametrize(
    "model", ["openai-compatible:glm-4.7", "openai-compatible:zai-org/GLM-5.3"]
)
def test_glm_gets_its_reasoning_back_with_the_tool_results(model: str) -> None:
    request = tw.encode(tool_loop(model), model, tools=[TOOL])
    assert sent_body(request.kwargs)["messages"][1]["reasoning_content"] == "Paris: call weather."


OPENROUTER_GEMINI = "openrouter:google/gemini-3-pro-preview"
DETAILS = [
    {"type": "reasoning.text", "text": "Call weather.", "format": "google-gemini-v1", "index": 0},
    {
        "type": "reasoning.encrypted",
        "data": "CiQBjz1rX2s=",
        "format": "google-gemini-v1",
        "index": 1,
    },
]


def test_openrouter_gets_its_reasoning_details_back_verbatim_and_in_order() -> None:
    """OpenRouter → Gemini 3: the thought signature rides in reasoning_details, which must come
    back as they came for the tool loop's second request."""
    first = reply("", call=True)
    first["choices"][0]["message"].pop("reasoning_content")
    first["choices"][0]["message"]["reasoning_details"] = DETAILS
    decoded = tw.decode(first, OPENROUTER_GEMINI, tools=[TOOL])
    assert [p.text for p in decoded.content if isinstance(p, tw.Thinking)] == ["Call weather.", ""]
    history = [
        tw.User("Weather in Paris?"),
        decoded,
        tw.ToolResult(call_id="call_0", name="weather", output=tw.TextOutput(value="sunny")),
    ]
    request = tw.encode(history, OPENROUTER_GEMINI, tools=[TOOL])
    assert sent_body(request.kwargs)["messages"][1]["reasoning_details"] == DETAILS
    validate_without(request.kwargs, "reasoning_details", OPENROUTER_GEMINI)
    elsewhere = tw.encode(history, "openai-chat:gpt-5", tools=[TOOL])
    assert "reasoning" not in json.dumps(elsewhere.kwargs)


@pytest.mark.parametrize(
    "model", ["openai-compatible:kimi-k2-thinking", "openai-compatible:moonshotai/Kimi-K2.5"]
)
def test_kimi_gets_its_reasoning_back_on_every_message_that_has_it(model: str) -> None:
    """As Moonshot's own client sends it (capabilities.toml, the Kimi row's evidence)."""
    history = [
        *tool_loop(model),
        tw.decode(reply("Say it.", call=False, content="Sunny."), model),
        tw.User("Thanks."),
    ]
    messages = sent_body(tw.encode(history, model, tools=[TOOL]).kwargs)["messages"]
    assert messages[1]["reasoning_content"] == "Paris: call weather."
    assert messages[3]["reasoning_content"] == "Say it."
