"""Bedrock ``converse`` response dict → Assistant: text, toolUse and reasoningContent.

``citationsContent`` (a reply about a PDF sent with citations enabled) is its text; the
citations themselves (which passage of which document) are not modelled and are left out."""

from __future__ import annotations

from typing import Any

from ..content import Text, Thinking
from ..messages import Assistant
from ._common import not_a_response, signature_text, tool_call


def decode(data: dict[str, Any], issuer: str) -> Assistant:
    """The Assistant in a Bedrock Converse response (as JSON data); ``issuer`` names who signed its thinking."""
    output = data.get("output")
    if not isinstance(output, dict):
        raise not_a_response("a Bedrock Converse response (it has no output)", data)
    message = output.get("message") or {}
    parts: list[Any] = []
    for block in message.get("content") or []:
        if "text" in block:
            parts.append(Text(text=block["text"]))
        elif "toolUse" in block:
            use = block["toolUse"]
            parts.append(tool_call(use["toolUseId"], use["name"], use.get("input") or {}))
        elif "reasoningContent" in block:
            parts.append(_reasoning(block["reasoningContent"], issuer))
        elif "citationsContent" in block:
            cited = block["citationsContent"].get("content") or []
            parts += [Text(text=c["text"]) for c in cited if isinstance(c.get("text"), str)]
    return Assistant(content=parts)


def _reasoning(block: dict[str, Any], issuer: str) -> Thinking:
    if "redactedContent" in block:
        data = signature_text(block["redactedContent"])
        return Thinking(text="", signature=data, redacted=True, provider=issuer)
    text = block.get("reasoningText") or {}
    return Thinking(text=text.get("text", ""), signature=text.get("signature"), provider=issuer)


def describe_stop(data: dict[str, Any]) -> str:
    """Why the reply ended, for the empty-message error."""
    return f"stopReason={data.get('stopReason')}"
