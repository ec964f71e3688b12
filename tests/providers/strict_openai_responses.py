"""Strict validation of Responses API payloads against openai 3.54's own request types."""

from __future__ import annotations

from typing import Any

from openai.types.responses.response_create_params import ResponseCreateParamsNonStreaming

from .strict_types import KwargsValidator

_validator = KwargsValidator(ResponseCreateParamsNonStreaming)


def validate(kwargs: dict[str, Any]) -> None:
    """Raise unless ``kwargs`` (input, instructions, …) fit ``responses.create`` exactly."""
    if "input" not in kwargs:
        raise ValueError("responses kwargs need 'input'")
    _validator(kwargs)
