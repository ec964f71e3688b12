"""Strict validation of Ollama payloads against ollama 0.6.3's own request models.

ollama's ``Message`` ignores unknown keys, and ``images`` hold ``Image`` objects that the
client builds from base64 text. So ``validate`` checks the kwargs against the signature of
``Client.chat``, builds the request body exactly as ``Client.chat`` does (its
``_copy_messages``, then ``ChatRequest(...).model_dump(exclude_none=True)``) and requires the
body's messages to equal the input: a dropped key, an empty field the client would leave out,
or a coerced value shows up as a difference. Images must be valid base64, roles the four of
/api/chat, and each assistant's tool calls answered in order by tool messages naming the tool.
"""

from __future__ import annotations

import base64
import binascii
import inspect
from typing import Any

from ollama import Client
from ollama._client import _copy_messages
from ollama._types import ChatRequest

from ._media_mco import check_calls_answered

_PARAMETERS = set(inspect.signature(Client.chat).parameters) - {"self", "model"}
ROLES = {"system", "user", "assistant", "tool"}


def validate(kwargs: dict[str, Any]) -> None:
    """Raise unless ``kwargs`` fit ``ollama.chat(model, **kwargs)`` exactly."""
    unknown = sorted(set(kwargs) - _PARAMETERS)
    if unknown or "messages" not in kwargs:
        raise ValueError(f"Client.chat has no parameter(s) {unknown} (or messages is missing)")
    messages = kwargs["messages"]
    for index, message in enumerate(messages):
        if message.get("role") not in ROLES:
            raise ValueError(f"message {index}: role {message.get('role')!r} is not one of {ROLES}")
        for image in message.get("images") or []:
            _check_base64(index, image)
    body = ChatRequest(model="m", messages=list(_copy_messages(messages)))
    sent = body.model_dump(exclude_none=True)["messages"]
    if sent != messages:
        raise ValueError(f"the ollama client would send different messages:\n{sent}")
    check_calls_answered(
        messages, lambda call: call["function"]["name"], lambda result: result["tool_name"]
    )


def _check_base64(index: int, image: Any) -> None:
    if not isinstance(image, str):
        raise ValueError(f"message {index}: images must be base64 text, not {type(image).__name__}")
    try:
        base64.b64decode(image, validate=True)
    except binascii.Error as exc:
        raise ValueError(f"message {index}: an image is not valid base64 ({exc})") from exc
