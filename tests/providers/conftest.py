"""Shared cases for the encoder tests: real example files from every source, the three ways
a tool returns a file, and what the capability table says should happen to each file.

Fixtures ``kind``, ``source`` and ``style`` are parametrised, so a test that asks for them
runs over the whole kind × source × return-style grid; the test module parametrises the target.
"""

from __future__ import annotations

import base64
import json
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

import pytest

# Imported from their modules: ``toolwire.capability`` / ``toolwire.request`` as package
# attributes turn into the submodules once those are imported (reported to the lead).
from toolwire.capability import Capabilities, capabilities
from toolwire.content import File, Text, ToolCall
from toolwire.errors import UnsupportedContentError
from toolwire.mediatypes import is_textual
from toolwire.messages import Assistant, System, ToolResult, User
from toolwire.request import encode
from toolwire.sources import ProviderFileSource, UrlSource

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"

#: One real example file per kind the issue's matrix covers.
KIND_FILES = {
    "image": "photo.png",
    "pdf": "report.pdf",
    "text": "notes.md",
    "audio": "tone.wav",
    "video": "clip.mp4",
}
MEDIA_TYPES = {
    "image": "image/png",
    "pdf": "application/pdf",
    "text": "text/markdown",
    "audio": "audio/wav",
    "video": "video/mp4",
}
KINDS = tuple(KIND_FILES)
SOURCES = ("bytes", "url", "file_id")
STYLES = ("alone", "mixed", "two_calls")

SYSTEM = "Answer briefly."
QUESTION = "Show me the file."
PREAMBLE = "Fetching it."
JSON_VALUE = {"pages": 3, "ok": True}


@cache
def example_bytes(name: str) -> bytes:
    """The bytes of ``examples/<name>`` (read once per test session)."""
    return (EXAMPLES / name).read_bytes()


def data_url(name: str, media_type: str) -> str:
    """A data URL built with the stdlib, independent of toolwire.b64, for golden payloads."""
    return f"data:{media_type};base64," + base64.b64encode(example_bytes(name)).decode()


def b64_of(name: str) -> str:
    """Plain base64 of an example file, built with the stdlib."""
    return base64.b64encode(example_bytes(name)).decode()


def example_name(kind: str, copy: int = 1) -> str:
    """``photo.png`` for the first copy, ``photo-2.png`` for the second."""
    name = KIND_FILES[kind]
    if copy == 1:
        return name
    stem, suffix = name.rsplit(".", 1)
    return f"{stem}-{copy}.{suffix}"


def example_file(kind: str, source: str, target: str, copy: int = 1) -> File:
    """A real example file of ``kind`` as inline bytes (named), an https URL
    (``https://example.com/files/…``) or a file id of the target's own file store."""
    name = example_name(kind, copy)
    if source == "bytes":
        return File.from_bytes(example_bytes(KIND_FILES[kind]), name=name)
    if source == "url":
        return File.from_url(f"https://example.com/files/{name}")
    caps = capabilities(target)
    owner = caps.file_ids or caps.provider  # providers without a file store still get an id
    return File.from_provider_file(owner, f"file-{kind}-{copy}", MEDIA_TYPES[kind])


def call(n: int, file: File) -> ToolCall:
    return ToolCall(id=f"call_{n}", name="fetch", arguments={"path": file.identifier})


def build(style: str, kind: str, source: str, target: str) -> tuple[list[Any], list[File]]:
    """A conversation whose tool returns the file ``alone``, ``mixed`` with text and JSON,
    or in one of ``two_calls`` made in one turn; and the files it holds, in order."""
    first = example_file(kind, source, target)
    head: list[Any] = [System(SYSTEM), User(QUESTION)]
    if style == "alone":
        turn = Assistant([Text(text=PREAMBLE), call(1, first)])
        return [*head, turn, ToolResult.of("call_1", "fetch", first)], [first]
    if style == "mixed":
        turn = Assistant([Text(text=PREAMBLE), call(1, first)])
        value = ["Here it is:", first, JSON_VALUE, "Done."]
        return [*head, turn, ToolResult.of("call_1", "fetch", value)], [first]
    second = example_file(kind, source, target, copy=2)
    turn = Assistant([Text(text=PREAMBLE), call(1, first), call(2, second)])
    results = [
        ToolResult.of("call_1", "fetch", first),
        ToolResult.of("call_2", "fetch", ["Second:", second]),
    ]
    return [*head, turn, *results], [first, second]


def expected_mode(caps: Capabilities, file: File) -> str | None:
    """What the capability table implies for ``file`` in a tool result: native, sibling,
    fallback, or None (no route: the encoder must raise UnsupportedContentError)."""
    cell = caps.cell(file.media_type)
    if cell is None or cell.tool_result == "error":
        return None
    source = file.source
    if isinstance(source, UrlSource):
        where = source.scheme
    elif isinstance(source, ProviderFileSource):
        where = "file_id" if source.provider == caps.file_ids else "foreign"
    else:
        where = "bytes"
    if cell.tool_result in ("native", "sibling") and where in cell.tool_sources:
        return cell.tool_result
    if where in cell.user_sources:
        return "fallback"
    return None


@pytest.fixture(params=KINDS)
def kind(request: pytest.FixtureRequest) -> str:
    return request.param


@pytest.fixture(params=SOURCES)
def source(request: pytest.FixtureRequest) -> str:
    return request.param


@pytest.fixture(params=STYLES)
def style(request: pytest.FixtureRequest) -> str:
    return request.param


def check_against_table(
    target: str, kind: str, source: str, style: str, validate: Callable[[dict[str, Any]], None]
) -> None:
    """Encode one matrix case with on_unsupported="error": each Decision's mode is what the
    table implies, the payload validates strictly and carries every file; or, when the table
    has no route, UnsupportedContentError lists exactly the offending files."""
    messages, files = build(style, kind, source, target)
    modes = [expected_mode(capabilities(target), f) for f in files]
    offending = [f.identifier for f, mode in zip(files, modes, strict=True) if mode is None]
    if offending:
        with pytest.raises(UnsupportedContentError) as info:
            encode(messages, target, on_unsupported="error")
        assert [f.identifier for f in info.value.files] == offending
        assert all(identifier in str(info.value) for identifier in offending)
        return
    request = encode(messages, target, on_unsupported="error")
    identifiers = [f.identifier for f in files]
    assert [(d.identifier, d.mode) for d in request.decisions] == list(
        zip(identifiers, modes, strict=True)
    )
    validate(request.kwargs)
    payload = json.dumps(request.to_json(), ensure_ascii=False)
    for file, mode in zip(files, modes, strict=True):
        assert carried(file, payload), f"{file.identifier} is missing from the payload"
        if mode == "fallback":
            assert f"See file {file.identifier}." in payload
            assert f"This is file {file.identifier}:" in payload


def check_text_mode(
    target: str, kind: str, source: str, style: str, validate: Callable[[dict[str, Any]], None]
) -> None:
    """With on_unsupported="text" every case encodes: unroutable files become their text
    fallback (recorded as mode "text"), the rest go as the table says."""
    messages, files = build(style, kind, source, target)
    request = encode(messages, target, on_unsupported="text")
    validate(request.kwargs)
    modes = [expected_mode(capabilities(target), f) or "text" for f in files]
    assert [d.mode for d in request.decisions] == modes
    payload = json.dumps(request.to_json(), ensure_ascii=False)
    for file, mode in zip(files, modes, strict=True):
        expected = file.text_fallback() if mode == "text" else None
        assert carried(file, payload) if expected is None else json.dumps(expected)[1:-1] in payload


def carried(file: File, payload: str) -> bool:
    """Whether the JSON payload holds the file itself: its bytes (base64, or decoded text
    for text documents), its URL, or its provider file id."""
    source = file.source
    if isinstance(source, UrlSource):
        return source.url in payload
    if isinstance(source, ProviderFileSource):
        return f'"{source.file_id}"' in payload
    if is_textual(file.media_type) and json.dumps(file.read_text())[1:-1] in payload:
        return True
    return base64.b64encode(file.read()).decode() in payload
