"""The lone-surrogate check reads every field of the plan's own values (plan.ids walks the
fields of pydantic models and dataclasses): a field it did not read would be a string the
check never sees, and a lone surrogate there would reach the SDK and fail its UTF-8
encoding."""

from __future__ import annotations

import dataclasses
import typing
from typing import Any

import pytest

from toolwire.content import File, Json, Text, Thinking, ToolCall
from toolwire.messages import Assistant, System, User
from toolwire.plan import PlannedResult, ToolTurn
from toolwire.plan.ids import has_lone_surrogate

LONE = "bad \ud800 text"


def _fields(kind: type) -> dict[str, Any]:
    if hasattr(kind, "_fields"):  # a NamedTuple
        return typing.get_type_hints(kind)
    if dataclasses.is_dataclass(kind):
        hints = typing.get_type_hints(kind)
        return {f.name: hints[f.name] for f in dataclasses.fields(kind)}
    return {name: info.annotation for name, info in kind.model_fields.items()}  # type: ignore[attr-defined]


def _holds_no_text(annotation: Any) -> bool:
    return annotation is bool or typing.get_origin(annotation) is typing.Literal


#: The plan's own values, and the fields of each that may hold text.
TEXT_FIELDS = {
    kind: tuple(name for name, hint in _fields(kind).items() if not _holds_no_text(hint))
    for kind in (
        Text,
        File,
        ToolCall,
        Thinking,
        Json,
        System,
        User,
        Assistant,
        PlannedResult,
        ToolTurn,
    )
}


@dataclasses.dataclass(frozen=True)
class _Holder:
    label: str
    inner: Any


@pytest.mark.parametrize("holder", ["dataclass", "model", "object"])
def test_a_value_of_a_new_kind_is_walked_by_its_fields(holder: str) -> None:
    """A class added later needs no table: the walk reads the fields of any dataclass or
    pydantic model, and the attributes of other objects."""
    import pydantic

    class Model(pydantic.BaseModel):
        label: str
        inner: Any

    class Plain:
        def __init__(self, label: str, inner: Any) -> None:
            self.label, self.inner = label, inner

    kind: Any = {"dataclass": _Holder, "model": Model, "object": Plain}[holder]

    def make(label: str, inner: Any) -> Any:
        return kind(label=label, inner=inner)

    assert has_lone_surrogate(make("ok", [{"k": LONE}]))
    assert has_lone_surrogate(make(LONE, None))
    assert not has_lone_surrogate(make("ok", [{"k": "fine é"}]))


def test_a_hostile_nesting_deeper_than_the_recursion_limit_is_walked() -> None:
    deep: Any = LONE
    for _ in range(100_000):
        deep = [deep]
    assert has_lone_surrogate({"k": deep})


def test_a_lone_surrogate_is_found_in_each_walked_field() -> None:
    call = ToolCall(id="c1", name="f", arguments={"k": ["v"]})
    photo = File.from_bytes(b"\x89PNG\r\n\x1a\n" + b"\0" * 32, "image/png", name="a.png")
    cases = [
        Text(text=LONE),
        System(text=LONE),
        User(content=LONE),
        User(content=[Text(text="ok"), Text(text=LONE)]),
        Assistant(content=[call.model_copy(update={"id": LONE})]),
        Assistant(content=[call.model_copy(update={"name": LONE})]),
        Assistant(content=[call.model_copy(update={"arguments": {"k": [LONE]}})]),
        Assistant(content=[call.model_copy(update={"arguments": {LONE: 1}})]),
        Assistant(content=[call.model_copy(update={"signature": LONE})]),
        Assistant(content=[call.model_copy(update={"provider": LONE})]),
        Assistant(content=[call.model_copy(update={"invalid_arguments": LONE})]),
        Assistant(content=[Thinking(text=LONE)]),
        Assistant(content=[Thinking(text="t", signature=LONE)]),
        Assistant(content=[Thinking(text="t", provider=LONE)]),
        Assistant(content=[Thinking(text="t", id=LONE)]),
        Json(value={"a": {"b": LONE}}),
        photo.model_copy(update={"name": LONE}),
        photo.model_copy(update={"text": LONE}),
        File.from_url(f"https://example.com/{LONE}", "image/png"),
        ToolTurn(results=(PlannedResult(LONE, "f", ()),)),
        ToolTurn(results=(PlannedResult("c1", LONE, ()),)),
        ToolTurn(results=(PlannedResult("c1", "f", (Text(text=LONE),)),)),
        ToolTurn(results=(), extra=(Text(text=LONE),)),
    ]
    for case in cases:
        assert has_lone_surrogate(case), case
        assert not has_lone_surrogate(_clean(case)), case


def _clean(case: Any) -> Any:
    """The same shape with the surrogate gone (the check is not just always true)."""
    if isinstance(case, str):
        return case.replace("\ud800", "?")
    if isinstance(case, dict):
        return {_clean(k): _clean(v) for k, v in case.items()}
    if isinstance(case, tuple) and hasattr(case, "_fields"):  # a NamedTuple
        return type(case)._make(_clean(v) for v in case)
    if isinstance(case, list | tuple):
        return type(case)(_clean(v) for v in case)
    if dataclasses.is_dataclass(case) and not isinstance(case, type):
        return dataclasses.replace(
            case, **{f.name: _clean(getattr(case, f.name)) for f in dataclasses.fields(case)}
        )
    if hasattr(type(case), "model_fields"):
        return case.model_copy(
            update={k: _clean(getattr(case, k)) for k in type(case).model_fields}
        )
    return case


@pytest.mark.parametrize(
    "file",
    [
        File.from_url("https://example.com/a\ud800.png", "image/png"),
        File.from_provider_file("anthropic", "file_\udfff", "application/pdf"),
    ],
    ids=["url", "file-id"],
)
def test_a_url_or_file_id_with_a_lone_surrogate_is_scrubbed_not_a_crash(file: File) -> None:
    """Its identifier hashes the text as it is (surrogatepass); the payload gets U+FFFD."""
    import json

    from toolwire.request import encode

    request = encode([User(content=["Look:", file])], "anthropic:claude-sonnet-4-5")
    json.dumps(request.to_json(), ensure_ascii=False).encode("utf-8")
    assert request.decisions[0].identifier.startswith("file-")


# --- the budgets' measuring pass finds them too (plan.measure) --------------------------------


def _message_cases() -> list[Any]:
    """A lone surrogate in each string a message can hold, as whole messages: each part case
    above in a user message, a tool result or an assistant message where it can go, and each
    string of a tool result and its outputs."""
    from toolwire.messages import (
        ContentOutput,
        ErrorJsonOutput,
        ErrorTextOutput,
        ExecutionDeniedOutput,
        JsonOutput,
        TextOutput,
        ToolResult,
    )

    call = ToolCall(id="c1", name="f", arguments={"k": ["v"]})
    photo = File.from_bytes(b"\x89PNG\r\n\x1a\n" + b"\0" * 32, "image/png", name="a.png")
    files = [
        photo.model_copy(update={"name": LONE}),
        photo.model_copy(update={"text": LONE}),
        File.from_url(f"https://example.com/{LONE}", "image/png"),
        File.from_provider_file("anthropic", f"file_{LONE}", "image/png"),
    ]
    calls = [
        call.model_copy(update={field: LONE})
        for field in ("id", "name", "signature", "provider", "invalid_arguments")
    ]
    calls += [
        call.model_copy(update={"arguments": {"k": [LONE]}}),
        call.model_copy(update={"arguments": {LONE: 1}}),
    ]
    thinking = [
        Thinking(text=LONE),
        *(Thinking(text="t", **{f: LONE}) for f in ("signature", "provider", "id")),
    ]

    def result(output: Any, call_id: str = "c1", name: str = "f") -> ToolResult:
        return ToolResult(call_id=call_id, name=name, output=output)

    return [
        System(text=LONE),
        User(content=LONE),
        User(content=[Text(text="ok"), Text(text=LONE)]),
        *(User(content=["Look:", file]) for file in files),
        *(Assistant(content=[c]) for c in calls),
        *(Assistant(content=[t]) for t in thinking),
        result(TextOutput(value="ok"), call_id=LONE),
        result(TextOutput(value="ok"), name=LONE),
        result(TextOutput(value=LONE)),
        result(ErrorTextOutput(value=LONE)),
        result(JsonOutput(value={"a": {"b": LONE}})),
        result(JsonOutput(value={LONE: 1})),
        result(ErrorJsonOutput(value=[LONE])),
        result(ExecutionDeniedOutput(reason=LONE)),
        result(ContentOutput(value=[Text(text=LONE)])),
        result(ContentOutput(value=[Json(value={"a": LONE})])),
        *(result(ContentOutput(value=[Text(text="ok"), file])) for file in files),
    ]


def _tallied_lone(message: Any, model: str) -> bool:
    """Whether the layout's tally (plan.tally), measured as the planner lays ``message`` out,
    counts it as holding a lone surrogate (a tool result after the call it answers; the
    tally's figure before its group, ``Planner.marks``, taken away)."""
    from toolwire.capability import capabilities
    from toolwire.messages import ToolResult
    from toolwire.plan.files import Budget, Policy
    from toolwire.plan.layout import Planner
    from toolwire.plan.tally import LONE, Tally

    caps = capabilities(model)
    messages = [message]
    if isinstance(message, ToolResult):
        call = ToolCall(id=message.call_id, name=message.name, arguments={})
        messages = [Assistant(content=[call]), message]
    planner = Planner(Policy(caps, "text", None, None), Budget({}), Tally(caps, None))
    planner.run(messages)
    return planner.tally[LONE] - planner.marks[-1][3][LONE] == 1


@pytest.mark.parametrize(
    "model",
    [
        "google:gemini-3-pro-preview",
        "bedrock:us.anthropic.claude-sonnet-4-5-20250929-v1:0",
        "openai:gpt-4.1",
    ],
)
def test_the_layouts_tally_finds_a_lone_surrogate_in_each_string(model: str) -> None:
    """The plan takes the tally's answer instead of walking its steps (plan.tally), on every
    target: a string it did not read would let a lone surrogate reach the SDK."""
    for message in _message_cases():
        assert has_lone_surrogate(message), message
        assert _tallied_lone(message, model), message
        clean = _clean(message)
        assert not has_lone_surrogate(clean), clean
        assert not _tallied_lone(clean, model), clean


def test_non_ascii_without_a_lone_surrogate_is_not_scrubbed() -> None:
    """Non-ASCII text (an emoji, accents, escapes in JSON) is checked, not taken for one."""
    from toolwire.messages import JsonOutput, ToolResult

    for message in (
        User(content="café 😀"),
        Assistant(content=[ToolCall(id="c1", name="f", arguments={"é": "😀\u0001"})]),
        ToolResult(call_id="c1", name="f", output=JsonOutput(value={"k": "naïve"})),
    ):
        assert not _tallied_lone(message, "google:gemini-3-pro-preview"), message


@pytest.mark.parametrize(
    "model",
    [
        "google:gemini-3-pro-preview",
        "bedrock:us.anthropic.claude-sonnet-4-5-20250929-v1:0",
        "anthropic:claude-sonnet-4-5",
        "openai:gpt-4.1",
    ],
)
def test_a_lone_surrogate_found_by_the_tally_is_scrubbed_from_the_payload(model: str) -> None:
    """End to end: the plan trusts the layout's tally, and the payload is still UTF-8."""
    import json

    from toolwire.request import encode

    call = ToolCall(id="c1", name="f", arguments={"q": LONE})
    from toolwire.messages import TextOutput, ToolResult

    messages = [
        User(content="Go."),
        Assistant(content=[Text(text="Calling."), call]),
        ToolResult(call_id="c1", name="f", output=TextOutput(value=f"found {LONE}")),
    ]
    request = encode(messages, model)
    json.dumps(request.to_json(), ensure_ascii=False).encode("utf-8")
    assert "\ufffd" in json.dumps(request.to_json(), ensure_ascii=False)


@pytest.mark.parametrize(
    ("kind", "field"),
    [(k, f) for k in (Text, File, ToolCall, Thinking) for f in TEXT_FIELDS[k] if f != "source"],
    ids=lambda v: getattr(v, "__name__", v),
)
def test_every_walked_field_of_a_part_is_read_by_the_tally(kind: type, field: str) -> None:
    """Each field that may hold text (a field added to a part is tested here too)."""

    base: Any = {
        Text: Text(text="ok"),
        File: File.from_bytes(b"\x89PNG\r\n\x1a\n" + b"\0" * 32, "image/png", name="a.png"),
        ToolCall: ToolCall(id="c1", name="f", arguments={"k": "v"}),
        Thinking: Thinking(text="t"),
    }[kind]
    value: Any = {"k": LONE} if field == "arguments" else LONE
    part = base.model_copy(update={field: value})
    message = Assistant(content=[part]) if kind in (ToolCall, Thinking) else User(content=[part])
    assert _tallied_lone(message, "google:gemini-3-pro-preview")
