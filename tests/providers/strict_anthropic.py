"""Strict validation of anthropic payloads against anthropic 2.12's own request types, and the
id and name rules the Messages API enforces beyond them."""

from __future__ import annotations

import re
from typing import Any

from anthropic.types.message_create_params import MessageCreateParamsNonStreaming

from .strict_types import KwargsValidator

_validator = KwargsValidator(MessageCreateParamsNonStreaming)
#: API error: "messages.1.content.0.tool_use.id: String should match pattern '^[a-zA-Z0-9_-]+$'".
TOOL_USE_ID = re.compile(r"[a-zA-Z0-9_-]+")
#: Anthropic tool use docs: a tool name "must match the regex ^[a-zA-Z0-9_-]{1,64}$".
TOOL_NAME = re.compile(r"[a-zA-Z0-9_-]{1,64}")


def validate(kwargs: dict[str, Any]) -> None:
    """Raise unless ``kwargs`` (messages, system, …) fit ``messages.create`` exactly."""
    if "messages" not in kwargs:
        raise ValueError("anthropic kwargs need 'messages'")
    _validator(kwargs)
    check_tool_ids(kwargs["messages"])


def check_tool_ids(messages: list[dict[str, Any]]) -> None:
    """tool_use ids and names, and tool_result ids, follow the API's rules."""
    for index, message in enumerate(messages):
        content = message["content"]
        for block in content if isinstance(content, list) else []:
            ids = [block.get("id"), block.get("tool_use_id")]
            if any(i is not None and not TOOL_USE_ID.fullmatch(i) for i in ids):
                raise ValueError(f"messages[{index}]: tool id {ids} breaks {TOOL_USE_ID.pattern}")
            if block["type"] == "tool_use" and not TOOL_NAME.fullmatch(block["name"]):
                raise ValueError(f"messages[{index}]: tool name {block['name']!r} is not allowed")


def validate_beta(kwargs: dict[str, Any]) -> None:
    """``validate`` against the beta Messages API's request types (``client.beta.messages``),
    for a history holding blocks only the beta API sends (advisor, compaction, MCP)."""
    from anthropic.types.beta.message_create_params import (
        MessageCreateParamsNonStreaming as BetaParams,
    )

    KwargsValidator(BetaParams)(kwargs)
    check_tool_ids(kwargs["messages"])
