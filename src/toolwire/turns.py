"""Tool turns: their results in the order the assistant called them (what each output stands
for as parts is ``ToolResult.parts``).

Shared by the planner (which lays a turn out) and the token estimator (which counts it).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .errors import ConversationError
from .messages import EMPTY_RESULT_TEXT, Assistant, ToolResult

__all__ = ["EMPTY_RESULT_TEXT", "in_call_order"]


def in_call_order(
    messages: Sequence[Any], start: int, end: int, calls: list[str] | None = None
) -> list[tuple[int, ToolResult]]:
    """The results of messages[start:end], ordered as the preceding assistant called them
    (``calls``: its call ids, where the caller has read them already)."""
    if calls is None:
        assistant: Any = messages[start - 1] if start > 0 else None
        calls = [c.id for c in assistant.tool_calls] if isinstance(assistant, Assistant) else []
    if not calls:
        raise ConversationError(
            f"message {start} is a tool result, but the message before it is not an assistant "
            "message with tool calls"
        )
    if end - start == 1 == len(calls) and messages[start].call_id == calls[0]:
        return [(start, messages[start])]  # one call, answered: most tool turns
    if end - start == len(calls):  # every call answered, in order
        for offset, call_id in enumerate(calls):
            if messages[start + offset].call_id != call_id:
                break
        else:
            if len(calls) == 1 or len(set(calls)) == len(calls):
                return list(zip(range(start, end), messages[start:end], strict=True))
    by_id: dict[str, tuple[int, ToolResult]] = {}
    for index in range(start, end):
        result = messages[index]
        if result.call_id not in calls:
            raise ConversationError(
                f"message {index} answers call {result.call_id!r}, which message {start - 1} "
                f"did not make (its calls: {', '.join(calls)})"
            )
        if result.call_id in by_id:
            raise ConversationError(
                f"message {index} answers call {result.call_id!r} a second time "
                "(providers take exactly one result per call)"
            )
        by_id[result.call_id] = (index, result)
    missing = [c for c in calls if c not in by_id]
    if missing:
        raise ConversationError(
            f"tool call(s) {', '.join(missing)} of message {start - 1} have no result; "
            "add a ToolResult for each (an error output is fine)"
        )
    return [by_id[c] for c in calls]
