"""``decode``: a provider's response → ``tw.Assistant``, with thinking and signatures intact.

Accepts the official SDK's response object or its JSON dict. What comes back can be appended
to the history and encoded again: for the same provider, thinking blocks, reasoning items and
thought signatures go back exactly as they came; another provider drops what it cannot
verify (see each encoder) and keeps the visible text.
"""

from __future__ import annotations

import importlib
from typing import Any

from ..capabilities import capabilities
from ..errors import DecodeError
from ..messages import Assistant

_DECODERS = {
    "anthropic": "toolwire.decode.anthropic",
    "openai_chat": "toolwire.decode.openai_chat",
    "openai_responses": "toolwire.decode.openai_responses",
    "google": "toolwire.decode.google",
    "bedrock": "toolwire.decode.bedrock",
    "mistral": "toolwire.decode.mistral",
    "cohere": "toolwire.decode.cohere",
    "ollama": "toolwire.decode.ollama",
}


def decode(response: Any, model: str) -> Assistant:
    """The assistant message in ``response`` from ``model`` ('provider:model-id').

    Raises DecodeError for error payloads and responses with no content.
    """
    caps = capabilities(model)
    data = as_dict(response)
    module = importlib.import_module(_DECODERS[caps.wire])
    message: Assistant = module.decode(data, caps.provider)
    if not message.content:
        raise DecodeError(f"{model} returned no content ({module.describe_stop(data)})")
    return message


def as_dict(response: Any) -> dict[str, Any]:
    """The response as plain python data (SDK pydantic objects are dumped, dicts pass)."""
    if isinstance(response, dict):
        data = response
    elif hasattr(response, "model_dump"):
        data = response.model_dump(mode="python", by_alias=False, exclude_none=True)
    elif hasattr(response, "to_dict"):
        data = response.to_dict()
    else:
        raise DecodeError(
            f"cannot decode a {type(response).__name__}: pass the SDK's response object or its JSON dict"
        )
    if isinstance(data.get("error"), dict | str) and not data.get("choices"):
        raise DecodeError(f"the response is an error: {data['error']}")
    return data
