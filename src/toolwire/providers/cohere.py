"""Cohere v2 chat: ``client.v2.chat(model=…, **kwargs)``.

Reference: cohere 7.3.1 ``ChatMessageV2`` (``SystemChatMessageV2``, ``UserChatMessageV2`` with
``Content`` = ``TextContent`` | ``ImageUrlContent``, ``AssistantChatMessageV2`` with
``tool_calls: ToolCallV2{id, type, function{name, arguments}}``, ``tool_plan`` and content items
``text`` | ``thinking``, ``ToolChatMessageV2`` with ``ToolContent`` = ``TextToolContent`` |
``DocumentToolContent{document: Document{data, id}}``).

Where this wire differs from the others:

- Text documents in a tool result are Cohere documents, which the model can cite:
  ``{"data": {"title": identifier, "text": decoded text}, "id": identifier}``.
- A non-empty JSON object in a tool result is a document too, with the object as its ``data``
  (Cohere's tool-use guide sends tool results as documents); any other JSON value is compact
  JSON text.
- Tool messages have no error flag: an error result's first text starts with ``Error: ``.
- User messages carry only text and images: a text document there is its decoded text.
- Cohere's own reasoning comes back as it came: with tool calls, the first Thinking is the
  message's ``tool_plan`` (toolwire.decoders reads ``tool_plan`` into a leading Thinking); any
  other Thinking is a ``thinking`` content item. Another provider's thinking is dropped.
- Ids and names that are not UTF-8 text are rewritten stably (plan.ids).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from .. import b64
from ..content import File, Json, Text, Thinking
from ..errors import CapabilityError
from ..mediatypes import is_textual
from ..messages import Assistant
from ..plan import PlannedResult, Step
from ..sources import UrlSource
from ..tools.spell import cohere_tools
from ..wire_size import HTTPX
from . import register
from .spelling import chat_step, error_text, function_call, system_first
from .wire import ANY_TEXT, SURROGATES, Decoder, Spelling, Wire, id_rule, name_rule


def step(step: Step, spelling: Spelling) -> list[dict[str, Any]]:
    """One step's messages (providers.spelling.chat_step)."""
    return chat_step(step, spelling, _user, _assistant, _tool)


def _user(parts: Iterable[Text | File]) -> dict[str, Any]:
    return {"role": "user", "content": [_user_item(part) for part in parts]}


def _user_item(part: Text | File) -> dict[str, Any]:
    if isinstance(part, Text):
        return {"type": "text", "text": part.text}
    if part.kind == "image":
        source = part.source
        url = source.url if isinstance(source, UrlSource) else b64.data_url(part)
        return {"type": "image_url", "image_url": {"url": url}}
    if is_textual(part.media_type):
        return {"type": "text", "text": part.read_text()}
    raise _no_route(part, "a user message (text and images only)")


def _assistant(message: Assistant, names: Spelling) -> dict[str, Any]:
    calls = [function_call(call, names, WIRE.separators) for call in message.tool_calls]
    items: list[dict[str, Any]] = []
    tool_plan: str | None = None
    for part in message.content:
        if isinstance(part, Thinking):  # Cohere's own, with text (the plan kept no other)
            if calls and tool_plan is None:
                tool_plan = part.text
            else:
                items.append({"type": "thinking", "thinking": part.text})
        elif isinstance(part, Text):
            items.append({"type": "text", "text": part.text})
    result: dict[str, Any] = {"role": "assistant"}
    if items:
        result["content"] = items
    if tool_plan is not None:
        result["tool_plan"] = tool_plan
    if calls:
        result["tool_calls"] = calls
    return result


def _tool(result: PlannedResult, names: Spelling) -> dict[str, Any]:
    items = [_tool_item(part) for part in result.parts]
    if result.is_error:
        if items[0]["type"] == "text":
            items[0] = {"type": "text", "text": error_text(items[0]["text"])}
        else:
            items.insert(0, {"type": "text", "text": error_text()})
    return {"role": "tool", "tool_call_id": names.call_id(result.call_id), "content": items}


def _tool_item(part: Text | Json | File) -> dict[str, Any]:
    if isinstance(part, Text):
        return {"type": "text", "text": part.text}
    if isinstance(part, Json):
        if isinstance(part.value, dict) and part.value:
            return {"type": "document", "document": {"data": part.value}}
        return {"type": "text", "text": part.compact()}
    if is_textual(part.media_type):
        data = {"title": part.identifier, "text": part.read_text()}
        return {"type": "document", "document": {"data": data, "id": part.identifier}}
    raise _no_route(part, "a tool result (text and documents only)")


def _no_route(file: File, where: str) -> CapabilityError:
    return CapabilityError(
        f"the {WIRE.name} wire cannot carry {file.media_type} (file {file.identifier}) in {where}; "
        'only a capabilities override routes it here: set its tool_result to "error"'
    )


WIRE = register(Wire(
    "cohere", step=step, finish=system_first, decoder=Decoder.of_module("toolwire.decoders.cohere"),
    # cohere 7.3.1 ToolCallV2.id and ToolCallV2Function.name: strings, no published rule
    # (any UTF-8 text; a name is not empty).
    ids=id_rule(None, None, "call_", 24, "cohere ToolCallV2.id"),
    names=name_rule(ANY_TEXT, None, SURROGATES, "cohere ToolCallV2Function.name"),
    tools=cohere_tools, size=HTTPX,  # cohere's httpx client
    tool_choices=frozenset(("auto", "none", "required")),  # v2: REQUIRED | NONE only
    separators=(", ", ": "),  # Cohere's models write json.dumps' default separators
    thinking_needs_text=True, takes_redacted_thinking=False,  # ThinkingAssistantMessageV2ContentOneItem: text only
))  # fmt: skip
