"""The error a tool definition raises (kept beside the tools; it is a ToolwireError)."""

from __future__ import annotations

from ..errors import ToolwireError


class ToolDefinitionError(ToolwireError):
    """A tool definition cannot be sent to the target: a forbidden or repeated name, a schema
    keyword the target cannot take, or a ``tool_choice`` the target has no spelling for.

    Not a ValueError, so that pydantic passes it through unwrapped from ``Tool(...)``.
    """
