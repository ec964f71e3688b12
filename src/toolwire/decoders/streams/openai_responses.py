"""Responses API stream → Response.

``response.output_item.added`` opens an output item at its ``output_index``; text, refusal,
function-call argument and reasoning-summary deltas fill it; ``response.output_item.done``
replaces it with the whole item (a reasoning item's ``encrypted_content`` comes only there);
``response.completed`` / ``response.incomplete`` end the stream with the Response (its
``output``, when present, is the final word); ``response.failed`` and ``error`` are errors.
API reference: https://platform.openai.com/docs/api-reference/responses-streaming
"""

from __future__ import annotations

import copy
from typing import Any

from ..deltas import TextDelta, ThinkingDelta, ToolCallDelta
from . import Assembler, Calls, Fact, StreamFailed

#: The delta events that add visible text to a message item's content part, and its key.
_TEXT = {"response.output_text.delta": "text", "response.refusal.delta": "refusal"}
#: The content part type each of those keys belongs to.
_PART = {"text": "output_text", "refusal": "refusal"}


class Stream(Assembler):
    """Rebuilds one Response from its stream events."""

    wire = "openai_responses"

    def __init__(self, issuer: str) -> None:
        super().__init__(issuer)
        self.head: dict[str, Any] = {}
        self.items: dict[int, dict[str, Any]] = {}
        self.calls = Calls()

    def feed(self, event: dict[str, Any]) -> list[Fact]:
        kind = str(event.get("type"))
        if kind == "error":
            error = event.get("error") or event  # nested in some recordings, else top level
            raise StreamFailed(f"{error.get('code')}: {error.get('message')}")
        if kind == "response.failed":
            raise StreamFailed(str((event.get("response") or {}).get("error")))
        if kind in ("response.created", "response.in_progress"):
            self.head = event["response"]
        elif kind in ("response.completed", "response.incomplete"):
            return self._end(event["response"])
        elif kind == "response.output_item.added":
            return self._open(event["output_index"], event["item"])
        elif kind == "response.output_item.done":
            return self._close(event["output_index"], event["item"])
        elif kind in _TEXT:
            return self._text(event, _TEXT[kind])
        elif kind == "response.function_call_arguments.delta":
            at = self.calls.find(event["output_index"])
            item = self.items[event["output_index"]]
            item["arguments"] = item.get("arguments", "") + event["delta"]
            return [ToolCallDelta(at, event["delta"])] if at is not None else []
        elif kind == "response.reasoning_summary_text.delta":
            return self._summary(self.items[event["output_index"]], event)
        return []

    def _open(self, at: int, item: dict[str, Any]) -> list[Fact]:
        item = copy.deepcopy(item)  # its content and summary lists grow here, not the event's
        self.items[at] = item
        if item.get("type") != "function_call":
            return []
        item["arguments"] = item.get("arguments") or ""
        return [self.calls.start({"id": item.get("call_id"), "name": item.get("name")}, at)[1]]

    def _close(self, at: int, item: dict[str, Any]) -> list[Fact]:
        self.items[at] = item
        call = self.calls.find(at)
        return self.calls.end(call) if call is not None else []

    def _text(self, event: dict[str, Any], key: str) -> list[Fact]:
        parts = self.items[event["output_index"]].setdefault("content", [])
        index = event.get("content_index", 0)
        while len(parts) <= index:
            parts.append({"type": _PART[key], key: ""})
        parts[index][key] = parts[index].get(key, "") + event["delta"]
        return [TextDelta(event["delta"])]

    @staticmethod
    def _summary(item: dict[str, Any], event: dict[str, Any]) -> list[Fact]:
        summary = item.setdefault("summary", [])
        index = event.get("summary_index", 0)
        opens = len(summary) <= index
        while len(summary) <= index:
            summary.append({"type": "summary_text", "text": ""})
        summary[index]["text"] += event["delta"]
        # decode joins summary parts with a blank line: so do the deltas
        gap = "\n\n" if opens and index > 0 else ""
        return [ThinkingDelta(gap + event["delta"])]

    def _end(self, response: dict[str, Any]) -> list[Fact]:
        self.head = response
        if response.get("output"):
            self.items = dict(enumerate(response["output"]))
        self.use(response.get("usage"))
        reason = (response.get("incomplete_details") or {}).get("reason")
        self.stop(reason or response.get("status"))
        return self.calls.end_all()

    def response(self) -> dict[str, Any]:
        output = [self.items[i] for i in sorted(self.items)]
        return {**self.head, "output": output}
