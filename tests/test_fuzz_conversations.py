"""Random conversations over every target: what a user can send, toolwire sends.

Conversations mix user text (as a string or as parts), system text, assistant text, thinking
(the target's own or another provider's, signed or not, redacted), tool calls with their
results (errors too, and a real text file beside the text), and empty or white-space messages at any place a message may stand (a
tool call's results follow it directly: a message between them is a ConversationError of
the neutral model, whatever it holds). For each target:

- the request validates strictly against the official SDK's types and the wire's published
  rules (tests/providers/strict_<wire>.py: Mistral's role order, Converse's alternation, ...);
- nothing is lost: every text that is not white space reaches the request;
- a bridging message the plan adds (``plan.values.BRIDGE``) always has a user message after
  it, never the end of the request nor an assistant message;
- the view cuts the plan into turns showing every step once, in the messages' order;
- an agent's re-encode (a shorter history first, then the whole: memo.LastPlans) gives the
  request a fresh encode gives;
- the only refusals are the conversations no service takes, and the error names why
  (``UNSENDABLE``). A CapabilityError is never one of them: these conversations ask for
  nothing the table lacks.
"""

from __future__ import annotations

import contextlib
import itertools
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from providers.test_conformance import validator

import toolwire as tw
from toolwire.capability import Capabilities, capabilities, providers
from toolwire.memo import MEMO
from toolwire.plan.values import BRIDGE
from toolwire.providers import wire_named
from toolwire.viewer.layout import laid_out

#: One model per target (13), each of its target's most used family.
MODELS = {
    "anthropic": "claude-sonnet-4-5",
    "openai": "gpt-5",
    "openai-chat": "gpt-4.1",
    "google": "gemini-2.5-flash",
    "google-vertex": "gemini-3.1-pro",
    "bedrock": "us.anthropic.claude-sonnet-4-5-20250929-v1:0",
    "groq": "meta-llama/llama-4-scout-17b-16e-instruct",
    "xai": "grok-4",
    "openrouter": "anthropic/claude-sonnet-4.5",
    "openai-compatible": "qwen3",
    "mistral": "mistral-large-latest",
    "cohere": "command-r-plus",
    "ollama": "llama3.1:8b",
}
FUZZ = settings(
    max_examples=60,
    deadline=None,
    database=None,  # nothing written into the work tree
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
#: Text that carries nothing: empty, or white space (no-break and ideographic spaces too).
BLANKS = ("", " ", "\n\t ", "\u00a0", "\u3000")
#: The refusals a conversation can earn here, each with the words its error must say.
UNSENDABLE = {
    "nothing": "there is nothing to send",
    "assistant first": "needs a user message with content first",
}
SIGNATURE = "c2lnbmF0dXJl"  # base64, as the wires that send signatures as bytes need
#: Written out apart from the Wire facts (a test below checks they agree): the wires whose
#: system text goes in a parameter of its own (Messages ``system``, Responses
#: ``instructions``, ``GenerateContentConfig.system_instruction``, Converse ``system``), and
#: those whose first message must be a user message (Converse).
SYSTEM_APART = frozenset(("anthropic", "openai_responses", "google", "bedrock"))
STARTS_WITH_USER = frozenset(("bedrock",))


#: A real text file (examples/notes.md), which every target takes in a tool result.
NOTES = tw.File.from_bytes(
    (Path(__file__).resolve().parents[1] / "examples" / "notes.md").read_bytes(), name="notes.md"
)
#: What each message or tool turn is drawn from (tool turns twice as often).
KINDS = ("user", "parts", "system", "assistant", "thinking", "tools", "tools")
CALL = tw.ToolCall(id="call0", name="fetch", arguments={})
#: Conversations every run tries: the issue's Mistral case (an empty reply between tool
#: results and the next user message), a blank message after results, system text alone.
EXAMPLES = [
    [tw.User("text-1"), tw.Assistant([CALL]), tw.ToolResult.of("call0", "fetch", "text-2"),
     tw.Assistant(""), tw.User("text-3")],
    [tw.User("text-1"), tw.Assistant([CALL]), tw.ToolResult.of("call0", "fetch", "text-2"),
     tw.User(""), tw.System("text-3"), tw.Assistant("text-4")],
    [tw.System("text-1"), tw.User("")],
]  # fmt: skip


class Texts:
    """Draws text: blank (``BLANKS``) or a marker unique in the conversation, which the
    request must then hold."""

    def __init__(self, draw: st.DrawFn) -> None:
        self.draw = draw
        self.count = 0

    def __call__(self) -> str:
        if self.draw(st.booleans()):
            return self.draw(st.sampled_from(BLANKS))
        self.count += 1
        return f"text-{self.count}"


@st.composite
def conversations(draw: st.DrawFn, issuer: str) -> list[Any]:
    """Up to 8 messages or tool turns in any order (see the module docstring)."""
    text = Texts(draw)
    messages: list[Any] = [tw.User(text())] if draw(st.booleans()) else []
    calls = 0
    for _ in range(draw(st.integers(1, 8))):
        kind = draw(st.sampled_from(KINDS))
        if kind == "user":
            messages.append(tw.User(text()))
        elif kind == "parts":
            messages.append(tw.User([tw.Text(text=text()) for _ in range(draw(st.integers(1, 3)))]))
        elif kind == "system":
            messages.append(tw.System(text()))
        elif kind == "assistant":
            messages.append(tw.Assistant(text()))
        elif kind == "thinking":
            messages.append(tw.Assistant([*thinking(draw, text, issuer), tw.Text(text=text())]))
        else:
            ids = [f"call{calls + n}" for n in range(draw(st.integers(1, 2)))]
            calls += len(ids)
            said = [tw.Text(text=text())] if draw(st.booleans()) else []
            made = [tw.ToolCall(id=i, name="fetch", arguments={"n": i}) for i in ids]
            messages.append(tw.Assistant([*thinking(draw, text, issuer), *said, *made]))
            messages += [result(draw, i, text()) for i in ids]
    return messages


def thinking(draw: st.DrawFn, text: Texts, issuer: str) -> list[tw.Thinking]:
    """No thinking, or one part: the target's own or another provider's, signed or not,
    or redacted (its data as the signature)."""
    match draw(st.sampled_from(["none", "thought", "redacted"])):
        case "none":
            return []
        case "thought":
            provider = draw(st.sampled_from([issuer, "another-provider"]))
            signature = draw(st.sampled_from([None, SIGNATURE]))
            return [tw.Thinking(text=text(), signature=signature, provider=provider)]
        case _:
            return [tw.Thinking(text="", redacted=True, signature=SIGNATURE, provider=issuer)]


def result(draw: st.DrawFn, call_id: str, value: str) -> tw.ToolResult:
    """A text result, one with a text file beside its text (a fallback or a sibling on
    most targets: a message the plan adds after the results), or an error."""
    match draw(st.sampled_from(["text", "file", "error"])):
        case "text":
            return tw.ToolResult.of(call_id, "fetch", value)
        case "file":
            return tw.ToolResult.of(call_id, "fetch", [value, NOTES])
    return tw.ToolResult(call_id=call_id, name="fetch", output=tw.ErrorTextOutput(value=value))


# --- what the conversation holds, told apart from the plan --------------------------------------


def texts_of(message: Any) -> list[str]:
    """The message's texts (a result's output text), thinking aside."""
    match message:
        case tw.System(text=text):
            return [text]
        case tw.ToolResult(output=tw.ContentOutput(value=parts)):
            return [p.text for p in parts if isinstance(p, tw.Text)]
        case tw.ToolResult(output=output):
            return [getattr(output, "value", "")]
        case tw.Assistant(content=parts):
            return [p.text for p in parts if isinstance(p, tw.Text)]
        case _:
            return [p.text for p in message.parts if isinstance(p, tw.Text)]


def says_something(message: Any) -> bool:
    """A tool result, a tool call, or text that is not white space: sent on every wire."""
    if isinstance(message, tw.ToolResult):
        return True
    if isinstance(message, tw.Assistant) and message.tool_calls:
        return True
    return any(not text.isspace() and text for text in texts_of(message))


def holds_anything(message: Any) -> bool:
    """Anything at all: text (white space too) or thinking with text or a signature."""
    if says_something(message) or any(texts_of(message)):
        return True
    parts = message.content if isinstance(message, tw.Assistant) else ()
    return any(isinstance(p, tw.Thinking) and (p.text or p.signature) for p in parts)


def expected_refusal(messages: list[Any], caps: Capabilities) -> str | None:
    """The refusal the conversation certainly earns (``UNSENDABLE``), or None."""
    apart = caps.wire in SYSTEM_APART
    counted = [m for m in messages if not (apart and isinstance(m, tw.System))]
    if not any(holds_anything(m) for m in counted):
        return "nothing"
    talk = [m for m in messages if not isinstance(m, tw.System) and says_something(m)]
    if caps.wire in STARTS_WITH_USER and talk and isinstance(talk[0], tw.Assistant):
        return "assistant first"
    return None


def possible_refusal(messages: list[Any], caps: Capabilities, refusal: str) -> bool:
    """Whether ``refusal`` may be right: it is certain, or it turns on what the plan leaves
    out that this test does not model (thinking the target cannot take back, white space)."""
    talk = [m for m in messages if not isinstance(m, tw.System)]
    if refusal == "nothing":
        counted = talk if caps.wire in SYSTEM_APART else messages
        return not any(says_something(m) for m in counted)
    users = [i for i, m in enumerate(talk) if isinstance(m, tw.User) and says_something(m)]
    before = talk[: users[0]] if users else talk
    return caps.wire in STARTS_WITH_USER and any(holds_anything(m) for m in before)


def request_json(kwargs: dict[str, Any]) -> str:
    return json.dumps(kwargs, ensure_ascii=False, default=str)


def without_replay_field(kwargs: dict[str, Any], caps: Capabilities) -> dict[str, Any]:
    """The kwargs without the reasoning field the target's table adds to assistant messages
    (``reasoning_replay``: an extension the SDK's types do not declare)."""
    if caps.reasoning_replay is None or "messages" not in kwargs:
        return kwargs
    field = caps.reasoning_replay.field
    return {
        **kwargs,
        "messages": [{k: v for k, v in m.items() if k != field} for m in kwargs["messages"]],
    }


def test_every_target_is_fuzzed_and_the_wire_facts_are_as_written_here() -> None:
    assert sorted(MODELS) == providers()
    wires = {capabilities(f"{t}:{m}").wire for t, m in MODELS.items()}
    assert {w for w in wires if wire_named(w).system_apart} == SYSTEM_APART
    assert {w for w in wires if wire_named(w).starts_with_user} == STARTS_WITH_USER


@pytest.mark.slow
@pytest.mark.parametrize("target", sorted(MODELS))
def test_any_conversation_encodes_to_a_valid_request_or_a_refusal_that_names_why(
    target: str,
) -> None:
    model = f"{target}:{MODELS[target]}"
    caps = capabilities(model)
    validate = validator(caps.wire)

    @FUZZ
    @given(conversations(caps.issuer), st.integers(0, 99))
    @example(EXAMPLES[0], 3)
    @example(EXAMPLES[1], 99)
    @example(EXAMPLES[2], 0)
    def check(messages: list[Any], earlier: int) -> None:
        MEMO.clear()
        certain = expected_refusal(messages, caps)
        try:
            planned = tw.plan_request(messages, model)
        except tw.ConversationError as error:
            named = [r for r, words in UNSENDABLE.items() if words in str(error)]
            assert named, f"refused for another reason: {error}"
            assert certain in (None, named[0]), f"expected {certain!r}: {error}"
            assert possible_refusal(messages, caps, named[0]), f"{error}\n{messages}"
            return
        kwargs = tw.spell(planned).kwargs
        assert certain is None, f"sent although {certain!r}: {kwargs}"
        steps = planned.steps
        bridged = [i for i, step in enumerate(steps) if step is BRIDGE]  # the plan's own
        assert all(i + 1 < len(steps) and isinstance(steps[i + 1], tw.User) for i in bridged)
        turns = laid_out(messages, planned)  # the view reads the same plan
        assert sum(len(turn.steps) for turn in turns) == len(steps)
        assert all(a.last < b.first for a, b in itertools.pairwise(turns))
        validate(without_replay_field(kwargs, caps), model)
        sent = request_json(kwargs)
        lost = [t for m in messages for t in texts_of(m) if t.startswith("text-") and t not in sent]
        assert not lost, f"{lost} not in {sent}"
        with contextlib.suppress(tw.ConversationError):  # it may be all blank
            tw.encode(messages[: earlier % len(messages) + 1], model)  # the agent's last turn
        assert tw.encode(messages, model).kwargs == kwargs  # resumed from the kept plan

    check()
