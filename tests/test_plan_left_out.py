"""A message the plan leaves out never leaves the conversation in a shape its wire rejects.

The wire rules leave out blank text, empty thinking and a message left with nothing
(plan.wire_rules); the layout asks the same question (``carries_nothing``) before it places
what follows tool results (plan.layout), so a user message after an empty message still gets
the bridge its target's table asks for. Each test here failed before that: the Mistral cases
with "no user message may follow them directly", the empty conversations with a request the
SDK rejects or a ``ValueError`` from inside the plan.
"""

from __future__ import annotations

from typing import Any

import pytest
from providers.test_conformance import validator

import toolwire as tw
from toolwire.capability import capabilities
from toolwire.memo import MEMO
from toolwire.plan import plan
from toolwire.plan.values import BRIDGE, BRIDGE_TEXT, ToolTurn
from toolwire.viewer.layout import laid_out

MISTRAL = "mistral:mistral-large-latest"
CALL = tw.ToolCall(id="abcdefgh1", name="fetch", arguments={})
TOOL_TURN = [tw.User("Fetch it."), tw.Assistant([CALL]), tw.ToolResult.of(CALL.id, "fetch", "ok")]


def steps_of(messages: list[Any], model: str = MISTRAL) -> list[str]:
    """The plan's steps, named: ``bridge`` for the plan's own bridging message."""
    steps = plan(messages, capabilities(model)).steps
    return [
        "bridge" if step is BRIDGE else "tools" if isinstance(step, ToolTurn) else step.role
        for step in steps
    ]


def sent(messages: list[Any], model: str = MISTRAL) -> dict[str, Any]:
    """The request's kwargs, validated strictly against the official SDK's types."""
    kwargs = tw.encode(messages, model).kwargs
    validator(capabilities(model).wire)(kwargs, model)
    return kwargs


@pytest.mark.parametrize(
    "between",
    [
        tw.Assistant(""),
        tw.Assistant([tw.Text(text=""), tw.Text(text="")]),
        tw.User(""),
        tw.System("Be brief."),
        tw.Assistant([tw.Thinking(text="Another model's thought.", provider="anthropic")]),
    ],
    ids=["empty-assistant", "empty-parts", "empty-user", "system", "foreign-thinking"],
)
def test_a_user_message_after_tool_results_and_a_message_sent_apart_is_bridged_on_mistral(
    between: Any,
) -> None:
    messages = [*TOOL_TURN, between, tw.User("Next question.")]
    kwargs = sent(messages)
    spelled = [m for m in kwargs["messages"] if m["role"] != "system"]  # sent first
    assert [m["role"] for m in spelled] == ["user", "assistant", "tool", "assistant", "user"]
    assert spelled[3] == {"role": "assistant", "content": BRIDGE_TEXT}
    assert "bridge" in steps_of(messages)  # the plan's own message, declared as BRIDGE


def test_a_blank_message_after_tool_results_adds_no_bridge_on_mistral() -> None:
    """Nothing follows the results but a blank user message: no bridging message, which
    would otherwise end the request with an assistant message Mistral's serving rejects."""
    assert steps_of([*TOOL_TURN, tw.User("")]) == ["user", "assistant", "tools"]
    answered = [*TOOL_TURN, tw.User([tw.Text(text="")]), tw.Assistant("Done.")]
    assert steps_of(answered) == ["user", "assistant", "tools", "assistant"]
    assert BRIDGE_TEXT not in str(sent(answered))


def test_an_agent_loop_that_appends_after_an_empty_reply_bridges_as_a_fresh_plan_does() -> None:
    """The group of a tool turn takes in the messages left out after it, so a history that
    grows past an empty reply re-plans the tool turn (memo.LastPlans)."""
    MEMO.clear()
    history = [*TOOL_TURN, tw.Assistant("")]
    tw.encode(history, MISTRAL)
    grown = tw.encode([*history, tw.User("Next question.")], MISTRAL).kwargs
    MEMO.clear()
    assert grown == sent([*history, tw.User("Next question.")])


def test_the_bridge_follows_the_table_on_a_wire_that_merges_a_user_message_after_results() -> None:
    """Bedrock merges a user message into the results' message (its table's
    ``user_after_tool``); the empty reply between changes nothing."""
    model = "bedrock:us.anthropic.claude-sonnet-4-5-20250929-v1:0"
    messages = [*TOOL_TURN, tw.Assistant(""), tw.User("Next question.")]
    assert steps_of(messages, model) == ["user", "assistant", "tools"]
    blocks = sent(messages, model)["messages"][-1]["content"]
    assert [next(iter(block)) for block in blocks] == ["toolResult", "text"]


# --- nothing left to send --------------------------------------------------------------------

TARGETS = [
    "anthropic:claude-sonnet-4-5",
    "openai:gpt-5",
    "openai-chat:gpt-4.1",
    "google:gemini-2.5-flash",
    "bedrock:amazon.nova-pro-v1:0",
    MISTRAL,
    "cohere:command-r-plus",
    "ollama:llama3.1:8b",
]
#: The wires that send system text in a parameter of their own (``Wire.system_apart``).
SYSTEM_APART = {"anthropic", "openai_responses", "google", "bedrock"}


@pytest.mark.parametrize("model", TARGETS)
def test_a_conversation_of_blank_messages_is_a_conversation_error_on_every_wire(
    model: str,
) -> None:
    with pytest.raises(tw.ConversationError, match="nothing to send .* no message is left"):
        tw.encode([tw.User(""), tw.Assistant(""), tw.System("")], model)


@pytest.mark.parametrize("model", TARGETS)
def test_system_text_alone_is_sent_only_where_the_wire_keeps_it_among_the_messages(
    model: str,
) -> None:
    messages = [tw.System("You are terse."), tw.User("")]
    if capabilities(model).wire in SYSTEM_APART:
        with pytest.raises(tw.ConversationError, match="only system text is left"):
            tw.encode(messages, model)
    else:
        assert sent(messages, model)


def test_system_text_appended_to_a_growing_history_plans_on_mistral() -> None:
    """A resumed plan whose new steps are all system text checked them with an empty list
    (``zip(..., strict=True)`` raised ValueError on the third encode)."""
    MEMO.clear()
    history: list[Any] = [tw.User("Question.")]
    for n in range(4):
        history.append(tw.System(f"Note {n}."))
        assert sent(history)["messages"][0]["content"].startswith("Note 0.")


def test_a_message_between_tool_calls_and_their_results_is_refused_even_when_empty() -> None:
    """The neutral model's rule (results right after the calls) holds for an empty message
    too: the error names it, on every wire alike."""
    messages = [tw.User("Fetch it."), tw.Assistant([CALL]), tw.Assistant(""), TOOL_TURN[2]]
    for model in (MISTRAL, "anthropic:claude-sonnet-4-5"):
        with pytest.raises(tw.ConversationError, match="but message 2 is not their result"):
            tw.encode(messages, model)


# --- the view reads the same groups -----------------------------------------------------------


@pytest.mark.parametrize("model", ["openai-chat:gpt-4.1", MISTRAL, "anthropic:claude-sonnet-4-5"])
def test_the_view_shows_a_left_out_reply_between_results_and_the_next_message_in_one_turn(
    model: str,
) -> None:
    """The view cut its turns one message per step and failed on a message the plan left
    out (AttributeError: 'Assistant' object has no attribute 'parts')."""
    messages = [*TOOL_TURN, tw.Assistant(""), tw.User("Next question.")]
    turns = laid_out(messages, tw.plan_request(messages, model))
    assert [(turn.first, turn.last) for turn in turns] == [(0, 0), (1, 1), (2, 4)]
    shown = [shown.part for step in turns[-1].steps for b in step.blocks for shown in b.parts]
    assert tw.Text(text="Next question.") in shown


def test_the_view_puts_a_reply_after_a_left_out_one_on_its_own_message() -> None:
    """Converse merges the two user messages around a left-out reply: the next reply is
    message 3, not the empty message 1."""
    messages = [tw.User("a"), tw.Assistant(""), tw.User("b"), tw.Assistant("c")]
    model = "bedrock:amazon.nova-pro-v1:0"
    turns = laid_out(messages, tw.plan_request(messages, model))
    assert [(turn.first, [s.role for s in turn.steps]) for turn in turns] == [
        (0, ["user"]),
        (3, ["assistant"]),
    ]
