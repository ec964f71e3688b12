"""Amazon Bedrock Converse: ``client.converse(modelId=…, **kwargs)``.

Reference: botocore bedrock-runtime 2023-09-30 ``Converse`` input: ``messages`` of ``Message{role,
content: ContentBlock[]}`` and ``system: SystemContentBlock[]``. Content blocks: ``text``,
``image{format, source}``, ``document{format, name, source}``, ``video{format, source}``,
``toolUse{toolUseId, name, input}``, ``toolResult{toolUseId, content, status}`` (content: text,
json, image, document, video) and ``reasoningContent`` (``reasoningText{text, signature}`` or
``redactedContent``). Sources are raw ``bytes`` (boto3 base64-encodes them) or
``s3Location{uri}``; Converse takes no http URLs (the planner downloads them when
``fetch_urls`` allows, else refuses the file).

The planner lays out each model family (table rows in capabilities.toml) and applies the
Converse rules (``WIRE`` below: roles alternate, no blank text, a text block beside a
document, a user message first, only the media types Converse has a format for); this
module spells the plan:

- A tool turn is one user message: every ``toolResult`` first, in call order, then the parts
  that share it (Nova's sibling documents and videos, a merged user message).
- ``status: "error"`` where the plan sets ``error_flag`` (``Capabilities.error_status``;
  botocore: "only supported by Amazon Nova and Anthropic Claude 3 and 4 models").
- JSON in a tool result is a ``json`` block when it is an object; the service rejects anything
  else there ("Provide a json object for the field", sigoden/aichat#1550), and objects holding a
  ``__type`` key too (maximhq/bifrost#5762), so those go as compact JSON text.
- Document names: see bedrock_names (sanitised, unique within the request, stable).
- Tool use ids outside ``[a-zA-Z0-9_-]{1,64}`` (botocore also allows ``.:``, Claude not) become
  ``tooluse_`` + a stable hash, and tool names outside ``[a-zA-Z0-9_-]{1,64}`` a sanitised name,
  identically in the call and its result (plan.ids).
- Reasoning the plan kept (the same family: ``Capabilities.issuer``) goes back as it came.
- Call arguments that were not a JSON object (``ToolCall.invalid_arguments``) go as ``{}``:
  ``input`` takes only a JSON document.
"""

from __future__ import annotations

import base64
from types import MappingProxyType
from typing import Any

from ..content import File, Json, Text, Thinking, ToolCall
from ..errors import CapabilityError
from ..mediatypes import DOCX, XLSX
from ..messages import Assistant, User
from ..plan import Plan, PlannedResult, Step, ToolTurn
from ..sources import BytesSource, UrlSource
from ..tools.spell import bedrock_tools
from ..wire_size import DEFAULT
from . import register
from .wire import NAME_64, NOT_NAME_64, Decoder, Spelling, Wire, id_rule, name_rule

# botocore ImageFormat, DocumentFormat and VideoFormat enums, by media type.
IMAGE_FORMATS = {"image/png": "png", "image/jpeg": "jpeg", "image/gif": "gif", "image/webp": "webp"}
DOCUMENT_FORMATS = {
    "application/pdf": "pdf",
    "text/csv": "csv",
    "application/msword": "doc",
    DOCX: "docx",
    "application/vnd.ms-excel": "xls",
    XLSX: "xlsx",
    "text/html": "html",
    "text/plain": "txt",
    "text/markdown": "md",
}
VIDEO_FORMATS = {
    "video/x-matroska": "mkv",
    "video/quicktime": "mov",
    "video/mp4": "mp4",
    "video/webm": "webm",
    "video/x-flv": "flv",
    "video/mpeg": "mpeg",
    "video/wmv": "wmv",
    "video/x-ms-wmv": "wmv",
    "video/3gpp": "three_gp",
}
#: Every media type Converse has a block for, with its format name (``Wire.formats``).
FORMATS = MappingProxyType({**IMAGE_FORMATS, **DOCUMENT_FORMATS, **VIDEO_FORMATS})


def step(step: Step, spelling: Spelling) -> list[dict[str, Any]]:
    """One step's messages (none for system text: ``finish`` places it)."""
    match step:
        case ToolTurn():
            content = [_tool_result(r, spelling) for r in step.results]
            content += [_part(p, spelling) for p in step.extra]
            return [{"role": "user", "content": content}]
        case Assistant():
            return [{"role": "assistant", "content": _assistant(step, spelling)}]
        case User():
            return [{"role": "user", "content": [_part(p, spelling) for p in step.parts]}]
    return []


def finish(plan: Plan, messages: list[dict[str, Any]]) -> dict[str, Any]:
    """``messages`` (and ``system`` when the conversation has system text, closed by a
    ``cachePoint`` where the plan marks it)."""
    kwargs: dict[str, Any] = {"messages": messages}
    if plan.system:
        kwargs["system"] = [{"text": plan.system}]
        if plan.cache is not None and plan.cache.system:
            kwargs["system"].append({"cachePoint": {"type": "default"}})
    return kwargs


def mark(message: dict[str, Any]) -> dict[str, Any]:
    """A marked step's message closed by a ``cachePoint`` block, beside its ``toolResult``
    blocks (never inside)."""
    return {**message, "content": [*message["content"], {"cachePoint": {"type": "default"}}]}


def _part(
    part: Text | Json | File, spelling: Spelling, in_tool_result: bool = False
) -> dict[str, Any]:
    """A Text, Json or File block."""
    match part:
        case Text():
            return {"text": part.text}
        case Json() if in_tool_result and _is_json_object(part.value):
            return {"json": part.value}
        case Json():
            return {"text": part.compact()}
    medium = part.kind  # the plan sends only FORMATS' types (plan.wire_rules)
    block: dict[str, Any] = {"format": FORMATS[part.media_type]}
    if medium == "document":
        block["name"] = spelling.document_name(part.identifier)
    block["source"] = _source(part)
    if spelling.pdf_citations and part.media_type == "application/pdf":
        block["citations"] = {"enabled": True}
    return {medium: block}


def _tool_result(result: PlannedResult, spelling: Spelling) -> dict[str, Any]:
    block: dict[str, Any] = {
        "toolUseId": spelling.call_id(result.call_id),
        "content": [_part(p, spelling, in_tool_result=True) for p in result.parts],
    }
    if result.error_flag:
        block["status"] = "error"
    return {"toolResult": block}


def _assistant(message: Assistant, spelling: Spelling) -> list[dict[str, Any]]:
    blocks: list[dict[str, Any]] = []
    for part in message.content:
        match part:
            case Thinking():  # the plan kept only what this family can verify
                blocks.extend(_reasoning(part))
            case ToolCall():
                use = {"toolUseId": spelling.call_id(part.id), "name": spelling.name(part.name)}
                blocks.append({"toolUse": {**use, "input": part.arguments}})
            case Text():
                blocks.append({"text": part.text})
            case _:  # a ProviderPart: the plan kept none for this wire
                pass
    return blocks


def _reasoning(part: Thinking) -> list[dict[str, Any]]:
    """A reasoning block; the plan left out thinking that carries nothing (plan.wire_rules)."""
    if part.redacted and part.signature is not None:
        return [{"reasoningContent": {"redactedContent": _redacted(part.signature)}}]
    text: dict[str, Any] = {"text": part.text}
    if part.signature is not None:
        text["signature"] = part.signature
    return [{"reasoningContent": {"reasoningText": text}}]


def _redacted(text: str) -> bytes:
    """The bytes of redacted reasoning, which the plan checked is base64
    (``base64_signatures``)."""
    return base64.b64decode(text, validate=True)


def _source(file: File) -> dict[str, Any]:
    source = file.source
    if isinstance(source, BytesSource):  # most files
        return {"bytes": source.data}
    if isinstance(source, UrlSource) and source.scheme == "s3":
        return {"s3Location": {"uri": source.url}}
    if source.is_local:
        return {"bytes": file.read()}
    raise CapabilityError(
        f"Bedrock Converse cannot reference {source.describe()} (file {file.identifier}): it "
        "takes raw bytes or s3:// URIs. Only a capabilities override routes it here: remove "
        "that source from the cell, or pass fetch_urls=True to download http(s) URLs first."
    )


def _is_json_object(value: Any) -> bool:
    return isinstance(value, dict) and not _has_type_key(value)


def _has_type_key(value: Any) -> bool:
    if isinstance(value, dict):
        return "__type" in value or any(_has_type_key(v) for v in value.values())
    if isinstance(value, list):
        return any(_has_type_key(v) for v in value)
    return False


WIRE = register(Wire(
    "bedrock", step=step, finish=finish, mark=mark, decoder=Decoder.of_module("toolwire.decoders.bedrock"),
    # botocore bedrock-runtime 2023-09-30 ToolUseId: pattern [a-zA-Z0-9_.:-]+, 1-64. Claude
    # on Bedrock is served by Anthropic's backend, whose rule is [a-zA-Z0-9_-]+: an id with
    # "." or ":" passes botocore and fails at the model. The intersection is the safe rule
    # (ids Bedrock issues, tooluse_…, pass unchanged).
    ids=id_rule(
        r"[a-zA-Z0-9_-]{1,64}", 64, "tooluse_", 24, "botocore ToolUseId ∩ Anthropic tool_use.id"
    ),
    # botocore bedrock-runtime 2023-09-30 ToolName: pattern [a-zA-Z0-9_-]+, 1-64.
    names=name_rule(NAME_64, 64, NOT_NAME_64, "botocore ToolName"),
    tools=bedrock_tools, size=DEFAULT,  # botocore: json.dumps defaults
    tool_choices=frozenset(("auto", "required", "tool")),  # ToolChoice: auto | any | tool
    # Converse (CAPABILITIES.md): "A conversation must start with a user message", roles
    # alternate, blank text is rejected, a message with a document needs a text block.
    roles_alternate=True, rejects_blank_text=True, documents_need_text=True,
    starts_with_user=True, formats=FORMATS,
    system_apart=True,  # ConverseRequest.system: a parameter of its own
    base64_signatures=frozenset(("redacted",)),  # ReasoningContentBlock.redactedContent: bytes
    thinking_needs_text=True,  # ReasoningTextBlock.text is required
))  # fmt: skip
