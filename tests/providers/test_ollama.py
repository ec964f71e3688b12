"""The Ollama encoder: every matrix case as the table says, payloads identical to the body
ollama 0.6.3 would send, images on tool messages for vision models only (unless overridden),
exact payloads for a curated set."""

from __future__ import annotations

from typing import Any

import pytest

from toolwire.content import File, Text, Thinking, ToolCall

# From their modules: the package attributes ``toolwire.request`` / ``toolwire.decoders`` turn into
# the submodules once those are imported.
from toolwire.decoders import decode
from toolwire.errors import CapabilityError, UnsupportedContentError
from toolwire.messages import Assistant, ErrorTextOutput, System, ToolResult, User
from toolwire.request import encode

from .conftest import b64_of, check_against_table, check_text_mode, example_bytes
from .strict_ollama import validate

TARGETS = ("ollama:llama3.2-vision", "ollama:qwen2.5vl:7b", "ollama:llama3.1:8b")
VISION = "ollama:llama3.2-vision"
PLAIN = "ollama:llama3.1:8b"
NOTES = example_bytes("notes.md").decode()
HEAD = [{"role": "system", "content": "Be brief."}, {"role": "user", "content": "Go."}]
#: A user override that lets a model the table does not know as a vision model take PNGs.
VISION_OVERRIDE = {
    "models": [
        {
            "match": ["mymodel*"],
            "media": [
                {
                    "types": ["image/png"],
                    "tool_result": "native",
                    "tool_sources": ["bytes"],
                    "user_sources": ["bytes"],
                    "evidence": "tested by hand on mymodel",
                }
            ],
        }
    ]
}


def turn(*numbers: int) -> list[Any]:
    calls = [ToolCall(id=f"call_{n}", name=f"fetch{n}", arguments={"n": n}) for n in numbers]
    return [System("Be brief."), User("Go."), Assistant([Text(text="On it."), *calls])]


def assistant_with_calls(*numbers: int) -> dict[str, Any]:
    calls = [{"function": {"name": f"fetch{n}", "arguments": {"n": n}}} for n in numbers]
    return {"role": "assistant", "content": "On it.", "tool_calls": calls}


def photo() -> File:
    return File.from_bytes(example_bytes("photo.png"), name="photo.png")


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
        [{"role": "user", "content": "hi", "name": "me"}],  # unknown key: the client drops it
        [{"role": "user", "content": ""}],  # an empty field the client leaves out
        [{"role": "user", "content": "hi", "images": ["not base64!"]}],
        [{"role": "user", "content": "hi", "images": [b"\x89PNG"]}],  # wrong item type
        [{"role": "assistant", "tool_calls": [{"function": {"name": "f", "arguments": "{}"}}]}],
        [{"role": "critic", "content": "hi"}],
        [{"role": "user", "content": "hi"}, {"role": "tool", "tool_name": "f", "content": "r"}],
    ],
)
def test_the_validator_rejects_what_the_ollama_client_would_not_send_as_given(
    bad: list[Any],
) -> None:
    with pytest.raises(ValueError):
        validate({"messages": bad})


def test_the_validator_rejects_an_unknown_parameter() -> None:
    with pytest.raises(ValueError, match="system"):
        validate({"messages": [{"role": "user", "content": "hi"}], "system": "x"})


# --- exact payloads ---------------------------------------------------------------------------


def test_a_vision_model_gets_images_on_the_tool_message_itself() -> None:
    messages = [
        *turn(1, 2),
        ToolResult.of("call_1", "fetch1", photo()),
        ToolResult.of("call_2", "fetch2", ["Chart:", photo(), {"pages": 3}]),
    ]
    request = encode(messages, VISION)
    validate(request.kwargs)
    assert [d.mode for d in request.decisions] == ["native", "native"]
    assert request.kwargs == {
        "messages": [
            *HEAD,
            assistant_with_calls(1, 2),
            {"role": "tool", "tool_name": "fetch1", "images": [b64_of("photo.png")]},
            {
                "role": "tool",
                "tool_name": "fetch2",
                "content": 'Chart:\n\n{"pages":3}',
                "images": [b64_of("photo.png")],
            },
        ]
    }


def test_a_vision_model_gets_user_images_in_the_user_message() -> None:
    kwargs = encode([User([Text(text="Look:"), photo()])], VISION).kwargs
    validate(kwargs)
    assert kwargs == {
        "messages": [{"role": "user", "content": "Look:", "images": [b64_of("photo.png")]}]
    }


def test_a_model_not_known_for_vision_refuses_images_and_names_the_file() -> None:
    with pytest.raises(UnsupportedContentError, match="photo.png") as info:
        encode([*turn(1), ToolResult.of("call_1", "fetch1", photo())], PLAIN)
    assert [f.identifier for f in info.value.files] == ["photo.png"]
    with pytest.raises(UnsupportedContentError, match="photo.png"):
        encode([User([Text(text="Look:"), photo()])], PLAIN)


def test_a_capabilities_override_lets_any_model_take_images() -> None:
    messages = [*turn(1), ToolResult.of("call_1", "fetch1", photo())]
    with pytest.raises(UnsupportedContentError):
        encode(messages, "ollama:mymodel-7b")
    request = encode(messages, "ollama:mymodel-7b", capabilities=VISION_OVERRIDE)
    validate(request.kwargs)
    assert [(d.mode, d.reason) for d in request.decisions] == [
        ("native", "inside the tool result (tested by hand on mymodel)")
    ]
    assert request.kwargs["messages"][-1] == {
        "role": "tool",
        "tool_name": "fetch1",
        "images": [b64_of("photo.png")],
    }


def test_an_image_url_is_downloaded_when_a_fetcher_is_given() -> None:
    remote = File.from_url("https://example.com/photo.png", name="photo.png")
    messages = [*turn(1), ToolResult.of("call_1", "fetch1", remote)]
    with pytest.raises(UnsupportedContentError, match="fetch_urls"):
        encode(messages, VISION)
    fetched: list[str] = []

    def fetcher(url: str) -> bytes:
        fetched.append(url)
        return example_bytes("photo.png")

    kwargs = encode(messages, VISION, fetch_urls=fetcher).kwargs
    validate(kwargs)
    assert fetched == ["https://example.com/photo.png"]
    assert kwargs["messages"][-1]["images"] == [b64_of("photo.png")]


def test_a_text_document_is_inlined_in_a_user_message_after_the_tool_messages() -> None:
    notes = File.from_bytes(example_bytes("notes.md"), name="notes.md")
    messages = [*turn(1), ToolResult.of("call_1", "fetch1", notes), User("Summarise.")]
    kwargs = encode(messages, PLAIN).kwargs
    validate(kwargs)
    assert kwargs["messages"][3:] == [
        {"role": "tool", "tool_name": "fetch1", "content": "See file notes.md."},
        {"role": "user", "content": f"This is file notes.md:\n\n{NOTES}\n\nSummarise."},
    ]


def test_an_error_result_says_error_first_because_ollama_has_no_error_flag() -> None:
    failed = ToolResult(call_id="call_1", name="fetch1", output=ErrorTextOutput(value="not found"))
    kwargs = encode([*turn(1), failed], PLAIN).kwargs
    validate(kwargs)
    assert kwargs["messages"][-1] == {
        "role": "tool",
        "tool_name": "fetch1",
        "content": "Error: not found",
    }


def test_ollama_thinking_goes_back_in_the_thinking_field_and_other_thinking_is_dropped() -> None:
    own = Thinking(text="Fetch it.", provider="ollama")
    foreign = Thinking(text="Hmm.", signature="abc", provider="anthropic")
    call = ToolCall(id="call_0", name="fetch", arguments={"n": 1})
    messages = [
        User("Go."),
        Assistant([foreign, own, call]),
        ToolResult.of("call_0", "fetch", "ok"),
    ]
    kwargs = encode(messages, "ollama:qwen3:8b").kwargs
    validate(kwargs)
    assert kwargs["messages"][1] == {
        "role": "assistant",
        "thinking": "Fetch it.",
        "tool_calls": [{"function": {"name": "fetch", "arguments": {"n": 1}}}],
    }
    assert encode([User("Go."), Assistant([foreign])], PLAIN).kwargs["messages"] == [HEAD[1]]


def test_a_decoded_ollama_response_goes_back_exactly_as_it_came() -> None:
    message = {
        "role": "assistant",
        "content": "Fetching.",
        "thinking": "The user wants the file.",
        "tool_calls": [{"function": {"name": "fetch", "arguments": {"n": 1}}}],
    }
    response = {"model": "qwen3:8b", "message": message, "done": True, "done_reason": "stop"}
    model = "ollama:qwen3:8b"
    decoded = decode(response, model)
    history = [User("Go."), decoded, ToolResult.of(decoded.tool_calls[0].id, "fetch", "done")]
    kwargs = encode(history, model).kwargs
    validate(kwargs)
    assert kwargs["messages"][1] == message


# --- what only a capabilities override asks for -----------------------------------------------


def test_an_override_routing_a_pdf_here_is_refused_with_the_file_named() -> None:
    report = File.from_bytes(example_bytes("report.pdf"), name="report.pdf")
    cell = {"types": ["application/pdf"], "tool_result": "fallback", "user_sources": ["bytes"]}
    with pytest.raises(CapabilityError, match="report.pdf"):
        encode([User([report])], PLAIN, capabilities={"media": [cell]})


def test_an_override_merging_files_into_the_tool_turn_puts_them_right_after_the_tool_messages() -> (
    None
):
    notes = File.from_bytes(example_bytes("notes.md"), name="notes.md")
    messages = [*turn(1), ToolResult.of("call_1", "fetch1", notes)]
    merged = encode(messages, PLAIN, capabilities={"followup": "merge"}).kwargs
    validate(merged)
    assert merged == encode(messages, PLAIN).kwargs
    assert [m["role"] for m in merged["messages"]] == [
        "system",
        "user",
        "assistant",
        "tool",
        "user",
    ]
