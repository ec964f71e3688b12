"""Mistral chat completions: ``client.chat.complete(model=…, **kwargs)``.

Reference: mistralai 3.7 ``ChatCompletionRequestMessage`` (``SystemMessage``, ``UserMessage``,
``AssistantMessage``, ``ToolMessage``) and ``ContentChunk`` (``TextChunk``, ``ImageURLChunk``,
``DocumentURLChunk``, ``AudioChunk``, ``FileChunk``, ``ThinkChunk``); ``ToolCall{id, type,
function: FunctionCall{name, arguments}}``. Role order follows mistral-common's
``MistralRequestValidator``: nothing but a tool or assistant message may follow a tool message,
and nothing but a tool, user or assistant message may follow an assistant message. The planner
puts a bridge assistant message before a user message that follows tool results (the target's
followup and user_after_tool are "turn") and refuses a layout that would put a user message
right after them (``Wire.user_follows_tool``: a "sibling" or "merge" override); this encoder
sends the system text as the first message, the one place a system message is always allowed.

Where this wire differs from the others:

- Tool call ids must match ``[a-zA-Z0-9]{9}`` (mistral-common ``MistralRequestValidatorV3``:
  "Tool call id was … but must be a-z, A-Z, 0-9, with a length of 9."). Mistral's own ids pass
  unchanged; any other id (history from another provider) is sent as the first 9 hex digits of
  its sha256, identically in the call and in its result (plan.ids, which also rewrites
  tool names outside ``[a-zA-Z0-9_-]{1,64}``).
- Tool messages have no error flag: an error result's text starts with ``Error: ``.
- Tool message content is text (parts joined by a blank line); a file the plan puts inside a
  tool result (only a capabilities override does that) turns it into a list of chunks.
- Thinking goes back as a ``ThinkChunk`` when Mistral produced it (magistral); another
  provider's thinking is dropped. Text and thinking keep their order; a lone text is a string.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from .. import b64
from ..content import File, Json, Text, Thinking, ToolCall
from ..errors import CapabilityError
from ..mediatypes import is_textual
from ..messages import Assistant
from ..plan import PlannedResult, Step
from ..sources import ProviderFileSource, UrlSource
from ..tools.spell import mistral_tools
from ..wire_size import MISTRAL
from . import register
from .spelling import chat_step, error_text, function_call, system_first
from .wire import NAME_64, NOT_NAME_64, Decoder, Spelling, Wire, id_rule, name_rule

#: How several text parts of one tool result are joined into one tool message text.
JOIN = "\n\n"


def step(step: Step, spelling: Spelling) -> list[dict[str, Any]]:
    """One step's messages (providers.spelling.chat_step)."""
    return chat_step(step, spelling, _user, _assistant, _tool)


def _user(parts: Iterable[Text | File]) -> dict[str, Any]:
    return {"role": "user", "content": [_chunk(part) for part in parts]}


def _assistant(message: Assistant, names: Spelling) -> dict[str, Any]:
    chunks: list[dict[str, Any]] = []
    calls: list[dict[str, Any]] = []
    for part in message.content:
        if isinstance(part, ToolCall):
            calls.append(function_call(part, names, WIRE.separators))
        elif isinstance(part, Thinking):  # Mistral's own, with text (the plan kept no other)
            chunks.append(_thinking(part))
        elif isinstance(part, Text):  # no ProviderPart: the plan kept none
            chunks.append({"type": "text", "text": part.text})
    content: str | list[dict[str, Any]] = chunks
    if not chunks:
        content = ""  # Mistral's own tool-call messages carry content ""
    elif len(chunks) == 1 and chunks[0]["type"] == "text":
        content = chunks[0]["text"]
    message_dict: dict[str, Any] = {"role": "assistant", "content": content}
    if calls:
        message_dict["tool_calls"] = calls
    return message_dict


def _thinking(part: Thinking) -> dict[str, Any]:
    chunk: dict[str, Any] = {"type": "thinking", "thinking": [{"type": "text", "text": part.text}]}
    if part.signature is not None:
        chunk["signature"] = part.signature
    return chunk


def _tool(result: PlannedResult, names: Spelling) -> dict[str, Any]:
    texts = [_text(part) for part in result.parts if not isinstance(part, File)]
    content: str | list[dict[str, Any]]
    if len(texts) == len(result.parts):
        content = JOIN.join(texts)
        content = error_text(content) if result.is_error else content
    else:  # a file inside the tool result (error outputs hold no files): content chunks
        content = [_chunk(part) for part in result.parts]
    return {
        "role": "tool",
        "tool_call_id": names.call_id(result.call_id),
        "name": names.name(result.name),
        "content": content,
    }


def _text(part: Text | Json) -> str:
    return part.compact() if isinstance(part, Json) else part.text


def _chunk(part: Text | Json | File) -> dict[str, Any]:
    if not isinstance(part, File):
        return {"type": "text", "text": _text(part)}
    if isinstance(part.source, ProviderFileSource):
        return {"type": "file", "file_id": part.source.file_id}
    if part.kind == "image":
        return {"type": "image_url", "image_url": _url(part)}
    if is_textual(part.media_type):
        return {"type": "text", "text": part.read_text()}
    if part.kind == "document":
        return {
            "type": "document_url",
            "document_url": _url(part),
            "document_name": part.identifier,
        }
    if part.kind == "audio":
        source = part.source
        audio = source.url if isinstance(source, UrlSource) else b64.b64(part)
        return {"type": "input_audio", "input_audio": audio}
    raise CapabilityError(
        f"the {WIRE.name} wire has no content chunk for {part.media_type} (file {part.identifier}); "
        'only a capabilities override routes it here: set its tool_result to "error"'
    )


def _url(file: File) -> str:
    """An http(s) URL as given, else the bytes as a data URL (both accepted by Mistral)."""
    return file.source.url if isinstance(file.source, UrlSource) else b64.data_url(file)


WIRE = register(Wire(
    "mistral", step=step, finish=system_first, decoder=Decoder.of_module("toolwire.decoders.mistral"),
    # mistral-common MistralRequestValidatorV3: "must be a-z, A-Z, 0-9, with a length of 9".
    ids=id_rule(r"[a-zA-Z0-9]{9}", 9, "", 9, "mistral-common MistralRequestValidatorV3"),
    # mistral-common validator: "must be a-z, A-Z, 0-9, or contain underscores and dashes,
    # with a maximum length of 64".
    names=name_rule(NAME_64, 64, NOT_NAME_64, "mistral-common function name"),
    tools=mistral_tools, size=MISTRAL,  # mistralai utils/serializers.marshal_json
    separators=(", ", ": "),  # Mistral's models write json.dumps' default separators
    # mistral-common MistralRequestValidator: nothing but a tool or assistant message may
    # follow a tool message.
    user_follows_tool=False,
    thinking_needs_text=True, takes_redacted_thinking=False,  # ThinkChunk: text chunks only
))  # fmt: skip
