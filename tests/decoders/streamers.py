"""A whole reply (as JSON data) → the stream its provider sends for it, each text, thinking
text and argument JSON cut into the pieces ``cut`` gives: the documented event sequence of
each wire, for the property that streaming a reply and decoding it whole agree.

Written from the wires' streaming references (see the modules of toolwire.decoders.streams),
not from toolwire's assemblers.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

Cut = Callable[[str], list[str]]


def anthropic(message: dict[str, Any], cut: Cut) -> list[dict[str, Any]]:
    start = {**message, "content": [], "stop_reason": None, "stop_sequence": None}
    events: list[dict[str, Any]] = [{"type": "message_start", "message": start}]
    for index, block in enumerate(message["content"]):
        kind = block["type"]
        opened = {
            "text": {"type": "text", "text": ""},
            "thinking": {"type": "thinking", "thinking": "", "signature": ""},
            "tool_use": {**block, "input": {}},
            "redacted_thinking": block,
        }[kind]
        events.append({"type": "content_block_start", "index": index, "content_block": opened})
        pieces = {
            "text": [{"type": "text_delta", "text": p} for p in cut(block.get("text", ""))],
            "thinking": [
                {"type": "thinking_delta", "thinking": p} for p in cut(block.get("thinking", ""))
            ]
            + [{"type": "signature_delta", "signature": block.get("signature")}],
            "tool_use": [
                {"type": "input_json_delta", "partial_json": p}
                for p in cut(json.dumps(block.get("input")))
            ],
            "redacted_thinking": [],
        }[kind]
        events += [{"type": "content_block_delta", "index": index, "delta": d} for d in pieces]
        events.append({"type": "content_block_stop", "index": index})
    end = {"stop_reason": message["stop_reason"], "stop_sequence": None}
    usage = {"output_tokens": message["usage"]["output_tokens"]}
    return [
        *events,
        {"type": "message_delta", "delta": end, "usage": usage},
        {"type": "message_stop"},
    ]


def openai_chat(completion: dict[str, Any], cut: Cut) -> list[dict[str, Any]]:
    head = {k: completion[k] for k in ("id", "created", "model")}
    message, choice = completion["choices"][0]["message"], completion["choices"][0]

    def chunk(delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
        choices = [{"index": 0, "delta": delta, "finish_reason": finish}]
        return {**head, "object": "chat.completion.chunk", "choices": choices}

    chunks = [chunk({"role": "assistant", "content": ""})]
    for detail in message.get("reasoning_details") or []:  # OpenRouter: text in pieces
        if "text" not in detail:
            chunks.append(chunk({"reasoning_details": [detail]}))
            continue
        pieces, n = cut(detail["text"]), detail["index"]
        chunks.append(chunk({"reasoning_details": [{**detail, "text": pieces[0]}]}))
        chunks += [chunk({"reasoning_details": [{"index": n, "text": p}]}) for p in pieces[1:]]
    for key in ("reasoning_content", "reasoning", "content"):
        if isinstance(message.get(key), str):
            chunks += [chunk({key: p}) for p in cut(message[key])]
    for n, call in enumerate(message.get("tool_calls") or []):
        pieces = cut(call["function"]["arguments"]) or [""]
        first = {**call, "index": n, "function": {**call["function"], "arguments": pieces[0]}}
        chunks.append(chunk({"tool_calls": [first]}))
        chunks += [
            chunk({"tool_calls": [{"index": n, "function": {"arguments": p}}]}) for p in pieces[1:]
        ]
    chunks.append(chunk({}, choice["finish_reason"]))
    return chunks + [
        {**head, "object": "chat.completion.chunk", "choices": [], "usage": completion.get("usage")}
    ]


def openai_responses(response: dict[str, Any], cut: Cut) -> list[dict[str, Any]]:
    begun = {**response, "status": "in_progress", "output": []}
    events: list[dict[str, Any]] = [{"type": "response.created", "response": begun}]
    for at, item in enumerate(response["output"]):
        opened = {
            "reasoning": {"id": item["id"], "type": "reasoning", "summary": []},
            "message": {**item, "content": [], "status": "in_progress"},
            "function_call": {**item, "arguments": "", "status": "in_progress"},
        }[item["type"]]
        events.append({"type": "response.output_item.added", "output_index": at, "item": opened})
        events += _item_deltas(at, item, cut)
        events.append({"type": "response.output_item.done", "output_index": at, "item": item})
    return [*events, {"type": "response.completed", "response": response}]


def _item_deltas(at: int, item: dict[str, Any], cut: Cut) -> list[dict[str, Any]]:
    where = {"item_id": item["id"], "output_index": at}
    if item["type"] == "function_call":
        kind = "response.function_call_arguments.delta"
        return [{"type": kind, **where, "delta": p} for p in cut(item["arguments"])]
    if item["type"] == "reasoning":
        kind = "response.reasoning_summary_text.delta"
        return [
            {"type": kind, **where, "summary_index": n, "delta": p}
            for n, part in enumerate(item["summary"])
            for p in cut(part["text"])
        ]
    kind = "response.output_text.delta"
    return [
        {"type": kind, **where, "content_index": n, "delta": p}
        for n, part in enumerate(item["content"])
        for p in cut(part["text"])
    ]


def google(response: dict[str, Any], cut: Cut) -> list[dict[str, Any]]:
    """A text part in pieces with its signature on the last one; a call whole, in a chunk."""
    head = {k: v for k, v in response.items() if k != "candidates"}
    candidate = response["candidates"][0]
    chunks = []
    for part in candidate["content"]["parts"]:
        if "function_call" in part or not part.get("text"):
            pieces = [part]
        else:
            texts = cut(part["text"])
            rest = {k: v for k, v in part.items() if k not in ("text", "thought_signature")}
            pieces = [{**rest, "text": t} for t in texts[:-1]] + [{**part, "text": texts[-1]}]
        chunks += [
            {**head, "candidates": [{"content": {"role": "model", "parts": [p]}}]} for p in pieces
        ]
    last = {k: v for k, v in candidate.items() if k != "content"}
    chunks.append({**head, "candidates": [{**last, "content": {"role": "model", "parts": []}}]})
    return chunks


def bedrock(response: dict[str, Any], cut: Cut) -> list[dict[str, Any]]:
    events: list[dict[str, Any]] = [{"messageStart": {"role": "assistant"}}]
    for index, block in enumerate(response["output"]["message"]["content"]):
        where = {"contentBlockIndex": index}
        if "toolUse" in block:
            use = {k: block["toolUse"][k] for k in ("toolUseId", "name")}
            events.append({"contentBlockStart": {**where, "start": {"toolUse": use}}})
        events += [
            {"contentBlockDelta": {**where, "delta": d}} for d in _bedrock_deltas(block, cut)
        ]
        events.append({"contentBlockStop": where})
    events.append({"messageStop": {"stopReason": response["stopReason"]}})
    return [*events, {"metadata": {"usage": response["usage"], "metrics": {"latencyMs": 1}}}]


def _bedrock_deltas(block: dict[str, Any], cut: Cut) -> list[dict[str, Any]]:
    if "text" in block:
        return [{"text": p} for p in cut(block["text"])]
    if "toolUse" in block:
        return [{"toolUse": {"input": p}} for p in cut(json.dumps(block["toolUse"]["input"]))]
    reasoning = block["reasoningContent"]
    if "redactedContent" in reasoning:
        data = reasoning["redactedContent"]
        return [
            {"reasoningContent": {"redactedContent": data[:5]}},
            {"reasoningContent": {"redactedContent": data[5:]}},
        ]
    text = reasoning["reasoningText"]
    deltas = [{"reasoningContent": {"text": p}} for p in cut(text["text"])]
    return deltas + [{"reasoningContent": {"signature": text["signature"]}}]


def ollama(response: dict[str, Any], cut: Cut) -> list[dict[str, Any]]:
    head = {"model": response["model"], "created_at": "2025-09-01T09:59:59.000000001Z"}
    message = response["message"]
    chunks = [
        {**head, "done": False, "message": {"role": "assistant", "content": "", key: p}}
        for key in ("thinking", "content")
        for p in cut(message.get(key) or "")
    ]
    calls = {"role": "assistant", "content": "", "tool_calls": message.get("tool_calls")}
    chunks.append({**head, "done": False, "message": calls})
    last = {**response, "message": {"role": "assistant", "content": ""}}
    return [*chunks, last]


def mistral(completion: dict[str, Any], cut: Cut) -> list[dict[str, Any]]:
    """Magistral's content chunks in pieces (a thinking chunk's signature on its first piece),
    each tool call whole; every chunk in the SDK's ``CompletionEvent`` (``data``)."""
    head = {k: completion[k] for k in ("id", "created", "model")}
    choice = completion["choices"][0]

    def event(delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
        choices = [{"index": 0, "delta": delta, "finish_reason": finish}]
        return {"data": {**head, "object": "chat.completion.chunk", "choices": choices}}

    events = [event({"role": "assistant", "content": ""})]
    for chunk in choice["message"]["content"]:
        if chunk["type"] == "text":
            events += [
                event({"content": [{"type": "text", "text": p}]}) for p in cut(chunk["text"])
            ]
            continue
        text = "".join(t["text"] for t in chunk["thinking"])
        for n, piece in enumerate(cut(text)):
            thinking = {"type": "thinking", "thinking": [{"type": "text", "text": piece}]}
            signed = {"signature": chunk["signature"]} if n == 0 and "signature" in chunk else {}
            events.append(event({"content": [{**thinking, **signed}]}))
    events += [event({"tool_calls": [call]}) for call in choice["message"].get("tool_calls") or []]
    return [*events, event({}, choice["finish_reason"])]


def cohere(response: dict[str, Any], cut: Cut) -> list[dict[str, Any]]:
    """The v2 chat stream: tool plan, content items and tool calls, each in pieces."""

    def event(kind: str, index: int | None = None, **message: Any) -> dict[str, Any]:
        where = {} if index is None else {"index": index}
        return {"type": kind, **where, "delta": {"message": message}}

    message = response["message"]
    events = [
        {"type": "message-start", "id": response["id"], "delta": {"message": {"role": "assistant"}}}
    ]
    events += [event("tool-plan-delta", tool_plan=p) for p in cut(message.get("tool_plan") or "")]
    for n, item in enumerate(message.get("content") or []):
        key = item["type"]
        events.append(event("content-start", n, content={"type": key, key: ""}))
        events += [event("content-delta", n, content={key: p}) for p in cut(item[key])]
        events.append({"type": "content-end", "index": n})
    for n, call in enumerate(message.get("tool_calls") or []):
        pieces = cut(call["function"]["arguments"])
        first = {**call, "function": {**call["function"], "arguments": pieces[0]}}
        events.append(event("tool-call-start", n, tool_calls=first))
        events += [
            event("tool-call-delta", n, tool_calls={"function": {"arguments": p}})
            for p in pieces[1:]
        ]
        events.append({"type": "tool-call-end", "index": n})
    end = {"finish_reason": response["finish_reason"], "usage": response.get("usage")}
    return [*events, {"type": "message-end", "delta": end}]
