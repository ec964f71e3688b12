"""The planner: a Decision per file and the layout rules, tested on plan steps, not on encoders."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from toolwire.capability import Capabilities, Cell, capabilities, with_cell
from toolwire.content import File, Json, Text, ToolCall
from toolwire.errors import (
    BudgetError,
    ConversationError,
    FetchError,
    ToolwireError,
    UnsupportedContentError,
)
from toolwire.messages import (
    Assistant,
    ContentOutput,
    ErrorJsonOutput,
    ErrorTextOutput,
    ExecutionDeniedOutput,
    JsonOutput,
    System,
    TextOutput,
    ToolResult,
    User,
)
from toolwire.plan import (
    BRIDGE_TEXT,
    Decision,
    PlannedResult,
    ToolTurn,
    plan,
)
from toolwire.turns import EMPTY_RESULT_TEXT

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
CHAT = capabilities("openai-chat:gpt-5-mini")  # images, PDFs, text: fallback; audio: error
CLAUDE = capabilities("anthropic:claude-sonnet-4-5")  # images, PDFs, text: native
NOVA = capabilities("bedrock:amazon.nova-pro-v1:0")  # PDFs: sibling


def example(name: str) -> File:
    return File.from_bytes((EXAMPLES / name).read_bytes(), name=name)


def see(name: str) -> Text:
    return Text(text=f"See file {name}.")


def this(name: str) -> Text:
    return Text(text=f"This is file {name}:")


def calls(*ids: str) -> Assistant:
    return Assistant([ToolCall(id=i, name=f"tool_{i}", arguments={}) for i in ids])


def result(call_id: str, value: Any) -> ToolResult:
    return ToolResult.of(call_id, f"tool_{call_id}", value)


def layout(caps: Capabilities, followup: str, user_after_tool: str) -> Capabilities:
    return replace(caps, followup=followup, user_after_tool=user_after_tool)


def shape(steps: tuple[Any, ...]) -> list[Any]:
    """Steps as comparable data: ("user", parts), ("assistant", parts), ("tools", results, extra)."""
    out: list[Any] = []
    for step in steps:
        if isinstance(step, ToolTurn):
            out.append(("tools", [r.parts for r in step.results], step.extra))
        elif isinstance(step, User):
            out.append(("user", step.parts))
        elif isinstance(step, Assistant):
            out.append(("assistant", step.content))
        else:
            out.append(("system", step.text))
    return out


# --- decisions -------------------------------------------------------------------------------


def test_each_file_gets_one_decision_with_where_and_why() -> None:
    messages = [User("Look"), calls("a"), result("a", [example("photo.png"), example("tone.wav")])]
    planned = plan(messages, CHAT, on_unsupported="text")
    photo, tone = planned.decisions
    assert photo == Decision(
        message_index=2,
        identifier="photo.png",
        media_type="image/png",
        kind="image",
        mode="fallback",
        reason=f"in a labelled user message after the tool results ({CHAT.cell('image/png').evidence})",  # type: ignore[union-attr]
        position="user_message",
    )
    assert (tone.mode, tone.kind) == ("text", "audio")
    assert tone.reason.startswith("replaced by its text fallback: recorded 400 on gpt-5-mini")


def repeat_of(decision: Decision) -> str:
    """What a decision's reason says it repeats, or ''."""
    _, found, rest = decision.reason.rpartition("; repeats file ")
    return f"repeats file {rest}" if found else ""


def test_the_same_content_again_in_one_request_is_sent_again_and_says_what_it_repeats() -> None:
    photo, copy = example("photo.png"), File.from_bytes(example("photo.png").read(), name="b.png")
    url = File.from_url("https://example.com/cat.png")
    messages = [
        User([Text(text="Look"), photo, example("report.pdf")]),
        calls("a", "b"),
        result("a", [copy, url, example("report.pdf")]),
        result("b", [File.from_url("https://example.com/cat.png", name="again.png")]),
    ]
    planned = plan(messages, CLAUDE)
    repeats = [(d.identifier, repeat_of(d)) for d in planned.decisions]
    assert repeats == [
        ("photo.png", ""),
        ("report.pdf", ""),
        ("b.png", "repeats file photo.png of message 0"),
        (url.identifier, ""),
        ("report.pdf", "repeats file report.pdf of message 0"),
        ("again.png", f"repeats file {url.identifier} of message 2"),
    ]
    tool_turn = planned.steps[2]
    assert isinstance(tool_turn, ToolTurn) and tool_turn.results[0].parts[0] == copy  # still sent


def test_a_repeat_is_marked_on_every_encode_even_when_the_history_plan_is_reused() -> None:
    messages = [User([example("photo.png")]), calls("a"), result("a", example("photo.png"))]
    first = plan(messages, CHAT).decisions
    again = plan([*messages, calls("b"), result("b", example("photo.png"))], CHAT).decisions
    assert [repeat_of(d) for d in again] == [
        "",
        "repeats file photo.png of message 0",
        "repeats file photo.png of message 0",
    ]
    assert again[:2] == first


def test_a_native_file_stays_inside_its_tool_result() -> None:
    photo = example("photo.png")
    planned = plan([calls("a"), result("a", ["Here:", photo])], CLAUDE)
    assert planned.steps[1] == ToolTurn(
        results=(PlannedResult(call_id="a", name="tool_a", parts=(Text(text="Here:"), photo)),)
    )
    assert [d.mode for d in planned.decisions] == ["native"]


def test_sibling_files_follow_all_results_in_the_same_message() -> None:
    pdf, photo = example("report.pdf"), example("photo.png")
    messages = [User("Go."), calls("a", "b"), result("a", pdf), result("b", photo)]
    planned = plan(messages, NOVA)  # Converse: a user message first (Wire.starts_with_user)
    assert shape(planned.steps[2:]) == [
        ("tools", [(see("report.pdf"),), (photo,)], (this("report.pdf"), pdf))
    ]
    assert [d.mode for d in planned.decisions] == ["sibling", "native"]


def test_files_in_user_messages_are_decided_too() -> None:
    photo = example("photo.png")
    planned = plan([User([Text(text="Look:"), photo])], CHAT)
    assert shape(planned.steps) == [("user", (Text(text="Look:"), photo))]
    assert [(d.message_index, d.mode) for d in planned.decisions] == [(0, "native")]


# --- fallback layout: followup placements ----------------------------------------------------


def fallback_turn() -> list[Any]:
    """Two calls in one turn; both results carry a file the target takes only as fallback."""
    return [
        User("Compare them."),
        calls("a", "b"),
        result("a", ["First:", example("photo.png")]),
        result("b", [example("report.pdf"), example("notes.md")]),
    ]


FALLBACK_RESULTS = [
    (Text(text="First:"), see("photo.png")),
    (see("report.pdf"), see("notes.md")),
]


def fallback_parts() -> tuple[Any, ...]:
    return (
        this("photo.png"), example("photo.png"),
        this("report.pdf"), example("report.pdf"),
        this("notes.md"), example("notes.md"),
    )  # fmt: skip


def test_fallback_files_of_all_results_merge_into_the_tool_message_in_order() -> None:
    planned = plan(fallback_turn(), layout(CHAT, "merge", "message"))
    assert shape(planned.steps[2:]) == [("tools", FALLBACK_RESULTS, fallback_parts())]


def test_fallback_files_of_all_results_go_in_one_user_message_after_them() -> None:
    planned = plan(fallback_turn(), layout(CHAT, "message", "message"))
    assert shape(planned.steps[2:]) == [
        ("tools", FALLBACK_RESULTS, ()),
        ("user", fallback_parts()),
    ]


def test_fallback_files_follow_a_bridge_assistant_message_where_roles_alternate() -> None:
    planned = plan(fallback_turn(), layout(CHAT, "turn", "turn"))
    assert shape(planned.steps[2:]) == [
        ("tools", FALLBACK_RESULTS, ()),
        ("assistant", (Text(text=BRIDGE_TEXT),)),
        ("user", fallback_parts()),
    ]


def test_the_tables_placements_drive_the_layout() -> None:
    mistral = capabilities("mistral:mistral-large-latest")
    planned = plan(fallback_turn(), mistral)
    assert [type(s).__name__ for s in planned.steps] == [
        "User", "Assistant", "ToolTurn", "Assistant", "User"
    ]  # fmt: skip
    planned = plan(fallback_turn(), capabilities("openai-chat:gpt-5-mini"))
    assert [type(s).__name__ for s in planned.steps] == ["User", "Assistant", "ToolTurn", "User"]


# --- a real user message right after the tool turn --------------------------------------------

QUESTION = Text(text="Which is newer?")


def with_question(messages: list[Any]) -> list[Any]:
    return [*messages, User([QUESTION]), Assistant("The PDF.")]


@pytest.mark.parametrize(
    ("user_after_tool", "expected"),
    [
        ("merge", [("tools", [(Text(text="done"),)], (QUESTION,))]),
        ("message", [("tools", [(Text(text="done"),)], ()), ("user", (QUESTION,))]),
        (
            "turn",
            [
                ("tools", [(Text(text="done"),)], ()),
                ("assistant", (Text(text=BRIDGE_TEXT),)),
                ("user", (QUESTION,)),
            ],
        ),
    ],
)
def test_a_user_message_after_a_tool_turn_without_fallbacks_is_placed_as_the_table_says(
    user_after_tool: str, expected: list[Any]
) -> None:
    messages = with_question([calls("a"), result("a", "done")])
    planned = plan(messages, layout(CHAT, "message", user_after_tool))
    assert shape(planned.steps[1:-1]) == expected
    assert planned.steps[-1] == Assistant("The PDF.")


def expected_with_question(followup: str, user_after_tool: str) -> list[Any]:
    tools = ("tools", FALLBACK_RESULTS, ())
    bridge = ("assistant", (Text(text=BRIDGE_TEXT),))
    if followup == "merge":
        merged = ("tools", FALLBACK_RESULTS, fallback_parts())
        if user_after_tool == "merge":
            return [("tools", FALLBACK_RESULTS, (*fallback_parts(), QUESTION))]
        if user_after_tool == "message":
            return [merged, ("user", (QUESTION,))]
        return [merged, bridge, ("user", (QUESTION,))]
    # A pending fallback message absorbs the user's message, whatever user_after_tool says.
    together = ("user", (*fallback_parts(), QUESTION))
    return [tools, bridge, together] if followup == "turn" else [tools, together]


@pytest.mark.parametrize("followup", ["merge", "message", "turn"])
@pytest.mark.parametrize("user_after_tool", ["merge", "message", "turn"])
def test_a_user_message_after_fallbacks_is_merged_or_placed_for_every_placement(
    followup: str, user_after_tool: str
) -> None:
    planned = plan(with_question(fallback_turn()), layout(CHAT, followup, user_after_tool))
    assert shape(planned.steps[2:-1]) == expected_with_question(followup, user_after_tool)
    assert planned.steps[-1] == Assistant("The PDF.")
    assert [d.message_index for d in planned.decisions] == [2, 3, 3]


def test_bedrock_claude_puts_fallbacks_and_the_next_question_in_one_turn_after_a_bridge() -> None:
    caps = capabilities("bedrock:us.anthropic.claude-sonnet-4-5-20250929-v1:0")
    pdf = example("report.pdf")
    planned = plan(with_question([User("Go."), calls("a"), result("a", pdf)]), caps)
    assert shape(planned.steps[2:-1]) == [
        ("tools", [(see("report.pdf"),)], ()),
        ("assistant", (Text(text=BRIDGE_TEXT),)),
        ("user", (this("report.pdf"), pdf, QUESTION)),
    ]


def test_a_fallback_merged_into_the_results_message_by_the_wire_rules_says_so() -> None:
    """On a wire whose roles alternate, a fallback message after tool results joins their
    message (plan.wire_rules): its Decision says "after_results", where it is."""
    caps = layout(
        capabilities("bedrock:us.anthropic.claude-sonnet-4-5-20250929-v1:0"), "message", "message"
    )
    pdf = example("report.pdf")
    planned = plan([User("Go."), calls("a"), result("a", pdf)], caps)
    assert shape(planned.steps[2:]) == [
        ("tools", [(see("report.pdf"),)], (this("report.pdf"), pdf))
    ]
    assert [d.position for d in planned.decisions] == ["after_results"]


def test_files_in_the_merged_user_message_are_decided_with_its_index() -> None:
    photo = example("photo.png")
    messages = [calls("a"), result("a", "ok"), User([Text(text="And this:"), photo])]
    planned = plan(messages, layout(CHAT, "message", "message"))
    assert shape(planned.steps[1:]) == [
        ("tools", [(Text(text="ok"),)], ()),
        ("user", (Text(text="And this:"), photo)),
    ]
    assert [(d.message_index, d.mode) for d in planned.decisions] == [(2, "native")]


# --- call order and malformed turns -----------------------------------------------------------


def test_results_are_put_in_call_order_and_keep_their_message_index() -> None:
    photo, pdf = example("photo.png"), example("report.pdf")
    messages = [calls("a", "b", "c"), result("c", "third"), result("a", photo), result("b", pdf)]
    planned = plan(messages, CLAUDE)
    turn = planned.steps[1]
    assert isinstance(turn, ToolTurn)
    assert [r.call_id for r in turn.results] == ["a", "b", "c"]
    assert [(d.identifier, d.message_index) for d in planned.decisions] == [
        ("photo.png", 2),
        ("report.pdf", 3),
    ]


def test_fallback_files_are_gathered_in_call_order_not_arrival_order() -> None:
    messages = [
        calls("a", "b"),
        result("b", example("report.pdf")),
        result("a", example("photo.png")),
    ]
    planned = plan(messages, layout(CHAT, "message", "message"))
    assert shape(planned.steps[2:]) == [
        (
            "user",
            (this("photo.png"), example("photo.png"), this("report.pdf"), example("report.pdf")),
        )
    ]


@pytest.mark.parametrize(
    ("messages", "message"),
    [
        ([calls("a", "b"), result("a", "x")], r"tool call\(s\) b of message 0 have no result"),
        ([calls("a"), result("a", "x"), result("a", "y")], "message 2 answers call 'a' a second time"),
        ([calls("a"), result("z", "x")], "message 1 answers call 'z', which message 0 did not make \\(its calls: a\\)"),
        ([result("a", "x")], "message 0 is a tool result, but the message before it is not an assistant"),
        ([User("hi"), result("a", "x")], "message 1 is a tool result, but the message before"),
        ([Assistant("no calls"), result("a", "x")], "message 1 is a tool result"),
        ([calls("a"), User("hi")], r"message 0 calls tools a \(tool_a\), but message 1 is not their result"),
        ([calls("a"), calls("b")], "message 0 calls tools a"),
        ([calls("a", "b"), System("x")], r"a \(tool_a\), b \(tool_b\)"),
        ([User("hi"), {"role": "user", "content": "raw"}], "message 1 is not a toolwire message"),
        ([calls("a"), result("a", "x"), User("q"), result("a", "y")], "message 3 is a tool result"),
    ],
)  # fmt: skip
def test_malformed_tool_turns_raise_a_conversation_error(messages: list[Any], message: str) -> None:
    with pytest.raises(ConversationError, match=message):
        plan(messages, CLAUDE)


def test_an_assistant_without_calls_may_be_followed_by_anything() -> None:
    messages = [
        System("Be brief."),
        User("hi"),
        Assistant("hello"),
        User("again"),
        Assistant("yes"),
    ]
    planned = plan(messages, CLAUDE)
    assert shape(planned.steps) == [
        ("system", "Be brief."),
        ("user", (Text(text="hi"),)),
        ("assistant", (Text(text="hello"),)),
        ("user", (Text(text="again"),)),
        ("assistant", (Text(text="yes"),)),
    ]
    assert planned.decisions == ()


def test_a_conversation_may_end_with_unanswered_calls() -> None:
    assert len(plan([User("go"), calls("a")], CLAUDE).steps) == 2


def test_several_tool_turns_are_planned_independently() -> None:
    messages = [
        calls("a"), result("a", example("photo.png")),
        calls("b"), result("b", example("report.pdf")),
    ]  # fmt: skip
    planned = plan(messages, layout(CHAT, "message", "message"))
    assert [type(s).__name__ for s in planned.steps] == [
        "Assistant", "ToolTurn", "User", "Assistant", "ToolTurn", "User"
    ]  # fmt: skip
    assert [d.message_index for d in planned.decisions] == [1, 3]


# --- outputs ---------------------------------------------------------------------------------


def only_result(output: Any) -> PlannedResult:
    planned = plan([calls("a"), ToolResult(call_id="a", name="tool_a", output=output)], CLAUDE)
    turn = planned.steps[1]
    assert isinstance(turn, ToolTurn)
    (planned_result,) = turn.results
    return planned_result


@pytest.mark.parametrize(
    "output",
    [
        TextOutput(value=""),
        ErrorTextOutput(value=""),
        ContentOutput(value=[]),
        ContentOutput(value=[Text(text=""), Text(text="")]),
    ],
)
def test_an_empty_output_becomes_a_short_text_never_an_empty_result(output: Any) -> None:
    assert only_result(output).parts == (Text(text=EMPTY_RESULT_TEXT),)


def test_empty_texts_between_parts_are_dropped() -> None:
    output = ContentOutput(value=[Text(text=""), Text(text="kept"), Json(value=[])])
    assert only_result(output).parts == (Text(text="kept"), Json(value=[]))


def test_json_outputs_stay_structured() -> None:
    planned = only_result(JsonOutput(value={"rows": 3}))
    assert planned.parts == (Json(value={"rows": 3}),)
    assert (planned.is_error, planned.denied) == (False, False)


def test_error_outputs_are_flagged_and_keep_their_content() -> None:
    text = only_result(ErrorTextOutput(value="disk full"))
    assert (text.parts, text.is_error) == ((Text(text="disk full"),), True)
    data = only_result(ErrorJsonOutput(value={"code": 507}))
    assert (data.parts, data.is_error) == ((Json(value={"code": 507}),), True)


def test_a_denied_execution_says_so_with_its_reason() -> None:
    denied = only_result(ExecutionDeniedOutput(reason="the user declined"))
    assert denied.parts == (
        Text(text="The tool was not run: execution was denied. Reason: the user declined"),
    )
    assert (denied.denied, denied.is_error) == (True, False)
    bare = only_result(ExecutionDeniedOutput())
    assert bare.parts == (Text(text="The tool was not run: execution was denied."),)


# --- unsupported files -----------------------------------------------------------------------


def test_one_error_lists_every_unsupported_file_across_messages() -> None:
    tone, clip = example("tone.wav"), example("clip.mp4")
    messages = [
        User([Text(text="Listen:"), tone]),
        calls("a"),
        result("a", [example("photo.png"), clip]),
    ]
    with pytest.raises(UnsupportedContentError) as info:
        plan(messages, CHAT)
    error = info.value
    assert [(f.message_index, f.identifier, f.media_type) for f in error.files] == [
        (0, "tone.wav", "audio/wav"),
        (2, "clip.mp4", "video/mp4"),
    ]
    assert error.model == "openai-chat:gpt-5-mini"
    assert error.accepted == CHAT.accepted()
    text = str(error)
    assert "cannot take 2 file(s)" in text
    assert "tone.wav (audio/wav) in message 0" in text
    assert "clip.mp4 (video/mp4) in message 2" in text
    assert 'on_unsupported="text"' in text


def test_text_mode_substitutes_the_text_fallback_where_the_file_was() -> None:
    tone = example("tone.wav")
    messages = [User([Text(text="Listen:"), tone]), calls("a"), result("a", ["Clip:", tone])]
    planned = plan(messages, CHAT, on_unsupported="text")
    description = Text(text=tone.text_fallback())
    assert description.text == "[Audio: tone.wav, 1.0 s, 31 KB]"
    assert shape(planned.steps) == [
        ("user", (Text(text="Listen:"), description)),
        ("assistant", calls("a").content),
        ("tools", [(Text(text="Clip:"), description)], ()),
    ]
    assert [d.mode for d in planned.decisions] == ["text", "text"]


def test_on_unsupported_must_be_error_or_text() -> None:
    with pytest.raises(
        ToolwireError, match='on_unsupported must be "error", "convert" or "text", not \'drop\''
    ):
        plan([User("hi")], CLAUDE, on_unsupported="drop")


# --- URLs ------------------------------------------------------------------------------------

BEDROCK = capabilities("bedrock:us.anthropic.claude-sonnet-4-5-20250929-v1:0")
REMOTE = "https://example.com/photo.png"


def url_turn() -> list[Any]:
    """A tool turn on Converse, which needs a user message first (Wire.starts_with_user)."""
    return [User("Go."), calls("a"), result("a", File.from_url(REMOTE))]


def test_a_url_the_target_cannot_take_is_downloaded_by_the_callers_fetcher() -> None:
    photo = (EXAMPLES / "photo.png").read_bytes()
    asked: list[str] = []

    def fetch(url: str) -> bytes:
        asked.append(url)
        return photo

    planned = plan(url_turn(), BEDROCK, fetch=fetch)
    assert asked == [REMOTE]
    (decision,) = planned.decisions
    assert (decision.mode, decision.notes) == ("native", (f"downloaded from {REMOTE}",))
    turn = planned.steps[2]
    assert isinstance(turn, ToolTurn)
    (sent,) = turn.results[0].parts
    assert isinstance(sent, File) and sent.read() == photo


def test_a_url_is_refused_clearly_without_a_fetcher() -> None:
    with pytest.raises(UnsupportedContentError, match="pass fetch_urls=True"):
        plan(url_turn(), BEDROCK)


def test_fetch_failures_are_wrapped_with_the_url() -> None:
    def fetch(url: str) -> bytes:
        raise TimeoutError("timed out")

    with pytest.raises(FetchError, match=f"fetching {REMOTE} failed: timed out"):
        plan(url_turn(), BEDROCK, fetch=fetch)


def test_a_callers_fetcher_gets_the_same_size_cap_as_the_built_in_one(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from toolwire import fetch as fetch_module

    photo = (EXAMPLES / "photo.png").read_bytes()
    monkeypatch.setattr(fetch_module, "MAX_FETCH_BYTES", len(photo) - 1)
    with pytest.raises(FetchError, match=f"returned .* for {REMOTE}, over the .* cap"):
        plan(url_turn(), BEDROCK, fetch=lambda url: photo)


def test_a_fetcher_that_returns_no_bytes_is_refused_by_name() -> None:
    with pytest.raises(FetchError, match=f"returned str for {REMOTE}, not bytes"):
        plan(url_turn(), BEDROCK, fetch=lambda url: "not bytes")  # type: ignore[arg-type,return-value]


def test_images_are_fitted_through_the_planner_and_the_decision_notes_it() -> None:
    def fit(file: File, cell: Cell) -> tuple[File, str | None]:
        return file, f"fitted to {cell.fit_edge}"

    planned = plan([calls("a"), result("a", example("photo.png"))], CLAUDE, fit=fit)
    assert planned.decisions[0].notes == ("fitted to 1568",)


# --- system ----------------------------------------------------------------------------------


def test_system_texts_are_joined_for_wires_with_a_system_parameter() -> None:
    planned = plan([System("One."), User("hi"), System("Two.")], CLAUDE)
    assert planned.system == "One.\n\nTwo."
    assert plan([User("hi")], CLAUDE).system is None


def test_the_plan_carries_the_capabilities_it_was_made_for() -> None:
    caps = with_cell(CLAUDE, "image/png", tool_result="fallback", user_sources=("bytes",))
    assert plan([User("hi")], caps).caps is caps


# --- count limits ------------------------------------------------------------------------------

BEDROCK_CLAUDE = capabilities("bedrock:us.anthropic.claude-sonnet-4-5-20250929-v1:0")


def shots(count: int) -> list[Any]:
    """``count`` tool turns, each returning one distinct small PNG."""
    png = (EXAMPLES / "photo.png").read_bytes()
    messages: list[Any] = [User("Watch the screen.")]
    for i in range(count):
        shot = File.from_bytes(png + bytes([i]), "image/png", name=f"shot-{i}.png")
        messages += [calls(f"c{i}"), result(f"c{i}", [shot])]
    return messages


def test_bedrock_takes_at_most_twenty_images_per_request_and_names_the_oldest_beyond() -> None:
    assert BEDROCK_CLAUDE.cell("image/png").max_count == 20  # type: ignore[union-attr]
    plan(shots(20), BEDROCK_CLAUDE)  # exactly the limit: fine
    with pytest.raises(BudgetError) as caught:
        plan(shots(22), BEDROCK_CLAUDE, on_budget="error", evict_to=1)
    assert [f.identifier for f in caught.value.files] == ["shot-0.png", "shot-1.png"]
    assert "at most 20 files" in caught.value.files[0].reason
    assert "this conversation has 22" in caught.value.files[0].reason


def test_text_mode_replaces_the_oldest_files_beyond_the_count_and_keeps_the_newest() -> None:
    laid_out = plan(shots(22), BEDROCK_CLAUDE, evict_to=1)
    modes = [(d.identifier, d.mode) for d in laid_out.decisions]
    assert modes[:2] == [("shot-0.png", "text"), ("shot-1.png", "text")]
    assert {mode for _, mode in modes[2:]} == {"native"} and len(modes) == 22
    stepped = [d.mode for d in plan(shots(22), BEDROCK_CLAUDE).decisions]  # down to 10 of 20
    assert stepped == ["text"] * 11 + ["native"] * 11


def test_documents_are_counted_apart_from_images() -> None:
    pdf = (EXAMPLES / "report.pdf").read_bytes()
    docs = [File.from_bytes(pdf + b"%" + bytes([i]), name=f"doc-{i}.pdf") for i in range(6)]
    messages = [*shots(20), User(["Read these.", *docs])]
    with pytest.raises(BudgetError) as caught:
        plan(messages, BEDROCK_CLAUDE, on_budget="error", evict_to=1)
    assert [f.identifier for f in caught.value.files] == ["doc-0.pdf"]


def test_a_count_limit_comes_from_the_table_and_can_be_overridden() -> None:
    roomy = with_cell(BEDROCK_CLAUDE, "image/png", max_count=None)
    assert len(plan(shots(22), roomy).decisions) == 22
    strict = with_cell(CLAUDE, "image/png", max_count=1)
    with pytest.raises(BudgetError, match="max_count = 1"):
        plan(shots(2), strict, on_budget="error")
