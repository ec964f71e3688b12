"""The Cohere v2 encoder: every matrix case as the table says, payloads strict against cohere
7.3.1's models, text documents as native document content, exact payloads for a curated set."""

from __future__ import annotations

from typing import Any

import pytest

from toolwire.content import File, Text, Thinking, ToolCall

# From their modules: the package attributes ``toolwire.request`` / ``toolwire.decoders`` turn into
# the submodules once those are imported.
from toolwire.decoders import decode
from toolwire.errors import CapabilityError, UnsupportedContentError
from toolwire.messages import Assistant, ErrorJsonOutput, ErrorTextOutput, System, ToolResult, User
from toolwire.request import encode

from .conftest import check_against_table, check_text_mode, data_url, example_bytes
from .strict_cohere import validate

TARGETS = ("cohere:command-a-vision-07-2025", "cohere:command-r-plus")
MODEL = "cohere:command-a-vision-07-2025"
NOTES = example_bytes("notes.md").decode()
HEAD = [
    {"role": "system", "content": "Be brief."},
    {"role": "user", "content": [{"type": "text", "text": "Go."}]},
]


def turn(*numbers: int) -> list[Any]:
    calls = [ToolCall(id=f"call_{n}", name="fetch", arguments={"n": n}) for n in numbers]
    return [System("Be brief."), User("Go."), Assistant([Text(text="On it."), *calls])]


def assistant_with_calls(*numbers: int) -> dict[str, Any]:
    return {
        "role": "assistant",
        "content": [{"type": "text", "text": "On it."}],
        "tool_calls": [
            {
                "id": f"call_{n}",
                "type": "function",
                "function": {"name": "fetch", "arguments": f'{{"n": {n}}}'},
            }
            for n in numbers
        ],
    }


def tool(n: int, *items: dict[str, Any]) -> dict[str, Any]:
    return {"role": "tool", "tool_call_id": f"call_{n}", "content": list(items)}


def text(value: str) -> dict[str, Any]:
    return {"type": "text", "text": value}


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


# --- the validator can fail -------------------------------------------------------------------


@pytest.mark.parametrize(
    "bad",
    [
        [{"role": "user", "content": "hi", "name": "me"}],  # unknown key on a message
        [{"role": "user", "content": [{"type": "text", "text": "hi", "cache": True}]}],  # nested
        [
            {
                "role": "user",
                "content": [{"type": "image_url", "image_url": {"url": "x", "size": 1}}],
            }
        ],
        [
            {"role": "user", "content": [{"type": "document", "document": {"data": {}}}]}
        ],  # wrong item
        [
            {
                "role": "tool",
                "tool_call_id": "c",
                "content": [{"type": "image_url", "image_url": {"url": "x"}}],
            }
        ],
        [{"role": "user", "content": [7]}],
        [{"role": "critic", "content": "hi"}],
        [{"role": "user", "content": "hi"}, {"role": "tool", "tool_call_id": "c", "content": "r"}],
    ],
)
def test_the_validator_rejects_what_cohere_would_pass_on_or_refuse(bad: list[Any]) -> None:
    with pytest.raises(ValueError):
        validate({"messages": bad})


def test_the_validator_rejects_an_unknown_parameter() -> None:
    with pytest.raises(ValueError, match="system"):
        validate({"messages": [{"role": "user", "content": "hi"}], "system": "x"})


# --- exact payloads ---------------------------------------------------------------------------


def test_a_text_document_goes_inside_the_tool_result_as_a_cohere_document() -> None:
    notes = File.from_bytes(example_bytes("notes.md"), name="notes.md")
    messages = [*turn(1), ToolResult.of("call_1", "fetch", ["Here:", notes, {"pages": 3}, [1, 2]])]
    request = encode(messages, MODEL)
    validate(request.kwargs)
    assert [d.mode for d in request.decisions] == ["native"]
    assert request.kwargs == {
        "messages": [
            *HEAD,
            assistant_with_calls(1),
            tool(
                1,
                text("Here:"),
                {
                    "type": "document",
                    "document": {"data": {"title": "notes.md", "text": NOTES}, "id": "notes.md"},
                },
                {"type": "document", "document": {"data": {"pages": 3}}},
                text("[1,2]"),
            ),
        ]
    }


def test_images_go_to_a_user_message_right_after_the_tool_messages() -> None:
    photo = File.from_bytes(example_bytes("photo.png"), name="photo.png")
    remote = File.from_url("https://example.com/chart.png", name="chart.png")
    messages = [
        *turn(1, 2),
        ToolResult.of("call_1", "fetch", photo),
        ToolResult.of("call_2", "fetch", remote),
        User("Compare them."),
    ]
    kwargs = encode(messages, MODEL).kwargs
    validate(kwargs)
    assert kwargs["messages"][2:] == [
        assistant_with_calls(1, 2),
        tool(1, text("See file photo.png.")),
        tool(2, text("See file chart.png.")),
        {
            "role": "user",
            "content": [
                text("This is file photo.png:"),
                {"type": "image_url", "image_url": {"url": data_url("photo.png", "image/png")}},
                text("This is file chart.png:"),
                {"type": "image_url", "image_url": {"url": "https://example.com/chart.png"}},
                text("Compare them."),
            ],
        },
    ]


def test_a_text_document_in_a_user_message_is_its_decoded_text() -> None:
    notes = File.from_bytes(example_bytes("notes.md"), name="notes.md")
    kwargs = encode([User([Text(text="Read this:"), notes])], MODEL).kwargs
    validate(kwargs)
    assert kwargs == {"messages": [{"role": "user", "content": [text("Read this:"), text(NOTES)]}]}


def test_a_pdf_has_no_route_and_the_error_names_it() -> None:
    report = File.from_bytes(example_bytes("report.pdf"), name="report.pdf")
    with pytest.raises(UnsupportedContentError, match="report.pdf") as info:
        encode([*turn(1), ToolResult.of("call_1", "fetch", report)], MODEL)
    assert [f.identifier for f in info.value.files] == ["report.pdf"]


def test_error_results_say_error_first_because_cohere_has_no_error_flag() -> None:
    failed = ToolResult(call_id="call_1", name="fetch", output=ErrorTextOutput(value="not found"))
    detailed = ToolResult(
        call_id="call_2", name="fetch", output=ErrorJsonOutput(value={"code": 404})
    )
    kwargs = encode([*turn(1, 2), failed, detailed], MODEL).kwargs
    validate(kwargs)
    assert kwargs["messages"][-2:] == [
        tool(1, text("Error: not found")),
        tool(2, text("Error:"), {"type": "document", "document": {"data": {"code": 404}}}),
    ]


def test_cohere_thinking_goes_back_as_tool_plan_and_thinking_and_other_thinking_is_dropped() -> (
    None
):
    plan = Thinking(text="I will fetch it.", provider="cohere")
    more = Thinking(text="Then read it.", provider="cohere")
    foreign = Thinking(text="Hmm.", signature="abc", provider="anthropic")
    call = ToolCall(id="call_1", name="fetch", arguments={})
    messages = [
        User("Go."),
        Assistant([foreign, plan, more, call]),
        ToolResult.of("call_1", "fetch", "ok"),
    ]
    kwargs = encode(messages, MODEL).kwargs
    validate(kwargs)
    assert kwargs["messages"][1] == {
        "role": "assistant",
        "content": [{"type": "thinking", "thinking": "Then read it."}],
        "tool_plan": "I will fetch it.",
        "tool_calls": [
            {"id": "call_1", "type": "function", "function": {"name": "fetch", "arguments": "{}"}}
        ],
    }
    without_calls = encode(
        [User("Go."), Assistant([foreign, more, Text(text="Hi.")])], MODEL
    ).kwargs
    assert without_calls["messages"][1] == {
        "role": "assistant",
        "content": [{"type": "thinking", "thinking": "Then read it."}, text("Hi.")],
    }
    nothing_left = encode([User("Go."), Assistant([foreign]), User("Well?")], MODEL).kwargs
    assert [m["role"] for m in nothing_left["messages"]] == ["user", "user"]


def test_a_decoded_cohere_response_goes_back_exactly_as_it_came() -> None:
    message = {
        "role": "assistant",
        "tool_plan": "I will fetch the file.",
        "tool_calls": [
            {
                "id": "fetch_abc123",
                "type": "function",
                "function": {"name": "fetch", "arguments": '{"n": 1}'},
            }
        ],
    }
    response = {"id": "r1", "finish_reason": "TOOL_CALL", "message": message}
    history = [User("Go."), decode(response, MODEL), ToolResult.of("fetch_abc123", "fetch", "done")]
    kwargs = encode(history, MODEL).kwargs
    validate(kwargs)
    assert kwargs["messages"][1] == message


# --- what only a capabilities override asks for -----------------------------------------------


def override(types: list[str], tool_result: str, **fields: Any) -> dict[str, Any]:
    cell = {"types": types, "tool_result": tool_result, "evidence": "override"}
    return {"media": [{**cell, "tool_sources": ["bytes"], "user_sources": ["bytes"]}], **fields}


@pytest.mark.parametrize(
    ("caps", "name", "where"),
    [
        (override(["application/pdf"], "fallback"), "report.pdf", "a user message"),
        (override(["image/png"], "native"), "photo.png", "a tool result"),
    ],
)
def test_an_override_routing_a_file_where_cohere_has_no_content_type_is_refused(
    caps: dict[str, Any], name: str, where: str
) -> None:
    file = File.from_bytes(example_bytes(name), name=name)
    with pytest.raises(CapabilityError, match=f"{name}.*{where}"):
        encode([*turn(1), ToolResult.of("call_1", "fetch", file)], MODEL, capabilities=caps)


def test_an_override_merging_files_into_the_tool_turn_puts_them_right_after_the_tool_messages() -> (
    None
):
    photo = File.from_bytes(example_bytes("photo.png"), name="photo.png")
    messages = [*turn(1), ToolResult.of("call_1", "fetch", photo)]
    merged = encode(messages, MODEL, capabilities={"followup": "merge"}).kwargs
    validate(merged)
    assert merged == encode(messages, MODEL).kwargs
    assert [m["role"] for m in merged["messages"]] == [
        "system",
        "user",
        "assistant",
        "tool",
        "user",
    ]
