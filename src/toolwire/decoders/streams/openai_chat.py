"""Chat Completions stream (``ChatCompletionChunk``s) → ChatCompletion, for OpenAI and every
server that speaks the wire (Groq, xAI, OpenRouter, vLLM, …).

Each chunk's ``choices[0].delta`` adds to the message: ``content`` and ``refusal`` text,
``reasoning_content`` / ``reasoning`` text (xAI, DeepSeek, Groq, vLLM), OpenRouter's
``reasoning_details`` (merged by their ``index``), and ``tool_calls`` fragments: the first
names the call (id, function name), the later ones add argument text, matched by ``index``
(a new id at a used index is a new call: some servers number every call 0). A chunk with
``finish_reason`` ends the message; a last chunk may carry only ``usage``. ``data: [DONE]``
closes the SSE body. The SDK's ``chat.completions.stream()`` wraps each chunk in a ``chunk``
event (the others repeat them, and are skipped). Only choice 0 is kept (``n=1``).
API reference: https://platform.openai.com/docs/api-reference/chat-streaming
"""

from __future__ import annotations

import json
from typing import Any

from ..deltas import TextDelta, ThinkingDelta, ToolCallDelta
from . import Assembler, Calls, Fact, StreamFailed

#: The delta fields of reasoning text, in the order decoders.openai_chat prefers them.
_REASONING = ("reasoning_content", "reasoning")
#: Fields of a reasoning detail that arrive in pieces, joined; any other field is replaced.
_JOINED = ("text", "summary", "data")


class Stream(Assembler):
    """Rebuilds one ChatCompletion from its chunks."""

    wire = "openai_chat"

    def __init__(self, issuer: str) -> None:
        super().__init__(issuer)
        self.head: dict[str, Any] = {}
        self.texts: dict[str, list[str]] = {}
        self.details: list[dict[str, Any]] = []
        self.calls = Calls()

    def feed(self, event: dict[str, Any]) -> list[Fact]:
        if event.get("type") == "chunk" and isinstance(event.get("chunk"), dict):
            event = event["chunk"]  # the SDK's ChunkEvent
        elif "type" in event and "choices" not in event:
            return []  # the SDK's other helper events repeat the chunks
        if event.get("error"):
            raise StreamFailed(str(event["error"]))
        for key in ("id", "created", "model", "system_fingerprint"):
            if event.get(key) is not None:
                self.head.setdefault(key, event[key])
        self.use(event.get("usage") or (event.get("x_groq") or {}).get("usage"))
        facts: list[Fact] = []
        for choice in event.get("choices") or []:
            if choice.get("index", 0) == 0:
                facts += self._delta(choice.get("delta") or {})
                if choice.get("finish_reason"):
                    self.stop(choice["finish_reason"])
                    facts += self.calls.end_all()
        return facts

    def _delta(self, delta: dict[str, Any]) -> list[Fact]:
        texts = [delta[k] for k in _REASONING if isinstance(delta.get(k), str) and delta[k]]
        for key in _REASONING:
            if isinstance(delta.get(key), str) and delta[key]:
                self.texts.setdefault(key, []).append(delta[key])
        # one thinking delta however many fields repeat the text (OpenRouter sends it both as
        # ``reasoning`` and in ``reasoning_details``; some servers send both reasoning keys)
        facts: list[Fact] = [ThinkingDelta(texts[0])] if texts else []
        for detail in delta.get("reasoning_details") or []:
            text = self._detail(detail)
            facts += [ThinkingDelta(text)] if text and not texts else []
        facts += self._content(delta.get("content"))
        if isinstance(delta.get("refusal"), str) and delta["refusal"]:
            self.texts.setdefault("refusal", []).append(delta["refusal"])
            facts.append(TextDelta(delta["refusal"]))
        for call in delta.get("tool_calls") or []:
            facts += self._call(call)
        return facts

    def _content(self, content: object) -> list[Fact]:
        if isinstance(content, str) and content:
            self.texts.setdefault("content", []).append(content)
            return [TextDelta(content)]
        return []

    def _detail(self, detail: dict[str, Any]) -> str:
        """OpenRouter's reasoning detail (a piece of the detail with its ``index``) added; its
        readable text returned."""
        index = detail.get("index")
        same = [d for d in self.details if index is not None and d.get("index") == index]
        if not same:
            self.details.append(dict(detail))
        else:
            for key, value in detail.items():
                joined = key in _JOINED and isinstance(value, str)
                same[0][key] = (same[0].get(key) or "") + value if joined else value
        text = detail.get("text") or detail.get("summary")
        return text if isinstance(text, str) else ""

    def _call(self, fragment: dict[str, Any]) -> list[Fact]:
        function = fragment.get("function") or {}
        call_id, index = fragment.get("id"), fragment.get("index", 0)
        at = self.calls.find(("id", call_id)) if call_id else None
        if at is None and not _new_id(call_id, self.calls, index):
            at = self.calls.find(("index", index))
        facts: list[Fact] = []
        if at is None:
            call = {"id": call_id, "type": "function", "name": function.get("name") or ""}
            call["arguments"] = []
            at, begun = self.calls.start(
                call, ("id", call_id) if call_id else None, ("index", index)
            )
            facts.append(begun)
        arguments = function.get("arguments")
        if isinstance(arguments, dict):  # a server that sends the arguments as data
            arguments = json.dumps(arguments, ensure_ascii=False)
        if arguments:
            self.calls.calls[at]["arguments"].append(arguments)
            facts.append(ToolCallDelta(at, arguments))
        return facts

    def end_of_body(self) -> None:
        self.finished = True  # ``data: [DONE]``: the server ended the stream as it should

    def message(self) -> dict[str, Any]:
        """The assistant message of the chunks so far."""
        message: dict[str, Any] = {"role": "assistant"}
        for key, pieces in self.texts.items():
            message[key] = "".join(pieces)
        message.setdefault("content", None)
        if self.details:
            message["reasoning_details"] = self.details
        if self.calls.calls:
            message["tool_calls"] = [_whole(call) for call in self.calls.calls]
        return message

    def response(self) -> dict[str, Any]:
        choice = {"index": 0, "message": self.message(), "finish_reason": self.stop_reason}
        usage = {"usage": self.usage} if self.usage else {}
        return {**self.head, "object": "chat.completion", "choices": [choice], **usage}


def _new_id(call_id: object, calls: Calls, index: object) -> bool:
    """Whether ``call_id`` names a call other than the one at ``index`` (a new call)."""
    at = calls.find(("index", index))
    return bool(call_id) and call_id != "null" and (at is None or calls.calls[at]["id"] != call_id)


def _whole(call: dict[str, Any]) -> dict[str, Any]:
    function = {"name": call["name"], "arguments": "".join(call["arguments"])}
    return {"id": call["id"], "type": "function", "function": function}
