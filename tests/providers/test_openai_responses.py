"""The Responses API encoder (target openai)."""

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

from . import strict_openai_responses
from .conftest import build, check_against_table, check_text_mode, data_url, example_bytes

TARGET = "openai:gpt-5"
COMPACT_JSON = '{"pages":3,"ok":true}'


def head(*paths: str) -> list[dict[str, Any]]:
    """The user message and the assistant items every built conversation starts with."""
    calls = [
        {
            "type": "function_call",
            "call_id": f"call_{n}",
            "name": "fetch",
            "arguments": f'{{"path":"{p}"}}',
        }
        for n, p in enumerate(paths, 1)
    ]
    return [
        {"role": "user", "content": "Show me the file."},
        {"role": "assistant", "content": "Fetching it."},
        *calls,
    ]


def encoded(style: str, kind: str, source: str, **options: Any) -> dict[str, Any]:
    messages, _ = build(style, kind, source, TARGET)
    kwargs = encode(messages, TARGET, **options).kwargs
    strict_openai_responses.validate(kwargs)
    return kwargs


def one_call(value: Any) -> list[Any]:
    calls = Assistant([ToolCall(id="a", name="t", arguments={})])
    return [User("go"), calls, ToolResult.of("a", "t", value)]


# --- the matrix ----------------------------------------------------------------------------


def test_every_case_follows_the_table_or_names_each_offending_file(
    kind: str, source: str, style: str
) -> None:
    check_against_table(TARGET, kind, source, style, strict_openai_responses.validate)


def test_every_case_encodes_with_text_fallbacks(kind: str, source: str, style: str) -> None:
    check_text_mode(TARGET, kind, source, style, strict_openai_responses.validate)


# --- exact payloads, one per kind ------------------------------------------------------------


def test_image_bytes_go_inside_the_function_output_as_a_data_url() -> None:
    assert encoded("alone", "image", "bytes") == {
        "input": [
            {"role": "user", "content": "Show me the file."},
            {"role": "assistant", "content": "Fetching it."},
            {
                "type": "function_call",
                "call_id": "call_1",
                "name": "fetch",
                "arguments": '{"path":"photo.png"}',
            },
            {
                "type": "function_call_output",
                "call_id": "call_1",
                "output": [
                    {"type": "input_image", "image_url": data_url("photo.png", "image/png")}
                ],
            },
        ],
        "instructions": "Answer briefly.",
    }


def test_pdf_file_id_goes_inside_the_output_with_text_and_json_in_order() -> None:
    assert encoded("mixed", "pdf", "file_id")["input"][3:] == [
        {
            "type": "function_call_output",
            "call_id": "call_1",
            "output": [
                {"type": "input_text", "text": "Here it is:"},
                {"type": "input_file", "file_id": "file-pdf-1"},
                {"type": "input_text", "text": COMPACT_JSON},
                {"type": "input_text", "text": "Done."},
            ],
        }
    ]


def test_text_documents_by_url_go_as_file_urls_one_output_per_call() -> None:
    kwargs = encoded("two_calls", "text", "url")
    assert kwargs["input"] == [
        *head("file-1d7c5e7a704a", "file-0f843fab43e6"),
        {
            "type": "function_call_output",
            "call_id": "call_1",
            "output": [{"type": "input_file", "file_url": "https://example.com/files/notes.md"}],
        },
        {
            "type": "function_call_output",
            "call_id": "call_2",
            "output": [
                {"type": "input_text", "text": "Second:"},
                {"type": "input_file", "file_url": "https://example.com/files/notes-2.md"},
            ],
        },
    ]


def test_text_document_bytes_go_as_file_data_with_their_filename() -> None:
    output = encoded("alone", "text", "bytes")["input"][3]["output"]
    assert output == [
        {
            "type": "input_file",
            "file_data": data_url("notes.md", "text/markdown"),
            "filename": "notes.md",
        }
    ]


def test_audio_becomes_its_description_as_a_plain_string_output_in_text_mode() -> None:
    assert encoded("alone", "audio", "bytes", on_unsupported="text")["input"][3:] == [
        {
            "type": "function_call_output",
            "call_id": "call_1",
            "output": "[Audio: tone.wav, 1.0 s, 31 KB]",
        }
    ]


def test_video_becomes_its_description_in_text_mode_with_order_kept() -> None:
    assert encoded("mixed", "video", "file_id", on_unsupported="text")["input"][3:] == [
        {
            "type": "function_call_output",
            "call_id": "call_1",
            "output": [
                {"type": "input_text", "text": "Here it is:"},
                {
                    "type": "input_text",
                    "text": "[Video: file-ff19be79c54e, openai file file-video-1]",
                },
                {"type": "input_text", "text": COMPACT_JSON},
                {"type": "input_text", "text": "Done."},
            ],
        }
    ]


def test_user_message_files_use_the_same_items_with_detail_auto_on_images() -> None:
    png = File.from_url("https://example.com/cat.png")
    pdf = File.from_bytes(example_bytes("report.pdf"))
    kwargs = encode([User([Text(text="look"), png, pdf])], TARGET).kwargs
    strict_openai_responses.validate(kwargs)
    assert kwargs == {
        "input": [
            {
                "role": "user",
                "content": [
                    {"type": "input_text", "text": "look"},
                    {
                        "type": "input_image",
                        "image_url": "https://example.com/cat.png",
                        "detail": "auto",
                    },
                    {
                        "type": "input_file",
                        "file_data": data_url("report.pdf", "application/pdf"),
                        "filename": pdf.identifier + ".pdf",
                    },
                ],
            }
        ]
    }


# --- layout, errors, thinking ------------------------------------------------------------------


def test_system_texts_join_into_instructions_and_are_omitted_when_absent() -> None:
    kwargs = encode([System("one"), User("hi"), System("two")], TARGET).kwargs
    assert kwargs == {"input": [{"role": "user", "content": "hi"}], "instructions": "one\n\ntwo"}
    assert "instructions" not in encode([User("hi")], TARGET).kwargs


def test_assistant_text_and_calls_keep_the_order_the_model_produced() -> None:
    turn = Assistant(
        [
            Text(text="first"),
            ToolCall(id="a", name="t", arguments={"x": 1}),
            Text(text="between"),
            ToolCall(id="b", name="t", arguments={}),
        ]
    )
    results = [ToolResult.of("b", "t", "B"), ToolResult.of("a", "t", "A")]
    kwargs = encode([User("go"), turn, *results], TARGET).kwargs
    strict_openai_responses.validate(kwargs)
    assert kwargs["input"][1:] == [
        {"role": "assistant", "content": "first"},
        {"type": "function_call", "call_id": "a", "name": "t", "arguments": '{"x":1}'},
        {"role": "assistant", "content": "between"},
        {"type": "function_call", "call_id": "b", "name": "t", "arguments": "{}"},
        {"type": "function_call_output", "call_id": "a", "output": "A"},
        {"type": "function_call_output", "call_id": "b", "output": "B"},
    ]


def test_error_denied_and_empty_outputs_become_clear_text() -> None:
    calls = Assistant([ToolCall(id=c, name="t", arguments={}) for c in "abcd"])
    messages = [
        User("go"),
        calls,
        ToolResult(call_id="a", name="t", output=ErrorTextOutput(value="disk full")),
        ToolResult(call_id="b", name="t", output=ErrorJsonOutput(value={"code": 7})),
        ToolResult(call_id="c", name="t", output=ExecutionDeniedOutput()),
        ToolResult.of("d", "t", ""),
    ]
    kwargs = encode(messages, TARGET).kwargs
    strict_openai_responses.validate(kwargs)
    assert [item["output"] for item in kwargs["input"][5:]] == [
        "Error: disk full",
        'Error: {"code":7}',
        "The tool was not run: execution was denied.",
        "(no output)",
    ]


def test_every_unroutable_file_is_listed_in_one_error() -> None:
    wav = File.from_bytes(example_bytes("tone.wav"), name="voice.wav")
    mp4 = File.from_url("https://example.com/clip.mp4")
    calls = Assistant([ToolCall(id=c, name="t", arguments={}) for c in "ab"])
    messages = [
        User([Text(text="listen"), wav]),
        calls,
        ToolResult.of("a", "t", "ok"),
        ToolResult.of("b", "t", mp4),
    ]
    with pytest.raises(UnsupportedContentError) as info:
        encode(messages, TARGET)
    assert [(f.identifier, f.message_index) for f in info.value.files] == [
        ("voice.wav", 0),
        (mp4.identifier, 3),
    ]


def test_openai_thinking_is_dropped_until_decode_keeps_the_reasoning_item_id() -> None:
    turn = Assistant([Thinking(text="plan", signature="gAAA…", provider="openai"), Text(text="hi")])
    kwargs = encode([User("go"), turn], TARGET).kwargs
    assert kwargs["input"][1:] == [{"role": "assistant", "content": "hi"}]


# --- overrides -------------------------------------------------------------------------------


def test_an_override_routing_audio_here_is_a_capability_error_naming_the_file() -> None:
    caps = with_cell(
        capabilities(TARGET), "audio/wav", tool_result="native", tool_sources=("bytes",)
    )
    wav = File.from_bytes(example_bytes("tone.wav"), name="voice.wav")
    with pytest.raises(CapabilityError, match="voice.wav") as info:
        encode(one_call(wav), TARGET, capabilities=caps)
    assert "openai:gpt-5" in str(info.value)


def test_an_override_sending_images_by_fallback_puts_them_in_a_user_message() -> None:
    caps = with_cell(capabilities(TARGET), "image/png", tool_result="fallback")
    png = File.from_bytes(example_bytes("photo.png"), name="p.png")
    request = encode(one_call(png), TARGET, capabilities=caps)
    strict_openai_responses.validate(request.kwargs)
    assert request.kwargs["input"][2:] == [
        {"type": "function_call_output", "call_id": "a", "output": "See file p.png."},
        {
            "role": "user",
            "content": [
                {"type": "input_text", "text": "This is file p.png:"},
                {
                    "type": "input_image",
                    "image_url": data_url("photo.png", "image/png"),
                    "detail": "auto",
                },
            ],
        },
    ]
    assert [d.mode for d in request.decisions] == ["fallback"]
