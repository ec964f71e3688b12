"""Cohere v2 ``chat_stream`` events → ChatResponse.

``message-start``; ``tool-plan-delta`` (the tool plan's text); ``content-start`` /
``content-delta`` / ``content-end`` by index (``text`` or ``thinking``); ``tool-call-start``
(id, name, first argument text), ``tool-call-delta`` (argument fragments), ``tool-call-end``;
``citation-*`` (not modelled); ``message-end`` (finish reason, usage, or an ``error``).
API reference: https://docs.cohere.com/v2/docs/streaming
"""

from __future__ import annotations

from typing import Any

from ..deltas import TextDelta, ThinkingDelta, ToolCallDelta
from . import Assembler, Calls, Fact, StreamFailed


class Stream(Assembler):
    """Rebuilds one Cohere v2 ChatResponse from its stream events."""

    wire = "cohere"

    def __init__(self, issuer: str) -> None:
        super().__init__(issuer)
        self.head: dict[str, Any] = {}
        self.plan: list[str] = []
        self.content: dict[int, dict[str, Any]] = {}
        self.calls = Calls()

    def feed(self, event: dict[str, Any]) -> list[Fact]:
        kind = event.get("type")
        message = ((event.get("delta") or {}).get("message")) or {}
        if isinstance(message.get("tool_calls"), list):  # one call per event, in a list
            message = {**message, "tool_calls": (message["tool_calls"] or [{}])[0]}
        if kind == "message-start":
            self.head["id"] = event.get("id")
        elif kind == "tool-plan-delta" and message.get("tool_plan"):
            self.plan.append(message["tool_plan"])
            return [ThinkingDelta(message["tool_plan"])]
        elif kind in ("content-start", "content-delta"):
            return self._content(event.get("index", 0), message.get("content") or {})
        elif kind == "tool-call-start":
            return self._call(event.get("index", 0), message.get("tool_calls") or {})
        elif kind == "tool-call-delta":
            function = (message.get("tool_calls") or {}).get("function") or {}
            return self._arguments(self.calls.find(event.get("index", 0)), function)
        elif kind == "tool-call-end":
            at = self.calls.find(event.get("index", 0))
            return self.calls.end(at) if at is not None else []
        elif kind == "message-end":
            return self._end(event.get("delta") or {})
        return []

    def _content(self, index: int, piece: dict[str, Any]) -> list[Fact]:
        kind = piece.get("type") or ("thinking" if piece.get("thinking") else "text")
        item = self.content.setdefault(index, {"type": kind, kind: ""})
        key = item["type"]
        text = piece.get(key) or ""
        item[key] += text
        if not text:
            return []
        return [ThinkingDelta(text) if key == "thinking" else TextDelta(text)]

    def _call(self, index: int, call: dict[str, Any]) -> list[Fact]:
        function = call.get("function") or {}
        whole: dict[str, Any] = {
            "id": call.get("id"),
            "name": function.get("name"),
            "arguments": [],
        }
        at, begun = self.calls.start(whole, index)
        return [begun, *self._arguments(at, function)]

    def _arguments(self, at: int | None, function: dict[str, Any]) -> list[Fact]:
        fragment = function.get("arguments")
        if at is None or not fragment:
            return []
        self.calls.calls[at]["arguments"].append(fragment)
        return [ToolCallDelta(at, fragment)]

    def _end(self, delta: dict[str, Any]) -> list[Fact]:
        if delta.get("error"):
            raise StreamFailed(str(delta["error"]))
        self.use(delta.get("usage"))
        self.stop(delta.get("finish_reason"))
        return self.calls.end_all()

    def response(self) -> dict[str, Any]:
        message: dict[str, Any] = {"role": "assistant"}
        if self.plan:
            message["tool_plan"] = "".join(self.plan)
        message["content"] = [self.content[i] for i in sorted(self.content)]
        message["tool_calls"] = [_whole(call) for call in self.calls.calls]
        usage = {"usage": self.usage} if self.usage else {}
        return {**self.head, "message": message, "finish_reason": self.stop_reason, **usage}


def _whole(call: dict[str, Any]) -> dict[str, Any]:
    function = {"name": call["name"], "arguments": "".join(call["arguments"])}
    return {"id": call["id"], "type": "function", "function": function}
