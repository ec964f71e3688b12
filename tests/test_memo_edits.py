"""A kept plan is reused only where it still holds: after any edit of a history an agent
encoded before (a message replaced, inserted or removed, the history cut or grown, another
history sharing its first message encoded in between), ``encode`` sends exactly what it sends
with an empty memo. memo.LastPlans resumes at the first group an edit can change, and
plan.measure's per-history measures start again where the history changed."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from PIL import Image

from toolwire.content import File, Text, ToolCall
from toolwire.errors import UnsupportedContentError
from toolwire.memo import MEMO
from toolwire.messages import Assistant, System, ToolResult, User
from toolwire.request import encode

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"

MODELS = [
    "anthropic:claude-sonnet-4-5",
    "google:gemini-2.5-flash",
    "bedrock:us.anthropic.claude-sonnet-4-5-20250929-v1:0",
    "openai-chat:gpt-4.1",
    "groq:meta-llama/llama-4-scout-17b-16e-instruct",  # a five-image request budget
]
SYSTEM = System("Use the tools.")  # one object shared by every history, as apps do


def png(seed: int) -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", (24, 16), (seed * 37 % 256, seed * 91 % 256, 7)).save(buffer, "PNG")
    return buffer.getvalue()


def turn(n: int, spec: str) -> list[Any]:
    """One agent step: a user message, a tool turn (one or two calls), or both."""
    if spec == "user":
        return [User(f"Go on {n}.")]
    if spec == "user+file":
        return [User([f"Look {n}:", File.from_bytes(png(n), "image/png", name=f"u{n}.png")])]
    calls = [ToolCall(id=f"c{n}a", name="shot", arguments={"n": n})]
    if spec == "two":
        calls.append(ToolCall(id=f"c{n}b", name="read", arguments={}))
    results = [
        ToolResult.of(
            f"c{n}a", "shot", [f"shot {n}", File.from_bytes(png(n), "image/png", name=f"s{n}.png")]
        )
    ]
    if spec == "two":
        results.insert(0, ToolResult.of(f"c{n}b", "read", "text"))
    return [Assistant([f"Step {n}.", *calls]), *results]


specs = st.lists(st.sampled_from(["user", "user+file", "one", "two"]), min_size=1, max_size=9)


def history(kinds: list[str], offset: int = 0) -> list[Any]:
    messages: list[Any] = [SYSTEM, User("Start.")]
    for n, kind in enumerate(kinds, start=offset):
        messages += turn(n, kind)
    return messages


def edited(messages: list[Any], edit: str, where: int, extra: list[str]) -> list[Any]:
    """``messages`` after one edit (always a valid conversation: edits move whole steps)."""
    steps: list[list[Any]] = [list(messages[:2])]  # the system and first user message stay
    for message in messages[2:]:  # a step begins at each user or assistant message
        if isinstance(message, User | Assistant):
            steps.append([])
        steps[-1].append(message)
    head, body = steps[0], steps[1:]
    k = where % (len(body) + 1)
    more = [m for n, kind in enumerate(extra, start=100) for m in turn(n, kind)]
    if edit == "grow":
        body = [*body, more]
    elif edit == "cut":
        body = body[:k] or body[:1]
    elif edit == "insert":
        body = [*body[:k], more, *body[k:]]
    elif edit == "replace" and k < len(body):
        body = [*body[:k], more, *body[k + 1 :]]
    elif edit == "remove" and len(body) > 1 and k < len(body):
        body = [*body[:k], *body[k + 1 :]]
    return [*head, *(m for step in body for m in step)]


@pytest.mark.parametrize("model", MODELS)
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    kinds=specs,
    edits=st.lists(
        st.tuples(
            st.sampled_from(["grow", "cut", "insert", "replace", "remove"]),
            st.integers(0, 20),
            st.lists(st.sampled_from(["user", "user+file", "one", "two"]), min_size=1, max_size=3),
        ),
        min_size=1,
        max_size=4,
    ),
    other=specs,
)
# A kept tool turn whose next message became a user message: on OpenAI Chat it joins the
# turn's fallback message, so that turn is planned again (a group looks at the message after).
@example(kinds=["one", "one"], edits=[("insert", 1, ["user"])], other=["user"])
def test_any_edit_of_a_kept_history_encodes_as_an_empty_memo_does(
    model: str, kinds: list[str], edits: list[Any], other: list[str]
) -> None:
    MEMO.clear()
    messages = history(kinds)
    neighbour = history(other, offset=50)  # another session, same first message object
    encode(messages, model, on_unsupported="text")
    for edit, where, extra in edits:
        messages = edited(messages, edit, where, extra)
        encode(neighbour, model, on_unsupported="text")
        kept = encode(messages, model, on_unsupported="text")
        remembered = dict(MEMO.last.plans), dict(MEMO.measures.runs)
        MEMO.clear()
        fresh = encode(messages, model, on_unsupported="text")
        assert (kept.kwargs, kept.decisions) == (fresh.kwargs, fresh.decisions)
        MEMO.last.plans.update(remembered[0])  # carry the kept state on to the next edit
        MEMO.measures.runs.update(remembered[1])


# --- a message, once made, stays as it was ---------------------------------------------------

CLAUDE = "anthropic:claude-sonnet-4-5"


def looked_at() -> list[Any]:
    call = ToolCall(id="c1", name="read", arguments={"path": "report.pdf"})
    report = File.from_path(EXAMPLES / "report.pdf")
    return [
        User(["Look."]),
        Assistant([call]),
        ToolResult.of("c1", "read", [Text(text="Here:"), report]),
    ]


@pytest.mark.parametrize("added", ["photo.png", "tone.wav"])
def test_a_file_cannot_be_slipped_into_an_encoded_message_only_a_new_message_carries_it(
    added: str,
) -> None:
    """The memo resumes a kept plan for messages it has seen: had a file been appended to an
    encoded message's parts, the next encode would have sent it with no Decision (or, for a
    WAV file, raised an error about a capabilities override). A message's parts are a tuple, so
    the file goes in a new message, which is planned, and decided, afresh."""
    MEMO.clear()
    messages = looked_at()
    before = encode(messages, CLAUDE, on_unsupported="text")
    assert [d.identifier for d in before.decisions] == ["report.pdf"]
    file = File.from_path(EXAMPLES / added)
    with pytest.raises(AttributeError):
        messages[0].content.append(file)
    assert messages[0].content == (Text(text="Look."),)
    first = messages[0]
    for rebuilt in (
        first.model_copy(update={"content": (*first.content, file)}),
        User([*first.content, file]),
    ):
        messages[0] = rebuilt
        if added == "tone.wav":  # Claude takes no audio: said as such, naming the file
            with pytest.raises(UnsupportedContentError, match="tone.wav .audio/wav. in message 0"):
                encode(messages, CLAUDE)
        kept = encode(messages, CLAUDE, on_unsupported="text")
        mode = "text" if added == "tone.wav" else "native"
        assert [(d.identifier, d.message_index, d.mode) for d in kept.decisions] == [
            (added, 0, mode), ("report.pdf", 2, "native"),
        ]  # fmt: skip
        MEMO.clear()
        fresh = encode(messages, CLAUDE, on_unsupported="text")
        assert (kept.kwargs, kept.decisions) == (fresh.kwargs, fresh.decisions)


def test_json_inside_an_encoded_message_cannot_be_edited_in_place() -> None:
    """A message keeps its digest, and the memo finds its kept plan and spelling by it: had a
    tool call's arguments (or a JSON part or output) been edited in place after an encode,
    the next encode would have sent the old arguments. Every JSON object and array inside a
    message refuses changes (content.FrozenDict, FrozenList); a new part is sent as it is."""
    from toolwire.content import Json
    from toolwire.messages import JsonOutput

    MEMO.clear()
    call = ToolCall(id="c1", name="look", arguments={"at": {"x": 1}, "tags": ["a"]})
    other = ToolCall(id="c2", name="look", arguments={})
    result = ToolResult(call_id="c1", name="look", output=JsonOutput(value={"seen": [1, 2]}))
    parts = ToolResult.of("c2", "look", [Text(text="Both:"), Json(value={"k": [1]})])
    messages = [User("Go."), Assistant([call, other]), result, parts]
    sent = encode(messages, CLAUDE).kwargs["messages"]
    assert sent[1]["content"][0]["input"] == {"at": {"x": 1}, "tags": ["a"]}
    edits = [
        lambda: call.arguments.__setitem__("at", 2),  # type: ignore[index]
        lambda: call.arguments["at"].update(x=2),  # type: ignore[union-attr]
        lambda: call.arguments["tags"].append("b"),  # type: ignore[union-attr]
        lambda: result.output.value["seen"].pop(),  # type: ignore[union-attr]
        lambda: parts.output.value[1].value["k"].clear(),  # type: ignore[union-attr]
    ]
    for edit in edits:
        with pytest.raises(TypeError, match="read-only"):
            edit()
    copied = call.model_copy(update={"arguments": {"at": {"x": 2}}})  # no validator runs there
    with pytest.raises(TypeError, match="read-only"):
        copied.arguments["at"]["x"] = 3  # type: ignore[index]
    messages[1] = Assistant([copied, other])
    sent = encode(messages, CLAUDE).kwargs["messages"]
    assert sent[1]["content"][0]["input"] == {"at": {"x": 2}}
