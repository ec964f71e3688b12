"""Strict validation of chat-completions payloads against openai 3.54 and groq 1.7 types.

Every openai-chat target is checked against openai's ``CompletionCreateParams``; groq
targets, which are sent with the groq SDK, also against groq's.
"""

from __future__ import annotations

import re
from typing import Any

from groq.types.chat.completion_create_params import CompletionCreateParams as GroqParams
from openai.types.chat.completion_create_params import CompletionCreateParamsNonStreaming

from .strict_types import KwargsValidator

_openai = KwargsValidator(CompletionCreateParamsNonStreaming)
_groq = KwargsValidator(GroqParams)
#: API error: "Invalid 'messages[n].tool_calls[0].id': string too long. Expected … 40".
MAX_CALL_ID = 40
#: OpenAI function names: "a-z, A-Z, 0-9, or contain underscores and dashes, max length 64".
FUNCTION_NAME = re.compile(r"[a-zA-Z0-9_-]{1,64}")


def validate(kwargs: dict[str, Any], target: str = "openai-chat:any") -> None:
    """Raise unless ``kwargs`` fit ``chat.completions.create`` of the target's SDK exactly."""
    if "messages" not in kwargs:
        raise ValueError("chat-completions kwargs need 'messages'")
    _openai(kwargs)
    if target.startswith("groq:"):
        _groq(kwargs)
    check_calls(kwargs["messages"])


def check_calls(messages: list[dict[str, Any]]) -> None:
    """Tool call ids within OpenAI's length limit, and function names within its rule."""
    for index, message in enumerate(messages):
        calls = message.get("tool_calls") or []
        ids = [call["id"] for call in calls] + [message.get("tool_call_id") or ""]
        if any(len(i) > MAX_CALL_ID for i in ids):
            raise ValueError(f"messages[{index}]: a tool call id is longer than {MAX_CALL_ID}")
        bad = [
            c["function"]["name"]
            for c in calls
            if not FUNCTION_NAME.fullmatch(c["function"]["name"])
        ]
        if bad:
            raise ValueError(f"messages[{index}]: function names {bad} break the rule")


def validate_groq(kwargs: dict[str, Any]) -> None:
    """Raise unless ``kwargs`` fit groq's ``chat.completions.create`` exactly."""
    _groq(kwargs)
