"""read_file as a ready tool: a ``Tool`` (name, description, JSON schema) you can also call.

It is a ``toolwire.Tool``, so ``encode(..., tools=[read_file_tool])`` spells it for any target.

A model's arguments are untrusted, so the tool is always confined to a root directory:
``read_file_tool`` reads only under the working directory (taken at each call), and
``read_file_tool.bind(root="/srv/docs")`` gives a tool confined to another one. Files with
several hard links are refused unless bound with ``allow_hardlinks=True``. Calling it
never raises for a bad file or bad arguments: the model gets an ``ErrorTextOutput`` saying
what went wrong and what to do, as a tool result should. Call ``read_file`` directly to get
exceptions instead.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ..errors import ToolwireError, suggest
from ..messages import ContentOutput, ErrorTextOutput
from ..tools.tool import Tool
from . import limits
from .core import read_file

_DESCRIPTION = (
    "Read a file and return its content. Text, Markdown, CSV and office documents come back "
    "as text (tables as Markdown); PDFs as text per page plus the PDF itself, with pages "
    "that have no text layer as images; images as images; SVG as its XML; audio and video "
    "with their duration and format; HTML as Markdown (raw for its source). Long files are read in parts: the first line of the "
    "result says what was read and how to continue (page_start for PDFs, offset for lines "
    "of text and rows of tables)."
)

_PARAMETERS: dict[str, Any] = {
    "type": "object",
    "properties": {
        "path": {
            "type": "string",
            "description": "Path of the file, relative to the directory the tool may read.",
        },
        "page_start": {
            "type": "integer",
            "minimum": 0,
            "description": "PDFs only: first page to read, counting from 0. Default 0.",
        },
        "page_end": {
            "type": "integer",
            "minimum": 1,
            "description": (
                "PDFs only: page to stop before (exclusive). "
                f"Default page_start + {limits.PDF_PAGES_PER_READ}."
            ),
        },
        "offset": {
            "type": "integer",
            "minimum": 0,
            "description": "Text, documents and tables: first line (or table row) to read, from 0.",
        },
        "limit": {
            "type": "integer",
            "minimum": 1,
            "description": (
                f"Text, documents and tables: lines (or rows) to read. Default "
                f"{limits.TEXT_LINES_PER_READ} lines, {limits.TABLE_ROWS_PER_READ} rows."
            ),
        },
        "raw": {
            "type": "boolean",
            "description": "HTML only: the page's source instead of its Markdown. Default false.",
        },
    },
    "required": ["path"],
}


class ReadFileTool(Tool):
    """The read_file tool for a model, confined to ``root`` (the working directory if None).

    >>> tool = read_file_tool.bind(root="examples")
    >>> tool(path="report.pdf", page_start=2).value[0].text.splitlines()[0]
    'report.pdf: PDF, 3 pages, 35 KB, page 3 has no text layer (rendered as report-p3.png). Page 3 of 3.'
    """

    root: str | None = None
    allow_hardlinks: bool = False

    if TYPE_CHECKING:  # as Tool's

        def __init__(
            self,
            name: str = "read_file",
            description: str = _DESCRIPTION,
            parameters: Mapping[str, object] | None = None,
            *,
            strict: bool = False,
            root: str | None = None,
            allow_hardlinks: bool = False,
        ) -> None: ...

    else:

        def __init__(
            self,
            name: str = "read_file",
            description: str = _DESCRIPTION,
            parameters: Mapping[str, object] | None = None,
            **fields: object,
        ) -> None:
            schema = _PARAMETERS if parameters is None else parameters
            super().__init__(name, description, schema, **fields)

    def bind(self, root: str | os.PathLike[str], *, allow_hardlinks: bool = False) -> ReadFileTool:
        """The same tool confined to ``root`` (reading hard-linked files if allowed)."""
        return self.model_copy(update={"root": os.fspath(root), "allow_hardlinks": allow_hardlinks})

    def __call__(self, **arguments: object) -> ContentOutput | ErrorTextOutput:
        """Run the tool with a model's arguments; failures become an ErrorTextOutput."""
        problem = _check_arguments(arguments)
        if problem:
            return ErrorTextOutput(value=problem)
        try:
            root = self.root if self.root is not None else os.getcwd()
        except OSError as exc:  # the working directory was removed
            return ErrorTextOutput(value=f"read_file cannot find its root directory ({exc})")
        checked: dict[str, Any] = arguments  # names checked here, values by read_file
        try:
            return read_file(root=root, allow_hardlinks=self.allow_hardlinks, **checked)
        except ToolwireError as exc:
            return ErrorTextOutput(value=str(exc))


def _check_arguments(arguments: dict[str, object]) -> str | None:
    """A message for the model when its arguments do not fit the schema, else None."""
    known = _PARAMETERS["properties"]
    for key in arguments:
        if key not in known:
            return f"read_file has no argument {key!r}.{suggest(key, known)} It takes: {', '.join(known)}."
    if not isinstance(arguments.get("path"), str) or not arguments["path"]:
        return "read_file needs a 'path' argument: the file's path as a non-empty string."
    return None


#: The read_file tool confined to the working directory; ``.bind(root=…)`` for another root.
read_file_tool = ReadFileTool()
