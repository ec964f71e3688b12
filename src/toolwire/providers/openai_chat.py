"""OpenAI Chat Completions: ``client.chat.completions.create(model=…, **kwargs)``.

Reference: openai SDK 3.54 ``ChatCompletionMessageParam`` — ``ChatCompletionToolMessageParam``
(content: a string or ``text`` parts only), ``ChatCompletionUserMessageParam`` with the parts
``text``, ``image_url`` (data URL or http URL), ``input_audio`` (base64, format ``wav`` | ``mp3``)
and ``file`` (``file_data`` data URL + ``filename``, or ``file_id``; PDF only), and
``ChatCompletionAssistantMessageParam.tool_calls``. Groq (groq SDK 1.7), xAI, OpenRouter and
OpenAI-compatible servers (vLLM, llama.cpp) speak the same wire; what they accept differs
only in their capability rows, never here.

Spelling choices (the plan decides everything else):

- text content — of tool, user and assistant messages — is a plain string when it is one
  text part, else a list of ``text`` parts in order;
- ``Json`` parts become compact JSON text;
- tool messages have no error flag: an error output's text is prefixed with ``"Error: "``;
- system texts stay ``{"role": "system"}`` messages at their position ("system", not
  "developer": every OpenAI-compatible server accepts it);
- a text document is a ``text`` part holding its decoded text;
- ``detail`` is omitted (the API's default, "auto"): no capability column sets it;
- a ``file`` part's ``filename`` is the file's identifier, with the extension of its media
  type added when it has none (the API tells file types by extension);
- ``Thinking`` is dropped (OpenAI's Chat Completions take no reasoning back), except where
  the plan says the server takes it (``Plan.reasoning_replay``: DeepSeek's thinking mode
  wants ``reasoning_content`` on every assistant message that made tool calls);
- tool call ids over 40 characters and names outside ``[a-zA-Z0-9_-]{1,64}`` are rewritten
  stably, identically in the call and its result (plan.ids);
- tool-call arguments are compact JSON text, or the model's own text verbatim when it was not
  a JSON object (``ToolCall.invalid_arguments``);
- ``ToolTurn.extra`` (only when a capability override asks for "merge") becomes a user
  message right after the tool messages: a tool message cannot hold it.
"""

from __future__ import annotations

import json
from pathlib import PurePath
from typing import Any

from .. import b64
from ..content import File, Json, Text, Thinking
from ..mediatypes import ALL_EXTENSIONS, is_textual
from ..messages import Assistant, System, User
from ..plan import Plan, PlannedResult, Step, ToolTurn
from ..sources import ProviderFileSource, UrlSource
from ..tools.spell import openai_chat_tools
from ..wire_size import HTTPX
from . import register
from .spelling import error_text, function_call
from .wire import NAME_64, NOT_NAME_64, CannotSpell, Decoder, Spelling, Wire, id_rule, name_rule

# input_audio.format: the API names the two formats it decodes.
_AUDIO_FORMATS = {"audio/wav": "wav", "audio/mpeg": "mp3"}
_SUFFIXES = {
    t: tuple(s for s, u in ALL_EXTENSIONS.items() if u == t) for t in set(ALL_EXTENSIONS.values())
}


def step(step: Step, spelling: Spelling) -> list[dict[str, Any]]:
    """One step's messages: system, user, assistant or tool messages."""
    return _messages(step, spelling)


def finish(plan: Plan, messages: list[dict[str, Any]]) -> dict[str, Any]:
    """``messages`` in conversation order."""
    return {"messages": messages}


def mark(message: dict[str, Any]) -> dict[str, Any]:
    """A marked step's last message with the cache breakpoint (plan.cache)."""
    return with_breakpoint(message, "content", "text")


def with_breakpoint(item: dict[str, Any], key: str, text_type: str) -> dict[str, Any]:
    """``item`` with ``prompt_cache_breakpoint`` on the last content part of ``item[key]``
    (a text string becomes one ``text_type`` part to carry it)."""
    mark = {"prompt_cache_breakpoint": {"mode": "explicit"}}
    value = item[key]
    if isinstance(value, str):
        return {**item, key: [{"type": text_type, "text": value, **mark}]}
    return {**item, key: [*value[:-1], {**value[-1], **mark}]}


def filename(file: File) -> str:
    """The identifier, with its media type's extension added when it has none."""
    name = file.identifier
    suffixes = _SUFFIXES.get(file.media_type, ())
    if suffixes and PurePath(name).suffix.lower() not in suffixes:
        name += suffixes[0]
    return name


def _messages(step: Step, names: Spelling) -> list[dict[str, Any]]:
    if isinstance(step, System):
        return [{"role": "system", "content": step.text}]
    if isinstance(step, User):
        return [{"role": "user", "content": _user_content(step.parts)}]
    if isinstance(step, Assistant):
        return _assistant(step, names)
    assert isinstance(step, ToolTurn)
    messages = [_tool_message(result, names) for result in step.results]
    if step.extra:
        messages.append({"role": "user", "content": _user_content(step.extra)})
    return messages


def _text_content(texts: list[str], parts: bool) -> str | list[dict[str, Any]]:
    """One string, or a list of text parts where the server takes lists (``parts``; several
    OpenAI-compatible servers take only a string in a tool or assistant message)."""
    if len(texts) == 1 or not parts:
        return "\n\n".join(texts)
    return [{"type": "text", "text": text} for text in texts]


def _tool_message(result: PlannedResult, names: Spelling) -> dict[str, Any]:
    texts = [_tool_text(part) for part in result.parts]
    if result.is_error:
        texts[0] = error_text(texts[0])
    call_id = names.call_id(result.call_id)
    return {
        "role": "tool",
        "tool_call_id": call_id,
        "content": _text_content(texts, names.text_parts),
    }


def _tool_text(part: Text | Json | File) -> str:
    if isinstance(part, Text):
        return part.text
    if isinstance(part, Json):
        return part.compact()
    raise CannotSpell(f"{part.identifier} ({part.media_type}) into a tool message (text only)")


def _assistant(message: Assistant, names: Spelling) -> list[dict[str, Any]]:
    texts = [p.text for p in message.content if isinstance(p, Text)]  # none empty: the plan
    calls = [function_call(call, names, WIRE.separators) for call in message.tool_calls]
    spelled: dict[str, Any] = {"role": "assistant"}
    if texts:
        spelled["content"] = _text_content(texts, names.text_parts)
    if calls:
        spelled["tool_calls"] = calls
    replay = names.reasoning_replay  # the plan kept only thinking of this target's issuer
    if replay is not None and (calls or replay[1] == "all"):
        thinking = [p for p in message.content if isinstance(p, Thinking)]
        if replay[0] == "reasoning_details":  # OpenRouter: the detail objects, as they came
            details = [_detail_of(p) for p in thinking if p.signature]
            if details:
                spelled[replay[0]] = [d for d in details if d is not None]
        elif thought := "\n".join(p.text for p in thinking if p.text):
            spelled[replay[0]] = thought
    return [spelled]


def _detail_of(part: Thinking) -> dict[str, Any] | None:
    """The reasoning detail a Thinking carries as its signature (decoders.openai_chat)."""
    try:
        value = json.loads(part.signature or "")
    except ValueError:
        return None
    return value if isinstance(value, dict) else None


def _user_content(parts: list[Text | File] | tuple[Text | File, ...]) -> Any:
    spelled = [_user_part(part) for part in parts]
    if len(spelled) == 1 and spelled[0]["type"] == "text":
        return spelled[0]["text"]
    return spelled


def _user_part(part: Text | File) -> dict[str, Any]:
    if isinstance(part, Text):
        return {"type": "text", "text": part.text}
    if part.kind == "image":
        return {"type": "image_url", "image_url": {"url": _image_url(part)}}
    if is_textual(part.media_type) and part.source.is_local:
        return {"type": "text", "text": part.read_text()}
    if part.media_type == "application/pdf":
        return {"type": "file", "file": _file(part)}
    if part.media_type in _AUDIO_FORMATS and part.source.is_local:
        audio = {"data": b64.b64(part), "format": _AUDIO_FORMATS[part.media_type]}
        return {"type": "input_audio", "input_audio": audio}
    raise CannotSpell(
        f"{part.identifier} ({part.media_type}, {part.source.describe()}) into a user message "
        "(it takes images by data or http URL, wav/mp3 audio as bytes, PDFs as bytes or file id, "
        "and text documents as bytes)"
    )


def _image_url(file: File) -> str:
    source = file.source
    if isinstance(source, UrlSource) and source.scheme == "url":
        return source.url
    if source.is_local:
        return b64.data_url(file)
    raise CannotSpell(f"{file.identifier} ({source.describe()}) as an image_url")


def _file(file: File) -> dict[str, str]:
    source = file.source
    if isinstance(source, ProviderFileSource):
        return {"file_id": source.file_id}
    if source.is_local:
        return {"file_data": b64.data_url(file), "filename": filename(file)}
    raise CannotSpell(f"{file.identifier} ({source.describe()}) as a file part")


WIRE = register(Wire(
    "openai_chat", step=step, finish=finish, mark=mark, decoder=Decoder.of_module("toolwire.decoders.openai_chat"),
    # "Invalid 'messages[n].tool_calls[0].id': string too long. Expected … maximum length 40".
    ids=id_rule(None, 40, "call_", 24, "Chat Completions API validation"),
    # OpenAI function name: "a-z, A-Z, 0-9, or contain underscores and dashes, with a
    # maximum length of 64".
    names=name_rule(NAME_64, 64, NOT_NAME_64, "OpenAI function name"),
    tools=openai_chat_tools, size=HTTPX,  # openai (and groq) _utils/_json.openapi_dumps: httpx's defaults
    separators=(",", ":"),  # OpenAI's models write compact arguments
    takes_thinking=False,  # ChatCompletionAssistantMessageParam has no reasoning field
))  # fmt: skip
