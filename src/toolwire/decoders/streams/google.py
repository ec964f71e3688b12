"""Gemini stream (``generate_content_stream`` chunks, or ``streamGenerateContent?alt=sse``
events) → GenerateContentResponse, thought signatures on the part they came with.

Every chunk is a GenerateContentResponse holding the next parts of candidate 0. A text part
continues the text part before it (the same ``thought`` flag, no signature yet); a part
that carries a ``thought_signature`` closes it. A part with only a signature (an empty text
part) stays a part of its own, as in a whole reply; an empty part without one is dropped.
A function call is a part of its own, with its signature. The chunk with ``finish_reason`` ends the reply; ``usage_metadata`` is
cumulative (the last one counts). Both the SDK's snake_case and the REST camelCase keys are
read, and kept as they came (decoders.google reads both).

With ``stream_function_call_arguments`` (Gemini 3 on Vertex) a call comes in pieces: a part
naming it with ``will_continue``, parts of ``partial_args`` (a JSON path and a value; a string
value with ``will_continue`` goes on in the next piece), and an empty function call that ends
it. They are put together into the one call with ``args`` the API sends otherwise.
API reference: https://ai.google.dev/gemini-api/docs/thought-signatures
"""

from __future__ import annotations

import copy
import re
from typing import Any

from ..deltas import TextDelta, ThinkingDelta
from . import Assembler, Calls, Fact, StreamFailed

_SIGNATURE = ("thought_signature", "thoughtSignature")


class Stream(Assembler):
    """Rebuilds one GenerateContentResponse from its chunks."""

    wire = "google"

    def __init__(self, issuer: str) -> None:
        super().__init__(issuer)
        self.head: dict[str, Any] = {}
        self.candidate: dict[str, Any] | None = None
        self.parts: list[dict[str, Any]] = []
        self.calls = Calls()
        self.open_call: dict[str, Any] | None = None  # a call whose arguments are streaming

    def feed(self, event: dict[str, Any]) -> list[Fact]:
        if event.get("error"):
            raise StreamFailed(str(event["error"]))
        self.head.update({k: v for k, v in event.items() if k != "candidates"})
        self.use(_get(event, "usage_metadata", "usageMetadata"))
        candidates = event.get("candidates") or []
        if not candidates:
            return []
        candidate = candidates[0]
        self.candidate = self.candidate or {}
        self.candidate.update({k: v for k, v in candidate.items() if k != "content"})
        facts: list[Fact] = []
        for part in (candidate.get("content") or {}).get("parts") or []:
            facts += self._part(dict(part))
        reason = _get(candidate, "finish_reason", "finishReason")
        if reason:
            self.stop(reason)
        return facts

    def _part(self, part: dict[str, Any]) -> list[Fact]:
        call = _get(part, "function_call", "functionCall")
        if self.open_call is not None and call is not None:
            return self._piece(self.open_call, call)
        if call:
            self.parts.append(part)
            index, begun = self.calls.start({"id": call.get("id"), "name": call.get("name")})
            if not _get(call, "will_continue", "willContinue"):
                return [begun, *self.calls.end(index)]
            # its arguments are put together here: on a copy, not in the caller's event
            self.open_call = {**call, "args": copy.deepcopy(call.get("args") or {})}
            part["function_call" if "function_call" in part else "functionCall"] = self.open_call
            return [begun]
        text = part.get("text")
        if not isinstance(text, str) and not _signature(part):
            self.parts.append(part)  # inline data, code execution: kept, not decoded
            return []
        if not text and not _signature(part):
            return []  # the empty text part a stream may end with carries nothing
        last = self.parts[-1] if self.parts else None
        if last is not None and _continues(last, part):
            last["text"] = last.get("text", "") + (text or "")
            last.update({key: part[key] for key in _SIGNATURE if part.get(key)})
        else:
            self.parts.append(part)
        if not text:
            return []
        return [ThinkingDelta(text) if part.get("thought") else TextDelta(text)]

    def _piece(self, call: dict[str, Any], piece: dict[str, Any]) -> list[Fact]:
        """A piece of the streaming ``call``: its partial arguments, or its end."""
        for partial in _get(piece, "partial_args", "partialArgs") or []:
            _put(call["args"], _path(_get(partial, "json_path", "jsonPath")), partial)
        if _get(piece, "will_continue", "willContinue"):
            return []
        self.open_call = None
        for key in ("will_continue", "willContinue"):
            call.pop(key, None)
        return self.calls.end(len(self.calls.calls) - 1)

    def response(self) -> dict[str, Any]:
        content = {"role": "model", "parts": self.parts}
        candidates = [{**self.candidate, "content": content}] if self.candidate is not None else []
        return {**self.head, "candidates": candidates}


def _continues(last: dict[str, Any], part: dict[str, Any]) -> bool:
    """Whether ``part`` is more of the text part ``last`` (the same kind of text, which no
    signature has closed yet). A part with only a signature stays a part of its own, as
    Gemini sends it in a whole reply too (decoders.google)."""
    is_text = isinstance(last.get("text"), str) and not _get(last, "function_call", "functionCall")
    same = bool(last.get("thought")) == bool(part.get("thought"))
    return is_text and same and bool(part.get("text")) and not _signature(last)


def _signature(part: dict[str, Any]) -> bool:
    return any(part.get(key) for key in _SIGNATURE)


def _get(data: dict[str, Any], snake: str, camel: str) -> Any:
    return data[snake] if data.get(snake) is not None else data.get(camel)


#: The value fields of a partial argument, and the value each stands for.
_VALUES = (
    ("string_value", "stringValue"),
    ("number_value", "numberValue"),
    ("bool_value", "boolValue"),
    ("null_value", "nullValue"),
)


def _path(text: str) -> list[str | int]:
    """A JSON path such as ``$.items[0].name`` as keys and indexes."""
    steps = re.findall(r"\.([^.\[]+)|\[(\d+)\]|\['([^']*)'\]|\[\"([^\"]*)\"\]", text)
    return [
        int(index) if index else key or quoted or double for key, index, quoted, double in steps
    ]


def _put(args: dict[str, Any], path: list[str | int], partial: dict[str, Any]) -> None:
    """Set the value of ``partial`` at ``path`` in ``args`` (a string continues the one there)."""
    node: Any = args
    for step, after in zip(path, path[1:], strict=False):
        if _at(node, step) is None:
            _set(node, step, [] if isinstance(after, int) else {})
        node = _at(node, step)
    value, previous = _value(partial), _at(node, path[-1])
    joined = isinstance(value, str) and isinstance(previous, str)
    _set(node, path[-1], previous + value if joined else value)


def _at(node: Any, step: str | int) -> Any:
    if isinstance(node, list):
        return node[int(step)] if int(step) < len(node) else None
    return node.get(step)


def _set(node: Any, step: str | int, value: Any) -> None:
    if isinstance(node, list):
        node.extend([None] * (int(step) + 1 - len(node)))
        node[int(step)] = value
    else:
        node[step] = value


def _value(partial: dict[str, Any]) -> Any:
    for snake, camel in _VALUES:
        if snake in partial or camel in partial:
            value = _get(partial, snake, camel)
            return None if snake == "null_value" else value
    return None
