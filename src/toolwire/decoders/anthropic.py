"""Anthropic ``Message`` → Assistant: text, tool_use, thinking and redacted_thinking in order.

Every other block (``server_tool_use``, ``web_search_tool_result``, code-execution results,
MCP blocks: a reply that used a server tool, ``pause_turn`` ones too) is a ProviderPart that
goes back to Anthropic as it came; a text block's citations are a ProviderPart (kind
"citations") right after its Text, put back on that text block by the encoder.
"""

from __future__ import annotations

from typing import Any

from ..content import ProviderPart, Text, Thinking
from ..errors import DecodeError
from ..messages import Assistant
from ._common import not_a_response, tool_call


def decode(data: dict[str, Any], issuer: str) -> Assistant:
    """The Assistant in an Anthropic Message (as JSON data); ``issuer`` names who signed its thinking."""
    if data.get("type") == "error":
        raise DecodeError(f"{issuer} returned an error: {data.get('error')}")
    if not isinstance(data.get("content"), list):
        raise not_a_response("an Anthropic Message (it has no content list)", data)
    parts: list[Any] = []
    for block in data.get("content") or []:
        kind = block.get("type")
        if kind == "text":
            parts.append(Text(text=block["text"]))
            if block.get("citations"):  # back on this text block, for Anthropic only
                cited = {"citations": block["citations"]}
                parts.append(ProviderPart(provider=issuer, wire=WIRE, kind="citations", data=cited))
        elif kind == "tool_use":
            parts.append(tool_call(block["id"], block["name"], block.get("input") or {}))
        elif kind == "thinking":
            parts.append(
                Thinking(text=block["thinking"], signature=block.get("signature"), provider=issuer)
            )
        elif kind == "redacted_thinking":
            parts.append(Thinking(text="", signature=block["data"], redacted=True, provider=issuer))
        else:  # a server tool's use and result, an MCP block, a container upload, …
            try:
                data = without_nulls(block)
            except RecursionError:  # nested deeper than any reply: kept as it came
                data = block
            parts.append(ProviderPart(provider=issuer, wire=WIRE, kind=str(kind), data=data))
    return Assistant(content=parts)


def without_nulls(value: Any) -> Any:
    """``value`` without the keys whose value is null, at every depth: a reply marks a field it
    has no value for with null (``abort_reason``), where the request types take no null and
    leave the field out."""
    if isinstance(value, dict):
        return {k: without_nulls(v) for k, v in value.items() if v is not None}
    if isinstance(value, list):
        return [without_nulls(item) for item in value]
    return value


#: The wire whose blocks the provider parts of this decoder hold.
WIRE = "anthropic"


def describe_stop(data: dict[str, Any]) -> str:
    """Why the reply ended, for the empty-message error."""
    return f"stop_reason={data.get('stop_reason')}"
