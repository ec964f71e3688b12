"""Server-sent events (and NDJSON) read into JSON events, for a stream read off the wire.

A user on httpx (or a proxy that logged the body) feeds what came: ``bytes`` chunks of any
size (``iter_bytes``), text chunks (``iter_text``), or lines without their newline
(``iter_lines``). Which of the last two a ``str`` stream is, the first ``str`` tells: one
without a newline starts a stream of lines. Lines end at ``\\n``;
``data:`` lines carry JSON (joined until they parse, or until the blank line that ends the
event), ``data: [DONE]`` closes a Chat Completions body, ``event:``/``id:``/``retry:``
fields and ``:`` comments are skipped (every wire here names the event inside its JSON).
A line that is a JSON object on its own is an NDJSON event (Ollama).
Spec: https://html.spec.whatwg.org/multipage/server-sent-events.html
"""

from __future__ import annotations

import codecs
import json
from typing import Any

from ..errors import DecodeError
from ._common import brief

#: What ``[DONE]`` reads as.
DONE = "[DONE]"
_FIELDS = ("event:", "id:", "retry:", ":")


class LineReader:
    """Turns chunks of an SSE or NDJSON body into JSON events and ``DONE``."""

    def __init__(self) -> None:
        self._text = codecs.getincrementaldecoder("utf-8")()
        self._buffer = ""
        self._data: list[str] = []
        self._lines: bool | None = None  # str items are lines (True) or text chunks

    def feed(self, chunk: str | bytes | bytearray | memoryview) -> list[dict[str, Any] | str]:
        """The events completed by ``chunk``."""
        if isinstance(chunk, str):
            if self._lines is None:
                self._lines = "\n" not in chunk
            text = chunk + "\n" if self._lines else chunk
        else:
            try:
                text = self._text.decode(bytes(chunk))
            except UnicodeDecodeError as exc:
                raise DecodeError(
                    f"the stream's bytes are not UTF-8 text ({exc.reason} at byte {exc.start} "
                    "of a chunk): feed an SSE or NDJSON body, or the SDK's events (Bedrock's "
                    "event-stream body is binary: feed the events boto3 yields)"
                ) from exc
        self._buffer += text
        *lines, self._buffer = self._buffer.split("\n")
        events: list[dict[str, Any] | str] = []
        for line in lines:
            events += self._line(line.removesuffix("\r"))
        return events

    def close(self) -> list[dict[str, Any] | str]:
        """The events of what is left once the body has ended."""
        rest = self._buffer + self._text.decode(b"", final=True)
        self._buffer = ""
        events = self._line(rest.removesuffix("\r")) if rest else []
        if self._data:
            events += self._line("")
        return events

    def _line(self, line: str) -> list[dict[str, Any] | str]:
        if not line:
            return self._dispatch(final=True)
        if line.startswith("data:"):
            value = line[5:].removeprefix(" ")
            if value == DONE and not self._data:
                return [DONE]
            self._data.append(value)
            return self._dispatch(final=False)
        if line.startswith(_FIELDS):
            return []
        if line.lstrip().startswith("{"):
            self._data.append(line)
            return self._dispatch(final=True)
        raise DecodeError(
            f"this is not a line of a server-sent-events or NDJSON body: {brief(line)}. "
            "Feed the body as it came (bytes, text chunks or lines), or the SDK's events."
        )

    def _dispatch(self, *, final: bool) -> list[dict[str, Any] | str]:
        """The event of the data lines so far, if they are whole JSON (or must be)."""
        if not self._data:
            return []
        text = "\n".join(self._data)
        try:
            event = json.loads(text)
        except ValueError as exc:
            if not final:
                return []
            self._data = []
            raise DecodeError(f"an event's data is not JSON ({exc}): {brief(text)}") from exc
        self._data = []
        if not isinstance(event, dict):
            raise DecodeError(f"an event's data is not a JSON object: {brief(text)}")
        return [event]
