"""The chat-completions encoder (openai-chat, groq, xai, openrouter, openai-compatible)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from toolwire.capability import capabilities, with_cell
from toolwire.capability import capabilities as tw_capabilities
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

from . import strict_openai_chat
from .conftest import (
    JSON_VALUE,
    b64_of,
    build,
    check_against_table,
    check_text_mode,
    data_url,
    example_bytes,
    example_file,
)

TARGETS = (
    "openai-chat:gpt-5-mini",
    "openai-chat:gpt-4o-audio-preview",
    "groq:meta-llama/llama-4-scout-17b-16e-instruct",
    "xai:grok-4",
    "openrouter:openai/gpt-5",
    "openai-compatible:qwen3-vl",
)
AUDIO_MODEL = "openai-chat:gpt-4o-audio-preview"
NOTES = example_bytes("notes.md").decode()
COMPACT_JSON = '{"pages":3,"ok":true}'


def validate(target: str) -> Any:
    return lambda kwargs: strict_openai_chat.validate(kwargs, target)


def head(*paths: str) -> list[dict[str, Any]]:
    """The system, user and assistant messages every built conversation starts with."""
    calls = [
        {
            "id": f"call_{n}",
            "type": "function",
            "function": {
                "name": "fetch",
                "arguments": json.dumps({"path": p}, separators=(",", ":")),
            },
        }
        for n, p in enumerate(paths, 1)
    ]
    return [
        {"role": "system", "content": "Answer briefly."},
        {"role": "user", "content": "Show me the file."},
        {"role": "assistant", "content": "Fetching it.", "tool_calls": calls},
    ]


def encoded(target: str, style: str, kind: str, source: str, **options: Any) -> dict[str, Any]:
    messages, _ = build(style, kind, source, target)
    kwargs = encode(messages, target, **options).kwargs
    strict_openai_chat.validate(kwargs, target)
    return kwargs


# --- the matrix ----------------------------------------------------------------------------


@pytest.mark.parametrize("target", TARGETS)
def test_every_case_follows_the_table_or_names_each_offending_file(
    target: str, kind: str, source: str, style: str
) -> None:
    check_against_table(target, kind, source, style, validate(target))


@pytest.mark.parametrize("target", TARGETS)
def test_every_case_encodes_with_text_fallbacks(
    target: str, kind: str, source: str, style: str
) -> None:
    check_text_mode(target, kind, source, style, validate(target))


# --- exact payloads: at least one per target × kind ----------------------------------------


@pytest.mark.parametrize("target", TARGETS)
def test_image_goes_to_a_labelled_user_message_after_a_text_only_tool_message(target: str) -> None:
    assert encoded(target, "alone", "image", "bytes") == {
        "messages": [
            {"role": "system", "content": "Answer briefly."},
            {"role": "user", "content": "Show me the file."},
            {
                "role": "assistant",
                "content": "Fetching it.",
                "tool_calls": [
                    {
                        "id": "call_1",
                        "type": "function",
                        "function": {"name": "fetch", "arguments": '{"path":"photo.png"}'},
                    }
                ],
            },
            {"role": "tool", "tool_call_id": "call_1", "content": "See file photo.png."},
            {
                "role": "user",
                "content": [
                    {"type": "text", "text": "This is file photo.png:"},
                    {"type": "image_url", "image_url": {"url": data_url("photo.png", "image/png")}},
                ],
            },
        ]
    }


def test_image_url_is_passed_as_the_http_url() -> None:
    url = "https://example.com/files/photo.png"
    kwargs = encoded("openai-chat:gpt-5-mini", "mixed", "image", "url")
    assert kwargs["messages"][3:] == [
        {
            "role": "tool",
            "tool_call_id": "call_1",
            "content": [
                {"type": "text", "text": "Here it is:"},
                {"type": "text", "text": "See file file-aad206f383b0."},
                {"type": "text", "text": COMPACT_JSON},
                {"type": "text", "text": "Done."},
            ],
        },
        {
            "role": "user",
            "content": [
                {"type": "text", "text": "This is file file-aad206f383b0:"},
                {"type": "image_url", "image_url": {"url": url}},
            ],
        },
    ]


@pytest.mark.parametrize(
    "target", ["openai-chat:gpt-5-mini", AUDIO_MODEL, "openrouter:openai/gpt-5"]
)
def test_pdf_bytes_go_as_a_file_part_with_data_url_and_filename(target: str) -> None:
    assert encoded(target, "mixed", "pdf", "bytes") == {
        "messages": [
            *head("report.pdf"),
            {
                "role": "tool",
                "tool_call_id": "call_1",
                "content": [
                    {"type": "text", "text": "Here it is:"},
                    {"type": "text", "text": "See file report.pdf."},
                    {"type": "text", "text": COMPACT_JSON},
                    {"type": "text", "text": "Done."},
                ],
            },
            {
                "role": "user",
                "content": [
                    {"type": "text", "text": "This is file report.pdf:"},
                    {
                        "type": "file",
                        "file": {
                            "file_data": data_url("report.pdf", "application/pdf"),
                            "filename": "report.pdf",
                        },
                    },
                ],
            },
        ]
    }


def test_pdf_for_xai_goes_as_its_file_id() -> None:
    assert encoded("xai:grok-4", "alone", "pdf", "file_id")["messages"][3:] == [
        {"role": "tool", "tool_call_id": "call_1", "content": "See file file-7c212ed8076b."},
        {
            "role": "user",
            "content": [
                {"type": "text", "text": "This is file file-7c212ed8076b:"},
                {"type": "file", "file": {"file_id": "file-pdf-1"}},
            ],
        },
    ]


@pytest.mark.parametrize(
    "target", ["groq:meta-llama/llama-4-scout-17b-16e-instruct", "openai-compatible:qwen3-vl"]
)
def test_pdf_where_no_route_exists_becomes_its_description_in_text_mode(target: str) -> None:
    assert encoded(target, "alone", "pdf", "bytes", on_unsupported="text") == {
        "messages": [
            *head("report.pdf"),
            {
                "role": "tool",
                "tool_call_id": "call_1",
                "content": "[PDF: report.pdf, 3 pages, 35 KB]",
            },
        ]
    }


@pytest.mark.parametrize("target", TARGETS)
def test_text_documents_of_two_calls_are_inlined_after_both_tool_messages(target: str) -> None:
    assert encoded(target, "two_calls", "text", "bytes") == {
        "messages": [
            *head("notes.md", "notes-2.md"),
            {"role": "tool", "tool_call_id": "call_1", "content": "See file notes.md."},
            {
                "role": "tool",
                "tool_call_id": "call_2",
                "content": (
                    [
                        {"type": "text", "text": "Second:"},
                        {"type": "text", "text": "See file notes-2.md."},
                    ]
                    if tw_capabilities(target).text_parts  # OpenAI's own: lists of parts
                    else "Second:\n\nSee file notes-2.md."  # the rest: one string
                ),
            },
            {
                "role": "user",
                "content": [
                    {"type": "text", "text": "This is file notes.md:"},
                    {"type": "text", "text": NOTES},
                    {"type": "text", "text": "This is file notes-2.md:"},
                    {"type": "text", "text": NOTES},
                ],
            },
        ]
    }


@pytest.mark.parametrize(
    "target", ["groq:llama-3.3-70b-versatile", "openai-compatible:qwen3", "xai:grok-4"]
)
def test_a_tool_message_is_one_string_where_the_server_is_not_known_to_take_parts(
    target: str,
) -> None:
    """Several OpenAI-compatible servers take only a string as a tool message's content
    (issue 32, item 5): the texts are joined; OpenAI and OpenRouter get parts."""
    from toolwire.content import Text, ToolCall
    from toolwire.messages import Assistant, ContentOutput, ToolResult, User
    from toolwire.request import encode

    history = [
        User("Go."),
        Assistant([ToolCall(id="call_1", name="look", arguments={})]),
        ToolResult(
            call_id="call_1",
            name="look",
            output=ContentOutput(value=[Text(text="a"), Text(text="b")]),
        ),
    ]
    tool_message = encode(history, target).kwargs["messages"][-1]
    assert tool_message["content"] == "a\n\nb"
    assert encode(history, "openai-chat:gpt-5").kwargs["messages"][-1]["content"] == [
        {"type": "text", "text": "a"},
        {"type": "text", "text": "b"},
    ]


def test_audio_goes_as_input_audio_on_an_audio_model() -> None:
    assert encoded(AUDIO_MODEL, "alone", "audio", "bytes")["messages"][3:] == [
        {"role": "tool", "tool_call_id": "call_1", "content": "See file tone.wav."},
        {
            "role": "user",
            "content": [
                {"type": "text", "text": "This is file tone.wav:"},
                {
                    "type": "input_audio",
                    "input_audio": {"data": b64_of("tone.wav"), "format": "wav"},
                },
            ],
        },
    ]


@pytest.mark.parametrize("target", [t for t in TARGETS if t != AUDIO_MODEL])
def test_audio_elsewhere_becomes_its_description_in_text_mode(target: str) -> None:
    assert encoded(target, "alone", "audio", "bytes", on_unsupported="text") == {
        "messages": [
            *head("tone.wav"),
            {
                "role": "tool",
                "tool_call_id": "call_1",
                "content": "[Audio: tone.wav, 1.0 s, 31 KB]",
            },
        ]
    }


@pytest.mark.parametrize("target", TARGETS)
def test_video_becomes_its_description_in_text_mode_with_order_kept(target: str) -> None:
    assert encoded(target, "mixed", "video", "url", on_unsupported="text") == {
        "messages": [
            *head("file-0549b9a9af46"),
            {
                "role": "tool",
                "tool_call_id": "call_1",
                "content": (
                    [{"type": "text", "text": text} for text in VIDEO_TEXTS]
                    if tw_capabilities(target).text_parts
                    else "\n\n".join(VIDEO_TEXTS)
                ),
            },
        ]
    }


VIDEO_TEXTS = [
    "Here it is:",
    "[Video: file-0549b9a9af46, https://example.com/files/clip.mp4]",
    COMPACT_JSON,
    "Done.",
]


# --- ordering, errors, thinking --------------------------------------------------------------


def test_mixed_content_keeps_its_order_in_the_tool_message_and_the_follow_up() -> None:
    png = File.from_bytes(example_bytes("photo.png"), name="a.png")
    pdf = File.from_bytes(example_bytes("report.pdf"), name="b.pdf")
    calls = Assistant([ToolCall(id="c", name="t", arguments={})])
    value = ["one", pdf, {"n": 2}, "three", png]
    kwargs = encode([User("go"), calls, ToolResult.of("c", "t", value)], "openai-chat:gpt-5").kwargs
    strict_openai_chat.validate(kwargs)
    tool, follow = kwargs["messages"][2:]
    texts = [p["text"] for p in tool["content"]]
    assert texts == ["one", "See file b.pdf.", '{"n":2}', "three", "See file a.png."]
    assert [p["type"] for p in follow["content"]] == ["text", "file", "text", "image_url"]
    assert follow["content"][0]["text"] == "This is file b.pdf:"


def test_tool_messages_follow_call_order_not_result_order() -> None:
    calls = Assistant(
        [ToolCall(id="a", name="t", arguments={}), ToolCall(id="b", name="t", arguments={})]
    )
    messages = [
        User("go"),
        calls,
        ToolResult.of("b", "t", "second"),
        ToolResult.of("a", "t", "first"),
    ]
    kwargs = encode(messages, "groq:llama-3.3-70b").kwargs
    strict_openai_chat.validate(kwargs, "groq:llama-3.3-70b")
    assert [(m["tool_call_id"], m["content"]) for m in kwargs["messages"][2:]] == [
        ("a", "first"),
        ("b", "second"),
    ]


def test_error_denied_and_empty_outputs_become_clear_text() -> None:
    calls = Assistant([ToolCall(id=c, name="t", arguments={}) for c in "abcd"])
    messages = [
        User("go"),
        calls,
        ToolResult(call_id="a", name="t", output=ErrorTextOutput(value="disk full")),
        ToolResult(call_id="b", name="t", output=ErrorJsonOutput(value={"code": 7})),
        ToolResult(call_id="c", name="t", output=ExecutionDeniedOutput(reason="not allowed")),
        ToolResult.of("d", "t", ""),
    ]
    kwargs = encode(messages, "xai:grok-4").kwargs
    strict_openai_chat.validate(kwargs)
    assert [m["content"] for m in kwargs["messages"][2:]] == [
        "Error: disk full",
        'Error: {"code":7}',
        "The tool was not run: execution was denied. Reason: not allowed",
        "(no output)",
    ]


def test_every_unroutable_file_is_listed_in_one_error() -> None:
    wav = File.from_bytes(example_bytes("tone.wav"), name="voice.wav")
    mp4 = File.from_bytes(example_bytes("clip.mp4"), name="clip.mp4")
    pdf = File.from_url("https://example.com/r.pdf")
    calls = Assistant([ToolCall(id=c, name="t", arguments={}) for c in "ab"])
    messages = [
        User("go"),
        calls,
        ToolResult.of("a", "t", [wav, mp4]),
        ToolResult.of("b", "t", pdf),
    ]
    with pytest.raises(UnsupportedContentError) as info:
        encode(messages, "xai:grok-4")
    assert [(f.identifier, f.message_index) for f in info.value.files] == [
        ("voice.wav", 2),
        ("clip.mp4", 2),
        (pdf.identifier, 3),
    ]
    assert "xai:grok-4" in str(info.value)


def test_thinking_is_dropped_and_a_thinking_only_message_disappears() -> None:
    messages = [
        User("hi"),
        Assistant([Thinking(text="hmm", signature="s", provider="openai")]),
        User("again"),
        Assistant([Thinking(text="x", provider="openai"), Text(text="a"), Text(text="b")]),
    ]
    kwargs = encode(messages, "openrouter:openai/gpt-5").kwargs
    strict_openai_chat.validate(kwargs)
    assert kwargs["messages"] == [
        {"role": "user", "content": "hi"},
        {"role": "user", "content": "again"},
        {
            "role": "assistant",
            "content": [{"type": "text", "text": "a"}, {"type": "text", "text": "b"}],
        },
    ]


def test_system_messages_stay_in_place() -> None:
    messages = [System("one"), User("hi"), System("two"), User("bye")]
    kwargs = encode(messages, "openai-compatible:qwen3").kwargs
    assert [m["role"] for m in kwargs["messages"]] == ["system", "user", "system", "user"]
    assert kwargs["messages"][2] == {"role": "system", "content": "two"}


def test_json_output_is_compact_text() -> None:
    calls = Assistant([ToolCall(id="a", name="t", arguments={"q": "é"})])
    kwargs = encode([User("go"), calls, ToolResult.of("a", "t", JSON_VALUE)], "groq:x").kwargs
    assert kwargs["messages"][1]["tool_calls"][0]["function"]["arguments"] == '{"q":"é"}'
    assert kwargs["messages"][2]["content"] == '{"pages":3,"ok":true}'


# --- overrides -------------------------------------------------------------------------------


def test_an_override_enabling_audio_spells_input_audio_with_the_format_from_the_type() -> None:
    override = {
        "media": [{"types": ["audio/mpeg"], "tool_result": "fallback", "user_sources": ["bytes"]}]
    }
    mp3 = File.from_bytes(example_bytes("tone.mp3"), name="tone.mp3")
    calls = Assistant([ToolCall(id="a", name="t", arguments={})])
    request = encode(
        [User("go"), calls, ToolResult.of("a", "t", mp3)],
        "openai-chat:gpt-5-mini",
        capabilities=override,
    )
    strict_openai_chat.validate(request.kwargs)
    assert request.kwargs["messages"][-1]["content"][1] == {
        "type": "input_audio",
        "input_audio": {"data": b64_of("tone.mp3"), "format": "mp3"},
    }
    assert [d.mode for d in request.decisions] == ["fallback"]


def test_an_override_letting_xai_take_pdf_bytes_spells_file_data() -> None:
    caps = with_cell(capabilities("xai:grok-4"), "application/pdf", user_sources=("bytes",))
    messages, _ = build("alone", "pdf", "bytes", "xai:grok-4")
    kwargs = encode(messages, "xai:grok-4", capabilities=caps).kwargs
    strict_openai_chat.validate(kwargs)
    assert kwargs["messages"][-1]["content"][1]["file"]["filename"] == "report.pdf"


def test_an_unnamed_pdf_gets_a_filename_with_the_pdf_extension() -> None:
    pdf = File.from_bytes(example_bytes("report.pdf"))
    calls = Assistant([ToolCall(id="a", name="t", arguments={})])
    kwargs = encode([User("go"), calls, ToolResult.of("a", "t", pdf)], "openai-chat:gpt-5").kwargs
    assert kwargs["messages"][-1]["content"][1]["file"]["filename"] == pdf.identifier + ".pdf"


@pytest.mark.parametrize(
    ("media_type", "change", "where"),
    [
        (
            "video/mp4",
            {"tool_result": "fallback", "user_sources": ("bytes",)},
            "into a user message",
        ),
        ("image/png", {"tool_result": "native", "tool_sources": ("bytes",)}, "into a tool message"),
    ],
)
def test_an_override_the_wire_cannot_spell_is_a_capability_error_naming_the_file(
    media_type: str, change: dict[str, Any], where: str
) -> None:
    caps = with_cell(capabilities("openai-chat:gpt-5-mini"), media_type, **change)
    kind = "video" if media_type.startswith("video") else "image"
    file = example_file(kind, "bytes", "openai-chat:gpt-5-mini")
    calls = Assistant([ToolCall(id="a", name="t", arguments={})])
    with pytest.raises(CapabilityError) as info:
        encode(
            [User("go"), calls, ToolResult.of("a", "t", file)],
            "openai-chat:gpt-5-mini",
            capabilities=caps,
        )
    assert file.identifier in str(info.value)
    assert where in str(info.value)
    assert "openai-chat:gpt-5-mini" in str(info.value)


def test_a_merge_override_puts_follow_up_files_in_a_user_message_after_the_tool_messages() -> None:
    messages, _ = build("alone", "image", "url", "groq:x")
    kwargs = encode(messages, "groq:x", capabilities={"followup": "merge"}).kwargs
    strict_openai_chat.validate(kwargs, "groq:x")
    assert [m["role"] for m in kwargs["messages"]] == [
        "system",
        "user",
        "assistant",
        "tool",
        "user",
    ]
