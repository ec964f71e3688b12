"""The Mistral encoder: every matrix case as the table says, payloads strict against mistralai 3.7,
mistral-common's role order (never a user message right after a tool message), exact payloads
for a curated set of conversations."""

from __future__ import annotations

import itertools
from typing import Any

import pytest

from toolwire.content import File, Text, Thinking, ToolCall

# From their modules: the package attributes ``toolwire.request`` / ``toolwire.decoders`` turn into
# the submodules once those are imported.
from toolwire.decoders import decode
from toolwire.errors import CapabilityError
from toolwire.messages import Assistant, ErrorTextOutput, System, ToolResult, User
from toolwire.plan.ids import accepted_id
from toolwire.request import encode

from .conftest import (
    KINDS,
    SOURCES,
    STYLES,
    b64_of,
    build,
    check_against_table,
    check_text_mode,
    data_url,
    example_bytes,
)
from .strict_mistral import check_rules, validate

TARGETS = ("mistral:mistral-large-latest", "mistral:pixtral-large-latest")
MODEL = "mistral:mistral-large-latest"
NOTES = example_bytes("notes.md").decode()  # the decoded text a text document is inlined as


def turn(*calls: ToolCall) -> list[Any]:
    return [System("Be brief."), User("Go."), Assistant([Text(text="On it."), *calls])]


def fetch(n: int) -> ToolCall:
    return ToolCall(id=f"abcdefgh{n}", name="fetch", arguments={"n": n})


def assistant_with_calls(*numbers: int) -> dict[str, Any]:
    calls = [
        {
            "id": f"abcdefgh{n}",
            "type": "function",
            "function": {"name": "fetch", "arguments": f'{{"n": {n}}}'},
        }
        for n in numbers
    ]
    return {"role": "assistant", "content": "On it.", "tool_calls": calls}


HEAD = [
    {"role": "system", "content": "Be brief."},
    {"role": "user", "content": [{"type": "text", "text": "Go."}]},
]
BRIDGE = {"role": "assistant", "content": "(continuing)"}


def tool(n: int, content: str) -> dict[str, Any]:
    return {"role": "tool", "tool_call_id": f"abcdefgh{n}", "name": "fetch", "content": content}


# --- the matrix -------------------------------------------------------------------------------


@pytest.mark.parametrize("target", TARGETS)
def test_each_matrix_case_goes_as_the_table_says_and_validates_strictly(
    target: str, kind: str, source: str, style: str
) -> None:
    check_against_table(target, kind, source, style, validate)


@pytest.mark.parametrize("target", TARGETS)
def test_each_matrix_case_encodes_with_text_fallbacks_for_what_has_no_route(
    target: str, kind: str, source: str, style: str
) -> None:
    check_text_mode(target, kind, source, style, validate)


def test_no_mistral_payload_has_a_user_message_right_after_a_tool_message() -> None:
    checked = 0
    for target, kind, source, style in itertools.product(TARGETS, KINDS, SOURCES, STYLES):
        messages, _ = build(style, kind, source, target)
        for extra in ([], [User("And now?")]):
            roles = [
                m["role"]
                for m in encode(messages + extra, target, on_unsupported="text").kwargs["messages"]
            ]
            assert ("tool", "user") not in set(itertools.pairwise(roles))
            checked += 1
    assert checked == len(TARGETS) * len(KINDS) * len(SOURCES) * len(STYLES) * 2


# --- the validator can fail -------------------------------------------------------------------


@pytest.mark.parametrize(
    "bad",
    [
        [{"role": "user", "content": "hi", "name": "me"}],  # unknown key on a message
        [
            {"role": "user", "content": [{"type": "text", "text": "hi", "cache": True}]}
        ],  # in a chunk
        [
            {"role": "user", "content": [{"type": "image_url", "image_url": 5}]}
        ],  # an UnknownContentChunk
        [{"role": "user", "content": [{"type": "video_url", "video_url": "https://x/v.mp4"}]}],
        [{"role": "user", "content": [7]}],  # wrong item type
        [{"role": "critic", "content": "hi"}],
    ],
)
def test_the_validator_rejects_what_mistralai_would_drop_or_not_recognise(bad: list[Any]) -> None:
    with pytest.raises(ValueError):
        validate({"messages": bad})


def test_the_validator_rejects_an_unknown_parameter() -> None:
    with pytest.raises(ValueError, match="system"):
        validate({"messages": [{"role": "user", "content": "hi"}], "system": "x"})


@pytest.mark.parametrize(
    ("messages", "problem"),
    [
        (
            [*HEAD, assistant_with_calls(1), tool(1, "r"), {"role": "user", "content": "x"}],
            "user message after a tool",
        ),
        (
            [*HEAD, assistant_with_calls(1), tool(1, "r"), {"role": "system", "content": "x"}],
            "system message after a tool",
        ),
        (
            [*HEAD, assistant_with_calls(1), {**tool(1, "r"), "tool_call_id": "call_1"}],
            "not 9 letters",
        ),
        ([*HEAD, assistant_with_calls(1, 2), tool(1, "r"), BRIDGE], "have no result"),
        ([*HEAD, assistant_with_calls(1), tool(2, "r")], "answers no pending call"),
    ],
)
def test_the_rule_check_rejects_what_mistral_common_rejects(
    messages: list[Any], problem: str
) -> None:
    with pytest.raises(ValueError, match=problem):
        check_rules(messages)


# --- exact payloads ---------------------------------------------------------------------------


def test_an_image_result_goes_to_a_user_message_after_a_bridge_assistant_message() -> None:
    photo = File.from_bytes(example_bytes("photo.png"), name="photo.png")
    messages = [*turn(fetch(1)), ToolResult.of("abcdefgh1", "fetch", photo)]
    kwargs = encode(messages, "mistral:pixtral-large-latest").kwargs
    validate(kwargs)
    assert kwargs == {
        "messages": [
            *HEAD,
            assistant_with_calls(1),
            tool(1, "See file photo.png."),
            BRIDGE,
            {
                "role": "user",
                "content": [
                    {"type": "text", "text": "This is file photo.png:"},
                    {"type": "image_url", "image_url": data_url("photo.png", "image/png")},
                ],
            },
        ]
    }


def test_pdfs_go_as_document_url_chunks_by_data_url_or_https_url_with_their_name() -> None:
    inline = File.from_bytes(example_bytes("report.pdf"), name="report.pdf")
    remote = File.from_url("https://example.com/q3.pdf", name="q3.pdf")
    messages = [
        *turn(fetch(1), fetch(2)),
        ToolResult.of("abcdefgh1", "fetch", ["Here it is:", inline, {"pages": 3}]),
        ToolResult.of("abcdefgh2", "fetch", remote),
        User("Summarise both."),
    ]
    kwargs = encode(messages, MODEL).kwargs
    validate(kwargs)
    assert kwargs["messages"][2:] == [
        assistant_with_calls(1, 2),
        tool(1, 'Here it is:\n\nSee file report.pdf.\n\n{"pages":3}'),
        tool(2, "See file q3.pdf."),
        BRIDGE,
        {
            "role": "user",
            "content": [
                {"type": "text", "text": "This is file report.pdf:"},
                {
                    "type": "document_url",
                    "document_url": data_url("report.pdf", "application/pdf"),
                    "document_name": "report.pdf",
                },
                {"type": "text", "text": "This is file q3.pdf:"},
                {
                    "type": "document_url",
                    "document_url": "https://example.com/q3.pdf",
                    "document_name": "q3.pdf",
                },
                {"type": "text", "text": "Summarise both."},
            ],
        },
    ]


def test_a_text_document_is_inlined_as_a_text_chunk_of_its_decoded_text() -> None:
    notes = File.from_bytes(example_bytes("notes.md"), name="notes.md")
    kwargs = encode([*turn(fetch(1)), ToolResult.of("abcdefgh1", "fetch", notes)], MODEL).kwargs
    validate(kwargs)
    assert kwargs["messages"][-1] == {
        "role": "user",
        "content": [
            {"type": "text", "text": "This is file notes.md:"},
            {"type": "text", "text": NOTES},
        ],
    }


def test_a_user_message_after_a_plain_tool_turn_still_gets_the_bridge_message() -> None:
    messages = [*turn(fetch(1)), ToolResult.of("abcdefgh1", "fetch", {"ok": True}), User("Thanks.")]
    kwargs = encode(messages, MODEL).kwargs
    validate(kwargs)
    assert kwargs["messages"][3:] == [
        tool(1, '{"ok":true}'),
        BRIDGE,
        {"role": "user", "content": [{"type": "text", "text": "Thanks."}]},
    ]


def test_an_error_result_says_error_first_because_mistral_has_no_error_flag() -> None:
    result = ToolResult(
        call_id="abcdefgh1", name="fetch", output=ErrorTextOutput(value="not found")
    )
    kwargs = encode([*turn(fetch(1)), result], MODEL).kwargs
    validate(kwargs)
    assert kwargs["messages"][-1] == tool(1, "Error: not found")


def test_foreign_call_ids_become_stable_nine_character_ids_in_the_call_and_its_result() -> None:
    call = ToolCall(id="toolu_01", name="fetch", arguments={})
    messages = [User("Go."), Assistant([call]), ToolResult.of("toolu_01", "fetch", "done")]
    kwargs = encode(messages, MODEL).kwargs
    validate(kwargs)
    assert accepted_id("mistral", "toolu_01") == "7a95b7039"
    assert accepted_id("mistral", "D681PevKs") == "D681PevKs"
    assert kwargs["messages"][1:] == [
        {
            "role": "assistant",
            "content": "",
            "tool_calls": [
                {
                    "id": "7a95b7039",
                    "type": "function",
                    "function": {"name": "fetch", "arguments": "{}"},
                }
            ],
        },
        {"role": "tool", "tool_call_id": "7a95b7039", "name": "fetch", "content": "done"},
    ]


def test_arguments_that_were_not_json_go_back_verbatim() -> None:
    call = ToolCall(id="abcdefgh1", name="fetch", arguments={}, invalid_arguments="{'n': 1")
    kwargs = encode(
        [User("Go."), Assistant([call]), ToolResult.of("abcdefgh1", "fetch", "x")], MODEL
    ).kwargs
    validate(kwargs)
    assert kwargs["messages"][1]["tool_calls"][0]["function"]["arguments"] == "{'n': 1"


def test_mistral_thinking_goes_back_as_a_think_chunk_and_other_thinking_is_dropped() -> None:
    own = Thinking(text="Look it up.", signature="sig-1", provider="mistral")
    foreign = Thinking(text="Hmm.", signature="abc", provider="anthropic")
    messages = [User("Go."), Assistant([foreign, own, Text(text="Fetching.")]), User("Ok.")]
    kwargs = encode(messages, "mistral:magistral-medium-latest").kwargs
    validate(kwargs)
    assert kwargs["messages"][1] == {
        "role": "assistant",
        "content": [
            {
                "type": "thinking",
                "thinking": [{"type": "text", "text": "Look it up."}],
                "signature": "sig-1",
            },
            {"type": "text", "text": "Fetching."},
        ],
    }
    only_foreign = encode([User("Go."), Assistant([foreign, Text(text="Hi.")])], MODEL).kwargs
    assert only_foreign["messages"][1] == {"role": "assistant", "content": "Hi."}
    nothing_left = encode([User("Go."), Assistant([foreign]), User("Well?")], MODEL).kwargs
    assert [m["role"] for m in nothing_left["messages"]] == ["user", "user"]


def test_a_decoded_mistral_response_goes_back_exactly_as_it_came() -> None:
    message = {
        "role": "assistant",
        "content": [
            {"type": "thinking", "thinking": [{"type": "text", "text": "Need the file."}]},
            {"type": "text", "text": "Fetching."},
        ],
        "tool_calls": [
            {
                "id": "D681PevKs",
                "type": "function",
                "function": {"name": "fetch", "arguments": '{"n": 1}'},
            }
        ],
    }
    response = {"choices": [{"index": 0, "message": message, "finish_reason": "tool_calls"}]}
    model = "mistral:magistral-medium-latest"
    history = [User("Go."), decode(response, model), ToolResult.of("D681PevKs", "fetch", "done")]
    kwargs = encode(history, model).kwargs
    validate(kwargs)
    assert kwargs["messages"][1] == message


# --- what only a capabilities override asks for -----------------------------------------------


def override(types: list[str], tool_result: str, sources: list[str]) -> dict[str, Any]:
    cell = {"types": types, "tool_result": tool_result, "evidence": "override"}
    return {"media": [{**cell, "tool_sources": sources, "user_sources": sources}]}


def test_an_override_can_put_an_image_inside_the_tool_message_as_content_chunks() -> None:
    photo = File.from_url("https://example.com/photo.png", name="photo.png")
    messages = [*turn(fetch(1)), ToolResult.of("abcdefgh1", "fetch", ["Here:", photo])]
    kwargs = encode(messages, MODEL, capabilities=override(["image/png"], "native", ["url"])).kwargs
    validate(kwargs)
    chunks = [
        {"type": "text", "text": "Here:"},
        {"type": "image_url", "image_url": "https://example.com/photo.png"},
    ]
    assert kwargs["messages"][-1] == {**tool(1, ""), "content": chunks}


def test_an_override_can_send_audio_as_input_audio_and_files_by_mistral_file_id() -> None:
    tone = File.from_bytes(example_bytes("tone.wav"), name="tone.wav")
    uploaded = File.from_provider_file("mistral", "f-123", "application/pdf", name="q3.pdf")
    audio = override(["audio/wav"], "fallback", ["bytes"])["media"]
    pdf = override(["application/pdf"], "fallback", ["file_id"])["media"]
    caps = {"media": [*audio, *pdf]}
    kwargs = encode([User([tone, uploaded])], MODEL, capabilities=caps).kwargs
    validate(kwargs)
    assert kwargs["messages"] == [
        {
            "role": "user",
            "content": [
                {"type": "input_audio", "input_audio": b64_of("tone.wav")},
                {"type": "file", "file_id": "f-123"},
            ],
        }
    ]


def test_an_override_routing_video_here_is_refused_with_the_file_named() -> None:
    clip = File.from_bytes(example_bytes("clip.mp4"), name="clip.mp4")
    caps = override(["video/mp4"], "fallback", ["bytes"])
    with pytest.raises(CapabilityError, match="clip.mp4"):
        encode([User([clip])], MODEL, capabilities=caps)


@pytest.mark.parametrize(
    "caps",
    [{"followup": "merge"}, override(["image/png"], "sibling", ["bytes"])],
    ids=["merge", "sibling"],
)
def test_an_override_sharing_the_tool_results_message_is_refused(caps: dict[str, Any]) -> None:
    photo = File.from_bytes(example_bytes("photo.png"), name="photo.png")
    messages = [*turn(fetch(1)), ToolResult.of("abcdefgh1", "fetch", photo)]
    with pytest.raises(CapabilityError, match=r"photo\.png.*turn"):
        encode(messages, "mistral:pixtral-large-latest", capabilities=caps)
