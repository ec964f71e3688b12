"""Responses API ``Response`` → Assistant: reasoning items, output text, function calls.

A reasoning item becomes Thinking(text=summary, signature=encrypted_content, id=item id,
provider="openai") so the encoder can send the item back (several summary parts are joined
with a blank line); a function call's item id (``fc_…``) rides in ToolCall.signature,
because a replayed reasoning item must be followed by its item. A refusal is text.

Client-side items (local and hosted shell, apply_patch, custom tools, MCP approval requests,
a client tool search) become ToolCalls the application answers (``CLIENT_CALLS``); every
other item (a built-in tool's call such as ``web_search_call``, ``image_generation_call``,
``mcp_call``) a ProviderPart that goes back to OpenAI as it came. A computer_call raises
DecodeError naming it: toolwire cannot spell its answer (a screenshot). An output
text's annotations (citations) are a ProviderPart (kind "annotations") right after its Text.
"""

from __future__ import annotations

import json
from typing import Any

from ..content import ProviderPart, Text, Thinking, ToolCall
from ..errors import DecodeError
from ..messages import Assistant
from ._common import not_a_response, tool_call

#: What a message item's content parts carry as visible text.
_TEXT_KEYS = {"output_text": "text", "refusal": "refusal"}


def decode(data: dict[str, Any], issuer: str) -> Assistant:
    """The Assistant in a Responses API Response (as JSON data); ``issuer`` names who signed its thinking."""
    if data.get("error"):
        raise DecodeError(f"{issuer} returned an error: {data['error']}")
    if not isinstance(data.get("output"), list):
        raise not_a_response("a Responses API Response (it has no output list)", data)
    unanswerable = sorted({str(i.get("type")) for i in data["output"] if _unanswerable(i)})
    if unanswerable:
        raise DecodeError(
            f"{issuer} replied with client-side items toolwire cannot answer yet: "
            f"{', '.join(unanswerable)} (a computer_call's answer is a screenshot). Answer "
            "them with the openai SDK directly, or leave those tools out of the request."
        )
    parts: list[Any] = []
    for item in data["output"]:
        parts += _decode_item(item, issuer)
    return Assistant(content=parts)


def _decode_item(item: dict[str, Any], issuer: str) -> list[Any]:
    kind = item.get("type")
    if kind == "reasoning":
        summary = "\n\n".join(s.get("text", "") for s in item.get("summary") or [])
        encrypted = item.get("encrypted_content")
        return [Thinking(text=summary, signature=encrypted, provider=issuer, id=item.get("id"))]
    if kind == "message":
        return _message_texts(item, issuer)
    if kind == "function_call":
        arguments = item.get("arguments") or ""
        return [tool_call(item["call_id"], item["name"], arguments, item.get("id"), issuer)]
    if kind in CLIENT_CALLS and (kind != "tool_search_call" or item.get("execution") == "client"):
        return [_client_call(item, issuer)]
    return [ProviderPart(provider=issuer, wire=WIRE, kind=str(kind), data=item)]


#: The wire whose items the provider parts of this decoder hold.
WIRE = "openai_responses"

#: Client-side items: calls the application runs and answers like a function call. Each
#: item type with the name its call goes by (None: the item's own ``name``), the field that
#: holds the id its answer names, and the field its arguments are read from. The call's
#: signature is the item itself as JSON text, so the Responses encoder sends the item back
#: as it came and answers it with the item type's own output (``_output`` there). A
#: tool_search_call is one only where the client runs the search (``execution`` "client").
CLIENT_CALLS: dict[str, tuple[str | None, str, str]] = {
    "local_shell_call": ("local_shell", "call_id", "action"),
    "shell_call": ("shell", "call_id", "action"),
    "apply_patch_call": ("apply_patch", "call_id", "operation"),
    "custom_tool_call": (None, "call_id", "input"),
    "mcp_approval_request": (None, "id", "arguments"),
    "tool_search_call": ("tool_search", "call_id", "arguments"),
}


def _client_call(item: dict[str, Any], issuer: str) -> ToolCall:
    """A client-side item as a ToolCall the application answers (see ``CLIENT_CALLS``)."""
    name, id_field, field = CLIENT_CALLS[item["type"]]
    arguments = item.get(field)
    if item["type"] == "custom_tool_call":  # free-form text, not JSON
        arguments = {"input": arguments or ""}
    elif arguments is not None and not isinstance(arguments, dict | str):
        arguments = {"arguments": arguments}
    signature = json.dumps(item, ensure_ascii=False, separators=(",", ":"))
    call_id = item.get(id_field) or item["id"]  # a tool_search_call's call_id is optional
    return tool_call(call_id, name or item["name"], arguments or {}, signature, issuer)


def _unanswerable(item: dict[str, Any]) -> bool:
    """A client-side item whose answer toolwire cannot spell: a computer_call wants a
    screenshot (computer_call_output)."""
    return item.get("type") == "computer_call"


def _message_texts(item: dict[str, Any], issuer: str) -> list[Text | ProviderPart]:
    """The visible text of a message item's content parts (output text and refusals); an
    output text's annotations (citations) as a ProviderPart right after its Text, which the
    encoder puts back on that text as a message item of OpenAI's own (its id and status)."""
    parts: list[Text | ProviderPart] = []
    for content in item.get("content") or []:
        text = content.get(_TEXT_KEYS.get(content.get("type"), ""))
        if not text:
            continue
        parts.append(Text(text=text))
        if content.get("annotations"):
            cited = {"id": item.get("id"), "status": item.get("status") or "completed"}
            cited["annotations"] = content["annotations"]
            parts.append(ProviderPart(provider=issuer, wire=WIRE, kind="annotations", data=cited))
    return parts


def describe_stop(data: dict[str, Any]) -> str:
    """Why the reply ended, for the empty-message error."""
    return f"status={data.get('status')}, incomplete_details={data.get('incomplete_details')}"
