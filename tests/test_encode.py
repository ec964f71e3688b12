"""encode(): capabilities, planning and the wire module put together; Request.to_json."""

from __future__ import annotations

import base64
import json
from pathlib import Path
from typing import Any

import pytest

from toolwire.capability import capabilities, with_cell
from toolwire.content import File, ToolCall
from toolwire.errors import FetchError, UnknownModelError, UnsupportedContentError
from toolwire.messages import Assistant, ToolResult, User
from toolwire.request import Request, encode

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
MODEL = "anthropic:claude-sonnet-4-5"


def photo() -> File:
    return File.from_path(EXAMPLES / "photo.png", name="photo.png")


def turn(*values: Any) -> list[Any]:
    calls = [ToolCall(id=f"c{i}", name="read", arguments={}) for i in range(len(values))]
    results = [ToolResult.of(f"c{i}", "read", v) for i, v in enumerate(values)]
    return [User("Go."), Assistant(calls), *results]


def test_to_json_turns_every_kind_of_bytes_into_base64_text() -> None:
    request = Request(
        model="bedrock:x",
        kwargs={
            "raw": b"\x00\xff",
            "nested": [{"array": bytearray(b"abc")}, (memoryview(b"xyz"), "text", 3, None)],
        },
    )
    data = request.to_json()
    assert data == {
        "raw": base64.b64encode(b"\x00\xff").decode(),
        "nested": [{"array": "YWJj"}, ["eHl6", "text", 3, None]],
    }
    json.dumps(data)  # JSON-safe
    assert request.kwargs["raw"] == b"\x00\xff"  # the request itself is unchanged


def test_encode_returns_the_wire_kwargs_and_one_decision_per_file() -> None:
    request = encode(turn(photo()), MODEL)
    assert request.model == MODEL
    assert [(d.identifier, d.mode) for d in request.decisions] == [("photo.png", "native")]
    tool_result = request.kwargs["messages"][-1]["content"][0]
    assert tool_result["type"] == "tool_result"
    image = tool_result["content"][0]
    expected = base64.b64encode((EXAMPLES / "photo.png").read_bytes()).decode()
    assert image["source"] == {"type": "base64", "media_type": "image/png", "data": expected}
    assert request.to_json() == request.kwargs  # anthropic has no raw bytes


def test_a_capabilities_dict_overrides_the_table_for_this_call() -> None:
    overrides = {
        "media": [{"types": ["image/png"], "tool_result": "fallback", "user_sources": ["bytes"]}]
    }
    request = encode(turn(photo()), MODEL, capabilities=overrides)
    assert [d.mode for d in request.decisions] == ["fallback"]
    blocks = request.kwargs["messages"][-1]["content"]
    assert [b["type"] for b in blocks] == ["tool_result", "text", "image"]
    assert blocks[0]["content"] == [{"type": "text", "text": "See file photo.png."}]
    assert blocks[1] == {"type": "text", "text": "This is file photo.png:"}


def test_a_capabilities_object_is_used_as_given() -> None:
    caps = with_cell(capabilities(MODEL), "image/png", tool_result="error", evidence="off")
    with pytest.raises(
        UnsupportedContentError, match="photo.png \\(image/png\\) in message 2: off"
    ):
        encode(turn(photo()), MODEL, capabilities=caps)


def test_an_unknown_provider_is_an_unknown_model_error() -> None:
    with pytest.raises(UnknownModelError, match="Did you mean 'anthropic'"):
        encode(turn("text"), "antropic:claude-sonnet-4-5")


def test_on_unsupported_text_is_passed_to_the_planner() -> None:
    wav = File.from_path(EXAMPLES / "tone.wav", name="tone.wav")
    with pytest.raises(UnsupportedContentError, match="tone.wav"):
        encode(turn(wav), MODEL)
    request = encode(turn(wav), MODEL, on_unsupported="text")
    assert [d.mode for d in request.decisions] == ["text"]
    assert request.kwargs["messages"][-1]["content"][0]["content"] == [
        {"type": "text", "text": "[Audio: tone.wav, 1.0 s, 31 KB]"}
    ]


NOTES_URL = "https://example.com/notes.md"


def test_a_fetch_callable_downloads_urls_the_target_needs_as_bytes() -> None:
    text = (EXAMPLES / "notes.md").read_bytes()
    request = encode(turn(File.from_url(NOTES_URL)), MODEL, fetch_urls=lambda url: text)
    (decision,) = request.decisions
    assert decision.notes == (f"downloaded from {NOTES_URL}",)
    document = request.kwargs["messages"][-1]["content"][0]["content"][0]
    assert document["source"]["data"] == text.decode()


@pytest.mark.parametrize("fetch_urls", [None, False])
def test_without_fetch_urls_such_a_url_is_an_error(fetch_urls: Any) -> None:
    with pytest.raises(UnsupportedContentError, match="pass fetch_urls=True"):
        encode(turn(File.from_url(NOTES_URL)), MODEL, fetch_urls=fetch_urls)


def test_fetch_urls_true_uses_the_built_in_fetcher_which_refuses_private_hosts() -> None:
    local = File.from_url("http://127.0.0.1:9/notes.md")
    with pytest.raises(FetchError, match="non-public address"):
        encode(turn(local), MODEL, fetch_urls=True)
