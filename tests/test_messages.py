"""Messages and tool outputs: tagged JSON round trips, the coercion table, legacy stored values."""

from __future__ import annotations

import base64
import dataclasses
import datetime as dt
import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import BaseModel, TypeAdapter, ValidationError

from toolwire.content import File, Json, Text, Thinking, ToolCall
from toolwire.errors import ConversationError, ToolwireError
from toolwire.messages import (
    Assistant,
    ContentOutput,
    ErrorJsonOutput,
    ErrorTextOutput,
    ExecutionDeniedOutput,
    JsonOutput,
    Message,
    System,
    TaggedOutput,
    TextOutput,
    ToolOutput,
    ToolResult,
    User,
    dump_conversation,
    load_conversation,
    to_output,
)

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
PNG = File.from_bytes((EXAMPLES / "photo.png").read_bytes(), name="photo.png")
PDF = File.from_path(EXAMPLES / "report.pdf")
OUTPUTS = TypeAdapter(TaggedOutput)

ALL_OUTPUTS = [
    (TextOutput(value="done ✓"), "text"),
    (JsonOutput(value={"rows": [1, 2], "next": None}), "json"),
    (ContentOutput(value=[Text(text="see:"), PNG, Json(value=[1]), PDF]), "content"),
    (ErrorTextOutput(value="ValueError: bad"), "error-text"),
    (ErrorJsonOutput(value={"code": 404, "path": "/x"}), "error-json"),
    (ExecutionDeniedOutput(reason="user said no"), "execution-denied"),
    (ExecutionDeniedOutput(), "execution-denied"),
]


@pytest.mark.parametrize(("output", "tag"), ALL_OUTPUTS)
def test_every_output_type_round_trips_by_its_type_tag(output, tag):
    text = OUTPUTS.dump_json(output)
    assert json.loads(text)["type"] == tag
    again = OUTPUTS.validate_json(text)
    assert again == output
    assert type(again) is type(output)
    assert type(output).model_validate_json(output.model_dump_json()) == output


def conversation() -> list:
    return [
        System("Answer briefly."),
        User("Show me the report."),
        User(["Compare with", PNG]),
        Assistant(
            [
                Thinking(text="The user wants…", signature="c2ln", provider="anthropic"),
                Text(text="Reading it."),
                ToolCall(id="c1", name="read", arguments={"path": "report.pdf"}),
                ToolCall(id="c2", name="stat", arguments={}, signature="gemini-sig"),
            ]
        ),
        ToolResult.of("c1", "read", [PDF, "page 1 of 3"]),
        ToolResult.of("c2", "stat", {"url": "https://example.com/a.png", "size": 3}),
        ToolResult(call_id="c3", name="rm", output=ExecutionDeniedOutput(reason="no")),
        Assistant("Done."),
    ]


def test_a_conversation_round_trips_through_json_text_and_parsed_json():
    messages = conversation()
    text = dump_conversation(messages)
    mine = ("paths",)  # its files are this machine's paths: trusted, as your own (foreign)
    assert load_conversation(text, trust=mine) == messages
    assert load_conversation(text.encode(), trust=mine) == messages
    assert load_conversation(json.loads(text), trust=mine) == messages
    assert [m.role for m in load_conversation(text, trust=mine)] == [m.role for m in messages]


def test_message_and_tool_output_are_unions_a_program_can_test_and_validate_with():
    messages = conversation()
    assert all(isinstance(m, Message) for m in messages)
    assert not isinstance({"role": "user", "content": "hi"}, Message)
    assert all(isinstance(output, ToolOutput) for output, _ in ALL_OUTPUTS)

    class Saved(BaseModel):  # a program's own model holding a conversation
        history: list[Message]

    assert Saved.model_validate_json(Saved(history=messages).model_dump_json()).history == messages


def test_dump_conversation_indents_on_request():
    assert dump_conversation([System("x")], indent=2) == (
        '[\n  {\n    "role": "system",\n    "text": "x"\n  }\n]'
    )


def test_a_dict_with_a_url_key_is_never_mistaken_for_a_file():
    file_like = {
        "type": "file",
        "source": {"type": "url", "url": "https://x.test/a.png"},
        "media_type": "image/png",
    }
    outputs = [
        to_output({"url": "https://x.test/a.png"}),
        to_output([{"url": "https://x.test/a.png"}]),
        to_output(file_like),
        ContentOutput(value=[Json(value=file_like), Text(text="x")]),
    ]
    for output in outputs:
        again = OUTPUTS.validate_json(OUTPUTS.dump_json(output))
        assert again == output
        parts = again.value if isinstance(again, ContentOutput) else []
        assert not any(isinstance(p, File) for p in parts)
    assert outputs[0] == JsonOutput(value={"url": "https://x.test/a.png"})


@dataclasses.dataclass
class Point:
    x: int
    y: int


@dataclasses.dataclass
class Shape:
    name: str
    corners: list[Point]
    tags: tuple[str, ...] = ()


class Reading(BaseModel):
    sensor: str
    at: dt.datetime
    values: list[float]


AT = dt.datetime(2025, 1, 2, 3, 4, 5, tzinfo=dt.UTC)

COERCIONS = [
    ("done", TextOutput(value="done")),
    ("", TextOutput(value="")),
    (PNG, ContentOutput(value=[PNG])),
    (Text(text="t"), ContentOutput(value=[Text(text="t")])),
    (Json(value=[1]), ContentOutput(value=[Json(value=[1])])),
    (
        ["caption", PNG, {"k": 1}, 3, None, Text(text="t"), PDF],
        ContentOutput(
            value=[
                Text(text="caption"),
                PNG,
                Json(value={"k": 1}),
                Json(value=3),
                Json(value=None),
                Text(text="t"),
                PDF,
            ]
        ),
    ),
    ((PDF, "after"), ContentOutput(value=[PDF, Text(text="after")])),
    ([Point(1, 2), PNG], ContentOutput(value=[Json(value={"x": 1, "y": 2}), PNG])),
    ({"a": 1, "b": [True, None]}, JsonOutput(value={"a": 1, "b": [True, None]})),
    ({1: "one", "nested": {2: (3, 4)}}, JsonOutput(value={"1": "one", "nested": {"2": [3, 4]}})),
    ([1, "two", None, [3.5]], JsonOutput(value=[1, "two", None, [3.5]])),
    (("a", "b"), JsonOutput(value=["a", "b"])),
    ([], JsonOutput(value=[])),
    (42, JsonOutput(value=42)),
    (2.5, JsonOutput(value=2.5)),
    (True, JsonOutput(value=True)),
    (None, JsonOutput(value=None)),
    (
        Reading(sensor="t1", at=AT, values=[1.5]),
        JsonOutput(value={"sensor": "t1", "at": "2025-01-02T03:04:05Z", "values": [1.5]}),
    ),
    (
        Shape("tri", [Point(0, 0), Point(1, 0)], ("a",)),
        JsonOutput(
            value={"name": "tri", "corners": [{"x": 0, "y": 0}, {"x": 1, "y": 0}], "tags": ["a"]}
        ),
    ),
    (
        [Point(1, 2), {"p": Point(3, 4)}],
        JsonOutput(value=[{"x": 1, "y": 2}, {"p": {"x": 3, "y": 4}}]),
    ),
    (ValueError("bad input"), ErrorTextOutput(value="ValueError: bad input")),
    (KeyError("k"), ErrorTextOutput(value="KeyError: 'k'")),
    (TimeoutError(), ErrorTextOutput(value="TimeoutError")),
]


@pytest.mark.parametrize(("value", "expected"), COERCIONS)
def test_to_output_coerces_each_kind_of_return_value(value, expected):
    output = to_output(value)
    assert output == expected
    assert type(output) is type(expected)
    assert OUTPUTS.validate_json(OUTPUTS.dump_json(output)) == expected


@pytest.mark.parametrize("output", [o for o, _ in ALL_OUTPUTS])
def test_to_output_returns_a_tool_output_itself(output):
    assert to_output(output) is output


def test_to_output_keeps_the_order_of_mixed_parts():
    values = ["a", PNG, "b", PDF, {"c": 1}, "d"]
    output = to_output(values)
    assert [type(p).__name__ for p in output.value] == [
        "Text",
        "File",
        "Text",
        "File",
        "Json",
        "Text",
    ]
    assert [p.text for p in output.value if isinstance(p, Text)] == ["a", "b", "d"]


@pytest.mark.parametrize(
    "value",
    [
        [[PNG]],  # a File only at depth 2
        ["caption", [PNG, "x"]],
        {"image": PNG},
        Shape("with a file", [Point(0, 0)], (PNG,)),  # type: ignore[arg-type]
        [{"nested": Text(text="t")}],
    ],
)
def test_parts_nested_below_the_top_level_are_an_error_not_a_json_dump(value):
    with pytest.raises(
        ToolwireError, match="nested inside a list or dict.*return parts at the top level"
    ):
        to_output(value)


@pytest.mark.parametrize(
    ("value", "cause"),
    [({1, 2}, "set"), (b"\x89PNG", "bytes"), (object(), "object"), (float("nan"), "Out of range")],
)
def test_values_json_cannot_carry_are_an_error_saying_what_a_tool_may_return(value, cause):
    with pytest.raises(ToolwireError, match=cause) as info:
        to_output(value)
    assert "a tool may also return a File, a pydantic model, a dataclass or an Exception" in str(
        info.value
    )


def test_json_outputs_refuse_what_json_cannot_carry_however_they_are_built():
    for build in (
        lambda: JsonOutput(value={"when": AT}),
        lambda: ErrorJsonOutput(value={1, 2}),
        lambda: OUTPUTS.validate_json('{"type": "json", "value": Infinity}'),
    ):
        with pytest.raises(ToolwireError):
            build()


@given(
    st.recursive(
        st.none()
        | st.booleans()
        | st.integers()
        | st.floats(allow_nan=False, allow_infinity=False)
        | st.text(),
        lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
        max_leaves=20,
    )
)
def test_json_and_error_json_outputs_round_trip_any_json_value(value):
    for output in (JsonOutput(value=value), ErrorJsonOutput(value=value)):
        assert OUTPUTS.validate_json(OUTPUTS.dump_json(output)) == output


def test_tool_result_of_coerces_like_to_output():
    assert ToolResult.of("c1", "read", [PNG]) == ToolResult(
        call_id="c1", name="read", output=ContentOutput(value=[PNG])
    )
    assert ToolResult.of("c1", "f", RuntimeError("boom")).is_error
    assert ToolResult.of("c1", "f", ErrorJsonOutput(value={"e": 1})).is_error
    assert not ToolResult.of("c1", "f", "fine").is_error
    assert not ToolResult.of("c1", "f", ExecutionDeniedOutput()).is_error


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("plain text", TextOutput(value="plain text")),
        ({"url": "https://x.test/a.png"}, JsonOutput(value={"url": "https://x.test/a.png"})),
        ({"type": "text", "text": "hi"}, JsonOutput(value={"type": "text", "text": "hi"})),
        ({"type": "file", "name": "a"}, JsonOutput(value={"type": "file", "name": "a"})),
        ({"type": ["odd"]}, JsonOutput(value={"type": ["odd"]})),
        ([1, 2], JsonOutput(value=[1, 2])),
        (7, JsonOutput(value=7)),
        ({"type": "json"}, JsonOutput(value={"type": "json"})),
        ({"type": "content", "name": "a"}, JsonOutput(value={"type": "content", "name": "a"})),
        ({"type": "error-text", "value": "x"}, ErrorTextOutput(value="x")),
        ({"type": "execution-denied"}, ExecutionDeniedOutput()),
    ],
)
def test_legacy_raw_outputs_load_by_coercion(raw, expected):
    assert ToolResult(call_id="c", name="n", output=raw).output == expected
    stored = json.dumps([{"role": "tool", "call_id": "c", "name": "n", "output": raw}])
    (result,) = load_conversation(stored)
    assert result.output == expected
    assert load_conversation(dump_conversation([result])) == [result]


def test_a_tagged_output_with_a_broken_value_is_an_error_not_silently_json():
    stored = '[{"role": "tool", "call_id": "c", "name": "n", "output": {"type": "content", "value": "x"}}]'
    with pytest.raises(ConversationError, match="message 0, field output.value: Input should be"):
        load_conversation(stored)


def test_a_stored_file_whose_bytes_contradict_its_type_is_an_error_not_silently_json():
    pdf = base64.b64encode((EXAMPLES / "report.pdf").read_bytes()).decode()
    file = {"type": "file", "source": {"type": "bytes", "data": pdf}, "media_type": "image/png"}
    output = {"type": "content", "value": [file]}
    stored = json.dumps([{"role": "tool", "call_id": "c", "name": "n", "output": output}])
    with pytest.raises(
        ConversationError, match="declared image/png, but the bytes are application"
    ):
        load_conversation(stored)


def test_user_and_assistant_accept_strings_and_part_lists():
    user = User(["Look:", PNG])
    assert user.content == (Text(text="Look:"), PNG)
    assert User("hi").parts == (Text(text="hi"),)
    assert user.parts == (Text(text="Look:"), PNG)
    call = ToolCall(id="c1", name="f", arguments={})
    assistant = Assistant(["thinking aloud", call])
    assert assistant.content == (Text(text="thinking aloud"), call)
    assert assistant.tool_calls == (call,)
    assert Assistant("ok").content == (Text(text="ok"),)
    assert System("be brief").text == "be brief"


def test_a_user_message_refuses_parts_a_user_cannot_send():
    with pytest.raises(ValidationError):
        User([ToolCall(id="c1", name="f", arguments={})])


def test_messages_are_frozen():
    result = ToolResult.of("c1", "f", "x")
    with pytest.raises(ValidationError, match="frozen"):
        result.name = "g"  # type: ignore[misc]


def messages_with_parts() -> list:
    """A User, an Assistant and a content ToolResult, each built from lists."""
    call = ToolCall(id="c1", name="shot", arguments={"n": [1, 2]})
    return [
        User(["Look:", PNG]),
        User(content=[Text(text="And:"), PDF]),
        Assistant(["Looking.", call]),
        ToolResult.of("c1", "shot", ["Shot:", PNG]),
        ToolResult(call_id="c1", name="shot", output=ContentOutput(value=[Text(text="x"), PDF])),
    ]


def parts_of(message) -> tuple:
    return message.output.value if isinstance(message, ToolResult) else message.content


REBUILT = {
    "from lists": lambda messages: messages,
    "from JSON text": lambda messages: load_conversation(
        dump_conversation(messages), trust=("paths",)
    ),
    "from parsed JSON": lambda messages: load_conversation(
        json.loads(dump_conversation(messages)), trust=("paths",)
    ),
    "from each class's JSON": lambda messages: [
        type(m).model_validate_json(m.model_dump_json()) for m in messages
    ],
    "from python dumps": lambda messages: [
        type(m).model_validate(m.model_dump()) for m in messages
    ],
}


@pytest.mark.parametrize("made", REBUILT)
def test_the_parts_of_a_message_cannot_be_added_to_or_replaced_after_it_is_made(made):
    """Every container of parts is a tuple, however the message was built, so nothing can
    change a message an encoder (and its caches, keyed by the message) has seen."""
    messages = REBUILT[made](messages_with_parts())
    assert messages == messages_with_parts()  # the same values, JSON round trips exact
    for message in messages:
        parts = parts_of(message)
        assert type(parts) is tuple
        with pytest.raises(AttributeError):
            parts.append(PNG)
        with pytest.raises(AttributeError):
            parts.extend([PNG])
        with pytest.raises(TypeError):
            parts[0] = PNG
    user, _, assistant, _, _ = messages
    assert type(user.parts) is tuple and type(User("hi").parts) is tuple
    assert type(assistant.tool_calls) is tuple
    assert type(to_output([PNG]).value) is tuple and type(to_output(PNG).value) is tuple


def test_a_copy_with_new_parts_holds_them_in_a_tuple_checked_as_the_constructor_checks():
    """pydantic's ``model_copy`` stores an update unchecked; a message's checks it, so a copy
    given a list holds a tuple, and a part its role cannot send is refused."""
    user, _, assistant, result, _ = messages_with_parts()
    copies = [
        (user.model_copy(update={"content": [*user.content, "More:", PDF]}), "content"),
        (assistant.model_copy(update={"content": ["Done."]}), "content"),
        (result.output.model_copy(update={"value": [*result.output.value, PDF]}), "value"),
    ]
    for copy, field in copies:
        assert type(getattr(copy, field)) is tuple
    assert copies[0][0].content == (Text(text="Look:"), PNG, Text(text="More:"), PDF)
    assert copies[0][0].content[1] is PNG  # the parts themselves are not copied
    assert copies[1][0] == Assistant("Done.")
    assert copies[2][0] == ContentOutput(value=[Text(text="Shot:"), PNG, PDF])
    assert user.model_copy() == user and user.model_copy(deep=True) == user
    with pytest.raises(ValidationError):
        user.model_copy(update={"content": [ToolCall(id="c1", name="f", arguments={})]})


@pytest.mark.parametrize(
    ("stored", "said"),
    [
        ("nope", "Invalid JSON"),
        ('[{"role": "user", "content": 5}]', "message 0, field content"),
        ('[{"role": "robot"}]', "message 0: Input tag 'robot'"),
        ({"role": "user"}, "a JSON list of messages"),
    ],
)
def test_a_conversation_that_is_not_one_is_a_conversation_error_in_one_line(
    stored: object, said: str
) -> None:
    """Bad input is a ToolwireError naming where it is wrong (the first message and field),
    never pydantic's own many-line ValidationError."""
    with pytest.raises(ConversationError, match=said) as caught:
        load_conversation(stored)  # type: ignore[arg-type]
    assert "\n" not in str(caught.value)
