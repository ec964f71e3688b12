"""The recorded streams in tests/decoders/streams (see SOURCES.md there), and ways to replay
them: as the JSON events they are, as the raw body their server sent, and through the
official SDKs, whose HTTP client is given the body by an in-process transport."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx

from toolwire.content import Text, Thinking, ToolCall
from toolwire.messages import Assistant

STREAMS = Path(__file__).parent / "streams"

#: A model of each wire, as the decoder tests name them.
MODELS = {
    "anthropic": "anthropic:claude-sonnet-4-5",
    "openai_chat": "openai-compatible:deepseek-reasoner",
    "openai_responses": "openai:gpt-5",
    "google": "google:gemini-3-pro-preview",
    "bedrock": "bedrock:us.anthropic.claude-sonnet-4-5-20250929-v1:0",
    "mistral": "mistral:magistral-medium-latest",
    "cohere": "cohere:command-a-reasoning-08-2025",
    "ollama": "ollama:qwen3:8b",
}

#: How each wire's server frames an event in its SSE body: with an ``event:`` line naming its
#: type, or data lines only (with ``[DONE]`` at the end on Chat-Completions-shaped wires).
_NAMED = ("anthropic", "openai_responses", "cohere")
_DONE = ("openai_chat", "mistral")


def recorded(wire: str, name: str) -> list[dict[str, Any]]:
    """The events of one recorded stream (lines split at ``\\n`` only: the text holds other
    line separators inside JSON strings)."""
    text = (STREAMS / wire / f"{name}.jsonl").read_text(encoding="utf-8")
    return [json.loads(line) for line in text.split("\n") if line.strip()]


def replies(events: list[dict[str, Any]]) -> list[list[dict[str, Any]]]:
    """A Responses recording of several replies (an agent run) cut into one list per reply."""
    found: list[list[dict[str, Any]]] = []
    for event in events:
        if event.get("type") == "response.created":
            found.append([])
        found[-1].append(event)
    return found


def sse_body(wire: str, events: list[dict[str, Any]]) -> bytes:
    """The raw body a server of ``wire`` sends for ``events``."""
    lines = []
    for event in events:
        named = f"event: {event['type']}\n" if wire in _NAMED else ""
        lines.append(f"{named}data: {json.dumps(event, ensure_ascii=False)}\n\n")
    if wire in _DONE:
        lines.append("data: [DONE]\n\n")
    if wire == "google":  # Gemini ends its lines with CRLF
        lines = [line.replace("\n", "\r\n") for line in lines]
    return "".join(lines).encode()


def http_client(body: bytes, library: Any = httpx) -> Any:
    """An httpx client whose every request is answered 200 with ``body`` as an SSE stream
    (``library``: the httpx the SDK uses; anthropic's is ``httpx2``)."""

    def answer(request: Any) -> Any:
        headers = {"content-type": "text/event-stream"}
        return library.Response(200, headers=headers, content=body)

    return library.Client(transport=library.MockTransport(answer))


def facts(message: Assistant) -> list[tuple[Any, ...]]:
    """What a test states about a reply: each part's kind, its text's start, a call's name and
    the start of its arguments as JSON, a signature's start."""
    found: list[tuple[Any, ...]] = []
    for part in message.content:
        if isinstance(part, Text):
            found.append(("text", part.text[:24]))
        elif isinstance(part, Thinking):
            found.append(("thinking", part.text[:24], (part.signature or "")[:12]))
        elif isinstance(part, ToolCall):
            arguments = json.dumps(part.arguments, ensure_ascii=False)[:48]
            found.append(("call", part.name, arguments, (part.signature or "")[:12]))
    return found
