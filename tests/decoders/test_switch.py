"""One conversation across three providers: Claude with thinking → Gemini 3 → OpenAI Responses.

Each provider gets back exactly what it signed, drops what it cannot verify (foreign thinking,
signatures, encrypted reasoning), keeps every visible text and tool call, and the request
passes the provider SDK's strict types.
"""

from __future__ import annotations

import base64
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from openai.types.responses import ResponseOutputMessage, ResponseOutputText, ResponseReasoningItem
from openai.types.responses.response_reasoning_item import Summary
from providers import (
    strict_anthropic,
    strict_bedrock,
    strict_cohere,
    strict_google,
    strict_mistral,
    strict_ollama,
    strict_openai_chat,
    strict_openai_responses,
)

from toolwire.decoders import decode
from toolwire.messages import User
from toolwire.request import encode
from toolwire.store import SessionStore

from .responses import (
    ANTHROPIC_REDACTED,
    ANTHROPIC_SIGNATURE,
    GEMINI_SIGNATURE,
    OPENAI_ENCRYPTED,
    anthropic_thinking_message,
    conversation,
    gemini_parallel_calls,
    openai_response,
)

CLAUDE = "anthropic:claude-sonnet-4-5"
GEMINI = "google:gemini-3-pro-preview"
GPT = "openai:gpt-5"
PLACEHOLDER = base64.urlsafe_b64decode("skip_thought_signature_validator")
FINAL = "notes.md holds notes; report.pdf has three pages."
#: What each issuer signed in this conversation, as it appears in a payload's repr.
SECRETS = {
    "anthropic": [ANTHROPIC_SIGNATURE, ANTHROPIC_REDACTED],
    "google": [repr(GEMINI_SIGNATURE), base64.b64encode(GEMINI_SIGNATURE).decode()],
    "openai": [OPENAI_ENCRYPTED],
}

VALIDATORS: dict[str, Callable[[dict[str, Any]], None]] = {
    CLAUDE: strict_anthropic.validate,
    GEMINI: lambda kwargs: strict_google.validate(kwargs, GEMINI),
    GPT: strict_openai_responses.validate,
    "google-vertex:gemini-3-pro-preview": lambda kwargs: strict_google.validate(
        kwargs, "google-vertex:gemini-3-pro-preview"
    ),
    "google:gemini-2.5-flash": lambda kwargs: strict_google.validate(
        kwargs, "google:gemini-2.5-flash"
    ),
    "openai-chat:gpt-4.1": strict_openai_chat.validate,
    "groq:qwen/qwen3-32b": lambda kwargs: strict_openai_chat.validate(
        kwargs, "groq:qwen/qwen3-32b"
    ),
    "bedrock:us.anthropic.claude-sonnet-4-5-20250929-v1:0": lambda kwargs: strict_bedrock.validate(
        kwargs, "bedrock:us.anthropic.claude-sonnet-4-5-20250929-v1:0"
    ),
    "mistral:magistral-medium-latest": strict_mistral.validate,
    "cohere:command-a-reasoning-08-2025": strict_cohere.validate,
    "ollama:qwen3:8b": strict_ollama.validate,
}


def openai_final_answer() -> Any:
    return openai_response(
        [
            ResponseReasoningItem(
                id="rs_final",
                type="reasoning",
                summary=[Summary(type="summary_text", text="Summarise both.")],
                encrypted_content=OPENAI_ENCRYPTED,
            ),
            ResponseOutputMessage(
                id="msg_final",
                type="message",
                role="assistant",
                status="completed",
                content=[ResponseOutputText(type="output_text", text=FINAL, annotations=[])],
            ),
        ]
    )


def after_claude() -> list[Any]:
    return conversation(decode(anthropic_thinking_message(), CLAUDE))


def after_gemini() -> list[Any]:
    claude = decode(anthropic_thinking_message(), CLAUDE)
    return conversation(claude, decode(gemini_parallel_calls(), GEMINI))


def whole() -> list[Any]:
    return [*after_gemini(), decode(openai_final_answer(), GPT), User("Thanks!")]


def encoded(messages: list[Any], model: str) -> dict[str, Any]:
    kwargs = encode(messages, model).kwargs
    VALIDATORS[model](kwargs)
    return kwargs


def test_claude_s_turn_reaches_gemini_3_with_the_placeholder_and_without_its_thinking() -> None:
    contents = encoded(after_claude(), GEMINI)["contents"]
    assert contents[1] == {
        "role": "model",
        "parts": [
            {"text": "Reading both files."},
            {
                "function_call": {
                    "id": "toolu_01A",
                    "name": "read_file",
                    "args": {"path": "notes.md"},
                },
                "thought_signature": PLACEHOLDER,
            },
            {
                "function_call": {
                    "id": "toolu_01B",
                    "name": "read_file",
                    "args": {"path": "report.pdf"},
                }
            },
        ],
    }


def test_gemini_s_turn_reaches_openai_without_signatures_and_claude_s_without_thinking() -> None:
    items = encoded(after_gemini(), GPT)["input"]
    assistant = [
        i
        for i in items
        if i.get("type") in ("reasoning", "function_call") or i.get("role") == "assistant"
    ]
    assert assistant == [
        {"role": "assistant", "content": "Reading both files."},
        {
            "type": "function_call",
            "call_id": "toolu_01A",
            "name": "read_file",
            "arguments": '{"path":"notes.md"}',
        },
        {
            "type": "function_call",
            "call_id": "toolu_01B",
            "name": "read_file",
            "arguments": '{"path":"report.pdf"}',
        },
        {
            "type": "function_call",
            "call_id": "fc-1",
            "name": "read_file",
            "arguments": '{"path":"notes.md"}',
        },
        {
            "type": "function_call",
            "call_id": "fc-2",
            "name": "read_file",
            "arguments": '{"path":"report.pdf"}',
        },
    ]


def test_back_at_claude_only_its_own_thinking_returns_byte_identical() -> None:
    messages = encoded(whole(), CLAUDE)["messages"]
    assistants = [m["content"] for m in messages if m["role"] == "assistant"]
    assert assistants[0][:2] == [
        {"type": "thinking", "thinking": "Two files: read both.", "signature": ANTHROPIC_SIGNATURE},
        {"type": "redacted_thinking", "data": ANTHROPIC_REDACTED},
    ]
    assert [b["type"] for b in assistants[1]] == ["tool_use", "tool_use"]
    assert assistants[2] == [{"type": "text", "text": FINAL}]


def test_back_at_gemini_only_its_own_signature_returns_and_on_the_same_call() -> None:
    contents = encoded(whole(), GEMINI)["contents"]
    models = [c["parts"] for c in contents if c["role"] == "model"]
    signatures = [[p.get("thought_signature") for p in parts] for parts in models]
    assert signatures == [[None, PLACEHOLDER, None], [GEMINI_SIGNATURE, None], [None]]
    assert models[2] == [{"text": FINAL}]


def test_at_openai_only_its_own_reasoning_item_is_replayed() -> None:
    items = encoded(whole(), GPT)["input"]
    reasoning = [i for i in items if i.get("type") == "reasoning"]
    assert reasoning == [
        {
            "type": "reasoning",
            "id": "rs_final",
            "summary": [{"type": "summary_text", "text": "Summarise both."}],
            "encrypted_content": OPENAI_ENCRYPTED,
        }
    ]
    at = items.index(reasoning[0])
    assert items[at + 1] == {"role": "assistant", "content": FINAL}
    assert all("id" not in i for i in items if i.get("type") == "function_call")


@pytest.mark.parametrize("model", sorted(VALIDATORS))
def test_the_whole_conversation_encodes_for_every_target_and_keeps_every_visible_text(
    model: str,
) -> None:
    kwargs = encoded(whole(), model)
    payload = repr(kwargs)
    for text in ("Reading both files.", FINAL, "Thanks!"):
        assert text in payload
    issuer = model.split(":", 1)[0]
    for owner, secrets in SECRETS.items():
        present = [secret for secret in secrets if secret in payload]
        assert bool(present) == (owner == issuer), (owner, present)


def test_the_conversation_reloaded_from_a_session_store_encodes_the_same(tmp_path: Path) -> None:
    """Signatures are plain strings in the neutral model, so storing them loses nothing."""
    messages = whole()
    with SessionStore(tmp_path / "sessions.db") as store:
        store.extend("switch", messages)
        reloaded = store.load("switch")
    assert reloaded == messages
    for model in (CLAUDE, GEMINI, GPT):
        assert encoded(reloaded, model) == encoded(messages, model)
