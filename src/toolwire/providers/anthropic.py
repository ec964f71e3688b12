"""Anthropic Messages API: ``client.messages.create(model=…, max_tokens=…, **kwargs)``.

Reference: anthropic SDK 2.12 ``MessageParam``, ``ToolResultBlockParam`` (content: text, image,
document, search_result blocks; ``is_error``), ``DocumentBlockParam`` (base64 PDF, URL PDF,
plain-text and file sources), ``ThinkingBlockParam`` / ``RedactedThinkingBlockParam``.
Anthropic's own provider parts (server-tool blocks, citations: decoders.anthropic) go back as
they came, in place.
"""

from __future__ import annotations

from typing import Any

from .. import b64
from ..content import File, Json, ProviderPart, Text, Thinking, ToolCall
from ..errors import CapabilityError
from ..mediatypes import is_textual
from ..messages import Assistant, User
from ..plan import Plan, PlannedResult, Step, ToolTurn
from ..sources import ProviderFileSource, UrlSource
from ..tools.spell import anthropic_tools
from ..wire_size import HTTPX
from . import register
from .wire import NAME_64, NOT_NAME_64, Decoder, Spelling, Wire, id_rule, name_rule

# Base64ImageSourceParam.media_type and Base64PDFSourceParam.media_type: these literals only.
_IMAGE_TYPES = ("image/jpeg", "image/png", "image/gif", "image/webp")
_PDF_TYPES = ("application/pdf",)


def step(step: Step, spelling: Spelling) -> list[dict[str, Any]]:
    """One step's messages (none for system text: ``finish`` places it)."""
    if isinstance(step, User):
        return [{"role": "user", "content": [_block(p) for p in step.parts]}]
    if isinstance(step, Assistant):
        content = _assistant(step, spelling)
        return [{"role": "assistant", "content": content}] if content else []
    if isinstance(step, ToolTurn):
        blocks = [_tool_result(r, spelling) for r in step.results]
        blocks += [_block(p) for p in step.extra]
        return [{"role": "user", "content": blocks}]
    return []


def finish(plan: Plan, messages: list[dict[str, Any]]) -> dict[str, Any]:
    """``messages`` (and ``system`` when the conversation has one)."""
    kwargs: dict[str, Any] = {"messages": messages}
    if plan.system is not None:
        kwargs["system"] = plan.system
    if plan.cache is not None:
        kwargs = _cache_marks(kwargs, plan)
    return kwargs


def _cache_marks(kwargs: dict[str, Any], plan: Plan) -> dict[str, Any]:
    """The plan's cache points: ``cache_control`` on the system block, and the request-level
    automatic mark (MessageCreateParams.cache_control: the service marks the last block)."""
    mark = {"type": "ephemeral"}
    if plan.cache is not None and plan.cache.system:
        kwargs["system"] = [{"type": "text", "text": kwargs["system"], "cache_control": mark}]
    if plan.cache is not None and plan.cache.automatic:
        kwargs["cache_control"] = mark
    return kwargs


def _tool_result(result: PlannedResult, names: Spelling) -> dict[str, Any]:
    block: dict[str, Any] = {
        "type": "tool_result",
        "tool_use_id": names.call_id(result.call_id),
        "content": [_block(p) for p in result.parts],
    }
    if result.is_error:
        block["is_error"] = True
    return block


def _assistant(message: Assistant, names: Spelling) -> list[dict[str, Any]]:
    blocks: list[dict[str, Any]] = []
    for part in message.content:
        if isinstance(part, Thinking):
            blocks.append(_thinking(part))
        elif isinstance(part, ToolCall):
            use = {"type": "tool_use", "id": names.call_id(part.id), "name": names.name(part.name)}
            blocks.append({**use, "input": part.arguments})
        elif isinstance(part, ProviderPart):  # the plan kept only Anthropic's own blocks
            _provider_block(blocks, part)
        else:  # text: the plan left out blank text (Wire.rejects_blank_text)
            blocks.append({"type": "text", "text": part.text})
    return blocks


def _provider_block(blocks: list[dict[str, Any]], part: ProviderPart) -> None:
    """Anthropic's own block as it came; citations go back on the text block they followed
    (decoders.anthropic); the plan left out those of a blank text it left out
    (plan.wire_rules.ANNOTATES_TEXT)."""
    if part.kind != "citations":
        blocks.append(dict(part.data))
    elif blocks and blocks[-1]["type"] == "text":
        blocks[-1] = {**blocks[-1], **part.data}


def _thinking(part: Thinking) -> dict[str, Any]:
    """Thinking the plan kept (Anthropic's own, signed: ``thinking_needs_signature``) goes
    back verbatim."""
    if part.redacted:
        return {"type": "redacted_thinking", "data": part.signature}
    return {"type": "thinking", "thinking": part.text, "signature": part.signature}


def _block(part: Text | Json | File) -> dict[str, Any]:
    if isinstance(part, Text):
        return {"type": "text", "text": part.text}
    if isinstance(part, Json):
        return {"type": "text", "text": part.compact()}
    if part.kind == "image":
        return {"type": "image", "source": _source(part, _IMAGE_TYPES)}
    if part.media_type in _PDF_TYPES:
        return {"type": "document", "source": _source(part, _PDF_TYPES), "title": part.identifier}
    if is_textual(part.media_type) and part.source.is_local:
        source = {"type": "text", "media_type": "text/plain", "data": part.read_text()}
        return {"type": "document", "source": source, "title": part.identifier}
    raise _no_shape(part)


def _source(file: File, base64_types: tuple[str, ...]) -> dict[str, Any]:
    source = file.source
    if isinstance(source, UrlSource) and source.scheme == "url":
        return {"type": "url", "url": source.url}
    if isinstance(source, ProviderFileSource):
        return {"type": "file", "file_id": source.file_id}
    if source.is_local and file.media_type in base64_types:
        return {"type": "base64", "media_type": file.media_type, "data": b64.b64(file)}
    raise _no_shape(file)


def _no_shape(file: File) -> CapabilityError:
    """Only a capabilities override can route a file here that no content block can hold."""
    return CapabilityError(
        f"the anthropic wire has no content block for {file.media_type} from "
        f"{file.source.describe()} (file {file.identifier}): it takes jpeg/png/gif/webp images and "
        "PDFs (bytes, http URL, file id) and text documents (bytes). Only a capabilities override "
        'routes it here: set its tool_result to "error" or remove that source.'
    )


WIRE = register(Wire(
    "anthropic", step=step, finish=finish, decoder=Decoder.of_module("toolwire.decoders.anthropic"),
    # API error "tool_use.id: String should match pattern '^[a-zA-Z0-9_-]+$'"; no published
    # length limit: 64, every other wire's bound (Anthropic's own ids are ~30 characters).
    ids=id_rule(r"[a-zA-Z0-9_-]+", 64, "toolu_", 24, "Messages API validation"),
    # Anthropic tool docs: name "must match the regex ^[a-zA-Z0-9_-]{1,64}$".
    names=name_rule(NAME_64, 64, NOT_NAME_64, "Anthropic tool use docs"),
    tools=anthropic_tools, size=HTTPX,  # anthropic _utils/_json.openapi_dumps: httpx's defaults
    # ThinkingBlockParam.signature and RedactedThinkingBlockParam.data are required.
    thinking_needs_signature=True,
    # API errors "messages: text content blocks must contain non-whitespace text" and "…must
    # be non-empty" (quoted in AnswerDotAI/fasthtml-example#35, anthropics/claude-code#59812).
    rejects_blank_text=True,
    system_apart=True,  # MessageCreateParams.system: a parameter of its own
))  # fmt: skip
