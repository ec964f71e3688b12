"""Strict validation of Mistral payloads: mistralai 3.7's own models and mistral-common's rules.

mistralai's models are lenient in two ways: unknown keys are silently dropped, and a content
chunk whose payload fails its variant's validation becomes an ``UnknownContentChunk`` instead
of an error (``parse_open_union``). So ``validate`` checks the kwargs against the signature of
``Chat.complete``, validates every message with ``ChatCompletionRequestMessage``, rejects any
unknown chunk, and requires the validated messages to dump back to exactly the input (a dropped
or coerced key shows up as a difference). It then applies the request rules of mistral-common's
``MistralRequestValidatorV13`` that the hosted API enforces: role order, 9-character tool call
ids, and every call answered before the conversation goes on.
"""

from __future__ import annotations

import inspect
import re
from typing import Any

from mistralai.client.chat import Chat
from mistralai.client.models import ChatCompletionRequestMessage
from pydantic import TypeAdapter

from ._media_mco import check_calls_answered, models_in

_MESSAGES: TypeAdapter[list[Any]] = TypeAdapter(list[ChatCompletionRequestMessage])
_PARAMETERS = set(inspect.signature(Chat.complete).parameters) - {"self", "model"}
#: mistral-common MistralRequestValidator._validate_message_order: role -> roles allowed next.
NEXT_ROLES = {
    "system": {"user", "assistant", "system"},
    "user": {"assistant", "system", "user"},
    "assistant": {"assistant", "user", "tool"},
    "tool": {"assistant", "tool"},
}
_CALL_ID = re.compile(r"[a-zA-Z0-9]{9}")
#: mistral-common: a function name "must be a-z, A-Z, 0-9, or contain underscores and dashes,
#: with a maximum length of 64".
_FUNCTION_NAME = re.compile(r"[a-zA-Z0-9_-]{1,64}")


def validate(kwargs: dict[str, Any]) -> None:
    """Raise unless ``kwargs`` fit ``client.chat.complete(model=…, **kwargs)`` exactly."""
    unknown = sorted(set(kwargs) - _PARAMETERS)
    if unknown or "messages" not in kwargs:
        raise ValueError(f"Chat.complete has no parameter(s) {unknown} (or messages is missing)")
    messages = kwargs["messages"]
    validated = _MESSAGES.validate_python(messages)
    for index, (message, original) in enumerate(zip(validated, messages, strict=True)):
        for model in models_in(message):
            if getattr(model, "is_unknown", False) or type(model).__name__.startswith("Unknown"):
                raise ValueError(f"message {index}: mistralai did not recognise {model!r}")
        dumped = message.model_dump(by_alias=True, exclude_unset=True)
        if dumped != original:
            raise ValueError(f"message {index} does not survive mistralai's models:\n{dumped}")
    check_rules(messages)


def check_rules(messages: list[dict[str, Any]]) -> None:
    """mistral-common's request rules: role order, tool call ids, every call answered."""
    for index, (before, after) in enumerate(zip(messages, messages[1:], strict=False), 1):
        if after["role"] not in NEXT_ROLES[before["role"]]:
            raise ValueError(f"message {index}: a {after['role']} message after a {before['role']}")
    for index, message in enumerate(messages):
        ids = [call["id"] for call in message.get("tool_calls") or []]
        ids += [message["tool_call_id"]] if message["role"] == "tool" else []
        bad = [i for i in ids if not _CALL_ID.fullmatch(i)]
        if bad:
            raise ValueError(f"message {index}: tool call ids {bad} are not 9 letters/digits")
        names = [call["function"]["name"] for call in message.get("tool_calls") or []]
        bad = [n for n in names if not _FUNCTION_NAME.fullmatch(n)]
        if bad:
            raise ValueError(f"message {index}: function names {bad} break mistral-common's rule")
    check_calls_answered(messages, lambda call: call["id"], lambda result: result["tool_call_id"])
