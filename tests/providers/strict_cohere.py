"""Strict validation of Cohere v2 payloads against cohere 7.3.1's own models.

cohere's models allow extra keys (``UncheckedBaseModel``: ``extra="allow"``) and would pass
them on to the API. So ``validate`` checks the kwargs against the signature of
``V2Client.chat``, validates every message with ``ChatMessageV2`` in pydantic's strict mode,
rejects an extra key at any depth, requires the validated messages to dump back to exactly the
input, and checks that every tool call is answered, in order, right after its message.
"""

from __future__ import annotations

import inspect
from typing import Any

from cohere.types import ChatMessageV2
from cohere.v2.client import V2Client
from pydantic import TypeAdapter

from ._media_mco import check_calls_answered, models_in

_MESSAGES: TypeAdapter[list[Any]] = TypeAdapter(list[ChatMessageV2])
_PARAMETERS = set(inspect.signature(V2Client.chat).parameters) - {"self", "model"}


def validate(kwargs: dict[str, Any]) -> None:
    """Raise unless ``kwargs`` fit ``client.v2.chat(model=…, **kwargs)`` exactly."""
    unknown = sorted(set(kwargs) - _PARAMETERS)
    if unknown or "messages" not in kwargs:
        raise ValueError(f"V2Client.chat has no parameter(s) {unknown} (or messages is missing)")
    messages = kwargs["messages"]
    validated = _MESSAGES.validate_python(messages, strict=True)
    for index, (message, original) in enumerate(zip(validated, messages, strict=True)):
        for model in models_in(message):
            if model.model_extra:
                name = type(model).__name__
                raise ValueError(
                    f"message {index}: {name} has no field(s) {sorted(model.model_extra)}"
                )
        dumped = message.model_dump(by_alias=True, exclude_unset=True)
        if dumped != original:
            raise ValueError(f"message {index} does not survive cohere's models:\n{dumped}")
    check_calls_answered(messages, lambda call: call["id"], lambda result: result["tool_call_id"])
