"""The Bedrock Converse encoder: every matrix case as the table says for each model family and
strict against botocore's service model, per-family layouts, document names, role order,
``status`` and ``json`` blocks, reasoning round trips, exact payloads for a curated set."""

from __future__ import annotations

import itertools
import re
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from toolwire.content import File, Text, Thinking, ToolCall
from toolwire.decoders import decode
from toolwire.errors import CapabilityError, ConversationError
from toolwire.messages import Assistant, ErrorTextOutput, System, ToolResult, User
from toolwire.plan.ids import accepted_id
from toolwire.providers.bedrock_names import DocumentNames, sanitise
from toolwire.request import encode

from . import strict_bedrock
from ._media_google_bedrock import SOURCES, build, check_case, check_text
from .conftest import KINDS, STYLES, example_bytes

CLAUDE = "bedrock:us.anthropic.claude-sonnet-4-5-20250929-v1:0"
NOVA = "bedrock:amazon.nova-pro-v1:0"
LLAMA = "bedrock:meta.llama4-maverick-17b-instruct-v1:0"
PIXTRAL = "bedrock:mistral.pixtral-large-2502-v1:0"
OTHER = "bedrock:cohere.command-r-plus-v1:0"
TARGETS = (CLAUDE, NOVA, LLAMA, PIXTRAL, OTHER)
PHOTO = example_bytes("photo.png")
PDF = example_bytes("report.pdf")
CLIP = example_bytes("clip.mp4")
NOTES = example_bytes("notes.md")


def validator(target: str) -> Any:
    return lambda kwargs: strict_bedrock.validate(kwargs, target)


def encoded(messages: list[Any], target: str, **options: Any) -> dict[str, Any]:
    kwargs = encode(messages, target, **options).kwargs
    strict_bedrock.validate(kwargs, target)
    return kwargs


def turn(*results: ToolResult) -> list[Any]:
    calls = [ToolCall(id=r.call_id, name="fetch", arguments={}) for r in results]
    return [System("Be brief."), User("Go."), Assistant([Text(text="Fetching."), *calls]), *results]


def uses(*ids: str) -> dict[str, Any]:
    calls = [{"toolUse": {"toolUseId": i, "name": "fetch", "input": {}}} for i in ids]
    return {"role": "assistant", "content": [{"text": "Fetching."}, *calls]}


HEAD = [{"role": "user", "content": [{"text": "Go."}]}]
BRIDGE = {"role": "assistant", "content": [{"text": "(continuing)"}]}


def result(call_id: str, *content: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {"toolResult": {"toolUseId": call_id, "content": list(content), **extra}}


def pdf_block(name: str = "report-pdf", data: bytes = PDF, cited: bool = False) -> dict[str, Any]:
    """A PDF document block; ``cited``: with citations on (Claude reads its pages then)."""
    block: dict[str, Any] = {"format": "pdf", "name": name, "source": {"bytes": data}}
    return {"document": {**block, "citations": {"enabled": True}} if cited else block}


PHOTO_BLOCK = {"image": {"format": "png", "source": {"bytes": PHOTO}}}


def files(*names: str) -> list[File]:
    return [File.from_bytes(example_bytes(n), name=n) for n in names]


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


def test_no_family_ever_gets_two_messages_of_one_role_in_a_row() -> None:
    checked = 0
    for target, kind, source, style in itertools.product(TARGETS, KINDS, SOURCES, STYLES):
        messages, _ = build(style, kind, source, target)
        for extra in ([], [User("And now?")]):
            kwargs = encode(messages + extra, target, on_unsupported="text").kwargs
            roles = [m["role"] for m in kwargs["messages"]]
            assert all(a != b for a, b in itertools.pairwise(roles)), roles
            checked += 1
    assert checked == len(TARGETS) * len(KINDS) * len(SOURCES) * len(STYLES) * 2


# --- per-family layouts -----------------------------------------------------------------------


def test_claude_reads_images_in_the_tool_result_and_pdfs_in_their_own_user_turn() -> None:
    photo, pdf = files("photo.png", "report.pdf")
    messages = turn(ToolResult.of("call_1", "fetch", ["Two files:", photo, pdf]))
    assert encoded(messages, CLAUDE)["messages"] == [
        *HEAD,
        uses("call_1"),
        {
            "role": "user",
            "content": [
                result(
                    "call_1", {"text": "Two files:"}, PHOTO_BLOCK, {"text": "See file report.pdf."}
                )
            ],
        },
        BRIDGE,
        {"role": "user", "content": [{"text": "This is file report.pdf:"}, pdf_block(cited=True)]},
    ]


def test_nova_gets_documents_and_videos_beside_the_tool_results_in_the_same_message() -> None:
    pdf, clip = files("report.pdf", "clip.mp4")
    messages = turn(ToolResult.of("call_1", "fetch", pdf), ToolResult.of("call_2", "fetch", clip))
    assert encoded(messages, NOVA)["messages"][1:] == [
        uses("call_1", "call_2"),
        {
            "role": "user",
            "content": [
                result("call_1", {"text": "See file report.pdf."}),
                result("call_2", {"text": "See file clip.mp4."}),
                {"text": "This is file report.pdf:"},
                pdf_block(),
                {"text": "This is file clip.mp4:"},
                {"video": {"format": "mp4", "source": {"bytes": CLIP}}},
            ],
        },
    ]


def test_mistral_reads_documents_inside_the_tool_result_with_sanitised_names() -> None:
    pdf, notes = files("report.pdf", "notes.md")
    messages = turn(ToolResult.of("call_1", "fetch", [pdf, {"pages": 3}, notes]))
    notes_block = {"document": {"format": "md", "name": "notes-md", "source": {"bytes": NOTES}}}
    assert encoded(messages, PIXTRAL)["messages"][1:] == [
        uses("call_1"),
        {
            "role": "user",
            "content": [result("call_1", pdf_block(), {"json": {"pages": 3}}, notes_block)],
        },
    ]


def test_pixtral_gets_images_in_their_own_turn_and_cloud_files_by_s3_location() -> None:
    image = File.from_url("s3://bucket/scans/photo.png", name="photo.png")
    messages = [*turn(ToolResult.of("call_1", "fetch", image)), User("What is it?")]
    s3_image = {
        "image": {"format": "png", "source": {"s3Location": {"uri": "s3://bucket/scans/photo.png"}}}
    }
    assert encoded(messages, PIXTRAL)["messages"][1:] == [
        uses("call_1"),
        {"role": "user", "content": [result("call_1", {"text": "See file photo.png."})]},
        BRIDGE,
        {
            "role": "user",
            "content": [{"text": "This is file photo.png:"}, s3_image, {"text": "What is it?"}],
        },
    ]


def test_every_fallback_message_with_a_document_also_holds_a_text_block() -> None:
    seen = 0
    for target, kind, style in itertools.product(TARGETS, KINDS, STYLES):
        messages, _ = build(style, kind, "bytes", target)
        for message in encode(messages, target, on_unsupported="text").kwargs["messages"]:
            blocks = message["content"]
            if any("document" in block for block in blocks):
                assert any("text" in block for block in blocks)
                seen += 1
    assert seen > 0


@pytest.mark.parametrize(
    ("target", "flagged"),
    [(CLAUDE, True), (NOVA, True), (LLAMA, False), (PIXTRAL, False), (OTHER, False)],
)
def test_error_results_carry_status_error_only_for_families_that_support_it(
    target: str, flagged: bool
) -> None:
    failed = ToolResult(call_id="call_1", name="fetch", output=ErrorTextOutput(value="not found"))
    block = encoded(turn(failed), target)["messages"][2]["content"][0]
    expected = result("call_1", {"text": "not found"}, **({"status": "error"} if flagged else {}))
    assert block == expected


@pytest.mark.parametrize(
    ("value", "block"),
    [
        ({"ok": True}, {"json": {"ok": True}}),
        ([1, 2], {"text": "[1,2]"}),
        (7, {"text": "7"}),
        ({"a": {"__type": "x"}}, {"text": '{"a":{"__type":"x"}}'}),
    ],
    ids=["object", "list", "number", "type-key"],
)
def test_only_json_objects_become_json_blocks(value: Any, block: dict[str, Any]) -> None:
    content = encoded(turn(ToolResult.of("call_1", "fetch", value)), LLAMA)["messages"][2][
        "content"
    ]
    assert content == [result("call_1", block)]


# --- document names ---------------------------------------------------------------------------


def test_document_names_are_unique_within_a_request_and_stable_as_it_grows() -> None:
    first = File.from_bytes(PDF, name="Q3 report_final.pdf")
    second = File.from_bytes(NOTES, name="Q3 report_final.pdf.md")
    again = File.from_bytes(PDF, name="Q3 report_final.pdf")
    history = turn(ToolResult.of("call_1", "fetch", [first, second, again]))
    names = [d["name"] for d in strict_bedrock.documents(encoded(history, LLAMA)["messages"])]
    assert names == ["Q3 report-final-pdf", "Q3 report-final-pdf-md", "Q3 report-final-pdf (2)"]
    later = [*history, Assistant("Read."), User([Text(text="One more:"), first])]
    grown = [d["name"] for d in strict_bedrock.documents(encoded(later, LLAMA)["messages"])]
    assert grown == [*names, "Q3 report-final-pdf (3)"]


@pytest.mark.parametrize(
    ("identifier", "name"),
    [
        ("photo.png", "photo-png"),
        ("résumé  final\t(v2) [draft].pdf", "resume final (v2) [draft]-pdf"),
        ("../../etc/passwd", "-etc-passwd"),
        ("报告.pdf", "-pdf"),
        ("日本", "document"),
        ("x" * 300, "x" * 200),
    ],
)
def test_names_keep_only_the_characters_bedrock_allows(identifier: str, name: str) -> None:
    assert sanitise(identifier) == name


@given(st.lists(st.text(max_size=250), min_size=1, max_size=8))
def test_any_identifiers_get_valid_distinct_names(identifiers: list[str]) -> None:
    names = DocumentNames()
    taken = [names.take(identifier) for identifier in identifiers]
    assert all(strict_bedrock.DOCUMENT_NAME.fullmatch(name) for name in taken)
    assert len(set(taken)) == len(taken)


# --- messages, reasoning, ids -----------------------------------------------------------------


def test_a_decoded_bedrock_turn_goes_back_exactly_as_it_came() -> None:
    content = [
        {"reasoningContent": {"reasoningText": {"text": "Need the file.", "signature": "sig-1"}}},
        {"reasoningContent": {"redactedContent": b"\x00opaque"}},
        {"text": "Fetching."},
        {"toolUse": {"toolUseId": "tooluse_abc", "name": "fetch", "input": {"n": 1}}},
    ]
    message = {"role": "assistant", "content": content}
    response = {"output": {"message": message}, "stopReason": "tool_use"}
    history = [User("Go."), decode(response, CLAUDE), ToolResult.of("tooluse_abc", "fetch", "ok")]
    assert encoded(history, CLAUDE)["messages"][1] == {"role": "assistant", "content": content}


def test_redacted_reasoning_that_is_not_base64_is_refused() -> None:
    broken = Thinking(
        text="", signature="not base64!", redacted=True, provider="bedrock:anthropic.claude"
    )
    with pytest.raises(ConversationError, match="redacted reasoning"):
        encode([User("Hi."), Assistant([broken, Text(text="Hello.")]), User("Go on.")], CLAUDE)


def test_foreign_thinking_is_dropped_and_messages_of_one_role_are_merged() -> None:
    foreign = Assistant([Thinking(text="Hmm.", signature="abc", provider="anthropic")])
    messages = [User("Hi."), foreign, User("Still there?"), User([Text(text="Hello?")])]
    kwargs = encoded(messages, NOVA)
    assert kwargs == {
        "messages": [
            {
                "role": "user",
                "content": [{"text": "Hi."}, {"text": "Still there?"}, {"text": "Hello?"}],
            }
        ]
    }


def test_foreign_tool_call_ids_become_stable_valid_ids_in_the_call_and_its_result() -> None:
    call = ToolCall(id="call 1/openai", name="fetch", arguments={})
    messages = [User("Go."), Assistant([call]), ToolResult.of("call 1/openai", "fetch", "done")]
    safe = accepted_id("bedrock", "call 1/openai")
    assert safe == "tooluse_5262e230008d26489349f338"  # sha256 of the original: every process
    assert accepted_id("bedrock", "tooluse_Ab-3_x") == "tooluse_Ab-3_x"  # Bedrock's own ids
    assert encoded(messages, CLAUDE)["messages"][1:] == [
        {
            "role": "assistant",
            "content": [{"toolUse": {"toolUseId": safe, "name": "fetch", "input": {}}}],
        },
        {"role": "user", "content": [result(safe, {"text": "done"})]},
    ]


def test_ids_with_dots_or_colons_are_rewritten_for_bedrock_where_claude_would_reject_them() -> None:
    # botocore takes [a-zA-Z0-9_.:-]; Claude on Bedrock (Anthropic's backend) only [a-zA-Z0-9_-].
    safe = accepted_id("bedrock", "a.b:c-d_1")
    assert safe != "a.b:c-d_1" and re.fullmatch(r"tooluse_[0-9a-f]{24}", safe)


@pytest.mark.parametrize("blank", ["\x85", " \n\t", "\u2028"])
def test_a_blank_text_in_a_tool_result_is_left_out_and_an_emptied_result_says_no_output(
    blank: str,
) -> None:
    call = ToolCall(id="call_1", name="fetch", arguments={})
    messages = [
        User("Go."),
        Assistant([call]),
        ToolResult.of("call_1", "fetch", [Text(text=blank), Text(text="ok")]),
    ]
    assert encoded(messages, NOVA)["messages"][2]["content"] == [result("call_1", {"text": "ok"})]
    messages[2] = ToolResult.of("call_1", "fetch", blank)
    expected = [result("call_1", {"text": "(no output)"})]
    assert encoded(messages, NOVA)["messages"][2]["content"] == expected


def test_a_conversation_whose_only_user_text_is_blank_is_refused_with_a_conversation_error() -> (
    None
):
    call = ToolCall(id="call_1", name="fetch", arguments={})
    messages = [User(" \x85"), Assistant([call]), ToolResult.of("call_1", "fetch", "ok")]
    with pytest.raises(ConversationError, match="needs a user message with content first"):
        encode(messages, NOVA)


def test_system_text_goes_in_system_blocks_and_is_left_out_when_there_is_none() -> None:
    assert encoded([System("Be brief."), User("Hi.")], OTHER) == {
        "messages": [{"role": "user", "content": [{"text": "Hi."}]}],
        "system": [{"text": "Be brief."}],
    }
    assert "system" not in encoded([User("Hi.")], OTHER)


# --- what only a capabilities override asks for -----------------------------------------------


def cell(types: list[str], sources: list[str]) -> dict[str, Any]:
    return {
        "types": types,
        "tool_result": "native",
        "tool_sources": sources,
        "user_sources": sources,
    }


def test_an_override_routing_a_type_with_no_bedrock_format_is_refused_naming_the_formats() -> None:
    tone = File.from_bytes(example_bytes("tone.wav"), name="tone.wav")
    caps = {"media": [cell(["audio/wav"], ["bytes"])]}
    with pytest.raises(CapabilityError, match="tone.wav") as info:  # as every wire's encoder
        encode(turn(ToolResult.of("call_1", "fetch", tone)), LLAMA, capabilities=caps)
    message = str(info.value)
    assert "audio/wav" in message and "png, jpeg, gif, webp" in message and "three_gp" in message
    assert "override" in message


def test_an_override_sending_https_urls_unfetched_is_refused_naming_the_file() -> None:
    remote = File.from_url("https://example.com/photo.png", name="photo.png")
    caps = {"media": [cell(["image/png"], ["url"])]}
    with pytest.raises(CapabilityError, match=r"photo\.png.*fetch_urls"):
        encode(turn(ToolResult.of("call_1", "fetch", remote)), LLAMA, capabilities=caps)


# --- the validator can fail -------------------------------------------------------------------


def request(*messages: dict[str, Any]) -> dict[str, Any]:
    return {"messages": [*HEAD, *messages]}


def user_says(*blocks: dict[str, Any]) -> dict[str, Any]:
    """A request of one user message with these blocks."""
    return {"messages": [{"role": "user", "content": list(blocks)}]}


def answered(*blocks: dict[str, Any], call_id: str = "call_1") -> dict[str, Any]:
    """A tool use, then a user message with these blocks."""
    return request(uses(call_id), {"role": "user", "content": list(blocks)})


def image(source: dict[str, Any], fmt: str = "png") -> dict[str, Any]:
    return {"image": {"format": fmt, "source": source}}


TEXT = {"text": "x"}
S3_HTTPS = {"s3Location": {"uri": "https://x/y.png"}}

BAD: list[tuple[str, str, dict[str, Any]]] = [
    ("unknown key", CLAUDE, request({"role": "assistant", "content": [TEXT], "name": "x"})),
    ("unknown parameter", CLAUDE, {**request(), "instructions": "x"}),
    ("image format", CLAUDE, user_says(image({"bytes": b"x"}, fmt="bmp"))),
    ("base64 text as bytes", CLAUDE, user_says(image({"bytes": "eA=="}))),
    ("s3 uri", CLAUDE, user_says(image(S3_HTTPS))),
    ("document name", CLAUDE, user_says(TEXT, pdf_block("report.pdf", b"x"))),
    ("double space", CLAUDE, user_says(TEXT, pdf_block("a  b", b"x"))),
    ("duplicate names", CLAUDE, user_says(TEXT, pdf_block("a", b"x"), pdf_block("a", b"y"))),
    ("document without text", CLAUDE, user_says(pdf_block("a", b"x"))),
    ("two user messages", CLAUDE, request({"role": "user", "content": [TEXT]})),
    ("starts with assistant", CLAUDE, {"messages": [{"role": "assistant", "content": [TEXT]}]}),
    ("blank text", CLAUDE, request({"role": "assistant", "content": [{"text": " "}]})),
    ("unanswered use", CLAUDE, answered(TEXT)),
    ("result after text", CLAUDE, answered(TEXT, result("call_1", TEXT))),
    ("json list", CLAUDE, answered(result("call_1", {"json": [1]}))),
    ("status on llama", LLAMA, answered(result("call_1", TEXT, status="error"))),
    ("tool use id", CLAUDE, answered(result("call 1", TEXT), call_id="call 1")),
]  # fmt: skip


@pytest.mark.parametrize(("target", "kwargs"), [b[1:] for b in BAD], ids=[b[0] for b in BAD])
def test_the_validator_rejects_what_botocore_or_bedrock_would_reject(
    target: str, kwargs: dict[str, Any]
) -> None:
    with pytest.raises(ValueError):
        strict_bedrock.validate(kwargs, target)


def test_the_validator_accepts_the_shapes_the_bad_cases_break() -> None:
    good = request(
        uses("call_1"),
        {"role": "user", "content": [result("call_1", {"json": {}}, status="error")]},
    )
    strict_bedrock.validate({**good, "system": [{"text": "x"}]}, CLAUDE)
    strict_bedrock.validate(user_says(TEXT, pdf_block("a (2) [b]-c", b"x")), LLAMA)
    strict_bedrock.validate(user_says(image({"s3Location": {"uri": "s3://bucket/y.png"}})), LLAMA)


@pytest.mark.parametrize("target", TARGETS)
def test_a_user_message_of_documents_alone_gets_the_text_block_converse_requires(
    target: str,
) -> None:
    docs = [File.from_bytes(PDF, name="a.pdf"), File.from_bytes(NOTES, name="b.md")]
    kwargs = encoded([User(docs)], target)  # strict: a document without text fails validation
    content = kwargs["messages"][0]["content"]
    assert [next(iter(b)) for b in content] == ["text", "document", "text", "document"]
    assert content[0] == {"text": "This is file a.pdf:"}  # the plan's label, by identifier
    assert content[2] == {"text": "This is file b.md:"}


@pytest.mark.parametrize("target", TARGETS)
def test_documents_merged_into_a_tool_turn_get_a_text_block_too(target: str) -> None:
    messages = [*turn(ToolResult.of("c1", "fetch", "done")), User([File.from_bytes(PDF)])]
    kwargs = encoded(messages, target)
    last = kwargs["messages"][-1]["content"]
    assert "toolResult" in last[0] and "text" in last[-2] and "document" in last[-1]


def test_reasoning_goes_back_to_its_model_family_only() -> None:
    content = [
        {"reasoningContent": {"reasoningText": {"text": "Think.", "signature": "c2lnbmF0dXJl"}}},
        {"text": "Fetching."},
        {"toolUse": {"toolUseId": "tooluse_abc", "name": "fetch", "input": {}}},
    ]
    response = {"output": {"message": {"role": "assistant", "content": content}}}
    reply = decode({**response, "stopReason": "tool_use"}, CLAUDE)
    history = [User("Go."), reply, ToolResult.of("tooluse_abc", "fetch", "ok")]
    other_claude = "bedrock:anthropic.claude-3-7-sonnet-20250219-v1:0"
    assert encoded(history, other_claude)["messages"][1]["content"][0] == content[0]
    for target in (NOVA, LLAMA, PIXTRAL, OTHER):  # they cannot verify Claude's signature
        sent = encoded(history, target)["messages"][1]["content"]
        assert all("reasoningContent" not in block for block in sent), target


def test_an_unknown_familys_reasoning_goes_back_to_the_same_model_only() -> None:
    content = [{"reasoningContent": {"reasoningText": {"text": "Hmm."}}}, {"text": "Done."}]
    response = {"output": {"message": {"role": "assistant", "content": content}}}
    deepseek = "bedrock:us.deepseek.r1-v1:0"
    history = [User("Hi."), decode({**response, "stopReason": "end_turn"}, deepseek), User("And?")]
    assert "reasoningContent" in encoded(history, deepseek)["messages"][1]["content"][0]
    qwen = encoded(history, "bedrock:qwen.qwen3-32b-v1:0")["messages"][1]["content"]
    assert qwen == [{"text": "Done."}]
