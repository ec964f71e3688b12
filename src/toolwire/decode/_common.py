"""Small helpers shared by the decoders."""

from __future__ import annotations

import base64
import json
from typing import Any

from ..content import ToolCall
from ..errors import DecodeError


def tool_call(
    call_id: str,
    name: str,
    arguments: Any,
    signature: str | None = None,
    provider: str | None = None,
) -> ToolCall:
    """A ToolCall; argument text that is not a JSON object is kept verbatim and flagged.

    ``provider`` is recorded only with a signature (it says who can verify it).
    """
    issuer = provider if signature else None
    if isinstance(arguments, dict):
        return ToolCall(
            id=call_id, name=name, arguments=arguments, signature=signature, provider=issuer
        )
    text = arguments if isinstance(arguments, str) else json.dumps(arguments)
    try:
        parsed = json.loads(text) if text.strip() else {}
    except ValueError:
        parsed = None
    if isinstance(parsed, dict):
        return ToolCall(
            id=call_id, name=name, arguments=parsed, signature=signature, provider=issuer
        )
    return ToolCall(
        id=call_id,
        name=name,
        arguments={},
        signature=signature,
        provider=issuer,
        invalid_arguments=text,
    )


def signature_text(value: Any) -> str | None:
    """Opaque signatures as standard base64 text (SDKs give bytes or url-safe base64)."""
    if value is None or value == b"" or value == "":
        return None
    if isinstance(value, bytes | bytearray):
        return base64.b64encode(bytes(value)).decode("ascii")
    text = str(value)
    return text.replace("-", "+").replace("_", "/")


def first_choice(data: dict[str, Any], provider: str) -> dict[str, Any]:
    """choices[0].message of a chat-completions-shaped response."""
    choices = data.get("choices") or []
    if not choices:
        raise DecodeError(f"{provider} response has no choices: {_brief(data)}")
    message = choices[0].get("message")
    if not isinstance(message, dict):
        raise DecodeError(f"{provider} response choice has no message: {_brief(choices[0])}")
    return message


def finish_reason(data: dict[str, Any]) -> str:
    choices = data.get("choices") or [{}]
    return f"finish_reason={choices[0].get('finish_reason')}"


def _brief(value: Any) -> str:
    text = repr(value)
    return text if len(text) < 300 else text[:300] + "…"
