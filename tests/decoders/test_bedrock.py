"""Decoding Bedrock ``converse`` responses (dicts in botocore's ConverseResponse shape)."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from botocore.validate import ParamValidator
from providers import strict_anthropic, strict_bedrock

from toolwire.content import Text, Thinking, ToolCall
from toolwire.decoders import decode
from toolwire.request import encode

from .responses import conversation

MODEL = "bedrock:us.anthropic.claude-sonnet-4-5-20250929-v1:0"
OUTPUT = strict_bedrock.SERVICE.operation_model("Converse").output_shape
SIGNATURE = "ErcBCkgIBxABGAIiQLwz3Nd7qH+0a1m2bq/7sdT5lq9fKuQ=="
REDACTED = b"\x00\x17redacted reasoning\xfb\xff"
REDACTED_TEXT = "ABdyZWRhY3RlZCByZWFzb25pbmf7/w=="


def check_output(response: dict[str, Any]) -> None:
    """Raise unless ``response`` fits botocore's Converse output shape: members, required
    members, types, enums, and raw bytes for blobs."""
    report = ParamValidator().validate(response, OUTPUT)
    if report.has_errors():
        raise ValueError(report.generate_report())
    strict_bedrock.check_shapes(response, OUTPUT, "")


def converse(*content: dict[str, Any], stop_reason: str = "tool_use") -> dict[str, Any]:
    """A Converse response as boto3 returns it (with the ResponseMetadata botocore adds)."""
    response = {
        "output": {"message": {"role": "assistant", "content": list(content)}},
        "stopReason": stop_reason,
        "usage": {"inputTokens": 420, "outputTokens": 96, "totalTokens": 516},
        "metrics": {"latencyMs": 1830},
    }
    check_output(response)
    return {"ResponseMetadata": {"HTTPStatusCode": 200, "RetryAttempts": 0}, **response}


def tool_use(n: int, path: str) -> dict[str, Any]:
    return {
        "toolUse": {"toolUseId": f"tooluse_k{n}Qx", "name": "read_file", "input": {"path": path}}
    }


CONTENT = [
    {"reasoningContent": {"reasoningText": {"text": "Read both files.", "signature": SIGNATURE}}},
    {"reasoningContent": {"redactedContent": REDACTED}},
    {"text": "Reading both files."},
    tool_use(1, "notes.md"),
    tool_use(2, "report.pdf"),
]


def test_reasoning_redacted_reasoning_text_and_parallel_tool_uses_decode_in_order() -> None:
    assert decode(converse(*CONTENT), MODEL).content == (
        Thinking(text="Read both files.", signature=SIGNATURE, provider="bedrock:anthropic.claude"),
        Thinking(
            text="", signature=REDACTED_TEXT, redacted=True, provider="bedrock:anthropic.claude"
        ),
        Text(text="Reading both files."),
        ToolCall(id="tooluse_k1Qx", name="read_file", arguments={"path": "notes.md"}),
        ToolCall(id="tooluse_k2Qx", name="read_file", arguments={"path": "report.pdf"}),
    )


def test_decoded_reply_goes_back_to_bedrock_exactly_with_the_same_redacted_bytes() -> None:
    kwargs = encode(conversation(decode(converse(*CONTENT), MODEL)), MODEL).kwargs
    strict_bedrock.validate(kwargs, MODEL)
    assert kwargs["messages"][1] == {"role": "assistant", "content": CONTENT}
    results = [b["toolResult"]["toolUseId"] for b in kwargs["messages"][2]["content"]]
    assert results == ["tooluse_k1Qx", "tooluse_k2Qx"]


def test_bedrock_reasoning_is_not_replayed_to_anthropic_directly() -> None:
    """Bedrock signs its own reasoning; the Anthropic API cannot verify it."""
    kwargs = encode(
        conversation(decode(converse(*CONTENT), MODEL)), "anthropic:claude-sonnet-4-5"
    ).kwargs
    strict_anthropic.validate(kwargs)
    assert [b["type"] for b in kwargs["messages"][1]["content"]] == ["text", "tool_use", "tool_use"]


def test_reasoning_without_a_signature_decodes_as_unsigned_thinking() -> None:
    response = converse(
        {"reasoningContent": {"reasoningText": {"text": "Hmm."}}},
        {"text": "Done."},
        stop_reason="end_turn",
    )
    assert decode(response, "bedrock:amazon.nova-premier-v1:0").content == (
        Thinking(text="Hmm.", provider="bedrock:amazon.nova"),
        Text(text="Done."),
    )


def test_the_output_check_rejects_what_botocore_would_not_return() -> None:
    good = converse(*CONTENT)
    del good["ResponseMetadata"]
    for path, value in [
        (("output", "message", "surprise"), 1),
        (("stopReason",), "finished"),
        (("output", "message", "content", 1, "reasoningContent", "redactedContent"), "text"),
        (("usage", "inputTokens"), "420"),
    ]:
        bad = copy.deepcopy(good)
        target: Any = bad
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value
        with pytest.raises(ValueError):
            check_output(bad)
    del good["metrics"]
    with pytest.raises(ValueError):
        check_output(good)
