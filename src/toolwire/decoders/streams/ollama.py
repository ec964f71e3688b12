"""Ollama ``chat(stream=True)`` chunks (or the raw NDJSON lines) → ChatResponse.

Every chunk is a ChatResponse whose ``message`` holds what is new: ``content`` and
``thinking`` text, and whole ``tool_calls``; the last chunk has ``done: true`` with
``done_reason`` and the token counts. An ``error`` line ends the stream.
API reference: https://github.com/ollama/ollama/blob/main/docs/api.md#generate-a-chat-completion
"""

from __future__ import annotations

from typing import Any

from ..deltas import TextDelta, ThinkingDelta
from . import Assembler, Calls, Fact, StreamFailed

#: The final chunk's counts, kept as the reply's usage.
_COUNTS = ("prompt_eval_count", "eval_count", "total_duration", "load_duration")


class Stream(Assembler):
    """Rebuilds one Ollama ChatResponse from its chunks."""

    wire = "ollama"

    def __init__(self, issuer: str) -> None:
        super().__init__(issuer)
        self.head: dict[str, Any] = {}
        self.texts: dict[str, list[str]] = {"thinking": [], "content": []}
        self.calls = Calls()

    def feed(self, event: dict[str, Any]) -> list[Fact]:
        if event.get("error"):
            raise StreamFailed(str(event["error"]))
        self.head.update({k: event[k] for k in ("model", "created_at") if event.get(k)})
        message = event.get("message") or {}
        facts: list[Fact] = []
        for key, delta in (("thinking", ThinkingDelta), ("content", TextDelta)):
            if isinstance(message.get(key), str) and message[key]:
                self.texts[key].append(message[key])
                facts.append(delta(message[key]))
        for call in message.get("tool_calls") or []:
            name = (call.get("function") or {}).get("name")
            index, begun = self.calls.start({**call, "id": call.get("id"), "name": name})
            facts += [begun, *self.calls.end(index)]
        if event.get("done"):
            self.use({k: event[k] for k in _COUNTS if k in event})
            self.stop(event.get("done_reason"))
        return facts

    def response(self) -> dict[str, Any]:
        message: dict[str, Any] = {"role": "assistant"}
        message.update({key: "".join(pieces) for key, pieces in self.texts.items() if pieces})
        message["tool_calls"] = [_whole(call) for call in self.calls.calls]
        return {**self.head, "message": message, "done": self.finished}


def _whole(call: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in call.items() if k not in ("name",) and (k != "id" or v)}
