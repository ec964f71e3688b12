"""Bedrock ``converse_stream`` events → Converse response.

boto3 yields one dict per event: ``messageStart``; ``contentBlockStart`` (a tool use's id
and name), ``contentBlockDelta`` (``text``, ``toolUse.input`` JSON fragments,
``reasoningContent`` with ``text``, then ``signature``, or ``redactedContent`` bytes) and
``contentBlockStop``, each by ``contentBlockIndex``; ``messageStop`` (stop reason), then
``metadata`` (usage). An event named ``…Exception`` is an error. The raw HTTP body is AWS
event-stream binary, not SSE: pass boto3's events.
API reference: https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_ConverseStream.html
"""

from __future__ import annotations

import base64
from typing import Any

from ..deltas import TextDelta, ThinkingDelta, ToolCallDelta
from . import Assembler, Calls, Fact, StreamFailed


class Stream(Assembler):
    """Rebuilds one Converse response from the events of ``converse_stream``."""

    wire = "bedrock"

    def __init__(self, issuer: str) -> None:
        super().__init__(issuer)
        self.blocks: dict[int, dict[str, Any]] = {}
        self.calls = Calls()

    def feed(self, event: dict[str, Any]) -> list[Fact]:
        errors = [key for key in event if key.endswith("Exception")]
        if errors:
            raise StreamFailed(f"{errors[0]}: {event[errors[0]]}")
        if "contentBlockStart" in event:
            start = event["contentBlockStart"]
            use = (start.get("start") or {}).get("toolUse")
            if use:
                block = {"toolUse": {**use, "input": []}}
                self.blocks[start["contentBlockIndex"]] = block
                call = {"id": use.get("toolUseId"), "name": use.get("name")}
                return [self.calls.start(call, start["contentBlockIndex"])[1]]
        elif "contentBlockDelta" in event:
            delta = event["contentBlockDelta"]
            return self._delta(delta["contentBlockIndex"], delta["delta"])
        elif "contentBlockStop" in event:
            at = self.calls.find(event["contentBlockStop"]["contentBlockIndex"])
            return self.calls.end(at) if at is not None else []
        elif "messageStop" in event:
            self.stop(event["messageStop"].get("stopReason"))
        elif "metadata" in event:
            self.use(event["metadata"].get("usage"))
        return []

    def _delta(self, index: int, delta: dict[str, Any]) -> list[Fact]:
        if "text" in delta:
            block = self.blocks.setdefault(index, {"text": ""})
            block["text"] += delta["text"]
            return [TextDelta(delta["text"])] if delta["text"] else []
        if "toolUse" in delta:
            fragment = delta["toolUse"].get("input") or ""
            self.blocks[index]["toolUse"]["input"].append(fragment)
            at = self.calls.find(index)
            return [ToolCallDelta(at, fragment)] if at is not None and fragment else []
        if "reasoningContent" in delta:
            return self._reasoning(self.blocks.setdefault(index, {}), delta["reasoningContent"])
        return []

    @staticmethod
    def _reasoning(block: dict[str, Any], delta: dict[str, Any]) -> list[Fact]:
        if "redactedContent" in delta:
            block.setdefault("redacted", []).append(_bytes(delta["redactedContent"]))
            return []
        reasoning = block.setdefault("reasoning", {"text": ""})
        if delta.get("signature"):
            reasoning["signature"] = delta["signature"]
        text = delta.get("text") or ""
        reasoning["text"] += text
        return [ThinkingDelta(text)] if text else []

    def response(self) -> dict[str, Any]:
        content = [_whole(self.blocks[i]) for i in sorted(self.blocks)]
        message = {"role": "assistant", "content": content}
        usage = {"usage": self.usage} if self.usage else {}
        return {"output": {"message": message}, "stopReason": self.stop_reason, **usage}


def _whole(block: dict[str, Any]) -> dict[str, Any]:
    """A block in the shape of the Converse response's content."""
    if "toolUse" in block:
        return {"toolUse": {**block["toolUse"], "input": "".join(block["toolUse"]["input"])}}
    if "redacted" in block:
        return {"reasoningContent": {"redactedContent": b"".join(block["redacted"])}}
    if "reasoning" in block:
        return {"reasoningContent": {"reasoningText": block["reasoning"]}}
    return block


def _bytes(value: object) -> bytes:
    """Redacted reasoning as bytes (boto3 gives bytes; its JSON dump, base64 text)."""
    return value if isinstance(value, bytes) else base64.b64decode(str(value))
