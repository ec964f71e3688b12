"""Anthropic Messages stream → Message: ``message_start``, ``content_block_start`` /
``_delta`` / ``_stop`` by block index, ``message_delta`` (stop reason, usage),
``message_stop``; ``error`` ends the stream. Deltas: ``text_delta``, ``thinking_delta``,
``signature_delta`` (the thinking block's signature), ``input_json_delta`` (tool input JSON
fragments, joined). The SDK's helper events (``text``, ``input_json``, ``thinking``,
``signature``, ``citation`` of ``messages.stream()``) repeat these and are skipped.
API reference: https://docs.anthropic.com/en/docs/build-with-claude/streaming
"""

from __future__ import annotations

import json
from typing import Any

from ..deltas import TextDelta, ThinkingDelta, ToolCallDelta
from . import Assembler, Calls, Fact, StreamFailed


class Stream(Assembler):
    """Rebuilds one Anthropic Message from its stream events."""

    wire = "anthropic"

    def __init__(self, issuer: str) -> None:
        super().__init__(issuer)
        self.message: dict[str, Any] = {"type": "message", "role": "assistant"}
        self.blocks: dict[int, dict[str, Any]] = {}
        self.calls = Calls()

    def feed(self, event: dict[str, Any]) -> list[Fact]:
        kind = event.get("type")
        if kind == "error":
            raise StreamFailed(str(event.get("error")))
        if kind == "message_start":
            self._begin(event["message"])
        elif kind == "content_block_start":
            return self._start(event["index"], dict(event["content_block"]))
        elif kind == "content_block_delta":
            return self._delta(self.blocks[event["index"]], event["index"], event["delta"])
        elif kind == "content_block_stop":
            call = self.calls.find(event["index"])
            return self.calls.end(call) if call is not None else []
        elif kind == "message_delta":
            self.message.update(event.get("delta") or {})
            self.use(event.get("usage"))
            self.stop_reason = self.message.get("stop_reason")
        elif kind == "message_stop":
            self.stop(self.message.get("stop_reason"))
        return []

    def _begin(self, start: dict[str, Any]) -> None:
        """A message begins; a second ``message_start`` (a stream spliced after a retry)
        begins it anew: the reply is the last message (the SDK's accumulator joins the two)."""
        head = {k: v for k, v in start.items() if k != "content"}
        self.message = {"type": "message", "role": "assistant", **head}
        self.blocks = {}
        self.calls = Calls()
        self.usage = {}
        self.use(start.get("usage"))

    def _start(self, index: int, block: dict[str, Any]) -> list[Fact]:
        self.blocks[index] = block
        if "input" in block:  # tool_use, and the server's (server_tool_use, mcp_tool_use)
            given = block["input"]
            block["input"] = [json.dumps(given, ensure_ascii=False)] if given else []
        if block.get("type") == "tool_use":
            return [self.calls.start(block, index)[1]]
        text = block.get("text") or block.get("thinking")
        delta = TextDelta if block.get("type") == "text" else ThinkingDelta
        return [delta(text)] if isinstance(text, str) and text else []

    def _delta(self, block: dict[str, Any], index: int, delta: dict[str, Any]) -> list[Fact]:
        kind = delta.get("type")
        if kind == "text_delta":
            block["text"] = block.get("text", "") + delta["text"]
            return [TextDelta(delta["text"])]
        if kind == "thinking_delta":
            block["thinking"] = block.get("thinking", "") + delta["thinking"]
            return [ThinkingDelta(delta["thinking"])]
        if kind == "signature_delta":
            block["signature"] = delta["signature"]
        elif kind == "input_json_delta":
            block["input"].append(delta["partial_json"])
            call = self.calls.find(index)
            return [ToolCallDelta(call, delta["partial_json"])] if call is not None else []
        return []

    def response(self) -> dict[str, Any]:
        content = [self._whole(self.blocks[i]) for i in sorted(self.blocks)]
        return {**self.message, "content": content}

    @staticmethod
    def _whole(block: dict[str, Any]) -> dict[str, Any]:
        """The block as the Message holds it: a tool call's input as its JSON text (decode
        parses it, or flags it), a server tool's as data where it parses."""
        if not isinstance(block.get("input"), list):
            return block
        text = "".join(block["input"])
        if block.get("type") == "tool_use":
            return {**block, "input": text}
        try:
            return {**block, "input": json.loads(text) if text else {}}
        except ValueError:
            return {**block, "input": text}
