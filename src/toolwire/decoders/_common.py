"""Small helpers shared by the decoders."""

from __future__ import annotations

import base64
import contextlib
import hashlib
import json
from typing import Any

from ..content import ToolCall
from ..errors import DecodeError, ToolwireError

#: The deepest tool-call arguments a decoded call keeps as data: deeper ones (no model writes
#: them; a hostile server can) are kept as text in ``invalid_arguments``, since every later
#: walk of them (validation, spelling, measuring) would recurse that deep.
MAX_ARGUMENT_DEPTH = 100


def tool_call(
    call_id: str,
    name: str,
    arguments: Any,
    signature: str | None = None,
    provider: str | None = None,
) -> ToolCall:
    """A ToolCall; argument text that is not a JSON object (or nests deeper than
    ``MAX_ARGUMENT_DEPTH``, or holds a number JSON cannot carry: NaN, Infinity, 1e999) is
    kept verbatim and flagged.

    ``provider`` is recorded only with a signature (it says who can verify it).
    """
    issuer = provider if signature else None
    if isinstance(arguments, dict) and within_depth(arguments):
        with contextlib.suppress(ToolwireError):  # not JSON data: kept as text below
            return ToolCall(
                id=call_id, name=name, arguments=arguments, signature=signature, provider=issuer
            )
    text = arguments if isinstance(arguments, str) else _text(arguments)
    try:
        parsed = json.loads(text) if text.strip() else {}
    except (ValueError, RecursionError):
        parsed = None
    if isinstance(parsed, dict) and within_depth(parsed):
        with contextlib.suppress(ToolwireError):
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


def within_depth(value: Any, limit: int = MAX_ARGUMENT_DEPTH) -> bool:
    """Whether ``value``'s dicts and lists nest at most ``limit`` deep (walked without
    recursion)."""
    stack = [(value, 1)]
    while stack:
        node, depth = stack.pop()
        if depth > limit:
            return False
        children = node.values() if isinstance(node, dict) else node
        stack.extend((child, depth + 1) for child in children if isinstance(child, dict | list))
    return True


def _text(arguments: Any) -> str:
    """Arguments that came as data, as JSON text (too deep to write: a note saying so)."""
    if not within_depth(arguments, 2 * MAX_ARGUMENT_DEPTH):
        return f"(arguments nested more than {2 * MAX_ARGUMENT_DEPTH} levels deep, not kept)"
    return json.dumps(arguments)


def call_ids(count: int, *facts: Any) -> list[str]:
    """Ids for tool calls a provider left without one: ``call_<digest>_<n>`` for n = 0, 1, …

    The digest is taken from facts that tell this response apart (response id, timestamp,
    model, the calls themselves), so decoding the same response twice gives the same ids
    while calls of different turns do not collide: Anthropic, for one, rejects a request
    whose tool_use ids repeat anywhere in the conversation.
    """
    seed = json.dumps(facts, sort_keys=True, default=str, ensure_ascii=False)
    digest = hashlib.sha256(seed.encode()).hexdigest()[:8]
    return [f"call_{digest}_{n}" for n in range(count)]


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
        raise not_a_response(f"a {provider} chat completion with choices", data)
    message = choices[0].get("message")
    if not isinstance(message, dict):
        raise not_a_response(f"a {provider} chat completion with a message", data)
    return message


def finish_reason(data: dict[str, Any]) -> str:
    """The stop reason of a chat-completions-shaped response, for error messages."""
    choices = data.get("choices") or [{}]
    return f"finish_reason={choices[0].get('finish_reason')}"


def brief(value: Any) -> str:
    """``repr`` cut to 300 characters, for error messages."""
    text = repr(value)
    return text if len(text) < 300 else text[:300] + "…"


def not_a_response(what: str, data: Any) -> DecodeError:
    """The error for data that lacks the shape of the wire's response."""
    return DecodeError(
        f"this is not {what}: {brief(data)}. Pass the object the provider's SDK call returned "
        "(or its JSON dict) together with the model it came from."
    )
