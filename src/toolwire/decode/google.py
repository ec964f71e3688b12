"""Gemini ``GenerateContentResponse`` → Assistant, thought signatures kept where they came.

A signature on a function call rides in ToolCall.signature. Thought parts become Thinking
with their signature. A signature on a plain text part becomes an empty-text Thinking
(provider "google") placed right before that Text; the Gemini encoder puts it back on the text.
"""

from __future__ import annotations

from typing import Any

from ..content import Text, Thinking
from ..errors import DecodeError
from ..messages import Assistant
from ._common import signature_text, tool_call


def decode(data: dict[str, Any], provider: str) -> Assistant:
    candidates = data.get("candidates") or []
    if not candidates:
        feedback = data.get("prompt_feedback") or data.get("promptFeedback")
        raise DecodeError(f"{provider} returned no candidates (prompt_feedback={feedback})")
    content = candidates[0].get("content") or {}
    parts: list[Any] = []
    for index, part in enumerate(content.get("parts") or []):
        signature = signature_text(part.get("thought_signature") or part.get("thoughtSignature"))
        call = part.get("function_call") or part.get("functionCall")
        if call:
            call_id = call.get("id") or f"call_{index}"
            parts.append(
                tool_call(call_id, call["name"], call.get("args") or {}, signature, provider)
            )
        elif part.get("thought"):
            parts.append(
                Thinking(text=part.get("text", ""), signature=signature, provider=provider)
            )
        elif "text" in part:
            if signature:
                parts.append(Thinking(text="", signature=signature, provider=provider))
            parts.append(Text(text=part["text"]))
    return Assistant(content=parts)


def describe_stop(data: dict[str, Any]) -> str:
    candidates = data.get("candidates") or [{}]
    return (
        f"finish_reason={candidates[0].get('finish_reason') or candidates[0].get('finishReason')}"
    )
