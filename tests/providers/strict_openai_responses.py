"""Strict validation of Responses API payloads against openai 3.54's own request types, and the
id and name rules the API enforces beyond them."""

from __future__ import annotations

import re
from typing import Any

from openai.types.responses.response_create_params import ResponseCreateParamsNonStreaming

from .strict_types import KwargsValidator

_validator = KwargsValidator(ResponseCreateParamsNonStreaming)
#: API error: "Invalid 'input[n].call_id': string too long. Expected … maximum length 64".
MAX_CALL_ID = 64
#: OpenAI function names: "a-z, A-Z, 0-9, or contain underscores and dashes, max length 64".
FUNCTION_NAME = re.compile(r"[a-zA-Z0-9_-]{1,64}")


def validate(kwargs: dict[str, Any]) -> None:
    """Raise unless ``kwargs`` (input, instructions, …) fit ``responses.create`` exactly."""
    if "input" not in kwargs:
        raise ValueError("responses kwargs need 'input'")
    _validator(kwargs)
    check_calls(kwargs["input"])


def check_calls(items: list[dict[str, Any]]) -> None:
    """call_id lengths, function names, and function_call item ids (they begin with fc)."""
    for index, item in enumerate(items):
        if item.get("type") not in ("function_call", "function_call_output"):
            continue
        if len(item["call_id"]) > MAX_CALL_ID:
            raise ValueError(f"input[{index}].call_id is longer than {MAX_CALL_ID}")
        if item["type"] == "function_call" and not FUNCTION_NAME.fullmatch(item["name"]):
            raise ValueError(f"input[{index}].name {item['name']!r} is not a function name")
        if not item.get("id", "fc").startswith("fc"):
            raise ValueError(f"input[{index}].id {item['id']!r} does not begin with 'fc'")
