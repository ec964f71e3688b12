"""The three libraries behind one interface: build native input, encode it, size the request body.

What each ``encode`` times, exactly (installed versions: pydantic-ai-slim 2.68, litellm 1.83):

toolwire     ``encode(messages, "provider:model")`` — the public call, whole: capabilities, plan,
             routes (image fitting included), encoder. Base64 comes from toolwire.b64's
             per-process cache; a *cold* encode clears that cache and uses fresh File objects.
pydantic-ai  the model class's own message mapping, awaited (the coroutine is driven by hand;
             it must finish without suspending, i.e. without I/O):
             Anthropic  ``AnthropicModel._map_message(messages, ModelRequestParameters(), {})``
             Chat       ``OpenAIChatModel._map_messages(messages, ModelRequestParameters())``
             Responses  ``OpenAIResponsesModel._map_messages(messages, {}, ModelRequestParameters())``
             Gemini     ``GoogleModel._map_messages(messages, ModelRequestParameters())``
             Bedrock    ``BedrockConverseModel._map_messages(messages, ModelRequestParameters(), None)``
             Not timed: ``prepare_request`` / ``prepare_messages`` and the SDK's own serialisation.
LiteLLM      the request transformation that ``litellm.completion`` runs before sending:
             Anthropic  ``AnthropicConfig().transform_request(model, messages, params, {}, {})``
             Chat       ``OpenAIGPTConfig().transform_request(model, messages, params, {}, {})``
             Responses  ``LiteLLMResponsesTransformationHandler()
                        .convert_chat_completion_messages_to_responses_api(messages)`` then
                        ``OpenAIResponsesAPIConfig().transform_responses_api_request(...)``
             Gemini     ``vertex_ai.gemini.transformation._transform_request_body(...)`` (what
                        ``sync_transform_request_body`` calls after its context-cache check,
                        which is a no-op without ``cache_control`` and would otherwise do I/O)
             Bedrock    ``AmazonConverseConfig()._transform_request(model, messages, params, {}, {})``
             ``params`` come from each config's ``map_openai_params`` (tools, max_tokens), built
             outside the timed region. LiteLLM's native input is OpenAI-format messages whose
             files are already base64 data URLs: building those is the user's work, timed
             separately ("input build").
"""

from __future__ import annotations

import base64
import copy
import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from _peers_data import TOOL, Blob, Msg


@dataclass(frozen=True)
class Target:
    """One provider API, named as each library names it."""

    key: str
    label: str
    needs_base64: bool  # False where the SDK takes raw bytes (its own serialiser encodes)
    toolwire: str
    model: str  # model id for pydantic-ai and LiteLLM


TARGETS = (
    Target("anthropic", "Anthropic", True, "anthropic:claude-sonnet-4-5", "claude-sonnet-4-5"),
    Target("openai-chat", "OpenAI Chat", True, "openai-chat:gpt-4.1", "gpt-4.1"),
    Target("openai-responses", "OpenAI Responses", True, "openai:gpt-4.1", "gpt-4.1"),
    Target("gemini-3", "Gemini 3", False, "google:gemini-3-pro-preview", "gemini-3-pro-preview"),
    Target(
        "bedrock-claude",
        "Bedrock Claude",
        False,
        "bedrock:us.anthropic.claude-sonnet-4-5-20250929-v1:0",
        "us.anthropic.claude-sonnet-4-5-20250929-v1:0",
    ),
)


def json_size(body: Any) -> int:
    """Bytes of the JSON request body; raw bytes are sent as base64 (as the SDKs do)."""

    def raw(value: Any) -> str:
        if isinstance(value, bytes | bytearray | memoryview):
            return base64.b64encode(bytes(value)).decode("ascii")
        raise TypeError(f"not JSON: {type(value).__name__}")

    text = json.dumps(body, default=raw, separators=(",", ":"), ensure_ascii=False)
    return len(text.encode("utf-8"))


def data_url(blob: Blob) -> str:
    return f"data:{blob.media_type};base64," + base64.b64encode(blob.data).decode("ascii")


# --- toolwire ---------------------------------------------------------------------------------


class Toolwire:
    """toolwire through its public ``encode``; ``api`` holds the internals peers.py imported."""

    name = "toolwire"

    def __init__(self, api: Any) -> None:
        self.api = api
        self.tw = api.tw

    def missing(self, target: Target) -> str | None:
        probe = [self.tw.User("hi")]
        try:
            self.api.encode(probe, target.toolwire)
        except ImportError as exc:
            return f"not available ({exc.name or exc})"
        return None

    def fresh(self) -> None:
        self.api.clear()

    def build(self, turn: list[Msg], target: Target) -> list[Any]:
        tw, out = self.tw, []
        for m in turn:
            files = [tw.File.from_bytes(f.data, f.media_type, name=f.name) for f in m.files]
            if m.role == "system":
                out.append(tw.System(m.text))
            elif m.role == "user":
                out.append(tw.User([m.text, *files]) if files else tw.User(m.text))
            elif m.role == "assistant":
                calls = [tw.ToolCall(id=i, name=n, arguments=a) for i, n, a in m.calls]
                out.append(tw.Assistant([m.text, *calls]))
            else:
                value = [m.text, *files] if files else m.text
                out.append(tw.ToolResult.of(m.call_id, TOOL["name"], value))
        return out

    def encode(self, native: list[Any], target: Target) -> Any:
        return self.api.encode(native, target.toolwire)

    def body(self, payload: Any, target: Target) -> dict[str, Any]:
        head = {"model": target.model}
        if target.key == "anthropic":
            head["max_tokens"] = 1024
        return {**head, **payload.to_json()}


# --- pydantic-ai ------------------------------------------------------------------------------


def _drive(coro: Any) -> Any:
    """Run a coroutine that must not suspend (no I/O): a suspension means a request."""
    try:
        coro.send(None)
    except StopIteration as done:
        return done.value
    coro.close()
    raise RuntimeError("the mapping suspended (it would do I/O); stopped before it could")


class PydanticAI:
    name = "pydantic-ai"

    def __init__(self) -> None:
        from pydantic_ai.models import ModelRequestParameters

        self.params = ModelRequestParameters()
        self.models: dict[str, Any] = {}

    def missing(self, target: Target) -> str | None:
        return None

    def fresh(self) -> None:
        pass

    def model(self, target: Target) -> Any:
        if target.key not in self.models:
            self.models[target.key] = _pydantic_model(target)
        return self.models[target.key]

    def build(self, turn: list[Msg], target: Target) -> list[Any]:
        from pydantic_ai import messages as pm

        out: list[Any] = []
        pending: list[Any] = []
        returns: list[Any] = []
        for m in turn:
            files = [
                pm.BinaryContent(f.data, media_type=f.media_type, identifier=f.name)
                for f in m.files
            ]
            if m.role == "system":
                pending.append(pm.SystemPromptPart(m.text))
            elif m.role == "user":
                content = [m.text, *files] if files else m.text
                out.append(pm.ModelRequest(parts=[*pending, pm.UserPromptPart(content)]))
                pending = []
            elif m.role == "assistant":
                parts = [pm.TextPart(m.text)]
                parts += [pm.ToolCallPart(n, a, tool_call_id=i) for i, n, a in m.calls]
                out.append(pm.ModelResponse(parts=parts))
            else:
                content = [m.text, *files] if files else m.text
                returns.append(pm.ToolReturnPart(TOOL["name"], content, tool_call_id=m.call_id))
        if returns:
            out.append(pm.ModelRequest(parts=returns))
        return out

    def encode(self, native: list[Any], target: Target) -> Any:
        model, key = self.model(target), target.key
        if key == "anthropic":
            return _drive(model._map_message(native, self.params, {}))
        if key == "openai-chat":
            return _drive(model._map_messages(native, self.params))
        if key == "openai-responses":
            return _drive(model._map_messages(native, {}, self.params))
        if key == "gemini-3":
            return _drive(model._map_messages(native, self.params))
        return _drive(model._map_messages(native, self.params, None))

    def body(self, payload: Any, target: Target) -> dict[str, Any]:
        key = target.key
        if key == "anthropic":
            system, messages = payload
            return {
                "model": target.model,
                "max_tokens": 1024,
                "system": system,
                "messages": messages,
            }
        if key == "openai-chat":
            return {"model": target.model, "messages": payload}
        if key == "openai-responses":
            instructions, items = payload
            body = {"model": target.model, "input": items}
            if isinstance(instructions, str):
                body["instructions"] = instructions
            return body
        if key == "gemini-3":
            system, contents = payload
            return {"contents": contents, "system_instruction": system}
        system, messages = payload
        return {"modelId": target.model, "messages": messages, "system": system}


def _pydantic_model(target: Target) -> Any:
    """The model class with a dummy key; constructing it sends nothing."""
    key = target.key
    if key == "anthropic":
        from pydantic_ai.models.anthropic import AnthropicModel
        from pydantic_ai.providers.anthropic import AnthropicProvider

        return AnthropicModel(target.model, provider=AnthropicProvider(api_key="dummy"))
    if key in ("openai-chat", "openai-responses"):
        from pydantic_ai.models.openai import OpenAIChatModel, OpenAIResponsesModel
        from pydantic_ai.providers.openai import OpenAIProvider

        cls = OpenAIChatModel if key == "openai-chat" else OpenAIResponsesModel
        return cls(target.model, provider=OpenAIProvider(api_key="dummy"))
    if key == "gemini-3":
        from pydantic_ai.models.google import GoogleModel
        from pydantic_ai.providers.google import GoogleProvider

        return GoogleModel(target.model, provider=GoogleProvider(api_key="dummy"))
    from pydantic_ai.models.bedrock import BedrockConverseModel
    from pydantic_ai.providers.bedrock import BedrockProvider

    provider = BedrockProvider(
        region_name="us-east-1", aws_access_key_id="dummy", aws_secret_access_key="dummy"
    )
    return BedrockConverseModel(target.model, provider=provider)


# --- LiteLLM ----------------------------------------------------------------------------------

_OPENAI_TOOLS = [{"type": "function", "function": TOOL}]


class LiteLLM:
    """LiteLLM's transformations. Its input is OpenAI-format dicts; transformations may edit
    them in place, so ``encode`` works on a structural copy made outside the timed region."""

    name = "litellm"

    def __init__(self) -> None:
        self.steps: dict[str, Callable[[list[Any]], Any]] = {}

    def missing(self, target: Target) -> str | None:
        return None

    def fresh(self) -> None:
        pass

    def build(self, turn: list[Msg], target: Target) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        # OpenAI Chat rejects images in tool messages and LiteLLM passes them through as they
        # are, so for that target its user must move them to a user message after the results.
        late: list[dict[str, Any]] = []
        for m in turn:
            parts = [_litellm_part(f) for f in m.files]
            if m.role in ("system", "user"):
                content = [{"type": "text", "text": m.text}, *parts] if parts else m.text
                out.append({"role": m.role, "content": content})
            elif m.role == "assistant":
                calls = [
                    {
                        "id": i,
                        "type": "function",
                        "function": {"name": n, "arguments": json.dumps(a)},
                    }
                    for i, n, a in m.calls
                ]
                out.append({"role": "assistant", "content": m.text, "tool_calls": calls})
            elif parts and target.key == "openai-chat":
                out.append({"role": "tool", "tool_call_id": m.call_id, "content": m.text})
                for f, part in zip(m.files, parts, strict=True):
                    late += [{"type": "text", "text": f"This is file {f.name}:"}, part]
            else:
                content = [{"type": "text", "text": m.text}, *parts] if parts else m.text
                out.append({"role": "tool", "tool_call_id": m.call_id, "content": content})
        if late:
            out.append({"role": "user", "content": late})
        return out

    def prepare(self, native: list[Any]) -> list[Any]:
        """The copy a transformation may edit: containers copied, strings shared."""
        return copy.deepcopy(native)

    def encode(self, native: list[Any], target: Target) -> Any:
        if target.key not in self.steps:
            self.steps[target.key] = _litellm_step(target)
        return self.steps[target.key](native)

    def body(self, payload: Any, target: Target) -> dict[str, Any]:
        return payload


def _litellm_part(blob: Blob) -> dict[str, Any]:
    if blob.media_type.startswith("image/"):
        return {"type": "image_url", "image_url": {"url": data_url(blob)}}
    return {"type": "file", "file": {"file_data": data_url(blob), "filename": blob.name}}


def _litellm_step(target: Target) -> Callable[[list[Any]], Any]:
    """The transformation for ``target``, with its params mapped once (outside timing)."""
    import litellm

    model, key = target.model, target.key
    wanted = {"tools": _OPENAI_TOOLS, "max_tokens": 1024}
    if key == "anthropic":
        config = litellm.AnthropicConfig()
        params = config.map_openai_params(wanted, {}, model, drop_params=False)
        return lambda msgs: config.transform_request(model, msgs, dict(params), {}, {})
    if key == "openai-chat":
        chat = litellm.OpenAIGPTConfig()
        return lambda msgs: chat.transform_request(model, msgs, {"tools": _OPENAI_TOOLS}, {}, {})
    if key == "openai-responses":
        from litellm.completion_extras.litellm_responses_transformation.transformation import (
            LiteLLMResponsesTransformationHandler,
        )
        from litellm.llms.openai.responses.transformation import OpenAIResponsesAPIConfig
        from litellm.types.router import GenericLiteLLMParams

        bridge, responses = LiteLLMResponsesTransformationHandler(), OpenAIResponsesAPIConfig()

        def responses_body(msgs: list[Any]) -> Any:
            items, instructions = bridge.convert_chat_completion_messages_to_responses_api(msgs)
            extra = {"instructions": instructions} if instructions else {}
            return responses.transform_responses_api_request(
                model, items, extra, GenericLiteLLMParams(), {}
            )

        return responses_body
    if key == "gemini-3":
        from litellm.llms.vertex_ai.gemini.transformation import _transform_request_body

        gemini = litellm.GoogleAIStudioGeminiConfig()
        params = gemini.map_openai_params(wanted, {}, model, drop_params=False)
        return lambda msgs: _transform_request_body(
            messages=msgs,
            model=model,
            optional_params=dict(params),
            custom_llm_provider="gemini",
            litellm_params={},
            cached_content=None,
        )
    converse = litellm.AmazonConverseConfig()
    params = converse.map_openai_params(wanted, {}, model, drop_params=False)
    return lambda msgs: converse._transform_request(model, msgs, dict(params), {}, {})
