"""The lone-surrogate check reads the plan's own values by their fields' names (plan.ids
TYPED_FIELDS): a field missing from that table would be a string the check never sees, and a
lone surrogate there would reach the SDK and fail its UTF-8 encoding."""

from __future__ import annotations

import dataclasses
import typing
from typing import Any

import pytest

from toolwire.content import File, Json, Text, Thinking, ToolCall
from toolwire.messages import Assistant, System, User
from toolwire.plan import PlannedResult, ToolTurn
from toolwire.plan.ids import TYPED_FIELDS, _has_lone_surrogate

LONE = "bad \ud800 text"


def _fields(kind: type) -> dict[str, Any]:
    if dataclasses.is_dataclass(kind):
        hints = typing.get_type_hints(kind)
        return {f.name: hints[f.name] for f in dataclasses.fields(kind)}
    return {name: info.annotation for name, info in kind.model_fields.items()}  # type: ignore[attr-defined]


def _holds_no_text(annotation: Any) -> bool:
    return annotation is bool or typing.get_origin(annotation) is typing.Literal


@pytest.mark.parametrize("kind", list(TYPED_FIELDS), ids=lambda k: k.__name__)
def test_every_field_that_can_hold_text_is_walked(kind: type) -> None:
    fields = _fields(kind)
    may_hold_text = {name for name, annotation in fields.items() if not _holds_no_text(annotation)}
    assert may_hold_text == set(TYPED_FIELDS[kind])


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
        assert _has_lone_surrogate(case), case
        assert not _has_lone_surrogate(_clean(case)), case


def _clean(case: Any) -> Any:
    """The same shape with the surrogate gone (the check is not just always true)."""
    if isinstance(case, str):
        return case.replace("\ud800", "?")
    if isinstance(case, dict):
        return {_clean(k): _clean(v) for k, v in case.items()}
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
