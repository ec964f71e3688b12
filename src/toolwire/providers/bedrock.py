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
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from ..content import File, Json, Text, Thinking, ToolCall
from ..errors import CapabilityError, ConversationError
from ..mediatypes import DOCX, XLSX
from ..messages import Assistant, User, base_type
from ..plan import Plan, PlannedResult, ToolTurn
from ..plan.ids import ToolNames, wire_kwargs
from ..sources import BytesSource, UrlSource
from ..tools.spell import bedrock_tools
from ..wire_size import DEFAULT
from . import register
from .bedrock_names import DocumentNames
from .wire import NAME_64, NOT_NAME_64, Decoder, Wire, id_rule, name_rule

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


def encode(plan: Plan) -> dict[str, Any]:
    """``messages`` (and ``system`` when the conversation has system text)."""
    spell = _Speller(plan.names)
    messages: list[dict[str, Any]] = []
    marked = set(plan.cache.steps) if plan.cache is not None else set()
    ends: dict[int, dict[str, Any]] = {}  # marked step -> its message (plan.cache)
    step: Any
    kind: Any
    for index, step in enumerate(plan.steps):
        kind = type(step)
        if kind is not ToolTurn and kind is not Assistant and kind is not User:
            kind = base_type(step)  # a subclass
        if kind is ToolTurn:  # most steps of an agent's history; the plan's own type
            content = []
            for result in step.results:
                content.append(spell.tool_result(result))
            for part in step.extra:
                content.append(spell.part(part))
            messages.append({"role": "user", "content": content})
        elif kind is Assistant:
            messages.append({"role": "assistant", "content": spell.assistant(step)})
        elif kind is User:
            text = step.content
            content = [{"text": text}] if type(text) is str else [spell.part(p) for p in text]
            messages.append({"role": "user", "content": content})
        if index in marked:
            ends[index] = messages[-1]
    kwargs: dict[str, Any] = {"messages": messages}
    if plan.system:
        kwargs["system"] = [{"text": plan.system}]
    if plan.cache is not None:
        _cache_marks(kwargs, plan, ends)
    return wire_kwargs(kwargs, plan)


def _cache_marks(kwargs: dict[str, Any], plan: Plan, ends: dict[int, dict[str, Any]]) -> None:
    """The plan's cache points as ``cachePoint`` blocks: after the system text, and closing
    the user message of each marked step, beside its ``toolResult`` blocks (never inside)."""
    point = {"cachePoint": {"type": "default"}}
    if plan.cache is not None and plan.cache.system:
        kwargs["system"].append(point)
    for index in plan.cache.steps if plan.cache is not None else ():
        ends[index]["content"].append(point)


@dataclass
class _Speller:
    """Spells parts for one request; holds the document names handed out so far."""

    tools: ToolNames
    names: DocumentNames = field(default_factory=DocumentNames)

    def part(self, part: Any, in_tool_result: bool = False) -> dict[str, Any]:
        """A Text, Json or File block (dispatched by type: ``part`` is one of them)."""
        kind: Any = type(part)
        if kind is not Text and kind is not File:
            kind = base_type(part)  # a Json, or a subclass of a part
        if kind is Text:
            return {"text": part.text}
        if kind is Json:
            if in_tool_result and _is_json_object(part.value):
                return {"json": part.value}
            return {"text": part.compact()}
        medium = part.kind  # the plan sends only FORMATS' types (plan.wire_rules)
        block: dict[str, Any] = {"format": FORMATS[part.media_type]}
        if medium == "document":
            block["name"] = self.names.take(part.identifier)
        block["source"] = _source(part)
        return {medium: block}

    def tool_result(self, result: PlannedResult) -> dict[str, Any]:
        content = []
        for part in result.parts:
            content.append(self.part(part, True))
        block: dict[str, Any] = {
            "toolUseId": self.tools.call_id(result.call_id),
            "content": content,
        }
        if result.error_flag:
            block["status"] = "error"
        return {"toolResult": block}

    def assistant(self, message: Assistant) -> list[dict[str, Any]]:
        blocks: list[dict[str, Any]] = []
        part: Any
        kind: Any
        for part in message.content:
            kind = type(part)
            if kind is Text:
                blocks.append({"text": part.text})
                continue
            if kind is not ToolCall:
                kind = base_type(part)
            if kind is Thinking:  # the plan kept only what this family can verify
                blocks.extend(_reasoning(part))
            elif kind is ToolCall:
                use = {"toolUseId": self.tools.call_id(part.id), "name": self.tools.name(part.name)}
                blocks.append({"toolUse": {**use, "input": part.arguments}})
            else:
                blocks.append({"text": part.text})
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
    try:
        return base64.b64decode(text, validate=True)
    except ValueError as exc:  # binascii.Error is a ValueError
        raise ConversationError(
            f"redacted reasoning data is not base64 text ({exc}); keep it exactly as "
            "toolwire.decoders returned it"
        ) from exc


def _source(file: File) -> dict[str, Any]:
    source = file.source
    if type(source) is BytesSource:  # most files
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
    "bedrock", spell=encode, decoder=Decoder.of_module("toolwire.decoders.bedrock"),
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
))  # fmt: skip
