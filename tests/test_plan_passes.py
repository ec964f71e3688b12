"""The plan's later passes decide what encoders used to: replay by issuer, the wire's layout
rules (Bedrock: roles merged, blank text left out, lone documents labelled), the error flag,
the ids and names the wire gets, and whether the payload needs its surrogates scrubbed."""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import Any

import pytest

from toolwire.capability import capabilities
from toolwire.content import File, ProviderPart, Text, Thinking, ToolCall
from toolwire.errors import ConversationError
from toolwire.messages import (
    Assistant,
    ContentOutput,
    ErrorTextOutput,
    System,
    ToolResult,
    User,
)
from toolwire.plan import ToolTurn, plan
from toolwire.plan.ids import accepted_id
from toolwire.providers import BUILT_IN, wires
from toolwire.turns import EMPTY_RESULT_TEXT

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
CLAUDE = capabilities("anthropic:claude-sonnet-4-5")
GEMINI = capabilities("google:gemini-3-pro-preview")
BEDROCK_CLAUDE = capabilities("bedrock:us.anthropic.claude-sonnet-4-5-20250929-v1:0")
BEDROCK_LLAMA = capabilities("bedrock:meta.llama4-maverick-17b-instruct-v1:0")


def signed(provider: str) -> Thinking:
    return Thinking(text=f"{provider} thinks.", signature="c2ln", provider=provider)


def pdf(name: str = "report.pdf") -> File:
    return File.from_bytes((EXAMPLES / "report.pdf").read_bytes(), name=name)


# --- replay by issuer ------------------------------------------------------------------------


def test_the_plan_keeps_only_the_thinking_and_call_signatures_the_target_can_verify() -> None:
    call = ToolCall(id="c1", name="look", arguments={}, signature="c2ln", provider="google")
    answer = Assistant([signed("anthropic"), signed("google"), Text(text="Looking."), call])
    messages = [User("Go."), answer, ToolResult.of("c1", "look", "done")]
    (sent,) = [s for s in plan(messages, CLAUDE).steps if isinstance(s, Assistant)]
    assert [p for p in sent.content if isinstance(p, Thinking)] == [signed("anthropic")]
    assert sent.tool_calls[0].signature is None and sent.tool_calls[0].provider is None
    (kept,) = [s for s in plan(messages, GEMINI).steps if isinstance(s, Assistant)]
    assert [p for p in kept.content if isinstance(p, Thinking)] == [signed("google")]
    assert kept.tool_calls[0] is call  # the issuer's own signature stays


def test_unsigned_thinking_is_left_out_by_the_plan_where_the_wire_needs_a_signature() -> None:
    """The plan, not the encoder, leaves out thinking the wire cannot take back unsigned
    (Wire.thinking_needs_signature): the planned steps hold only what is spelled."""
    unsigned = Thinking(text="unsigned", provider="anthropic")
    messages = [User("Go."), Assistant([signed("anthropic"), unsigned, Text(text="Done.")])]
    (kept,) = [s for s in plan(messages, CLAUDE).steps if isinstance(s, Assistant)]
    assert kept.content == (signed("anthropic"), Text(text="Done."))
    bedrock_own = Thinking(text="unsigned", provider=BEDROCK_LLAMA.issuer)
    steps = plan([User("Go."), Assistant([bedrock_own, Text(text="Hi.")])], BEDROCK_LLAMA).steps
    assert bedrock_own in steps[1].content  # Converse takes reasoning text without a signature


@pytest.mark.parametrize(
    ("caps", "part", "what"),
    [
        (GEMINI, Thinking(text="t", signature="not base64!", provider="google"), "thinking part"),
        (
            GEMINI,
            ToolCall(id="c1", name="f", arguments={}, signature="not base64!", provider="google"),
            "tool call 'c1'",
        ),
        (
            BEDROCK_CLAUDE,
            Thinking(
                text="", signature="not base64!", redacted=True, provider=BEDROCK_CLAUDE.issuer
            ),
            "redacted reasoning",
        ),
        (
            GEMINI,
            Thinking(text="", signature="not base64!", redacted=True, provider="google"),
            "redacted reasoning",
        ),
        (
            GEMINI,
            ProviderPart(
                provider="google",
                wire="google",
                kind="inline_data",
                data={"inline_data": {"mime_type": "image/png", "data": "not base64!"}},
            ),
            "inline_data.data",
        ),
    ],
    ids=["gemini-thinking", "gemini-call", "bedrock-redacted", "gemini-redacted", "gemini-image"],
)
def test_a_signature_the_wire_sends_as_bytes_is_checked_by_the_plan(
    caps: Any, part: Any, what: str
) -> None:
    """A signature that is not base64 is refused when planning (plan(), the view and
    estimate_tokens see it too), not by the encoder halfway through spelling."""
    messages: list[Any] = [User("Go."), Assistant([part, Text(text="Hi.")])]
    if isinstance(part, ToolCall):
        messages.append(ToolResult.of("c1", "f", "ok"))
    with pytest.raises(ConversationError, match=f"message 1: .*{what}.* not base64"):
        plan(messages, caps)


def test_bedrock_replays_thinking_per_model_family() -> None:
    messages = [User("Go."), Assistant([signed(BEDROCK_CLAUDE.issuer), Text(text="Hi.")])]
    assert plan(messages, BEDROCK_CLAUDE).steps[1] is messages[1]  # unchanged: not copied
    other = plan(messages, BEDROCK_LLAMA).steps[1]
    assert isinstance(other, Assistant) and other.content == (Text(text="Hi."),)


def test_an_assistant_message_of_foreign_thinking_alone_is_left_out() -> None:
    messages = [User("Go."), Assistant([signed("google")]), User("Again.")]
    assert [type(s).__name__ for s in plan(messages, CLAUDE).steps] == ["User", "User"]


# --- the wire's rules (Bedrock Converse) -----------------------------------------------------


def test_bedrock_plans_merge_messages_of_one_role_across_a_left_out_assistant() -> None:
    messages = [User("Hi."), Assistant([signed("google")]), User("Still there?"), User(" \x85")]
    steps = plan(messages, BEDROCK_CLAUDE).steps
    assert len(steps) == 1 and isinstance(steps[0], User)
    assert steps[0].parts == (Text(text="Hi."), Text(text="Still there?"))  # blank: left out
    chat = capabilities("openai-chat:gpt-4.1")  # no role rule, white space is text
    assert [s.content for s in plan(messages, chat).steps] == ["Hi.", "Still there?", " \x85"]


def test_bedrock_plans_keep_system_text_apart_when_merging() -> None:
    messages = [System("Be brief."), User("Hi."), System("Really."), User("Hello?")]
    steps = plan(messages, BEDROCK_CLAUDE).steps
    assert [type(s).__name__ for s in steps] == ["System", "User", "System"]


def test_a_user_message_after_a_tool_turn_is_merged_into_it_on_bedrock() -> None:
    call = Assistant([ToolCall(id="c1", name="look", arguments={})])
    messages = [User("Go."), call, ToolResult.of("c1", "look", "done"), Assistant([])]
    messages += [User([pdf()])]
    turn = plan(messages, BEDROCK_CLAUDE).steps[-1]
    assert isinstance(turn, ToolTurn)
    assert turn.extra == (Text(text="This is file report.pdf:"), pdf())  # labelled: no text


def test_a_message_of_documents_alone_gets_a_label_before_each_on_bedrock_only() -> None:
    messages = [User([pdf("a.pdf"), pdf("b.pdf")])]
    (user,) = plan(messages, BEDROCK_CLAUDE).steps
    assert isinstance(user, User)
    assert [p.text if isinstance(p, Text) else p.identifier for p in user.parts] == [
        "This is file a.pdf:", "a.pdf", "This is file b.pdf:", "b.pdf",
    ]  # fmt: skip
    (plain,) = plan(messages, CLAUDE).steps
    assert isinstance(plain, User) and not any(isinstance(p, Text) for p in plain.parts)


def test_blank_text_in_a_tool_result_is_left_out_and_an_emptied_result_says_so() -> None:
    call = Assistant([ToolCall(id="c1", name="look", arguments={})])
    blank = ContentOutput(value=[Text(text="\u2028"), Text(text=" ")])
    messages = [User("Go."), call, ToolResult(call_id="c1", name="look", output=blank)]
    (turn,) = [s for s in plan(messages, BEDROCK_CLAUDE).steps if isinstance(s, ToolTurn)]
    assert turn.results[0].parts == (Text(text=EMPTY_RESULT_TEXT),)


def test_an_empty_text_beside_a_file_is_not_text_the_files_fallback_finds_above() -> None:
    """A file whose own text is blank, beside an empty text: its text fallback keeps its text
    (an empty text of the result is left out, so it is nothing the fallback could repeat)."""
    audio = File.from_bytes(b"RIFF\x00\x00\x00\x00WAVEfmt " + bytes(64), "audio/wav", name="a.wav")
    audio = audio.model_copy(update={"text": "   "})
    call = Assistant([ToolCall(id="c1", name="listen", arguments={})])
    output = ContentOutput(value=[Text(text=""), audio])
    messages = [User("Go."), call, ToolResult(call_id="c1", name="listen", output=output)]
    laid = plan(messages, CLAUDE, on_unsupported="text")
    (turn,) = [s for s in laid.steps if isinstance(s, ToolTurn)]
    (said,) = turn.results[0].parts
    assert said.text.startswith("[Audio: a.wav") and "above" not in said.text


def test_a_result_whose_file_converts_to_nothing_says_so() -> None:
    """A caller's converter may return no parts; the result is then not sent empty (providers
    reject an empty tool result) but says ``(no output)``, as a result of empty texts does."""
    audio = File.from_bytes(b"RIFF\x00\x00\x00\x00WAVEfmt " + bytes(64), "audio/wav", name="a.wav")
    call = Assistant([ToolCall(id="c1", name="listen", arguments={})])
    output = ContentOutput(value=[audio])
    messages = [User("Go."), call, ToolResult(call_id="c1", name="listen", output=output)]
    laid = plan(messages, CLAUDE, on_unsupported="convert", converters={"audio/*": lambda f: []})
    (turn,) = [s for s in laid.steps if isinstance(s, ToolTurn)]
    assert turn.results[0].parts == (Text(text=EMPTY_RESULT_TEXT),)


# --- every step holds tuples -----------------------------------------------------------------


def holds_tuples(step: Any) -> bool:
    """Whether the step's parts are tuples, as in every message (nothing a cache sees can
    change behind it)."""
    if isinstance(step, ToolTurn):
        return type(step.extra) is tuple and all(type(r.parts) is tuple for r in step.results)
    if isinstance(step, User):
        return type(step.content) in (str, tuple)
    return isinstance(step, System) or isinstance(step, Assistant) and type(step.content) is tuple


def rebuilt_everywhere() -> list[Any]:
    """A history each pass rebuilds some step of (on some targets): a file said as text, blank
    text, documents alone, foreign thinking, fallback files after a tool turn, messages of one
    role in a row."""
    audio = File.from_bytes((EXAMPLES / "tone.wav").read_bytes(), name="tone.wav")
    photo = File.from_bytes((EXAMPLES / "photo.png").read_bytes(), name="photo.png")
    calls = [ToolCall(id=c, name="look", arguments={}) for c in ("a", "b")]
    return [
        System("Be brief."),
        User(["Listen:", audio]),
        Assistant("Heard."),
        User([" ", pdf("a.pdf")]),
        Assistant("Read."),
        User([" ", "Now look."]),
        Assistant([signed("google"), Text(text="Looking."), Text(text=" "), *calls]),
        ToolResult.of("a", "look", ["Shot:", photo]),
        ToolResult.of("b", "look", [pdf("b.pdf"), audio]),
        User("Which is newer?"),
        Assistant("The PDF."),
        Assistant([signed("google")]),
        Assistant("Anything else?"),
        User("No."),
        User("Thanks."),
    ]


@pytest.mark.parametrize(
    "model",
    [
        "anthropic:claude-sonnet-4-5",
        "bedrock:us.anthropic.claude-sonnet-4-5-20250929-v1:0",
        "bedrock:meta.llama4-maverick-17b-instruct-v1:0",
        "google:gemini-3-pro-preview",
        "openai:gpt-5",
        "openai-chat:gpt-4.1",
        "mistral:mistral-medium-latest",
        "cohere:command-a-reasoning-08-2025",
        "ollama:qwen3:8b",
    ],
)
def test_every_step_the_planner_makes_holds_its_parts_in_tuples(model: str) -> None:
    messages = rebuilt_everywhere()
    steps = plan(messages, capabilities(model), on_unsupported="text").steps
    made = [s for s in steps if not any(s is m for m in messages)]
    assert made and all(holds_tuples(s) for s in steps)


# --- error flag, ids, scrub ------------------------------------------------------------------


@pytest.mark.parametrize(("caps", "flag"), [(BEDROCK_CLAUDE, True), (BEDROCK_LLAMA, False)])
def test_the_error_flag_is_set_where_the_table_says_the_target_supports_it(
    caps: Any, flag: bool
) -> None:
    call = Assistant([ToolCall(id="c1", name="look", arguments={})])
    failed = ToolResult(call_id="c1", name="look", output=ErrorTextOutput(value="boom"))
    (turn,) = [s for s in plan([User("Go."), call, failed], caps).steps if isinstance(s, ToolTurn)]
    assert turn.results[0].is_error and turn.results[0].error_flag is flag


def test_the_plan_names_the_ids_and_names_the_wire_gets() -> None:
    call = Assistant([ToolCall(id="a.b:c", name="get weather", arguments={})])
    messages = [User("Go."), call, ToolResult.of("a.b:c", "get weather", "sunny")]
    names = plan(messages, BEDROCK_CLAUDE).names
    assert names.call_id("a.b:c") == accepted_id("bedrock", "a.b:c") != "a.b:c"
    assert names.name("get weather").startswith("get_weather_")


def test_the_plan_says_when_the_payload_needs_its_lone_surrogates_scrubbed() -> None:
    assert not plan([User("fine")], CLAUDE).scrub
    assert plan([User("bad \ud800")], CLAUDE).scrub


def test_gemini_3_plans_ask_for_a_signature_on_the_first_replayed_call() -> None:
    assert plan([User("Go.")], GEMINI).sign_first_call
    assert not plan([User("Go.")], capabilities("google:gemini-2.5-flash")).sign_first_call


# --- the registry ----------------------------------------------------------------------------


@pytest.mark.parametrize("wire", BUILT_IN)
def test_one_registry_entry_gives_each_wire_its_encoder_and_its_decoder(wire: str) -> None:
    found = wires()[wire]
    assert found.step is importlib.import_module(f"toolwire.providers.{wire}").step
    decoder = importlib.import_module(f"toolwire.decoders.{wire}")
    assert callable(found.decoder.decode) and callable(found.decoder.describe_stop)
    assert found.decoder.decode.__name__ == f"{decoder.__name__}.decode"
    assert found.decoder.describe_stop.__name__ == f"{decoder.__name__}.describe_stop"


# --- repeats ----------------------------------------------------------------------------------


def test_a_file_repeats_only_the_first_file_of_the_same_content() -> None:
    alone = File.from_bytes(b"%PDF-1.4 alone", "application/pdf", name="alone.pdf")
    twin_a = File.from_bytes(b"%PDF-1.4 twin", "application/pdf", name="a.pdf")
    twin_b = File.from_bytes(b"%PDF-1.4 twin", "application/pdf", name="b.pdf")
    other = File.from_bytes(b"%PDF-1.4 twix", "application/pdf", name="c.pdf")  # same length
    decisions = plan([User([alone, twin_a, twin_b, other])], CLAUDE).decisions
    assert [d.reason.endswith("repeats file a.pdf of message 0") for d in decisions] == [
        False, False, True, False,
    ]  # fmt: skip


def test_a_decision_is_data_the_planner_fills_in() -> None:
    """A Decision holds what happened as fields (mode, position, limit, resize, repeats); its
    reason is rendered from them (values.render_reason), and it is a plain frozen dataclass."""
    import dataclasses

    from toolwire.plan.values import Repeat, render_reason

    png = (Path(__file__).parent.parent / "examples" / "photo.png").read_bytes()
    twice = [File.from_bytes(png, "image/png", name=n) for n in ("a.png", "b.png")]
    ask = [ToolCall(id=c, name="shot", arguments={}) for c in ("a", "b")]
    messages = [
        User("Look"), Assistant(ask), ToolResult.of("a", "shot", twice[0]),
        ToolResult.of("b", "shot", twice[1]),
    ]  # fmt: skip
    first, second = plan(messages, capabilities("anthropic:claude-sonnet-4-5")).decisions
    assert (first.mode, first.position, first.limit, first.repeats) == (
        "native",
        "tool_result",
        None,
        None,
    )
    assert second.repeats == Repeat("a.png", 2)
    basis = dataclasses.replace(second, repeats=None, reason=first.reason)
    assert second.reason == render_reason(basis.reason, Repeat("a.png", 2))
    with pytest.raises(dataclasses.FrozenInstanceError):
        second.mode = "text"  # type: ignore[misc]


def test_thinking_goes_only_where_the_wire_has_a_place_for_it_or_the_table_replays_it() -> None:
    """Chat Completions have no field for thinking (Wire.takes_thinking is false): the plan
    keeps it only where the table replays it (DeepSeek: on messages that made tool calls)
    and leaves an assistant message of thinking alone out, so the encoder drops nothing."""
    chat = capabilities("openai-chat:gpt-4.1")
    own = Thinking(text="Let me see.", provider=chat.issuer)
    messages = [User("Hi."), Assistant([own]), Assistant([own, Text(text="Hello.")])]
    steps = plan(messages, chat).steps
    assert [s.content for s in steps if isinstance(s, Assistant)] == [(Text(text="Hello."),)]

    deepseek = capabilities("openai-compatible:deepseek-reasoner")
    thought = Thinking(text="Call it.", provider=deepseek.issuer)
    call = ToolCall(id="c1", name="f", arguments={})
    loop = [
        User("Go."),
        Assistant([thought, call]),
        ToolResult.of("c1", "f", "ok"),
        Assistant([thought, Text(text="Done.")]),
    ]
    kept = [s.content for s in plan(loop, deepseek).steps if isinstance(s, Assistant)]
    assert kept == [(thought, call), (Text(text="Done."),)]


@pytest.mark.parametrize("model", ["ollama:qwen3", "cohere:command-a-reasoning-08-2025"])
def test_thinking_goes_back_as_text_alone_where_the_wire_has_only_text_for_it(model: str) -> None:
    """Ollama's ``thinking`` field and Cohere's thinking item hold text alone
    (Wire.thinking_needs_text, takes_redacted_thinking): the plan leaves out the target's own redacted thinking and
    thinking with no text, and an assistant message of them alone, so the encoder drops
    nothing and spells every thinking part it is given."""
    caps = capabilities(model)
    said = Thinking(text="Let me see.", provider=caps.issuer)
    redacted = Thinking(text="", signature="b3BhcXVl", redacted=True, provider=caps.issuer)
    blank = Thinking(text="", provider=caps.issuer)
    messages = [
        User("Hi."),
        Assistant([redacted, blank]),
        User("Well?"),
        Assistant([redacted, said, blank, Text(text="Hello.")]),
    ]
    steps = plan(messages, caps).steps
    assert [s.content for s in steps if isinstance(s, Assistant)] == [(said, Text(text="Hello."))]


_MODEL_ON = {
    "anthropic": "anthropic:claude-sonnet-4-6",
    "openai_chat": "openai-chat:gpt-4.1",
    "openai_responses": "openai:gpt-4.1",
    "google": "google:gemini-2.5-flash",
    "bedrock": "bedrock:us.anthropic.claude-sonnet-4-5-20250929-v1:0",
    "mistral": "mistral:mistral-large-latest",
    "cohere": "cohere:command-a-03-2025",
    "ollama": "ollama:qwen3",
}


@pytest.mark.parametrize("wire", BUILT_IN)
def test_no_wire_is_given_empty_text_or_an_empty_message(wire: str) -> None:
    """No service takes an empty text block, and an assistant message with nothing in it is
    refused (Chat: content or tool_calls required; Anthropic: "text content blocks must be
    non-empty"): the plan leaves them out on every wire, so no encoder has to."""
    caps = capabilities(_MODEL_ON[wire])
    messages = [
        System(""),
        User("Hi."),
        Assistant([Text(text=""), Text(text="")]),
        User(""),
        User([Text(text=""), Text(text="Again.")]),
        Assistant(""),
    ]
    steps = plan(messages, caps).steps
    texts = [p.text for s in steps for p in s.parts if isinstance(p, Text)]
    assert "" not in texts and not any(isinstance(s, Assistant | System) for s in steps)
    assert "Again." in texts


def test_anthropic_is_given_no_text_of_white_space_only() -> None:
    """Anthropic refuses "text content blocks must contain non-whitespace text"
    (Wire.rejects_blank_text), as Converse does."""
    messages = [User("Hi."), Assistant([Text(text=" \n"), Text(text="Yes.")]), User("\t")]
    steps = plan(messages, CLAUDE).steps
    assert [s.content for s in steps] == ["Hi.", (Text(text="Yes."),)]


def test_citations_on_a_blank_text_left_out_go_with_it() -> None:
    """Anthropic's citations come as a provider part right after the text they annotate; the
    encoder puts them back on the text block before them. Where that text is white space
    (left out: Anthropic refuses it), its citations are left out too, not put on the text
    before it (the audit's D5)."""

    def cited(text: str) -> ProviderPart:
        where = {"type": "char_location", "cited_text": text, "document_index": 0,
                 "document_title": "d", "start_char_index": 0, "end_char_index": len(text)}  # fmt: skip
        return ProviderPart(provider=CLAUDE.issuer, wire="anthropic", kind="citations",
                            data={"citations": [where]})  # fmt: skip

    sky, grass = cited("sky blue"), cited("grass green")
    answer = Assistant([Text(text="The sky is blue."), sky, Text(text="\n\n"), grass])
    steps = plan([User("Why?"), answer, User("More.")], CLAUDE).steps
    assert steps[1].content == (Text(text="The sky is blue."), sky)
