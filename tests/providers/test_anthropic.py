"""The Anthropic Messages encoder (target anthropic)."""

from __future__ import annotations

from typing import Any

import pytest

from toolwire.capability import capabilities, with_cell
from toolwire.content import File, Text, Thinking, ToolCall
from toolwire.errors import CapabilityError, UnsupportedContentError
from toolwire.messages import (
    Assistant,
    ErrorJsonOutput,
    ErrorTextOutput,
    ExecutionDeniedOutput,
    System,
    ToolResult,
    User,
)
from toolwire.request import encode

from . import strict_anthropic
from .conftest import (
    b64_of,
    build,
    check_against_table,
    check_text_mode,
    example_bytes,
)

TARGET = "anthropic:claude-sonnet-4-5"
NOTES = example_bytes("notes.md").decode()
COMPACT_JSON = '{"pages":3,"ok":true}'


def head(*paths: str) -> list[dict[str, Any]]:
    """The user and assistant messages every built conversation starts with."""
    calls = [
        {"type": "tool_use", "id": f"call_{n}", "name": "fetch", "input": {"path": p}}
        for n, p in enumerate(paths, 1)
    ]
    return [
        {"role": "user", "content": [{"type": "text", "text": "Show me the file."}]},
        {"role": "assistant", "content": [{"type": "text", "text": "Fetching it."}, *calls]},
    ]


def encoded(style: str, kind: str, source: str, **options: Any) -> dict[str, Any]:
    messages, _ = build(style, kind, source, TARGET)
    kwargs = encode(messages, TARGET, **options).kwargs
    strict_anthropic.validate(kwargs)
    return kwargs


def one_call(value: Any) -> list[Any]:
    calls = Assistant([ToolCall(id="a", name="t", arguments={})])
    return [User("go"), calls, ToolResult.of("a", "t", value)]


# --- the matrix ----------------------------------------------------------------------------


def test_every_case_follows_the_table_or_names_each_offending_file(
    kind: str, source: str, style: str
) -> None:
    check_against_table(TARGET, kind, source, style, strict_anthropic.validate)


def test_every_case_encodes_with_text_fallbacks(kind: str, source: str, style: str) -> None:
    check_text_mode(TARGET, kind, source, style, strict_anthropic.validate)


# --- exact payloads, one per kind ------------------------------------------------------------


def test_image_bytes_go_inside_the_tool_result_as_base64() -> None:
    assert encoded("alone", "image", "bytes") == {
        "messages": [
            {"role": "user", "content": [{"type": "text", "text": "Show me the file."}]},
            {
                "role": "assistant",
                "content": [
                    {"type": "text", "text": "Fetching it."},
                    {
                        "type": "tool_use",
                        "id": "call_1",
                        "name": "fetch",
                        "input": {"path": "photo.png"},
                    },
                ],
            },
            {
                "role": "user",
                "content": [
                    {
                        "type": "tool_result",
                        "tool_use_id": "call_1",
                        "content": [
                            {
                                "type": "image",
                                "source": {
                                    "type": "base64",
                                    "media_type": "image/png",
                                    "data": b64_of("photo.png"),
                                },
                            }
                        ],
                    }
                ],
            },
        ],
        "system": "Answer briefly.",
    }


def test_image_file_id_goes_as_a_file_source() -> None:
    result = encoded("alone", "image", "file_id")["messages"][2]["content"][0]
    assert result["content"] == [
        {"type": "image", "source": {"type": "file", "file_id": "file-image-1"}}
    ]


def test_pdf_url_goes_as_a_titled_url_document_between_text_and_json() -> None:
    assert encoded("mixed", "pdf", "url")["messages"][2:] == [
        {
            "role": "user",
            "content": [
                {
                    "type": "tool_result",
                    "tool_use_id": "call_1",
                    "content": [
                        {"type": "text", "text": "Here it is:"},
                        {
                            "type": "document",
                            "source": {
                                "type": "url",
                                "url": "https://example.com/files/report.pdf",
                            },
                            "title": "file-2a4efbe13d20",
                        },
                        {"type": "text", "text": COMPACT_JSON},
                        {"type": "text", "text": "Done."},
                    ],
                }
            ],
        }
    ]


def test_text_documents_of_two_calls_go_as_plain_text_documents_one_result_each() -> None:
    def document(title: str) -> dict[str, Any]:
        source = {"type": "text", "media_type": "text/plain", "data": NOTES}
        return {"type": "document", "source": source, "title": title}

    assert encoded("two_calls", "text", "bytes")["messages"] == [
        *head("notes.md", "notes-2.md"),
        {
            "role": "user",
            "content": [
                {"type": "tool_result", "tool_use_id": "call_1", "content": [document("notes.md")]},
                {
                    "type": "tool_result",
                    "tool_use_id": "call_2",
                    "content": [{"type": "text", "text": "Second:"}, document("notes-2.md")],
                },
            ],
        },
    ]


def test_audio_becomes_its_description_in_text_mode() -> None:
    assert encoded("alone", "audio", "bytes", on_unsupported="text")["messages"][2:] == [
        {
            "role": "user",
            "content": [
                {
                    "type": "tool_result",
                    "tool_use_id": "call_1",
                    "content": [{"type": "text", "text": "[Audio: tone.wav, 1.0 s, 31 KB]"}],
                }
            ],
        }
    ]


def test_video_becomes_its_description_in_text_mode_with_order_kept() -> None:
    result = encoded("mixed", "video", "url", on_unsupported="text")["messages"][2]["content"][0]
    assert result["content"] == [
        {"type": "text", "text": "Here it is:"},
        {"type": "text", "text": "[Video: file-0549b9a9af46, https://example.com/files/clip.mp4]"},
        {"type": "text", "text": COMPACT_JSON},
        {"type": "text", "text": "Done."},
    ]


# --- layout, errors, thinking ------------------------------------------------------------------


def test_a_user_message_after_the_results_is_merged_after_the_tool_result_blocks() -> None:
    calls = Assistant(
        [ToolCall(id="b", name="t", arguments={}), ToolCall(id="a", name="t", arguments={})]
    )
    messages = [
        User("go"),
        calls,
        ToolResult.of("a", "t", "A"),
        ToolResult.of("b", "t", "B"),
        User("next"),
    ]
    kwargs = encode(messages, TARGET).kwargs
    strict_anthropic.validate(kwargs)
    assert kwargs["messages"][2] == {
        "role": "user",
        "content": [
            {"type": "tool_result", "tool_use_id": "b", "content": [{"type": "text", "text": "B"}]},
            {"type": "tool_result", "tool_use_id": "a", "content": [{"type": "text", "text": "A"}]},
            {"type": "text", "text": "next"},
        ],
    }


def test_error_outputs_set_is_error_and_denied_or_empty_ones_are_clear_text() -> None:
    calls = Assistant([ToolCall(id=c, name="t", arguments={}) for c in "abcd"])
    messages = [
        User("go"),
        calls,
        ToolResult(call_id="a", name="t", output=ErrorTextOutput(value="disk full")),
        ToolResult(call_id="b", name="t", output=ErrorJsonOutput(value={"code": 7})),
        ToolResult(call_id="c", name="t", output=ExecutionDeniedOutput(reason="policy")),
        ToolResult.of("d", "t", ""),
    ]
    kwargs = encode(messages, TARGET).kwargs
    strict_anthropic.validate(kwargs)
    blocks = kwargs["messages"][2]["content"]
    assert [(b.get("is_error", False), b["content"][0]["text"]) for b in blocks] == [
        (True, "disk full"),
        (True, '{"code":7}'),
        (False, "The tool was not run: execution was denied. Reason: policy"),
        (False, "(no output)"),
    ]


def test_every_unroutable_file_is_listed_in_one_error() -> None:
    wav = File.from_bytes(example_bytes("tone.wav"), name="voice.wav")
    md = File.from_url("https://example.com/notes.md")
    calls = Assistant([ToolCall(id=c, name="t", arguments={}) for c in "ab"])
    messages = [
        User("go"),
        calls,
        ToolResult.of("a", "t", [md, "x", wav]),
        ToolResult.of("b", "t", wav),
    ]
    with pytest.raises(UnsupportedContentError) as info:
        encode(messages, TARGET)
    assert [(f.identifier, f.message_index) for f in info.value.files] == [
        (md.identifier, 2),
        ("voice.wav", 2),
        ("voice.wav", 3),
    ]
    assert "fetch_urls" in str(info.value)


def test_own_signed_thinking_goes_back_verbatim_and_foreign_thinking_is_dropped() -> None:
    turn = Assistant(
        [
            Thinking(text="plan", signature="sig-1", provider="anthropic"),
            Thinking(text="", signature="opaque", redacted=True, provider="anthropic"),
            Thinking(text="other", signature="x", provider="openai"),
            Thinking(text="unsigned", provider="anthropic"),
            Text(text="hi"),
        ]
    )
    kwargs = encode([System("s"), User("go"), turn], TARGET).kwargs
    strict_anthropic.validate(kwargs)
    assert kwargs["messages"][1] == {
        "role": "assistant",
        "content": [
            {"type": "thinking", "thinking": "plan", "signature": "sig-1"},
            {"type": "redacted_thinking", "data": "opaque"},
            {"type": "text", "text": "hi"},
        ],
    }


# --- overrides -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "media_type"),
    [("tone.wav", "audio/wav"), ("formats/image.bmp", "image/bmp")],
)
def test_an_override_routing_what_no_block_holds_is_a_capability_error_naming_the_file(
    name: str, media_type: str
) -> None:
    caps = with_cell(
        capabilities(TARGET), media_type, tool_result="native", tool_sources=("bytes",)
    )
    file = File.from_bytes(example_bytes(name), name="odd-file")
    with pytest.raises(CapabilityError, match="odd-file"):
        encode(one_call(file), TARGET, capabilities=caps)


def test_an_override_turning_images_to_error_gives_their_text_fallback() -> None:
    override = {"media": [{"types": ["image/png"], "tool_result": "error"}]}
    png = File.from_bytes(example_bytes("photo.png"), name="p.png")
    request = encode(one_call(png), TARGET, on_unsupported="text", capabilities=override)
    strict_anthropic.validate(request.kwargs)
    block = request.kwargs["messages"][2]["content"][0]
    assert block["content"] == [{"type": "text", "text": "[Image: p.png, 640x480, 245 KB]"}]
    assert [d.mode for d in request.decisions] == ["text"]
