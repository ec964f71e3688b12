"""Helpers shared by the Mistral, Cohere and Ollama encoder tests and their strict validators."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pydantic import BaseModel


def models_in(value: Any) -> list[BaseModel]:
    """Every pydantic model inside a validated SDK value, depth first."""
    found: list[BaseModel] = []
    if isinstance(value, BaseModel):
        found.append(value)
        value = [getattr(value, name) for name in type(value).model_fields]
    if isinstance(value, list | tuple):
        for item in value:
            found.extend(models_in(item))
    return found


def check_calls_answered(
    messages: list[dict[str, Any]],
    call_key: Callable[[dict[str, Any]], str],
    result_key: Callable[[dict[str, Any]], str],
) -> None:
    """Each assistant message's tool calls are answered by the tool messages right after it,
    in call order, before anything else; ``call_key``/``result_key`` say how they match."""
    pending: list[str] = []
    for index, message in enumerate(messages):
        if message["role"] == "tool":
            if not pending or result_key(message) != pending[0]:
                raise ValueError(f"message {index} answers no pending call (pending: {pending})")
            pending.pop(0)
            continue
        if pending:
            raise ValueError(f"message {index}: tool calls {pending} have no result")
        if message["role"] == "assistant":
            pending = [call_key(call) for call in message.get("tool_calls") or []]
    if pending:
        raise ValueError(f"tool calls {pending} have no result")
