"""layout.laid_out: each target's steps cut into turns that line up across models."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

import toolwire as tw
from toolwire import Assistant, ToolResult, User, capabilities, plan_request
from toolwire.plan import plan
from toolwire.viewer.layout import (
    AFTER_TOOL_ADDED,
    BRIDGE_ADDED,
    FALLBACK_ADDED,
    Turn,
    laid_out,
)

from .conversations import example, tour

MISTRAL = capabilities("mistral:mistral-large-latest")
GROQ = capabilities("groq:meta-llama/llama-4-scout-17b-16e-instruct")
CLAUDE = capabilities("anthropic:claude-sonnet-4-5")


def view_turns(messages: Any, caps: Any, on_unsupported: Any) -> tuple[Turn, ...]:
    """The view's turns of the plan ``encode`` makes (``tw.plan_request``)."""
    target = f"{caps.provider}:{caps.model}"
    planned = plan_request(messages, target, on_unsupported=on_unsupported, capabilities=caps)
    return laid_out(messages, planned)


def roles(turn: Turn) -> list[tuple[str, str]]:
    return [(step.role, step.added) for step in turn.steps]


def parts(turn: Turn, step: int) -> list[Any]:
    return [shown for block in turn.steps[step].blocks for shown in block.parts]


def test_mistral_shows_its_bridging_assistant_turn_before_the_fallback_message() -> None:
    turns = view_turns(tour(), MISTRAL, "text")
    tool_turn = turns[3]
    assert (tool_turn.first, tool_turn.last) == (3, 3)
    assert roles(tool_turn) == [("tool", ""), ("assistant", BRIDGE_ADDED), ("user", FALLBACK_ADDED)]
    assert [s.part.text for s in parts(tool_turn, 1)] == ["(continuing)"]


def test_mistral_places_the_users_next_message_after_a_bridge_and_says_it_is_theirs() -> None:
    memo_turn = view_turns(tour(), MISTRAL, "text")[5]
    assert roles(memo_turn) == [
        ("tool", ""), ("assistant", BRIDGE_ADDED), ("user", AFTER_TOOL_ADDED)
    ]  # fmt: skip
    assert [s.part.text for s in parts(memo_turn, 2)] == ["Is the memo consistent with the report?"]


def test_fallback_files_are_pointers_in_the_result_and_labelled_in_the_added_message() -> None:
    turns = view_turns(tour(), GROQ, "text")
    tool_turn = turns[3]
    assert roles(tool_turn) == [("tool", ""), ("user", FALLBACK_ADDED)]
    in_result = parts(tool_turn, 0)
    assert [(s.role, s.part.text) for s in in_result] == [("pointer", "See file photo.png.")] + [
        ("text-fallback", in_result[1].part.text)
    ]
    assert in_result[1].original is not None and in_result[1].original.name == "report.pdf"
    added = parts(tool_turn, 1)
    assert [s.role for s in added] == ["label", "sent"]
    assert added[1].decision is not None and added[1].decision.mode == "fallback"


def test_a_user_question_after_the_results_shares_their_message_where_the_target_merges() -> None:
    turns = view_turns(tour(), CLAUDE, "text")
    memo_turn = turns[5]
    assert (memo_turn.first, memo_turn.last) == (5, 6)  # the results and the user's question
    assert roles(memo_turn) == [("tool", "")]
    blocks = memo_turn.steps[0].blocks
    assert blocks[-1].heading == "in the same message, after the results"
    assert [s.part.text for s in blocks[-1].parts] == ["Is the memo consistent with the report?"]


def test_a_file_the_target_cannot_take_is_its_labelled_text_fallback_with_its_decision() -> None:
    turns = view_turns(tour(), CLAUDE, "text")
    memo = parts(turns[5], 0)[1]
    assert memo.role == "text-fallback"
    assert memo.decision is not None and memo.decision.mode == "text"
    assert memo.part.text.startswith("[Audio: tone.wav")


def test_every_target_cuts_the_same_conversation_into_the_same_turns() -> None:
    spans = {
        caps.model: [(t.first, t.last) for t in view_turns(tour(), caps, "text")]
        for caps in (MISTRAL, GROQ, CLAUDE)
    }
    assert len(set(map(tuple, spans.values()))) == 1
    assert spans[CLAUDE.model][0] == (0, 0) and spans[CLAUDE.model][-1] == (7, 7)


def placements() -> list[list[Any]]:
    """Tool turns with fallbacks, followed by a user message, another user message, and an
    assistant message whose text is the bridge's: the layouts where cutting could go wrong."""
    photo, pdf = example("photo.png"), example("report.pdf")
    call = Assistant.model_validate(
        {"content": [{"type": "tool_call", "id": "a", "name": "t", "arguments": {}}]}
    )
    result = ToolResult.of("a", "t", ["done", photo, pdf])
    return [
        [User("go"), call, result],
        [User("go"), call, result, User("and?"), User([photo]), Assistant("(continuing)")],
        [User("go"), call, result, Assistant("(continuing)"), User("more")],
        [User("go"), call, ToolResult.of("a", "t", "plain"), User("next"), Assistant("ok")],
    ]


@pytest.mark.parametrize("followup", ["merge", "message", "turn"])
@pytest.mark.parametrize("user_after_tool", ["merge", "message", "turn"])
@pytest.mark.parametrize("messages", placements())
def test_every_planned_step_and_decision_lands_in_exactly_one_turn_for_every_placement(
    followup: str, user_after_tool: str, messages: list[Any]
) -> None:
    caps = replace(GROQ, followup=followup, user_after_tool=user_after_tool)
    turns = view_turns(messages, caps, "text")
    planned = plan(messages, caps, on_unsupported="text")
    assert sum(len(t.steps) for t in turns) == len(planned.steps)
    assert [d for t in turns for d in t.decisions] == list(planned.decisions)
    covered = [i for t in turns for i in range(t.first, t.last + 1)]
    assert covered == list(range(len(messages)))
    for turn in turns:
        for step in turn.steps:
            if step.added == BRIDGE_ADDED:
                assert step.role == "assistant"
            assert step.added in ("", BRIDGE_ADDED, FALLBACK_ADDED, AFTER_TOOL_ADDED)


def files_read(names: list[str]) -> list[Any]:
    """A tool call reading ``names`` from examples/, its result, and the reply."""
    from toolwire import ToolCall

    call = ToolCall(id="c1", name="read_files", arguments={"paths": names})
    result = ToolResult.of(call.id, call.name, [example(n) for n in names])
    return [User("Read them."), Assistant([call]), result, Assistant("Done.")]


def tagged(turn: Turn) -> dict[str, tuple[str, str]]:
    """Each file a text stands for: (its role, its Decision's mode)."""
    return {
        s.original.identifier: (s.role, s.decision.mode if s.decision else "")
        for step in turn.steps
        for block in step.blocks
        for s in block.parts
        if s.original is not None and s.made is None  # a text, not an image a conversion made
    }


def test_a_conversion_of_several_parts_does_not_shift_the_files_after_it() -> None:
    """Issue 35: the seven frames of clip.mp4 made the view pair each later part with the
    wrong file: data.csv, sent as itself, was called the "text fallback" of report.pdf."""
    turn = view_turns(files_read(["clip.mp4", "data.csv", "report.pdf"]), CLAUDE, "convert")[2]
    assert tagged(turn) == {"clip.mp4": ("converted", "converted")}
    files = [s for s in parts(turn, 0) if s.role == "sent" and s.decision is not None]
    assert [(s.part.identifier, s.decision.identifier) for s in files if not s.made] == [
        ("data.csv", "data.csv"),
        ("report.pdf", "report.pdf"),
    ]
    frames = [s for s in files if s.made]  # each frame is tied to the video it was taken from
    assert {s.decision.identifier for s in frames} == {"clip.mp4"}
    assert [s.made for s in frames] == [(k, len(frames)) for k in range(1, len(frames) + 1)]


def test_a_file_converted_to_text_in_its_result_is_not_said_to_travel() -> None:
    """Issue 35: the text of a conversion that stays in the tool result (report.pdf's, whose
    pages travel after the results) was tagged "travels after the results", and memo.docx's
    a "text fallback"; the photo, which does travel, says where (its Decision's position)."""
    names = ["photo.png", "memo.docx", "report.pdf"]
    turn = view_turns(files_read(names), GROQ, "convert")[2]
    assert tagged(turn) == {
        "photo.png": ("pointer", "fallback"),
        "memo.docx": ("converted", "converted"),
        "report.pdf": ("converted", "converted"),
    }
    page = tw.view(
        files_read(names),
        "groq:meta-llama/llama-4-scout-17b-16e-instruct",
        on_unsupported="convert",
    )
    assert "photo.png travels in a user message after the results" in page
    assert "report.pdf converted to pages (application/pdf)" in page
    assert "report.pdf travels" not in page


def test_a_converted_file_in_a_user_message_keeps_its_neighbours_in_place() -> None:
    from toolwire import File

    memo, photo = example("memo.docx"), example("photo.png")
    messages = [User(["Compare", memo, File.from_bytes(photo.read(), "image/png", "p.png")])]
    turn = view_turns(messages, CLAUDE, "convert")[0]
    shown = parts(turn, 0)
    assert [s.role for s in shown] == ["sent", "converted", "sent"]
    assert shown[2].decision is not None and shown[2].decision.identifier == "p.png"
