"""Amazon Bedrock Converse: ``client.converse(modelId=…, **kwargs)``.

Reference: botocore bedrock-runtime 2023-09-30 ``Converse`` input: ``messages`` of ``Message{role,
content: ContentBlock[]}`` and ``system: SystemContentBlock[]``. Content blocks: ``text``,
``image{format, source}``, ``document{format, name, source}``, ``video{format, source}``,
``toolUse{toolUseId, name, input}``, ``toolResult{toolUseId, content, status}`` (content: text,
json, image, document, video) and ``reasoningContent`` (``reasoningText{text, signature}`` or
``redactedContent``). Sources are raw ``bytes`` (boto3 base64-encodes them) or
``s3Location{uri}``; Converse takes no http URLs (the planner downloads them when
``fetch_urls`` allows, else refuses the file).

The planner lays out each model family (table rows in capabilities.toml); this module spells it:

- A tool turn is one user message: every ``toolResult`` first, in call order, then the parts
  that share it (Nova's sibling documents and videos, a merged user message). Where a family
  cannot take a medium there, the plan holds a minimal assistant message and a separate user turn.
- Roles must alternate: consecutive messages of one role (a user message after a user message,
  an assistant message whose every part was dropped) are merged into one message.
- Blank text blocks (whitespace only, ``\x85`` included) are left out: the service rejects them;
  a tool result left with nothing says ``(no output)``, as an empty one does.
- ``status: "error"`` only where ``Capabilities.error_status`` says the family supports it
  (botocore: "only supported by Amazon Nova and Anthropic Claude 3 and 4 models").
- JSON in a tool result is a ``json`` block when it is an object; the service rejects anything
  else there ("Provide a json object for the field", sigoden/aichat#1550), and objects holding a
  ``__type`` key too (maximhq/bifrost#5762), so those go as compact JSON text.
- A message with a document and no text (a user message of files alone) gets a
  ``This is file {name}:`` text block before each document: Converse requires one.
- Document names: see bedrock_names (sanitised, unique within the request, stable).
- Tool use ids outside ``[a-zA-Z0-9_-]{1,64}`` (botocore allows ``.:`` too, Claude does not) become
  ``tooluse_`` + a stable hash, and tool names outside ``[a-zA-Z0-9_-]{1,64}`` a sanitised name,
  identically in the call and its result (providers.ids).
- Reasoning goes back as it came to a model of the same family (``Capabilities.issuer``:
  Claude, Nova, Llama, Mistral; an unknown family only to the same model); other thinking is
  dropped, since no other model can verify its signature.
- Call arguments that were not a JSON object (``ToolCall.invalid_arguments``) go as ``{}``:
  ``input`` takes only a JSON document.
"""

from __future__ import annotations

import base64
from dataclasses import dataclass, field
from typing import Any

from ..content import File, Json, Text, Thinking, ToolCall
from ..errors import CapabilityError, ConversationError, Unsupported, UnsupportedContentError
from ..mediatypes import DOCX, XLSX
from ..messages import Assistant, User
from ..plan import Plan, PlannedResult, ToolTurn
from ..sources import UrlSource
from ..turns import EMPTY_RESULT_TEXT
from .bedrock_names import DocumentNames
from .ids import ToolNames, wire_kwargs

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
_BLOCKS = {"image": IMAGE_FORMATS, "document": DOCUMENT_FORMATS, "video": VIDEO_FORMATS}


def encode(plan: Plan) -> dict[str, Any]:
    """``messages`` (and ``system`` when the conversation has system text)."""
    spell = _Speller(plan, ToolNames.of(plan))
    messages: list[dict[str, Any]] = []
    for step in plan.steps:
        if isinstance(step, User):
            _append(messages, "user", [spell.part(p) for p in step.parts])
        elif isinstance(step, Assistant):
            _append(messages, "assistant", spell.assistant(step))
        elif isinstance(step, ToolTurn):
            results = [spell.tool_result(r) for r in step.results]
            _append(messages, "user", results + [spell.part(p) for p in step.extra])
    for message in messages:
        _label_lone_documents(message["content"])
    _check_starts_with_user(messages)
    kwargs: dict[str, Any] = {"messages": messages}
    if plan.system:
        kwargs["system"] = [{"text": plan.system}]
    return wire_kwargs(kwargs, plan)


def _append(messages: list[dict[str, Any]], role: str, blocks: list[dict[str, Any]]) -> None:
    """Add a message, merged into the previous one when the roles would not alternate."""
    blocks = [b for b in blocks if not ("text" in b and not b["text"].strip())]  # blank: rejected
    if not blocks:
        return
    if messages and messages[-1]["role"] == role:
        messages[-1]["content"].extend(blocks)
    else:
        messages.append({"role": role, "content": blocks})


def _check_starts_with_user(messages: list[dict[str, Any]]) -> None:
    """Converse: "A conversation must start with a user message"; blank text does not count."""
    if not messages or messages[0]["role"] != "user":
        raise ConversationError(
            "Bedrock Converse needs a user message with content first, and this conversation has "
            "none before the first assistant message (blank text is left out: the service "
            "rejects it). Start the messages with a User message holding text or a file."
        )


def _label_lone_documents(blocks: list[dict[str, Any]]) -> None:
    """A message holding a document must also hold a text block (CAPABILITIES.md, Bedrock
    Converse): where the message has none, each document gets its ``This is file`` label."""
    has_document = False
    for block in blocks:
        if "text" in block:
            return
        has_document = has_document or "document" in block
    if not has_document:
        return
    for i in reversed(range(len(blocks))):
        if "document" in blocks[i]:
            blocks.insert(i, {"text": f"This is file {blocks[i]['document']['name']}:"})


@dataclass
class _Speller:
    """Spells parts for one request; holds the document names handed out so far."""

    plan: Plan
    tools: ToolNames
    names: DocumentNames = field(default_factory=DocumentNames)

    def part(self, part: Text | Json | File, in_tool_result: bool = False) -> dict[str, Any]:
        if isinstance(part, Text):
            return {"text": part.text}
        if isinstance(part, Json):
            if in_tool_result and _is_json_object(part.value):
                return {"json": part.value}
            return {"text": part.compact()}
        formats = _BLOCKS.get(part.kind)
        if formats is None or part.media_type not in formats:
            raise self._no_format(part)
        block: dict[str, Any] = {"format": formats[part.media_type]}
        if part.kind == "document":
            block["name"] = self.names.take(part.identifier)
        return {part.kind: {**block, "source": _source(part)}}

    def tool_result(self, result: PlannedResult) -> dict[str, Any]:
        content = [self.part(p, in_tool_result=True) for p in result.parts]
        content = [b for b in content if not ("text" in b and not b["text"].strip())] or [
            {"text": EMPTY_RESULT_TEXT}  # blank text is rejected; an empty result says so
        ]
        block: dict[str, Any] = {
            "toolUseId": self.tools.call_id(result.call_id),
            "content": content,
        }
        if result.is_error and self.plan.caps.error_status:
            block["status"] = "error"
        return {"toolResult": block}

    def assistant(self, message: Assistant) -> list[dict[str, Any]]:
        blocks: list[dict[str, Any]] = []
        for part in message.content:
            if isinstance(part, Thinking):
                if part.provider == self.plan.caps.issuer:  # same family: it can verify
                    blocks.extend(_reasoning(part))
            elif isinstance(part, ToolCall):
                use = {"toolUseId": self.tools.call_id(part.id), "name": self.tools.name(part.name)}
                blocks.append({"toolUse": {**use, "input": part.arguments}})
            else:
                blocks.append({"text": part.text})
        return blocks

    def _no_format(self, file: File) -> UnsupportedContentError:
        """Only a capabilities override routes a media type here that Converse has no format
        for; say which formats exist."""
        caps = self.plan.caps
        index = next(
            (d.message_index for d in self.plan.decisions if d.identifier == file.identifier), -1
        )
        accepted = "; ".join(
            f"{kind} formats {', '.join(dict.fromkeys(formats.values()))}"
            for kind, formats in _BLOCKS.items()
        )
        reason = f"Bedrock Converse has no format for {file.media_type}"
        return UnsupportedContentError(
            f"{caps.provider}:{caps.model}",
            [Unsupported(index, file.identifier, file.media_type, reason)],
            f'{accepted} (set this type\'s tool_result to "error" in the override)',
        )


def _reasoning(part: Thinking) -> list[dict[str, Any]]:
    if part.redacted:
        if part.signature is None:
            return []
        return [{"reasoningContent": {"redactedContent": _redacted(part.signature)}}]
    if not part.text:
        return []
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
