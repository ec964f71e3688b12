"""The Gemini encoder (targets google and google-vertex): every matrix case as the table says and
strict against google-genai 3.4, Gemini 2.x vs 3.x nesting, Vertex vs Gemini API file URIs,
function-response shapes, thought signatures, exact payloads for a curated set."""

from __future__ import annotations

from typing import Any

import pydantic
import pytest
from google.genai import types

from toolwire.content import File, Text, Thinking, ToolCall
from toolwire.decoders import decode
from toolwire.errors import CapabilityError, ConversationError
from toolwire.messages import Assistant, ErrorJsonOutput, System, ToolResult, User
from toolwire.providers.google import SKIP_SIGNATURE
from toolwire.request import encode

from . import strict_google
from ._media_google_bedrock import SOURCES, check_case, check_text
from .conftest import example_bytes

TARGETS = (
    "google:gemini-3-pro-preview",
    "google:gemini-3.1-pro",
    "google:gemini-2.5-flash",
    "google-vertex:gemini-3-pro-preview",
    "google-vertex:gemini-2.5-pro",
)
GEMINI_3 = "google:gemini-3-pro-preview"
GEMINI_2 = "google:gemini-2.5-flash"
VERTEX_3 = "google-vertex:gemini-3-pro-preview"
PHOTO = example_bytes("photo.png")
PDF = example_bytes("report.pdf")


def validator(target: str) -> Any:
    return lambda kwargs: strict_google.validate(kwargs, target)


def encoded(messages: list[Any], target: str, **options: Any) -> dict[str, Any]:
    kwargs = encode(messages, target, **options).kwargs
    strict_google.validate(kwargs, target)
    return kwargs


def fetch_call(*numbers: int) -> Assistant:
    calls = [ToolCall(id=f"call_{n}", name="fetch", arguments={"n": n}) for n in numbers]
    return Assistant([Text(text="Fetching."), *calls])


def turn(*results: ToolResult) -> list[Any]:
    numbers = [int(r.call_id.removeprefix("call_")) for r in results]
    return [System("Be brief."), User("Go."), fetch_call(*numbers), *results]


def model_content(*numbers: int, signed: bool = True) -> dict[str, Any]:
    calls: list[dict[str, Any]] = [
        {"function_call": {"id": f"call_{n}", "name": "fetch", "args": {"n": n}}} for n in numbers
    ]
    if signed:
        calls[0]["thought_signature"] = SKIP_SIGNATURE
    return {"role": "model", "parts": [{"text": "Fetching."}, *calls]}


HEAD = [{"role": "user", "parts": [{"text": "Go."}]}]
CONFIG = {"system_instruction": "Be brief."}


def response(n: int, value: Any, key: str = "output", **extra: Any) -> dict[str, Any]:
    body = {"id": f"call_{n}", "name": "fetch", "response": {key: value}, **extra}
    return {"function_response": body}


def photo(name: str = "photo.png") -> File:
    return File.from_bytes(PHOTO, name=name)


# --- the matrix -------------------------------------------------------------------------------


@pytest.mark.parametrize("source", SOURCES)
@pytest.mark.parametrize("target", TARGETS)
def test_each_matrix_case_goes_as_the_table_says_and_validates_strictly(
    target: str, kind: str, source: str, style: str
) -> None:
    check_case(target, kind, source, style, validator(target))


@pytest.mark.parametrize("target", TARGETS)
def test_https_files_are_downloaded_only_when_fetch_urls_allows_it(
    target: str, kind: str, style: str
) -> None:
    check_case(target, kind, "url", style, validator(target), fetching=True)


@pytest.mark.parametrize("source", SOURCES)
@pytest.mark.parametrize("target", TARGETS)
def test_each_matrix_case_encodes_with_text_fallbacks_for_what_has_no_route(
    target: str, kind: str, source: str, style: str
) -> None:
    check_text(target, kind, source, style, validator(target))


@pytest.mark.parametrize(
    ("model", "nests"),
    [
        ("gemini-3-pro-preview", True),
        ("gemini-3.1-pro", True),
        ("gemini-3.5-flash", True),
        ("gemini-2.5-flash", False),
        ("gemini-2.0-flash", False),
    ],
)
@pytest.mark.parametrize("provider", ["google", "google-vertex"])
def test_only_gemini_3_and_later_nest_files_in_function_responses(
    provider: str, model: str, nests: bool
) -> None:
    target = f"{provider}:{model}"
    request = encode(turn(ToolResult.of("call_1", "fetch", photo())), target)
    strict_google.validate(request.kwargs, target)
    assert request.decisions[0].mode == ("native" if nests else "fallback")
    function_response = request.kwargs["contents"][2]["parts"][0]["function_response"]
    assert ("parts" in function_response) is nests


# --- exact payloads ---------------------------------------------------------------------------


def test_gemini_3_nests_the_image_bytes_in_the_function_response() -> None:
    result = ToolResult.of("call_1", "fetch", ["Here it is:", photo(), {"pages": 3}])
    assert encoded(turn(result), GEMINI_3) == {
        "contents": [
            *HEAD,
            model_content(1),
            {
                "role": "user",
                "parts": [
                    response(
                        1,
                        ["Here it is:", "See file photo.png.", {"pages": 3}],
                        parts=[{"inline_data": {"mime_type": "image/png", "data": PHOTO}}],
                    )
                ],
            },
        ],
        "config": CONFIG,
    }


def test_gemini_2_sends_files_in_a_separate_user_content_after_all_function_responses() -> None:
    results = [
        ToolResult.of("call_1", "fetch", photo()),
        ToolResult.of("call_2", "fetch", ["Second:", File.from_bytes(PDF, name="report.pdf")]),
    ]
    assert encoded(turn(*results), GEMINI_2)["contents"][1:] == [
        model_content(1, 2, signed=False),
        {
            "role": "user",
            "parts": [
                response(1, "See file photo.png."),
                response(2, "Second:\n\nSee file report.pdf."),
            ],
        },
        {
            "role": "user",
            "parts": [
                {"text": "This is file photo.png:"},
                {"inline_data": {"mime_type": "image/png", "data": PHOTO}},
                {"text": "This is file report.pdf:"},
                {"inline_data": {"mime_type": "application/pdf", "data": PDF}},
            ],
        },
    ]


def test_vertex_gemini_3_nests_cloud_storage_and_https_files_as_file_data() -> None:
    results = [
        ToolResult.of("call_1", "fetch", File.from_url("gs://bucket/photo.png", name="photo.png")),
        ToolResult.of(
            "call_2", "fetch", File.from_url("https://example.com/report.pdf", name="report.pdf")
        ),
    ]
    contents = encoded(turn(*results), VERTEX_3)["contents"]
    assert contents[2] == {
        "role": "user",
        "parts": [
            response(
                1,
                "See file photo.png.",
                parts=[
                    {"file_data": {"file_uri": "gs://bucket/photo.png", "mime_type": "image/png"}}
                ],
            ),
            response(
                2,
                "See file report.pdf.",
                parts=[
                    {
                        "file_data": {
                            "file_uri": "https://example.com/report.pdf",
                            "mime_type": "application/pdf",
                        }
                    }
                ],
            ),
        ],
    }
    assert len(contents) == 3


def test_gemini_api_file_ids_are_never_nested_but_sent_as_file_data_in_a_user_content() -> None:
    uploaded = File.from_provider_file("google", "files/abc123", "image/png", name="scan.png")
    contents = encoded(turn(ToolResult.of("call_1", "fetch", uploaded)), GEMINI_3)["contents"]
    assert contents[2:] == [
        {"role": "user", "parts": [response(1, "See file scan.png.")]},
        {
            "role": "user",
            "parts": [
                {"text": "This is file scan.png:"},
                {
                    "file_data": {
                        "file_uri": "https://generativelanguage.googleapis.com/v1beta/files/abc123",
                        "mime_type": "image/png",
                    }
                },
            ],
        },
    ]


def test_text_plain_is_nested_on_gemini_3_and_other_text_goes_inline_as_the_table_says() -> None:
    plain = File.from_bytes(b"plain words", "text/plain", name="a.txt")
    notes = File.from_bytes(example_bytes("notes.md"), name="notes.md")
    result = ToolResult.of("call_1", "fetch", [plain, notes])
    contents = encoded(turn(result), GEMINI_3)["contents"]
    assert contents[2:] == [
        {
            "role": "user",
            "parts": [
                response(
                    1,
                    "See file a.txt.\n\nSee file notes.md.",
                    parts=[{"inline_data": {"mime_type": "text/plain", "data": b"plain words"}}],
                )
            ],
        },
        {
            "role": "user",
            "parts": [
                {"text": "This is file notes.md:"},
                # the cell: "text types as inline_data or file_data in a user Content"
                {"inline_data": {"mime_type": "text/markdown", "data": example_bytes("notes.md")}},
            ],
        },
    ]


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("done", {"output": "done"}),
        ({"pages": 3}, {"output": {"pages": 3}}),
        ([1, 2], {"output": [1, 2]}),
        (
            ["a", File.from_bytes(b"hi", "text/plain", name="b.txt")],
            {"output": "a\n\nSee file b.txt."},
        ),
        (["a", {"k": 1}], {"output": ["a", {"k": 1}]}),
        (ValueError("boom"), {"error": "ValueError: boom"}),
        (ErrorJsonOutput(value={"code": 404}), {"error": {"code": 404}}),
        ("", {"output": "(no output)"}),
    ],
    ids=["text", "json", "json-list", "texts", "text-and-json", "error", "error-json", "empty"],
)
def test_function_responses_say_output_or_error(value: Any, expected: dict[str, Any]) -> None:
    contents = encoded(turn(ToolResult.of("call_1", "fetch", value)), GEMINI_2)["contents"]
    assert contents[2]["parts"][0]["function_response"]["response"] == expected


def test_a_user_message_after_a_tool_turn_is_its_own_content_with_pending_files() -> None:
    messages = [*turn(ToolResult.of("call_1", "fetch", photo())), User("Describe it.")]
    assert encoded(messages, GEMINI_2)["contents"][2:] == [
        {"role": "user", "parts": [response(1, "See file photo.png.")]},
        {
            "role": "user",
            "parts": [
                {"text": "This is file photo.png:"},
                {"inline_data": {"mime_type": "image/png", "data": PHOTO}},
                {"text": "Describe it."},
            ],
        },
    ]


def test_parts_merged_into_a_tool_turn_by_an_override_still_get_their_own_content() -> None:
    messages = [*turn(ToolResult.of("call_1", "fetch", photo())), User("Describe it.")]
    caps = {"followup": "merge", "user_after_tool": "merge"}
    contents = encoded(messages, GEMINI_2, capabilities=caps)["contents"]
    assert [len(c["parts"]) for c in contents[2:]] == [1, 3]
    assert "function_response" in contents[2]["parts"][0]


def test_without_system_text_there_is_no_config() -> None:
    kwargs = encoded([User("Hi.")], GEMINI_3)
    assert kwargs == {"contents": [{"role": "user", "parts": [{"text": "Hi."}]}]}


# --- thought signatures -----------------------------------------------------------------------


def gemini_response(parts: list[dict[str, Any]]) -> types.GenerateContentResponse:
    content = {"role": "model", "parts": parts}
    return types.GenerateContentResponse.model_validate({"candidates": [{"content": content}]})


def test_a_decoded_gemini_turn_goes_back_exactly_as_it_came() -> None:
    parts = [
        {"text": "Need the file.", "thought": True, "thought_signature": b"sig-thought"},
        {
            "function_call": {"id": "fc1", "name": "fetch", "args": {"n": 1}},
            "thought_signature": b"sig-call",
        },
        {"function_call": {"id": "fc2", "name": "fetch", "args": {"n": 2}}},
        {"text": "", "thought_signature": b"sig-end"},
    ]
    for target in (GEMINI_3, VERTEX_3, GEMINI_2):
        history = [
            User("Go."),
            decode(gemini_response(parts), target),
            ToolResult.of("fc1", "fetch", "one"),
            ToolResult.of("fc2", "fetch", "two"),
        ]
        assert encoded(history, target)["contents"][1] == {"role": "model", "parts": parts}


def test_a_signature_on_a_text_part_goes_back_on_that_text() -> None:
    parts = [{"text": "Hello.", "thought_signature": b"sig-text"}, {"text": "More."}]
    history = [User("Hi."), decode(gemini_response(parts), GEMINI_3), User("Go on.")]
    assert encoded(history, GEMINI_3)["contents"][1] == {"role": "model", "parts": parts}


def test_history_without_signatures_gets_the_documented_placeholder_on_gemini_3_only() -> None:
    messages = turn(
        ToolResult.of("call_1", "fetch", "one"), ToolResult.of("call_2", "fetch", "two")
    )
    for target in (GEMINI_3, VERTEX_3):
        kwargs = encoded(messages, target)
        assert kwargs["contents"][1] == model_content(1, 2)
        body = strict_google.wire_body(kwargs, target)
        assert (
            body["contents"][1]["parts"][1]["thoughtSignature"]
            == "skip_thought_signature_validator"
        )
        assert "thoughtSignature" not in body["contents"][1]["parts"][2]
    assert encoded(messages, GEMINI_2)["contents"][1] == model_content(1, 2, signed=False)


def test_the_thought_signatures_column_decides_where_the_placeholder_goes() -> None:
    messages = turn(ToolResult.of("call_1", "fetch", "one"))
    required = encoded(messages, GEMINI_2, capabilities={"thought_signatures": "required"})
    assert required["contents"][1] == model_content(1)
    optional = encode(messages, GEMINI_3, capabilities={"thought_signatures": "optional"})
    assert optional.kwargs["contents"][1] == model_content(1, signed=False)  # Gemini 3 rejects it
    with pytest.raises(CapabilityError, match="optional, required"):
        encode(messages, GEMINI_3, capabilities={"thought_signatures": "always"})


def test_signatures_from_another_issuer_are_replaced_and_foreign_thinking_is_dropped() -> None:
    vertex_call = ToolCall(
        id="call_1", name="fetch", arguments={"n": 1}, signature="c2ln", provider="google-vertex"
    )
    thinking = [
        Thinking(text="Hmm.", signature="abc", provider="anthropic"),
        Thinking(text="Unsigned.", provider="google"),
        Thinking(text="Other issuer.", signature="c2ln", provider="google-vertex"),
    ]
    messages = [
        User("Go."),
        Assistant([*thinking, vertex_call]),
        ToolResult.of("call_1", "fetch", "x"),
    ]
    contents = encoded(messages, GEMINI_3)["contents"]
    assert contents[1] == {
        "role": "model",
        "parts": [
            {
                "function_call": {"id": "call_1", "name": "fetch", "args": {"n": 1}},
                "thought_signature": SKIP_SIGNATURE,
            }
        ],
    }


def test_an_assistant_message_with_nothing_gemini_can_verify_is_left_out() -> None:
    messages = [User("Hi."), Assistant([Thinking(text="x", signature="s", provider="openai")])]
    assert encoded([*messages, User("Again.")], GEMINI_3)["contents"] == [
        {"role": "user", "parts": [{"text": "Hi."}]},
        {"role": "user", "parts": [{"text": "Again."}]},
    ]


def test_a_signature_that_is_not_base64_is_refused_with_the_call_named() -> None:
    call = ToolCall(id="call_1", name="fetch", arguments={}, signature="no!", provider="google")
    messages = [User("Go."), Assistant([call]), ToolResult.of("call_1", "fetch", "x")]
    with pytest.raises(ConversationError, match="call_1"):
        encode(messages, GEMINI_3)


# --- the validator can fail -------------------------------------------------------------------

GOOD_CALL = {"role": "model", "parts": [model_content(1)["parts"][1]]}
GOOD_ANSWER = {"role": "user", "parts": [response(1, "x")]}
NESTED = {"inline_data": {"mime_type": "image/png", "data": b"x"}}
GS_FILE = {"file_data": {"file_uri": "gs://b/x.png", "mime_type": "image/png"}}
AUDIO = {"inline_data": {"mime_type": "audio/wav", "data": b"x"}}
STREAMED_CALL = {
    "role": "model",
    "parts": [
        {
            "function_call": {"name": "f", "args": {}, "will_continue": True},
            "thought_signature": b"s",
        }
    ],
}

STREAMED_ANSWER = {
    "role": "user",
    "parts": [{"function_response": {"name": "f", "response": {"output": 1}}}],
}


def contents(*items: dict[str, Any]) -> dict[str, Any]:
    return {"contents": [*HEAD, *items]}


def said(*parts: dict[str, Any]) -> dict[str, Any]:
    """A user content with these parts after HEAD."""
    return contents({"role": "user", "parts": list(parts)})


def answered(*parts: dict[str, Any]) -> dict[str, Any]:
    """GOOD_CALL answered by a user content with these parts."""
    return contents(GOOD_CALL, {"role": "user", "parts": list(parts)})


def renamed(function_response: dict[str, Any]) -> dict[str, Any]:
    return {"function_response": {**function_response["function_response"], "name": "other"}}


BAD: list[tuple[str, str, dict[str, Any]]] = [
    ("unknown key", GEMINI_3, said({"text": "x", "cache": 1})),
    ("camelCase key", GEMINI_3, said({"inlineData": NESTED["inline_data"]})),
    ("base64 text as data", GEMINI_3, said({"inline_data": {"mime_type": "image/png", "data": "eA=="}})),
    ("unknown config key", GEMINI_3, {**contents(), "config": {"system_instructions": "x"}}),
    ("unknown parameter", GEMINI_3, {**contents(), "system": "x"}),
    ("role", GEMINI_3, contents({"role": "assistant", "parts": [{"text": "x"}]})),
    ("unanswered call", GEMINI_3, contents(GOOD_CALL)),
    ("mixed response content", GEMINI_3, answered(response(1, "x"), {"text": "x"})),
    ("wrong response name", GEMINI_3, answered(renamed(response(1, "x")))),
    ("response key", GEMINI_3, answered(response(1, "x", key="result"))),
    ("no signature", GEMINI_3, contents(model_content(1, signed=False), GOOD_ANSWER)),
    ("parts on 2.x", GEMINI_2, answered(response(1, "x", parts=[NESTED]))),
    ("file uri nested on the API", GEMINI_3, answered(response(1, "x", parts=[GS_FILE]))),
    ("audio nested", VERTEX_3, answered(response(1, "x", parts=[AUDIO]))),
    ("vertex-only field", GEMINI_3, contents(STREAMED_CALL, STREAMED_ANSWER)),
]  # fmt: skip


@pytest.mark.parametrize(("target", "kwargs"), [b[1:] for b in BAD], ids=[b[0] for b in BAD])
def test_the_validator_rejects_what_gemini_or_google_genai_would_reject(
    target: str, kwargs: dict[str, Any]
) -> None:
    with pytest.raises(ValueError):
        strict_google.validate(kwargs, target)


def test_the_validator_accepts_the_shapes_the_bad_cases_break() -> None:
    strict_google.validate({**contents(GOOD_CALL, GOOD_ANSWER), "config": CONFIG}, GEMINI_3)
    nested = contents(GOOD_CALL, {"role": "user", "parts": [response(1, "x", parts=[NESTED])]})
    strict_google.validate(nested, VERTEX_3)
    unstreamed = {**STREAMED_CALL["parts"][0], "function_call": {"name": "f", "args": {}}}
    streamed = contents({"role": "model", "parts": [unstreamed]}, STREAMED_ANSWER)
    strict_google.validate(streamed, GEMINI_3)


def test_google_genai_itself_forbids_unknown_fields_at_every_depth() -> None:
    bad = {"role": "user", "parts": [{"function_response": {"name": "f", "resp": {}}}]}
    with pytest.raises(pydantic.ValidationError, match="extra_forbidden"):
        types.Content.model_validate(bad)


@pytest.mark.parametrize(
    "after", [{"text": "Hi."}, {"function_call": {"id": "fc1", "name": "fetch", "args": {}}}]
)
def test_a_signature_on_an_empty_part_of_its_own_goes_back_on_its_own(
    after: dict[str, Any],
) -> None:
    """Gemini may send a signature on an empty text part; the plan leaves empty text out on
    every wire but this one's (Wire.signature_on_next_part), so the signature is not moved
    onto the part after it (the audit's D6)."""
    parts = [{"text": "", "thought_signature": b"sig-alone"}, after]
    history = [User("Hi."), decode(gemini_response(parts), GEMINI_3)]
    if "function_call" in after:
        history.append(ToolResult.of("fc1", "fetch", "done"))
    else:
        history.append(User("Go on."))
    assert encoded(history, GEMINI_3)["contents"][1]["parts"][0] == parts[0]
