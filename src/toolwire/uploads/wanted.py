"""Which files of a conversation a target takes by provider file id, and in what form.

A file goes by id only where the planner would put it and the table's cell lists ``file_id``
for that position: inside a tool result (``tool_sources``) when the cell's ``tool_result`` is
native or sibling and that position takes the file at all, else a user message
(``user_sources``). Routes try the tool-result position first (routes.py); so do we: a
position that takes the bytes but no id (Gemini 3 function_response.parts) keeps the bytes.
Images are uploaded as the planner would send them (fitted to the cell's limits).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from pydantic import BaseModel

from ..capability import Capabilities, Cell
from ..content import File
from ..messages import ContentOutput, ToolResult, User, conversation


def as_messages(messages: Sequence[Any]) -> list[Any]:
    """The messages as toolwire models (dicts, e.g. a loaded JSON file, are validated)."""
    if all(isinstance(m, BaseModel) for m in messages):
        return list(messages)
    return conversation(list(messages))


def files(messages: Sequence[Any]) -> Iterator[tuple[int, bool, File]]:
    """Each file with its message index and whether it sits in a tool result."""
    for index, message in enumerate(messages):
        if isinstance(message, User) and not isinstance(message.content, str):
            for user_part in message.content:
                if isinstance(user_part, File):
                    yield index, False, user_part
        elif isinstance(message, ToolResult) and isinstance(message.output, ContentOutput):
            for part in message.output.value:
                if isinstance(part, File):
                    yield index, True, part


def id_cell(file: File, in_tool_result: bool, caps: Capabilities) -> Cell | None:
    """The cell of ``file`` if the target takes it by id where the planner puts it, else None."""
    cell = caps.cell(file.media_type)
    if cell is None or caps.file_ids is None or not file.source.is_local:
        return None
    if in_tool_result and cell.tool_result == "error":
        return None
    positions = []
    if in_tool_result and cell.tool_result in ("native", "sibling"):
        positions.append(cell.tool_sources)
    positions.append(cell.user_sources)
    for sources in positions:
        if "file_id" in sources:
            return cell
        if "bytes" in sources:
            return None
    return None


def upload_form(file: File, cell: Cell) -> File:
    """The file as it would be sent inline: images fitted to the cell's limits."""
    if file.kind != "image":
        return file
    from ..imagefit import fit_image

    return fit_image(file, cell)[0]


def replace_files(message: Any, replaced: dict[int, File]) -> Any:
    """``message`` with each File whose ``id()`` is in ``replaced`` swapped (same message if none)."""
    if isinstance(message, User) and not isinstance(message.content, str):
        parts = tuple(replaced.get(id(p), p) for p in message.content)
        return message.model_copy(update={"content": parts})
    if isinstance(message, ToolResult) and isinstance(message.output, ContentOutput):
        values = tuple(replaced.get(id(p), p) for p in message.output.value)
        output = message.output.model_copy(update={"value": values})
        return message.model_copy(update={"output": output})
    return message
