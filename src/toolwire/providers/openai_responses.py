"""OpenAI Responses API: ``client.responses.create(model=…, **kwargs)``.

Reference: openai SDK 3.54 ``ResponseInputItemParam`` — ``FunctionCallOutput`` (``output``: a
string or a list of ``input_text``, ``input_image``, ``input_file``), ``EasyInputMessageParam``
(user messages with the same content types, assistant text), ``ResponseFunctionToolCallParam``
(``function_call`` items: ``call_id``, ``name``, ``arguments`` as a JSON string), and
``ResponseReasoningItemParam``; system text goes in the ``instructions`` parameter.

Spelling choices (the plan decides everything else):

- a tool output that is one text part is a plain string, else a list of content items in
  order; user message content likewise (one text part → a string);
- ``Json`` parts become compact JSON text (``input_text``);
- function outputs have no error flag: an error output's text is prefixed with ``"Error: "``;
- all system texts, joined, become ``instructions`` (omitted when there are none);
- each assistant text is its own ``{"role": "assistant", "content": text}`` message item,
  interleaved with ``function_call`` items exactly as the model produced them;
- ``input_image``: a data URL or http URL in ``image_url``, or ``file_id``; ``detail`` is
  omitted in function outputs (the API's default) and is ``"auto"`` — the same default — in
  user messages, where the SDK's ``ResponseInputImageParam`` requires it;
- ``input_file``: ``file_data`` (data URL) + ``filename`` for bytes, ``file_url`` for http
  URLs, ``file_id`` for uploaded files; ``filename`` as in openai_chat (extension added);
- OpenAI's own reasoning (``Thinking`` with provider "openai" and an item ``id``) goes back as a
  ``reasoning`` item (summary text, ``encrypted_content`` from the signature), and a function
  call's own item id (``ToolCall.signature`` with provider "openai") as its ``id``, so a
  replayed reasoning item is followed by its item (only an id that begins with ``fc``: the
  API takes no other); other providers' thinking is dropped;
- ``call_id`` over 64 characters and names outside ``[a-zA-Z0-9_-]{1,64}`` are rewritten
  stably, identically in the call and its output (plan.ids);
- ``ToolTurn.extra`` (only when a capability override asks for "merge") becomes a user
  message right after the function outputs;
- a call the model made as a client-side item (its signature is the item's JSON:
  ``decoders.openai_responses.CLIENT_CALLS``) goes back as that item, and its answer as the
  item's own output: ``local_shell_call_output`` (``id``), ``shell_call_output`` (the tool's
  JSON list of outcomes, or its text as stdout, stderr on error), ``apply_patch_call_output``
  (``failed`` on error), ``custom_tool_call_output``, ``mcp_approval_response`` (approved
  unless the result is an error or a denial, whose text is the reason), ``tool_search_output``
  (the tool definitions a client tool search found, returned by the tool as a JSON list);
- OpenAI's own provider parts (built-in tool items) go back as they came, in place; an
  assistant text followed by its annotations goes back as the output ``message`` item it came
  in (id, status, ``output_text`` with the annotations).
"""

from __future__ import annotations

import json
from typing import Any

from .. import b64
from ..content import File, Json, ProviderPart, Text, Thinking, ToolCall
from ..errors import ConversationError
from ..messages import Assistant, System, User
from ..plan import Plan, PlannedResult, Step, ToolTurn
from ..sources import ProviderFileSource, UrlSource
from ..tools.spell import openai_responses_tools
from ..wire_size import HTTPX
from . import register
from .openai_chat import WIRE as CHAT
from .openai_chat import filename, with_breakpoint
from .spelling import arguments_json, error_text
from .wire import CannotSpell, Decoder, Spelling, Wire, id_rule

#: function_call item ids begin with ``fc`` (the API: "Expected an ID that begins with 'fc'");
#: any other ``ToolCall.signature`` is left out of the item.
FUNCTION_CALL_ITEM_PREFIX = "fc"


def step(step: Step, spelling: Spelling) -> list[dict[str, Any]]:
    """One step's input items (none for system text: ``finish`` places it)."""
    return _items(step, spelling)


def finish(plan: Plan, items: list[dict[str, Any]]) -> dict[str, Any]:
    """``input`` items in conversation order, and ``instructions`` when there is system text."""
    kwargs: dict[str, Any] = {"input": items}
    if plan.system is not None:
        kwargs["instructions"] = plan.system
    return kwargs


def mark(item: dict[str, Any]) -> dict[str, Any]:
    """A marked step's last item with the cache breakpoint (plan.cache)."""
    return with_breakpoint(item, "output" if "output" in item else "content", "input_text")


def _items(step: Step, names: Spelling) -> list[dict[str, Any]]:
    if isinstance(step, System):
        return []  # in ``instructions``
    if isinstance(step, User):
        return [_user_message(step.parts)]
    if isinstance(step, Assistant):
        return _assistant(step, names)
    assert isinstance(step, ToolTurn)
    items = [_output(result, names) for result in step.results]
    if step.extra:
        items.append(_user_message(step.extra))
    return items


def _assistant(message: Assistant, names: Spelling) -> list[dict[str, Any]]:
    items: list[dict[str, Any]] = []
    for part in message.content:
        if isinstance(part, ToolCall):
            items.append(_call(part, names))
        elif isinstance(part, ProviderPart):  # the plan kept only OpenAI's own Responses items
            _provider_item(items, part)
        elif isinstance(part, Thinking):
            if part.id:  # the plan kept only OpenAI's own; an item needs its id
                items.append(_reasoning(part))
        else:  # text: the plan left out empty text
            items.append({"role": "assistant", "content": part.text})
    return items


def _provider_item(items: list[dict[str, Any]], part: ProviderPart) -> None:
    """OpenAI's own item as it came; annotations go back on the text they followed
    (decoders.openai_responses) as the output message item it came in; the plan left out
    those of an empty text it left out (plan.wire_rules.ANNOTATES_TEXT)."""
    if part.kind != "annotations":
        items.append(dict(part.data))
        return
    last = items[-1] if items else {}
    if last.get("role") == "assistant" and isinstance(last.get("content"), str):
        text = {"type": "output_text", "text": last["content"]}
        content = [{**text, "annotations": part.data["annotations"]}]
        message = {"type": "message", "role": "assistant", "id": part.data["id"]}
        items[-1] = {**message, "status": part.data["status"], "content": content}


def _call(call: ToolCall, names: Spelling) -> dict[str, Any]:
    """A function_call item, or the client-side item the call came as, sent back as it came
    (its id as this request spells it)."""
    signature = call.signature  # the plan kept only OpenAI's own
    if not signature or signature[0] != "{":
        return _function_call(call, names)
    item: dict[str, Any] = json.loads(signature)
    id_field = "call_id" if item.get("call_id") and item["type"] != "mcp_approval_request" else "id"
    return {**item, id_field: names.call_id(call.id)}


def _function_call(call: ToolCall, names: Spelling) -> dict[str, Any]:
    item = {"type": "function_call", "call_id": names.call_id(call.id)}
    item |= {"name": names.name(call.name), "arguments": arguments_json(call, WIRE.separators)}
    signature = call.signature  # the plan kept only OpenAI's own
    if signature and signature.startswith(FUNCTION_CALL_ITEM_PREFIX):
        item["id"] = signature
    return item


def _reasoning(thinking: Thinking) -> dict[str, Any]:
    summary = [{"type": "summary_text", "text": thinking.text}] if thinking.text else []
    item: dict[str, Any] = {"type": "reasoning", "id": thinking.id, "summary": summary}
    if thinking.signature:
        item["encrypted_content"] = thinking.signature
    return item


def _output(result: PlannedResult, names: Spelling) -> dict[str, Any]:
    """The answer to one call: a function_call_output, or the output item of the client-side
    item the call came as."""
    kind = names.call_item(result.call_id)
    if kind == "function_call":
        return _function_output(result, names)
    call_id = names.call_id(result.call_id)
    if kind == "custom_tool_call":
        output = _function_output(result, names)["output"]
        return {"type": "custom_tool_call_output", "call_id": call_id, "output": output}
    text = _output_text(result, kind)
    failed = result.is_error or result.denied
    if kind == "mcp_approval_request":
        answer = {"type": "mcp_approval_response", "approval_request_id": call_id}
        return {**answer, "approve": not failed} | ({"reason": text} if failed and text else {})
    if kind == "local_shell_call":  # its output names the call by ``id`` (openai SDK)
        return {"type": "local_shell_call_output", "id": call_id, "output": text}
    if kind == "apply_patch_call":
        status = "failed" if failed else "completed"
        return {"type": "apply_patch_call_output", "call_id": call_id, "status": status} | (
            {"output": text} if text else {}
        )
    given = result.parts[0] if len(result.parts) == 1 else None
    if kind == "tool_search_call":  # the tool definitions found, as the tool returned them
        if not (isinstance(given, Json) and isinstance(given.value, list)):
            raise ConversationError(
                f"the answer to tool search {call_id!r} is the list of tool definitions it "
                "found, as JSON (Responses tool params); return that list from the tool"
            )
        found = {"type": "tool_search_output", "call_id": call_id, "execution": "client"}
        return {**found, "tools": given.value}
    assert kind == "shell_call", kind
    if isinstance(given, Json) and isinstance(given.value, list):  # the tool's own outcomes
        return {"type": "shell_call_output", "call_id": call_id, "output": given.value}
    exit_code = 1 if failed else 0
    run = {"stdout": "" if failed else text, "stderr": text if failed else ""}
    outcome = {"type": "exit", "exit_code": exit_code}
    return {
        "type": "shell_call_output",
        "call_id": call_id,
        "output": [{**run, "outcome": outcome}],
    }


def _output_text(result: PlannedResult, kind: str) -> str:
    """The result's parts as the text a client-side item's output carries (text only)."""
    texts = []
    for part in result.parts:
        if isinstance(part, File):
            raise ConversationError(
                f"the answer to a {kind} takes text only, not {part.identifier}: send the file "
                "in a user message instead"
            )
        texts.append(part.text if isinstance(part, Text) else part.compact())
    return "\n".join(texts)


def _function_output(result: PlannedResult, names: Spelling) -> dict[str, Any]:
    content = [_content(part, in_output=True) for part in result.parts]
    if result.is_error:
        if content[0]["type"] == "input_text":
            content[0] = {"type": "input_text", "text": error_text(content[0]["text"])}
        else:
            content.insert(0, {"type": "input_text", "text": error_text()})
    output: Any = content
    if len(content) == 1 and content[0]["type"] == "input_text":
        output = content[0]["text"]
    call_id = names.call_id(result.call_id)
    return {"type": "function_call_output", "call_id": call_id, "output": output}


def _user_message(parts: list[Text | File] | tuple[Text | File, ...]) -> dict[str, Any]:
    content = [_content(part, in_output=False) for part in parts]
    if len(content) == 1 and content[0]["type"] == "input_text":
        return {"role": "user", "content": content[0]["text"]}
    return {"role": "user", "content": content}


def _content(part: Text | Json | File, in_output: bool) -> dict[str, Any]:
    if isinstance(part, Text):
        return {"type": "input_text", "text": part.text}
    if isinstance(part, Json):
        return {"type": "input_text", "text": part.compact()}
    if part.kind == "image":
        image = {"type": "input_image", **_image_source(part)}
        return image if in_output else {**image, "detail": "auto"}
    if part.kind == "document":
        return {"type": "input_file", **_file_source(part)}
    raise CannotSpell(
        f"{part.identifier} ({part.media_type}) into the input (it takes images and documents only)"
    )


def _image_source(file: File) -> dict[str, str]:
    source = file.source
    if isinstance(source, ProviderFileSource):
        return {"file_id": source.file_id}
    if isinstance(source, UrlSource) and source.scheme == "url":
        return {"image_url": source.url}
    if source.is_local:
        return {"image_url": b64.data_url(file)}
    raise CannotSpell(f"{file.identifier} ({source.describe()}) as an input_image")


def _file_source(file: File) -> dict[str, str]:
    source = file.source
    if isinstance(source, ProviderFileSource):
        return {"file_id": source.file_id}
    if isinstance(source, UrlSource) and source.scheme == "url":
        return {"file_url": source.url}
    if source.is_local:
        return {"file_data": b64.data_url(file), "filename": filename(file)}
    raise CannotSpell(f"{file.identifier} ({source.describe()}) as an input_file")


WIRE = register(Wire(
    "openai_responses", step=step, finish=finish, mark=mark, decoder=Decoder.of_module("toolwire.decoders.openai_responses"),
    # "Invalid 'input[n].call_id': string too long. Expected … maximum length 64"; any text.
    ids=id_rule(None, 64, "call_", 24, "Responses API validation"),
    names=CHAT.names,  # the same function-name rule as Chat Completions
    tools=openai_responses_tools, size=HTTPX,
    separators=CHAT.separators,
    system_apart=True,  # ResponseCreateParams.instructions
))  # fmt: skip
