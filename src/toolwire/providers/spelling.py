"""Small spellings shared by the encoders: tool-call argument text and the error prefix.

Wires whose tool messages have no error flag (openai_chat, openai_responses, mistral,
cohere, ollama) start an error result's text with ``ERROR_PREFIX``.

Call arguments go as JSON text on the chat-completions-shaped wires. Each provider's own
models write them in one style — OpenAI compact (``{"path":"a.md"}``), Mistral and Cohere
with Python's default separators (``{"path": "a.md"}``) — and a decoded call is re-encoded in
the same style, so that replay to the same provider is byte-identical. The style is a fact
of the wire: ``Wire.separators``.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from ..content import ToolCall

if TYPE_CHECKING:
    from .wire import Spelling

ERROR_PREFIX = "Error: "


def error_text(text: str = "") -> str:
    """An error result's text on a wire without an error flag (``Error:`` alone if empty)."""
    return ERROR_PREFIX + text if text else ERROR_PREFIX.rstrip()


def arguments_json(call: ToolCall, separators: tuple[str, str]) -> str:
    """The call's arguments as JSON text in the wire's style (``Wire.separators``), or the
    model's own text verbatim when it was not a JSON object (``ToolCall.invalid_arguments``)."""
    if call.invalid_arguments is not None:
        return call.invalid_arguments
    return json.dumps(call.arguments, separators=separators, ensure_ascii=False)


def function_call(call: ToolCall, names: Spelling, separators: tuple[str, str]) -> dict[str, Any]:
    """A chat-completions ``tool_calls`` entry (openai_chat, mistral, cohere): the id and name
    the plan gives the call, its arguments as JSON text in the wire's style."""
    return {
        "id": names.call_id(call.id),
        "type": "function",
        "function": {"name": names.name(call.name), "arguments": arguments_json(call, separators)},
    }
