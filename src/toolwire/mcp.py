"""MCP tool results as toolwire ToolResults: ``from_mcp(call_tool_result, call_id, name)``.

Targets the MCP ``CallToolResult`` (spec 2025-06-18 and later): ``content`` blocks,
``structuredContent`` and ``isError``. It takes the official SDK's object (v1 or v2) or its
JSON dict, and never imports the SDK. Content order is kept. The mapping:

- ``text`` → Text.
- ``image``, ``audio`` → File of the base64-decoded bytes; a ``mimeType`` the bytes contradict
  is an InvalidFileError naming the item.
- ``resource`` with text → Text ``Resource <uri> (<mimeType>):`` + the text. Text stays text:
  every provider takes it natively, where a text/markdown *file* would often need a fallback.
- ``resource`` with a blob → File, named after the URI's last path segment.
- ``resource_link`` → ``File.from_url`` for an http(s) URI whose media type is known (its
  ``mimeType`` or the URL's extension); any other link → Text ``Resource link: <name> <uri>``
  (the link is stated, not fetched).
- ``structuredContent`` → Json. Servers also send it as a text block for older clients: a text
  block whose text parses to the same JSON value is dropped and the Json takes its place;
  otherwise the Json comes after the content.
- ``isError`` → ErrorJsonOutput when the result is only structured content, else
  ErrorTextOutput: texts, JSON as compact text, and files by their text description (error
  outputs carry no files), joined by newlines.
- Otherwise: only text → TextOutput (blocks joined by newlines); only structured content →
  JsonOutput; anything else → ContentOutput.

A malformed result (a block or ``resource`` that is not an object, a field of the wrong type)
is a DecodeError naming the call and the content index. Embedded base64 (image and audio data,
blob resources) may decode to at most ``max_bytes``, 50 MB by default like the URL fetcher; the
size is worked out from the base64 length before anything is decoded.

Example, with an MCP ``ClientSession`` and the model's ToolCall ``call``::

    result = await session.call_tool(call.name, call.arguments)
    messages.append(tw.from_mcp(result, call_id=call.id, name=call.name))
"""

from __future__ import annotations

import base64
import binascii
import json
from typing import Any
from urllib.parse import unquote, urlsplit

from .content import File, Json, Text
from .errors import DecodeError, InvalidFileError, ToolwireError
from .headers import human_size
from .messages import (
    ContentOutput,
    ErrorJsonOutput,
    ErrorTextOutput,
    JsonOutput,
    TextOutput,
    ToolResult,
)

Part = Text | Json | File

MAX_EMBEDDED_BYTES = 50 * 1024 * 1024  # the URL fetcher's cap (fetch.MAX_FETCH_BYTES)


def from_mcp(
    result: object, call_id: str, name: str, *, max_bytes: int = MAX_EMBEDDED_BYTES
) -> ToolResult:
    """The ToolResult for an MCP ``CallToolResult`` (SDK object or JSON dict).

    ``max_bytes`` caps each embedded file (image, audio, blob resource) after decoding.
    """
    data = _as_dict(result, call_id, name)
    where = f"MCP result of {name!r} (call {call_id})"
    blocks = data.get("content") or []
    if not isinstance(blocks, list):
        raise DecodeError(f"{where}: content is {type(blocks).__name__}, not a list of blocks")
    parts = [
        _checked_part(block, f"{where}, content item {i}", max_bytes)
        for i, block in enumerate(blocks)
    ]
    structured = _field(data, "structuredContent")
    if structured is not None:
        parts = _with_structured(parts, structured)
    if _field(data, "isError"):
        return ToolResult(call_id=call_id, name=name, output=_error_output(parts))
    return ToolResult(call_id=call_id, name=name, output=_output(parts))


def _as_dict(result: Any, call_id: str, name: str) -> dict[str, Any]:
    if hasattr(result, "model_dump"):
        result = result.model_dump(mode="json", by_alias=True)
    if (
        isinstance(result, dict)
        and "content" not in result
        and isinstance(result.get("result"), dict)
    ):
        result = result["result"]  # a whole JSON-RPC response
    if not isinstance(result, dict) or not isinstance(result.get("content", []), list):
        raise DecodeError(
            f"MCP result of {name!r} (call {call_id}) is not a CallToolResult: expected an "
            f"object with a 'content' list, got {type(result).__name__}"
        )
    return result


def _field(data: dict[str, Any], camel: str) -> Any:
    """A field by its wire name (camelCase) or the SDK's Python name (snake_case)."""
    if camel in data:
        return data[camel]
    snake = "".join(f"_{c.lower()}" if c.isupper() else c for c in camel)
    return data.get(snake)


def _checked_part(block: Any, where: str, max_bytes: int) -> Part:
    if not isinstance(block, dict):
        raise DecodeError(f"{where} is {type(block).__name__}, not an object with a 'type'")
    try:
        return _part(block, where, max_bytes)
    except ToolwireError:
        raise
    except (AttributeError, TypeError, ValueError) as exc:  # a field of the wrong type
        raise DecodeError(
            f"{where} is a malformed {block.get('type')!r} block ({type(exc).__name__}: {exc})"
        ) from exc


def _part(block: dict[str, Any], where: str, max_bytes: int) -> Part:
    kind = block.get("type")
    if kind == "text":
        return Text(text=_text_field(block, "text", where) or "")
    if kind in ("image", "audio"):
        data = _decode(block.get("data"), f"{where} ({kind})", max_bytes)
        return _file(data, _text_field(block, "mimeType", where), None, f"{where} ({kind})")
    if kind == "resource":
        return _resource(block.get("resource"), where, max_bytes)
    if kind == "resource_link":
        return _link(block, where)
    raise DecodeError(
        f"{where} has type {kind!r}; MCP tool results hold text, image, audio, resource and "
        "resource_link blocks"
    )


def _resource(resource: Any, where: str, max_bytes: int) -> Part:
    if not isinstance(resource, dict):
        raise DecodeError(
            f"{where} (resource): 'resource' is {type(resource).__name__}, not an object with "
            "a uri and a text or blob"
        )
    uri = _text_field(resource, "uri", where) or ""
    media_type = _text_field(resource, "mimeType", where)
    text = _text_field(resource, "text", where)
    if text is not None:
        head = f"Resource {uri} ({media_type}):" if media_type else f"Resource {uri}:"
        return Text(text=f"{head}\n{text}")
    label = f"{where} (resource {uri})"
    data = _decode(resource.get("blob"), label, max_bytes)
    segment = unquote(urlsplit(uri).path.rstrip("/").rsplit("/", 1)[-1])
    return _file(data, media_type, segment or None, label)


def _text_field(data: dict[str, Any], camel: str, where: str) -> str | None:
    value = _field(data, camel)
    if value is not None and not isinstance(value, str):
        raise DecodeError(f"{where}: {camel} is {type(value).__name__}, not a string")
    return value


def _link(link: dict[str, Any], where: str) -> Part:
    uri = _text_field(link, "uri", where) or ""
    media_type = _text_field(link, "mimeType", where)
    title = _text_field(link, "name", where) or None
    if urlsplit(uri).scheme.lower() in ("http", "https"):
        try:
            return File.from_url(uri, media_type=media_type, name=title)
        except InvalidFileError:
            pass  # no media type known: state the link instead
    text = f"Resource link: {title} <{uri}>" if title else f"Resource link: <{uri}>"
    if media_type:
        text += f" ({media_type})"
    description = _text_field(link, "description", where)
    if description:
        text += f" — {description}"
    return Text(text=text)


def _decode(data: Any, where: str, max_bytes: int) -> bytes:
    if not isinstance(data, str):
        raise InvalidFileError(f"{where}: no base64 data")
    size = len(data) * 3 // 4 - data[-2:].count("=")  # the decoded size, if the data is valid
    if size > max_bytes:
        raise InvalidFileError(
            f"{where}: the base64 data holds {size} bytes, over the "
            f"{human_size(max_bytes)} cap on files embedded in MCP results; pass a larger "
            "max_bytes= to from_mcp to accept it"
        )
    try:
        return base64.b64decode(data, validate=True)
    except (binascii.Error, ValueError) as exc:
        raise InvalidFileError(f"{where}: the data is not valid base64 ({exc})") from exc


def _file(data: bytes, media_type: str | None, name: str | None, where: str) -> File:
    try:
        return File.from_bytes(data, media_type=media_type, name=name)
    except InvalidFileError as exc:
        raise InvalidFileError(f"{where}: {exc}") from exc


def _with_structured(parts: list[Part], structured: Any) -> list[Part]:
    """Json in place of the text blocks that are its JSON dump, else after everything."""
    kept: list[Part] = []
    placed = False
    for part in parts:
        if isinstance(part, Text) and _is_dump_of(part.text, structured):
            if not placed:
                kept.append(Json(value=structured))
                placed = True
            continue
        kept.append(part)
    return kept if placed else [*kept, Json(value=structured)]


def _is_dump_of(text: str, value: Any) -> bool:
    try:
        return bool(json.loads(text) == value)
    except (ValueError, RecursionError):  # not JSON, or nested past the parser's depth
        return False


def _output(parts: list[Part]) -> Any:
    if all(isinstance(p, Text) for p in parts):
        return TextOutput(value="\n".join(p.text for p in parts if isinstance(p, Text)))
    if len(parts) == 1 and isinstance(parts[0], Json):
        return JsonOutput(value=parts[0].value)
    return ContentOutput(value=tuple(parts))


def _error_output(parts: list[Part]) -> Any:
    if len(parts) == 1 and isinstance(parts[0], Json):
        return ErrorJsonOutput(value=parts[0].value)
    return ErrorTextOutput(value="\n".join(_as_text(p) for p in parts))


def _as_text(part: Part) -> str:
    if isinstance(part, Text):
        return part.text
    if isinstance(part, Json):
        return part.compact()
    return part.text_fallback()
