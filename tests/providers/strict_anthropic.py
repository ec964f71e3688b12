"""Strict validation of anthropic payloads against anthropic 2.12's own request types."""

from __future__ import annotations

from typing import Any

from anthropic.types.message_create_params import MessageCreateParamsNonStreaming

from .strict_types import KwargsValidator

_validator = KwargsValidator(MessageCreateParamsNonStreaming)


def validate(kwargs: dict[str, Any]) -> None:
    """Raise unless ``kwargs`` (messages, system, …) fit ``messages.create`` exactly."""
    if "messages" not in kwargs:
        raise ValueError("anthropic kwargs need 'messages'")
    _validator(kwargs)
