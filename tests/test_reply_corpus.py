"""Real provider replies, decoded, continued and encoded back for the provider that sent them.

``corpus/replies.json``: the non-streamed replies recorded in pydantic-ai's VCR cassettes
(source, commit and licence in the file; ``corpus/build.py`` rebuilds it). For each reply the
facts are read from its JSON here, independently of toolwire's decoders: the visible texts,
the tool calls with their arguments, the thinking signatures, and the parts toolwire keeps
as provider parts. The decoded message must hold exactly those; appended to a history (its
calls answered) it must encode for the same model into a request the official SDK's strict
types accept, with every signature and provider part in it as it came.
"""

from __future__ import annotations

import base64
import json
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from providers import (
    strict_anthropic,
    strict_google,
    strict_openai_chat,
    strict_openai_responses,
)
from pydantic import TypeAdapter, ValidationError

from toolwire.capability import capabilities
from toolwire.content import ProviderPart, Text, Thinking, ToolCall
from toolwire.decoders import decode
from toolwire.errors import DecodeError
from toolwire.messages import Assistant, ToolResult, User
from toolwire.request import encode

CORPUS = Path(__file__).parent / "corpus" / "replies.json"
WIRES = {"anthropic", "openai_responses", "openai_chat", "google"}


@cache
def corpus() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(CORPUS.read_text())
    return data


def cases() -> list[Any]:
    return [
        pytest.param(entry, id=f"{n:03}-{Path(entry['file']).stem[:60]}")
        for n, entry in enumerate(corpus()["replies"])
    ]


def model_of(entry: dict[str, Any]) -> str:
    reply = entry["reply"]
    name = reply.get("model") or reply.get("modelVersion") or "gemini-2.5-flash"
    return f"{entry['provider']}:{name}"


class Facts:
    """What a reply holds, read from its JSON: texts, calls (id or None, name, arguments),
    thinking signatures, provider part kinds."""

    def __init__(self) -> None:
        self.texts: list[str] = []
        self.calls: list[tuple[str | None, str, Any]] = []
        self.signatures: list[str] = []
        self.kinds: list[str] = []
        #: A chat server's reasoning: its text, and OpenRouter's reasoning_details.
        self.reasoning = ""
        self.details: list[Any] = []


def anthropic_facts(reply: dict[str, Any]) -> Facts:
    facts = Facts()
    for block in reply.get("content") or []:
        kind = block["type"]
        if kind == "text":
            facts.texts.append(block["text"])
            if block.get("citations"):
                facts.kinds.append("citations")
        elif kind == "tool_use":
            facts.calls.append((block["id"], block["name"], block["input"]))
        elif kind in ("thinking", "redacted_thinking"):
            facts.signatures.append(block.get("signature") or block.get("data"))
        else:
            facts.kinds.append(kind)
    return facts


CLIENT_NAMES = {"local_shell_call": "local_shell", "shell_call": "shell"}
CLIENT_NAMES |= {"apply_patch_call": "apply_patch"}


def responses_facts(reply: dict[str, Any]) -> Facts:
    facts = Facts()
    for item in reply.get("output") or []:
        kind = item["type"]
        if kind == "message":
            for part in item.get("content") or []:
                text = part.get("text") if part["type"] == "output_text" else part.get("refusal")
                if text:
                    facts.texts.append(text)
                if text and part.get("annotations"):
                    facts.kinds.append("annotations")
        elif kind == "function_call":
            facts.calls.append((item["call_id"], item["name"], json.loads(item["arguments"])))
        elif kind in CLIENT_NAMES or kind in ("custom_tool_call", "mcp_approval_request"):
            name = CLIENT_NAMES.get(kind) or item["name"]
            facts.calls.append((item.get("call_id") or item["id"], name, None))
        elif kind == "reasoning":
            if item.get("encrypted_content"):
                facts.signatures.append(item["encrypted_content"])
        else:
            facts.kinds.append(kind)
    return facts


def chat_facts(reply: dict[str, Any]) -> Facts:
    facts = Facts()
    message = reply["choices"][0]["message"]
    if message.get("content"):
        facts.texts.append(message["content"])
    if message.get("refusal"):
        facts.texts.append(message["refusal"])
    for call in message.get("tool_calls") or []:
        function = call["function"]
        arguments = json.loads(function.get("arguments") or "{}")  # OpenRouter may omit it
        facts.calls.append((call["id"], function["name"], arguments))
    facts.reasoning = message.get("reasoning_content") or message.get("reasoning") or ""
    facts.details = message.get("reasoning_details") or []
    return facts


def google_facts(reply: dict[str, Any]) -> Facts:
    facts = Facts()
    candidate = (reply.get("candidates") or [{}])[0]
    for part in (candidate.get("content") or {}).get("parts") or []:
        if part.get("thought"):
            if part.get("thoughtSignature"):
                facts.signatures.append(part["thoughtSignature"])
        elif "functionCall" in part:
            call = part["functionCall"]
            facts.calls.append((call.get("id"), call["name"], call.get("args") or {}))
        elif part.get("text"):
            facts.texts.append(part["text"])
        elif "text" not in part:
            kinds = [k for k in part if k not in ("thoughtSignature", "thought")]
            facts.kinds += [
                "".join(f"_{c.lower()}" if c.isupper() else c for c in k) for k in kinds[:1]
            ]
    return facts


FACTS = {
    "anthropic": anthropic_facts,
    "openai_responses": responses_facts,
    "openai_chat": chat_facts,
    "google": google_facts,
}


#: Recorded replies whose items the openai SDK's input types do not take back as the API sent
#: them (openai 3.57): a file search result's ``vector_store_id``, a web search source of
#: type "api". toolwire sends them as they came; the strict check is left out for them.
SDK_LAGS = {
    "tests/models/cassettes/test_openai_responses/test_openai_responses_model_file_search_tool_with_results.yaml",
    "tests/models/cassettes/test_openai_responses/test_openai_responses_model_web_search_tool_stream.yaml",
}


def validate(kwargs: dict[str, Any], wire: str, model: str, reply: dict[str, Any]) -> None:
    if wire == "anthropic" and not all(map(generally_available, reply["content"])):
        strict_anthropic.validate_beta(kwargs)  # the reply came from the beta API
    elif wire == "anthropic":
        strict_anthropic.validate(kwargs)
    elif wire == "openai_responses":
        strict_openai_responses.validate(kwargs)
    elif wire == "openai_chat":  # a server's own reasoning field is no field of the SDK's
        extension = {"reasoning_content", "reasoning", "reasoning_details"}
        messages = [{k: v for k, v in m.items() if k not in extension} for m in kwargs["messages"]]
        strict_openai_chat.validate({**kwargs, "messages": messages}, model)
    else:
        strict_google.validate(kwargs, model)


@cache
def _ga_block() -> TypeAdapter[Any]:
    from anthropic.types import ContentBlock

    return TypeAdapter(ContentBlock)


def generally_available(block: dict[str, Any]) -> bool:
    """Whether the (non-beta) Messages API's response types read ``block``."""
    try:
        _ga_block().validate_python(block)
    except ValidationError:
        return False
    return True


def test_the_corpus_says_where_it_came_from() -> None:
    data = corpus()
    assert data["source"].startswith("https://github.com/") and len(data["commit"]) == 40
    assert data["licence"].startswith("MIT")
    wires = {entry["wire"] for entry in data["replies"]}
    assert wires == WIRES and len(data["replies"]) > 300


@pytest.mark.parametrize("entry", cases())
def test_a_recorded_reply_decodes_to_its_facts_and_goes_back_as_it_came(
    entry: dict[str, Any],
) -> None:
    wire, reply, model = entry["wire"], entry["reply"], model_of(entry)
    facts = FACTS[wire](reply)
    try:
        message = decode(reply, model)
    except DecodeError:
        assert not facts.texts and not facts.calls and not facts.kinds  # an empty reply
        return
    texts = [p.text for p in message.content if isinstance(p, Text) and p.text]
    assert texts == facts.texts
    calls = [p for p in message.content if isinstance(p, ToolCall)]
    assert [(c.name, c.arguments) for c in calls] == [
        (name, c.arguments if arguments is None else arguments)
        for (_, name, arguments), c in zip(facts.calls, calls, strict=True)
    ]
    given = [(i, c.id) for (i, _, _), c in zip(facts.calls, calls, strict=True) if i]
    assert all(i == kept for i, kept in given)  # the ids the provider sent are kept
    signatures = [p.signature for p in message.content if isinstance(p, Thinking) and p.signature]
    if wire == "google":  # the SDK's base64 as the standard alphabet (decoders.google)
        facts.signatures = [s.replace("-", "+").replace("_", "/") for s in facts.signatures]
    assert facts.signatures == signatures[: len(facts.signatures)]
    kept = [p for p in message.content if isinstance(p, ProviderPart)]
    assert [p.kind for p in kept] == facts.kinds

    history = [User("Go on."), message, *answers(message)]
    if not message.tool_calls:
        history.append(User("Thanks. And then?"))
    kwargs = encode(history, model).kwargs
    if entry["file"] not in SDK_LAGS:
        validate(kwargs, wire, model, reply)
    sent = json.dumps(kwargs, default=repr)
    for signature in signatures:  # Gemini's go as bytes; a chat server's: check_reasoning_replay
        assert signature in sent or wire in ("google", "openai_chat")
    for part in kept:
        if part.kind in ("citations", "annotations"):  # back on the text they came with
            assert json.dumps(part.data[part.kind], default=repr) in sent
        elif wire == "google":
            assert gemini_part(part.data) in kwargs["contents"][1]["parts"]
        else:
            assert json.dumps(dict(part.data), default=repr)[1:-1] in sent
    if wire == "openai_chat":
        check_reasoning_replay(kwargs, facts, model)
    if wire == "google":  # every thought signature back, in order, none made up
        candidate = (reply.get("candidates") or [{}])[0]
        raw = (candidate.get("content") or {}).get("parts") or []
        given = [base64.b64decode(p["thoughtSignature"]) for p in raw if "thoughtSignature" in p]
        back = [p.get("thought_signature") for p in kwargs["contents"][1]["parts"]]
        assert [s for s in back if s] == given


def gemini_part(data: Any) -> dict[str, Any]:
    """A Gemini part as google-genai takes it: base64 text as bytes."""
    part = dict(data)
    if "thought_signature" in part:
        part["thought_signature"] = base64.b64decode(part["thought_signature"])
    if "data" in part.get("inline_data", {}):
        part["inline_data"] = {**part["inline_data"]}
        part["inline_data"]["data"] = base64.b64decode(part["inline_data"]["data"])
    return part


def check_reasoning_replay(kwargs: dict[str, Any], facts: Facts, model: str) -> None:
    """A chat server's reasoning goes back where its table row says (``reasoning_replay``):
    OpenRouter's reasoning_details verbatim and in order on every assistant message, a
    GLM's reasoning_content on a message that made tool calls; nowhere else."""
    (assistant,) = [m for m in kwargs["messages"] if m["role"] == "assistant"]
    replay = capabilities(model).reasoning_replay
    field = replay.field if replay is not None else None
    if field == "reasoning_details":
        assert assistant.get("reasoning_details", []) == facts.details
    elif field is not None and facts.reasoning and (replay.on == "all" or facts.calls):
        assert assistant[field] == facts.reasoning
    else:
        assert not {"reasoning_content", "reasoning", "reasoning_details"} & set(assistant)


def answers(message: Assistant) -> list[ToolResult]:
    return [ToolResult.of(call.id, call.name, "done") for call in message.tool_calls]
