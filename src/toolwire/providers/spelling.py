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
    from collections.abc import Callable, Iterable

    from ..content import File, Text
    from ..plan.values import Plan, PlannedResult, Step
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


def chat_step(
    step: Step,
    spelling: Spelling,
    user: Callable[[Iterable[Text | File]], dict[str, Any]],
    assistant: Callable[[Any, Spelling], dict[str, Any]],
    tool: Callable[[PlannedResult, Spelling], dict[str, Any]],
) -> list[dict[str, Any]]:
    """One step as chat-shaped messages (mistral, cohere, ollama): a user message, an
    assistant message (the plan left none empty), or a tool message per
    result and a user message for parts placed after them; none for system text (``finish``
    puts it first: ``system_first``)."""
    from ..messages import Assistant, User
    from ..plan.values import ToolTurn

    match step:
        case User():
            return [user(step.parts)]
        case Assistant():
            return [assistant(step, spelling)]
        case ToolTurn():
            items = [tool(result, spelling) for result in step.results]
            return items + ([user(step.extra)] if step.extra else [])
    return []


def system_first(plan: Plan, messages: list[dict[str, Any]]) -> dict[str, Any]:
    """``messages``: the system text first, then every step in the plan's order."""
    if plan.system is not None:
        messages = [{"role": "system", "content": plan.system}, *messages]
    return {"messages": messages}
