"""Ollama native chat (``/api/chat``): ``ollama.chat(model, **kwargs)``.

Reference: ollama 0.6.3 ``Message{role, content, thinking, images, tool_name, tool_calls}``
with ``Message.ToolCall{function{name, arguments: mapping}}`` and ``Image`` (base64 text);
Ollama's API docs: a ``tool`` message names its tool in ``tool_name`` and may carry ``images``
(the OpenAI-compatible endpoint drops them, so toolwire speaks the native one).

Where this wire differs from the others:

- Content is one string: text parts, JSON (compact) and text documents (decoded) are joined
  by a blank line; images go in ``images`` as base64, in order. Empty fields are left out,
  as the SDK itself leaves them out of the request body.
- Tool messages have no error flag: an error result's text starts with ``Error: ``.
- Tool calls have no ids on this wire; results are matched by order and ``tool_name``.
  Arguments are an object: a call whose argument text was not JSON goes with ``{}``. A name
  that is not UTF-8 text is rewritten stably, identically in the call and ``tool_name``.
- Thinking goes back in the message's ``thinking`` field when Ollama produced it; another
  provider's thinking is dropped.
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
from ..tools.spell import ollama_tools
from ..wire_size import HTTPX
from . import register
from .spelling import chat_step, error_text, system_first
from .wire import ANY_TEXT, SURROGATES, Decoder, Spelling, Wire, id_rule, name_rule

#: How the text parts of one message are joined into its content string.
JOIN = "\n\n"


def step(step: Step, spelling: Spelling) -> list[dict[str, Any]]:
    """One step's messages (providers.spelling.chat_step)."""
    return chat_step(step, spelling, _user, _assistant, _tool)


def _user(parts: Iterable[Text | Json | File]) -> dict[str, Any]:
    return _message("user", parts)


def _tool(result: PlannedResult, spelling: Spelling) -> dict[str, Any]:
    tool = {"tool_name": spelling.name(result.name)}
    return _message("tool", result.parts, tool, error=result.is_error)


def _message(
    role: str,
    parts: Iterable[Text | Json | File],
    fields: dict[str, Any] | None = None,
    *,
    error: bool = False,
) -> dict[str, Any]:
    texts: list[str] = []
    images: list[str] = []
    for part in parts:
        if isinstance(part, Text):
            texts.append(part.text)
        elif isinstance(part, Json):
            texts.append(part.compact())
        elif part.kind == "image" and part.source.is_local:
            images.append(b64.b64(part))
        elif is_textual(part.media_type) and part.source.is_local:
            texts.append(part.read_text())
        else:
            raise CapabilityError(
                f"the {WIRE.name} wire carries only local images and text (file {part.identifier}, "
                f"{part.media_type}, {part.source.describe()}); only a capabilities override "
                'routes it here: set its tool_result to "error" or its sources to ["bytes"]'
            )
    message: dict[str, Any] = {"role": role, **(fields or {})}
    content = JOIN.join(texts)
    if error:
        content = error_text(content)
    if content:
        message["content"] = content
    if images:
        message["images"] = images
    return message


def _assistant(message: Assistant, names: Spelling) -> dict[str, Any]:
    texts = [p.text for p in message.content if isinstance(p, Text)]
    thoughts = [p.text for p in message.content if isinstance(p, Thinking)]  # Ollama's own
    calls = [
        {"function": {"name": names.name(call.name), "arguments": call.arguments}}
        for call in message.tool_calls
    ]
    result: dict[str, Any] = {"role": "assistant"}
    if texts:
        result["content"] = JOIN.join(texts)
    if thoughts:
        result["thinking"] = JOIN.join(thoughts)
    if calls:
        result["tool_calls"] = calls
    return result


WIRE = register(Wire(
    "ollama", step=step, finish=system_first, decoder=Decoder.of_module("toolwire.decoders.ollama"),
    ids=id_rule(None, None, "call_", 24, "ollama Message.ToolCall (no id)"),  # not sent
    # No published rule: any UTF-8 text but the empty name (the client drops an empty
    # tool_name).
    names=name_rule(ANY_TEXT, None, SURROGATES, "ollama Message.ToolCall.Function.name"),
    tools=ollama_tools, size=HTTPX,  # the ollama client's httpx
    tool_choices=frozenset(("auto",)),  # the chat API takes no tool_choice
    thinking_needs_text=True, takes_redacted_thinking=False,  # Message.thinking: a string
))  # fmt: skip
