"""Strict checks of tool definitions for the wires whose strict validators check messages only
(tests/providers/strict_{mistral,cohere,ollama}.py): each SDK's own tool and tool_choice types
must read the fragment back unchanged, with no unknown key at any depth."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import TypeAdapter


def check_mistral(kwargs: dict[str, Any]) -> None:
    """mistralai 3.7 ``Tool`` reads every tool back to the same dict; tool_choice fits."""
    from mistralai.client.models import Tool, ToolChoice

    for spec in kwargs["tools"]:
        parsed = Tool.model_validate(spec)
        if parsed.model_dump(by_alias=True, exclude_unset=True) != spec:
            raise ValueError(f"mistralai's Tool does not read {spec!r:.200} back unchanged")
    choice = kwargs.get("tool_choice")
    if isinstance(choice, dict):
        if (
            ToolChoice.model_validate(choice).model_dump(by_alias=True, exclude_unset=True)
            != choice
        ):
            raise ValueError(f"mistralai's ToolChoice does not read {choice!r} back")
    elif choice is not None:
        TypeAdapter(Literal["auto", "none", "any", "required"]).validate_python(choice)


def check_cohere(kwargs: dict[str, Any]) -> None:
    """cohere 7.3.1 ``ToolV2`` (strict, no extra fields) and its tool_choice literal."""
    from cohere.types import ToolV2

    for spec in kwargs["tools"]:
        parsed = ToolV2.model_validate(spec, strict=True)
        for model in (parsed, parsed.function):
            if model is not None and model.model_extra:
                raise ValueError(f"cohere's ToolV2 has no field(s) {sorted(model.model_extra)}")
        if parsed.model_dump(by_alias=True, exclude_unset=True) != spec:
            raise ValueError(f"cohere's ToolV2 does not read {spec!r:.200} back unchanged")
    if "tool_choice" in kwargs:
        TypeAdapter(Literal["REQUIRED", "NONE"]).validate_python(kwargs["tool_choice"])


def check_ollama(kwargs: dict[str, Any]) -> None:
    """What ``Client.chat`` would send for the tools equals what we gave it."""
    from ollama._client import _copy_tools
    from ollama._types import ChatRequest

    if set(kwargs) - {"messages", "tools"}:
        raise ValueError(f"ollama's chat takes no {sorted(set(kwargs) - {'messages', 'tools'})}")
    body = ChatRequest(model="m", messages=[], tools=list(_copy_tools(kwargs["tools"])))
    sent = body.model_dump(exclude_none=True, by_alias=True)["tools"]
    if sent != kwargs["tools"]:
        raise ValueError(f"the ollama client would send other tools:\n{sent}")


def split_google(kwargs: dict[str, Any], model: str) -> dict[str, Any]:
    """``kwargs`` without ``config.tool_config``, which is checked here instead.

    google-genai's strict validation wants enum members where its request builder takes the
    JSON strings ("AUTO"); toolwire sends plain JSON. So tool_config is read by the SDK's own
    ``ToolConfig`` (unknown keys forbidden), must dump back to exactly what was sent, and goes
    through the SDK's request builder with the whole request; the rest is validated strictly.
    """
    from google.genai import types
    from providers.strict_google import wire_body

    config = dict(kwargs.get("config") or {})
    tool_config = config.pop("tool_config", None)
    if tool_config is None:
        return kwargs
    parsed = types.ToolConfig.model_validate(tool_config)
    if parsed.model_dump(mode="json", exclude_none=True) != tool_config:
        raise ValueError(f"google-genai's ToolConfig does not read {tool_config!r} back")
    wire_body(kwargs, model)
    return {**kwargs, "config": config}


EXTRA = {"mistral": check_mistral, "cohere": check_cohere, "ollama": check_ollama}
