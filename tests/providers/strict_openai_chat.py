"""Strict validation of chat-completions payloads against openai 3.54 and groq 1.7 types.

Every openai-chat target is checked against openai's ``CompletionCreateParams``; groq
targets, which are sent with the groq SDK, also against groq's.
"""

from __future__ import annotations

from typing import Any

from groq.types.chat.completion_create_params import CompletionCreateParams as GroqParams
from openai.types.chat.completion_create_params import CompletionCreateParamsNonStreaming

from .strict_types import KwargsValidator

_openai = KwargsValidator(CompletionCreateParamsNonStreaming)
_groq = KwargsValidator(GroqParams)


def validate(kwargs: dict[str, Any], target: str = "openai-chat:any") -> None:
    """Raise unless ``kwargs`` fit ``chat.completions.create`` of the target's SDK exactly."""
    if "messages" not in kwargs:
        raise ValueError("chat-completions kwargs need 'messages'")
    _openai(kwargs)
    if target.startswith("groq:"):
        _groq(kwargs)


def validate_groq(kwargs: dict[str, Any]) -> None:
    """Raise unless ``kwargs`` fit groq's ``chat.completions.create`` exactly."""
    _groq(kwargs)
