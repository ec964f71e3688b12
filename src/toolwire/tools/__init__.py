"""Tool definitions: ``Tool``, ``Tool.from_function``, ``tools_from_mcp``, and ``spell``, which
writes them (and ``tool_choice``) in each provider's shape for ``encode(..., tools=[...])``."""

from __future__ import annotations

from .errors import ToolDefinitionError
from .mcp import tools_from_mcp
from .spell import ToolChoice, spell
from .tool import Tool

__all__ = ["Tool", "ToolChoice", "ToolDefinitionError", "spell", "tools_from_mcp"]
