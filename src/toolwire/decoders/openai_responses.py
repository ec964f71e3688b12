"""Responses API ``Response`` → Assistant: reasoning items, output text, function calls.

A reasoning item becomes Thinking(text=summary, signature=encrypted_content, id=item id,
provider="openai") so the encoder can send the item back (several summary parts are joined
with a blank line); a function call's item id (``fc_…``) rides in ToolCall.signature,
because a replayed reasoning item must be followed by its item. A refusal is text.
"""

from __future__ import annotations

from typing import Any

from ..content import Text, Thinking
from ..errors import DecodeError
from ..messages import Assistant
from ._common import not_a_response, tool_call

#: What a message item's content parts carry as visible text.
_TEXT_KEYS = {"output_text": "text", "refusal": "refusal"}


def decode(data: dict[str, Any], issuer: str) -> Assistant:
    """The Assistant in a Responses API Response (as JSON data); ``issuer`` names who signed its thinking."""
    if data.get("error"):
        raise DecodeError(f"{issuer} returned an error: {data['error']}")
    if not isinstance(data.get("output"), list):
        raise not_a_response("a Responses API Response (it has no output list)", data)
    parts: list[Any] = []
    for item in data.get("output") or []:
        kind = item.get("type")
        if kind == "reasoning":
            summary = "\n\n".join(s.get("text", "") for s in item.get("summary") or [])
            parts.append(
                Thinking(
                    text=summary,
                    signature=item.get("encrypted_content"),
                    provider=issuer,
                    id=item.get("id"),
                )
            )
        elif kind == "message":
            parts.extend(_message_texts(item))
        elif kind == "function_call":
            arguments = item.get("arguments") or ""
            parts.append(
                tool_call(item["call_id"], item["name"], arguments, item.get("id"), issuer)
            )
    answered = any(isinstance(p, Text) or not isinstance(p, Thinking) for p in parts)
    others = sorted({str(item.get("type")) for item in data["output"]} - _MODELLED)
    if others and not answered:  # a reply of client-side items only: not "empty"
        raise DecodeError(
            f"{issuer} replied with output items toolwire does not model yet: "
            f"{', '.join(others)} (client-side tools such as apply_patch or local_shell, MCP "
            "approval requests, built-in tool calls). Answer them with the openai SDK "
            "directly, or leave those tools out of the request."
        )
    return Assistant(content=parts)


#: The output item types decoded into the neutral model.
_MODELLED = frozenset(("reasoning", "message", "function_call"))


def _message_texts(item: dict[str, Any]) -> list[Text]:
    """The visible text of a message item's content parts (output text and refusals)."""
    texts = (c.get(_TEXT_KEYS.get(c.get("type"), "")) for c in item.get("content") or [])
    return [Text(text=text) for text in texts if text]


def describe_stop(data: dict[str, Any]) -> str:
    """Why the reply ended, for the empty-message error."""
    return f"status={data.get('status')}, incomplete_details={data.get('incomplete_details')}"
