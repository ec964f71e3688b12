"""Matrix cases for the Gemini and Bedrock encoder tests.

conftest's conversations and expectations, with one more source: cloud storage (``gs://`` for
the Google targets, ``s3://`` for Bedrock). ``check_case`` also runs the URL cases with a
fetcher (``fetch_urls``), where a target that cannot take the URL gets the downloaded bytes.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from toolwire.capability import capabilities
from toolwire.content import File, Text
from toolwire.errors import UnsupportedContentError
from toolwire.messages import Assistant, System, ToolResult, User
from toolwire.request import Request, encode
from toolwire.sources import ProviderFileSource, UrlSource

from .conftest import (
    JSON_VALUE,
    PREAMBLE,
    QUESTION,
    SYSTEM,
    call,
    carried,
    example_bytes,
    example_file,
    example_name,
    expected_mode,
)

SOURCES = ("bytes", "url", "cloud", "file_id")
Validate = Callable[[dict[str, Any]], None]


def media_file(kind: str, source: str, target: str, copy: int = 1) -> File:
    """conftest's example file, or the same file in the target's cloud storage."""
    if source != "cloud":
        return example_file(kind, source, target, copy)
    scheme = "s3" if target.startswith("bedrock:") else "gs"
    return File.from_url(f"{scheme}://toolwire-examples/{example_name(kind, copy)}")


def build(style: str, kind: str, source: str, target: str) -> tuple[list[Any], list[File]]:
    """conftest.build with ``media_file``: the file alone, mixed with text and JSON, or in
    one of two calls of one turn; and the files, in order."""
    first = media_file(kind, source, target)
    head: list[Any] = [System(SYSTEM), User(QUESTION)]
    if style == "alone":
        turn = Assistant([Text(text=PREAMBLE), call(1, first)])
        return [*head, turn, ToolResult.of("call_1", "fetch", first)], [first]
    if style == "mixed":
        turn = Assistant([Text(text=PREAMBLE), call(1, first)])
        value = ["Here it is:", first, JSON_VALUE, "Done."]
        return [*head, turn, ToolResult.of("call_1", "fetch", value)], [first]
    second = media_file(kind, source, target, copy=2)
    turn = Assistant([Text(text=PREAMBLE), call(1, first), call(2, second)])
    results = [
        ToolResult.of("call_1", "fetch", first),
        ToolResult.of("call_2", "fetch", ["Second:", second]),
    ]
    return [*head, turn, *results], [first, second]


def holds(file: File, payload: str) -> bool:
    """conftest.carried, where a Google file id may be spelled as its Files API URI."""
    source = file.source
    if isinstance(source, ProviderFileSource):
        return f'/files/{source.file_id}"' in payload or f'"{source.file_id}"' in payload
    return carried(file, payload)


def fetch(url: str) -> bytes:
    """The fetcher of the URL cases: the example file the URL names."""
    name = url.rsplit("/", 1)[-1]
    stem, suffix = name.rsplit(".", 1)
    return example_bytes(f"{stem.removesuffix('-2')}.{suffix}")


def as_fetched(file: File) -> File:
    """What a fetcher turns an https file into: its bytes, with its identifier as the name."""
    source = file.source
    if not isinstance(source, UrlSource) or source.scheme != "url":
        return file
    return File.from_bytes(fetch(source.url), file.media_type, name=file.identifier)


def expected(target: str, file: File, fetching: bool) -> tuple[str | None, File]:
    """The mode the table implies (None: no route) and the file as it will be sent."""
    caps = capabilities(target)
    mode = expected_mode(caps, file)
    if mode is None and fetching and as_fetched(file) is not file:
        return expected_mode(caps, as_fetched(file)), as_fetched(file)
    return mode, file


def check_case(
    target: str, kind: str, source: str, style: str, validate: Validate, fetching: bool = False
) -> Request | None:
    """One matrix case: decisions as the table says and a strictly valid payload carrying every
    file (and the labels of fallbacks), or UnsupportedContentError naming exactly the files
    with no route. Returns the request, or None when the case is an error."""
    messages, files = build(style, kind, source, target)
    plans = [expected(target, f, fetching) for f in files]
    fetch_urls = fetch if fetching else None
    offending = [f.identifier for f, (mode, _) in zip(files, plans, strict=True) if mode is None]
    if offending:
        with pytest.raises(UnsupportedContentError) as info:
            encode(messages, target, fetch_urls=fetch_urls)
        assert [f.identifier for f in info.value.files] == offending
        assert all(identifier in str(info.value) for identifier in offending)
        return None
    request = encode(messages, target, fetch_urls=fetch_urls)
    assert [(d.identifier, d.mode) for d in request.decisions] == [
        (f.identifier, mode) for f, (mode, _) in zip(files, plans, strict=True)
    ]
    validate(request.kwargs)
    payload = json.dumps(request.to_json(), ensure_ascii=False)
    for (mode, sent), file in zip(plans, files, strict=True):
        assert holds(sent, payload), f"{file.identifier} is missing from the payload"
        if mode == "fallback":
            assert f"See file {file.identifier}." in payload
            assert f"This is file {file.identifier}:" in payload
    return request


def check_text(target: str, kind: str, source: str, style: str, validate: Validate) -> None:
    """With on_unsupported="text" every case encodes; files with no route become their text
    fallback, recorded as mode "text"."""
    messages, files = build(style, kind, source, target)
    request = encode(messages, target, on_unsupported="text")
    validate(request.kwargs)
    modes = [expected(target, f, False)[0] or "text" for f in files]
    assert [d.mode for d in request.decisions] == modes
    payload = json.dumps(request.to_json(), ensure_ascii=False)
    for file, mode in zip(files, modes, strict=True):
        if mode == "text":
            assert json.dumps(file.text_fallback())[1:-1] in payload
        else:
            assert holds(file, payload)
