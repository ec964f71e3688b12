"""``tools_from_mcp``: an MCP server's ``tools/list`` answer → ``Tool`` values.

Takes the MCP SDK's ``ListToolsResult`` (or its ``.tools``) as well as its JSON form, so no
MCP import is needed here. mcp 1.x names the schema field ``inputSchema``; 2.x
``input_schema`` (``inputSchema`` in JSON): both are read.
"""

from __future__ import annotations

from typing import Any

from .errors import ToolDefinitionError
from .tool import Tool


def tools_from_mcp(listed: object) -> list[Tool]:
    """The tools of an MCP ``ListToolsResult`` (SDK object, its JSON dict, or a list of
    tools), each with its name, description and ``inputSchema`` as ``parameters``.

    >>> tools = tw.tools_from_mcp(await session.list_tools())        # doctest: +SKIP
    """
    items = listed.get("tools") if isinstance(listed, dict) else getattr(listed, "tools", listed)
    if not isinstance(items, list | tuple):
        raise ToolDefinitionError(
            f"tools_from_mcp takes an MCP ListToolsResult, its JSON, or a list of its tools; "
            f"got {type(listed).__name__}."
        )
    return [_tool(item, index) for index, item in enumerate(items)]


def _tool(item: Any, index: int) -> Tool:
    data = item if isinstance(item, dict) else _dumped(item)
    name = data.get("name")
    schema = data.get("inputSchema", data.get("input_schema"))
    if not isinstance(name, str) or not isinstance(schema, dict):
        raise ToolDefinitionError(
            f"MCP tool {index} ({name!r}) has no name or no inputSchema object; the server's "
            "tools/list answer is malformed."
        )
    return Tool(name, data.get("description") or "", schema)


def _dumped(item: Any) -> dict[str, Any]:
    dump = getattr(item, "model_dump", None)
    if dump is None:
        raise ToolDefinitionError(
            f"an MCP tool is a {type(item).__name__}, not an mcp.types.Tool or its JSON dict"
        )
    data: dict[str, Any] = dump(mode="json", by_alias=True, exclude_none=True)
    return data
