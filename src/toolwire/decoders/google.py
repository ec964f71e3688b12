"""Gemini ``GenerateContentResponse`` → Assistant, thought signatures kept where they came.

A signature on a function call rides in ToolCall.signature. Thought parts become Thinking
with their signature. A signature on a plain text part (or on a part with nothing else,
which Gemini sends as an empty text part) becomes an empty-text Thinking (provider
"google") placed right before that Text; the Gemini encoder puts it back on the text.
Function calls without an id get ``call_<digest>_<n>`` (see ``_common.call_ids``).
A part with neither text nor a call (an image, ``executable_code`` and its result, a
built-in tool's ``tool_call`` and ``tool_response``) is a ProviderPart holding the part as it
came, its signature on it, so that it goes back to Gemini unchanged and in place.
Both the SDK's snake_case and the REST API's camelCase keys are read.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ..content import ProviderPart, Text, Thinking
from ..errors import DecodeError
from ..messages import Assistant
from ._common import call_ids, signature_text, tool_call


def decode(data: dict[str, Any], issuer: str) -> Assistant:
    """The Assistant in a Gemini GenerateContentResponse (as JSON data); ``issuer`` names who signed its thinking."""
    candidates = data.get("candidates") or []
    if not candidates:
        feedback = _get(data, "prompt_feedback", "promptFeedback")
        raise DecodeError(f"{issuer} returned no candidates (prompt_feedback={feedback})")
    raw = (candidates[0].get("content") or {}).get("parts") or []
    calls = [(c.get("name"), c.get("args")) for p in raw if (c := _call(p))]
    spare = iter(call_ids(len(calls), _get(data, "response_id", "responseId"), calls))
    parts: list[Any] = []
    for part in raw:
        parts += _decode_part(part, issuer, spare)
    return Assistant(content=parts)


def _decode_part(part: dict[str, Any], issuer: str, spare: Iterator[str]) -> list[Any]:
    signature = signature_text(_get(part, "thought_signature", "thoughtSignature"))
    call = _call(part)
    if call:
        call_id = call.get("id") or next(spare)
        arguments = call.get("args") or {}
        return [tool_call(call_id, call["name"], arguments, signature, issuer)]
    text = part.get("text")
    if part.get("thought"):
        return [Thinking(text=text or "", signature=signature, provider=issuer)]
    kind = _other_kind(part) if text is None else None
    if kind is not None:  # an image, code and its result, a built-in tool's call: as it came
        return [ProviderPart(provider=issuer, wire=WIRE, kind=kind, data=_snake_case(part))]
    if text is None and not signature:
        return []
    marker = [Thinking(text="", signature=signature, provider=issuer)] if signature else []
    return [*marker, Text(text=text or "")]


#: The wire whose parts the provider parts of this decoder hold.
WIRE = "google"
#: A part's keys that say nothing of what it holds.
_ASIDE = frozenset(("thought_signature", "thoughtSignature", "thought", "text"))


def _other_kind(part: dict[str, Any]) -> str | None:
    """What a part holds besides text, thought and a function call (``inline_data``,
    ``executable_code``, ``tool_call``, …), in the SDK's snake_case; None for nothing."""
    kinds = [key for key, value in part.items() if key not in _ASIDE and value is not None]
    return _snake(kinds[0]) if kinds else None


def _snake_case(part: dict[str, Any]) -> dict[str, Any]:
    """The part in the SDK's names: the REST API's camelCase keys of the part and of each of
    its fields as snake_case (nothing deeper: a tool's arguments and responses are data), and
    base64 text (the SDK dumps url-safe base64) in the standard alphabet."""
    spelled: dict[str, Any] = {}
    for key, value in part.items():
        if isinstance(value, dict):
            value = {_snake(k): _standard(_snake(k), v) for k, v in value.items()}
        spelled[_snake(key)] = _standard(_snake(key), value)
    return spelled


def _standard(key: str, value: Any) -> Any:
    return signature_text(value) if key in ("thought_signature", "data") else value


def _snake(name: str) -> str:
    return "".join(f"_{c.lower()}" if c.isupper() else c for c in name)


def _call(part: dict[str, Any]) -> dict[str, Any] | None:
    call: dict[str, Any] | None = _get(part, "function_call", "functionCall")
    return call


def _get(data: dict[str, Any], snake: str, camel: str) -> Any:
    return data[snake] if data.get(snake) is not None else data.get(camel)


def describe_stop(data: dict[str, Any]) -> str:
    """Why the reply ended, for the empty-message error."""
    candidate = (data.get("candidates") or [{}])[0]
    reason = _get(candidate, "finish_reason", "finishReason")
    message = _get(candidate, "finish_message", "finishMessage")
    return f"finish_reason={reason}" + (f", finish_message={message!r}" if message else "")
