"""Tool turns: their results in the order the assistant called them, and what each output
stands for as parts.

Shared by the planner (which lays a turn out) and the token estimator (which counts it).
"""

from __future__ import annotations

from typing import Any

from .content import File, Json, Text
from .errors import ConversationError
from .messages import (
    Assistant,
    ContentOutput,
    ErrorJsonOutput,
    ErrorTextOutput,
    JsonOutput,
    TextOutput,
    ToolResult,
)

#: What an empty tool result says instead (providers reject empty tool results).
EMPTY_RESULT_TEXT = "(no output)"


def in_call_order(messages: list[Any], start: int, end: int) -> list[tuple[int, ToolResult]]:
    """The results of messages[start:end], ordered as the preceding assistant called them."""
    assistant = messages[start - 1] if start > 0 else None
    calls = [c.id for c in assistant.tool_calls] if isinstance(assistant, Assistant) else []
    if not calls:
        raise ConversationError(
            f"message {start} is a tool result, but the message before it is not an assistant "
            "message with tool calls"
        )
    if end - start == 1 == len(calls) and messages[start].call_id == calls[0]:
        return [(start, messages[start])]  # one call, answered: most tool turns
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


def output_parts(result: ToolResult) -> list[Text | Json | File]:
    """The parts a tool output stands for; never empty."""
    output = result.output
    parts: list[Text | Json | File]
    if type(output) is ContentOutput:  # the common case first, by type
        parts = [p for p in output.value if type(p) is not Text or p.text]
    elif isinstance(output, TextOutput | ErrorTextOutput):
        parts = [Text(text=output.value)] if output.value else []
    elif isinstance(output, JsonOutput | ErrorJsonOutput):
        # Already JSON data (the output validated it): skip re-serialising it (~17 µs → ~10).
        parts = [Json.model_construct(value=output.value)]
    elif isinstance(output, ContentOutput):
        parts = [p for p in output.value if not (isinstance(p, Text) and not p.text)]
    else:
        reason = f" Reason: {output.reason}" if output.reason else ""
        parts = [Text(text=f"The tool was not run: execution was denied.{reason}")]
    return parts or [Text(text=EMPTY_RESULT_TEXT)]
