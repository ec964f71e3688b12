"""Mistral chat stream (``CompletionEvent``s, each ``data`` a ``CompletionChunk``) →
ChatCompletionResponse.

The chunks are Chat Completions chunks with two differences: ``delta.content`` may be a list
of chunks (``text``, and ``thinking`` holding text chunks, from Magistral models), merged
here with the chunk before them of the same type; and a tool call comes whole in one delta,
its ``index`` often 0 for every call and its id sometimes ``"null"`` (see decoders.mistral).
API reference: https://docs.mistral.ai/api/#tag/chat/operation/chat_completion_v1_chat_completions_post
"""

from __future__ import annotations

from typing import Any

from ..deltas import TextDelta, ThinkingDelta
from . import Fact
from .openai_chat import Stream as ChatStream


class Stream(ChatStream):
    """Rebuilds one Mistral ChatCompletionResponse from its stream events."""

    wire = "mistral"

    def __init__(self, issuer: str) -> None:
        super().__init__(issuer)
        self.chunks: list[dict[str, Any]] = []

    def feed(self, event: dict[str, Any]) -> list[Fact]:
        data = event.get("data")
        return super().feed(data if isinstance(data, dict) else event)

    def _content(self, content: object) -> list[Fact]:
        if isinstance(content, str):
            return self._add("text", content) if content else []
        facts: list[Fact] = []
        for chunk in content if isinstance(content, list) else []:
            if chunk.get("type") == "text" and chunk.get("text"):
                facts += self._add("text", chunk["text"])
            elif chunk.get("type") == "thinking":
                text = "".join(t.get("text", "") for t in chunk.get("thinking") or [])
                facts += self._add("thinking", text, chunk.get("signature"))
        return facts

    def _add(self, kind: str, text: str, signature: object = None) -> list[Fact]:
        last = self.chunks[-1] if self.chunks else None
        if last is None or last["type"] != kind:
            last = {"type": kind, "text": ""}
            self.chunks.append(last)
        last["text"] += text
        if signature:
            last["signature"] = signature
        if not text:
            return []
        return [TextDelta(text) if kind == "text" else ThinkingDelta(text)]

    def message(self) -> dict[str, Any]:
        message = super().message()
        if any(chunk["type"] == "thinking" for chunk in self.chunks):
            message["content"] = [_chunk(chunk) for chunk in self.chunks]
        else:
            message["content"] = "".join(chunk["text"] for chunk in self.chunks) or None
        return message


def _chunk(chunk: dict[str, Any]) -> dict[str, Any]:
    """A merged chunk in the shape of the response's content chunks."""
    if chunk["type"] == "text":
        return {"type": "text", "text": chunk["text"]}
    thinking = {"type": "thinking", "thinking": [{"type": "text", "text": chunk["text"]}]}
    return {**thinking, **({"signature": chunk["signature"]} if "signature" in chunk else {})}
