"""Stream assemblers: a wire's stream events → the complete response of that wire.

Each wire's assembler rebuilds, event by event, the response its SDK would have returned
without streaming (as JSON data), and ``tw.decode`` reads that: a streamed reply and the
same reply made whole decode alike by construction. The assembler also says what each event
added (``deltas``), whether the stop event came, and the stop reason and usage.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...content import JsonValue
from ..deltas import StreamDelta, ToolCallStarted


class StreamFailed(Exception):
    """The stream carried an error event (the provider's words are the message)."""


@dataclass(frozen=True)
class CallEnded:
    """A tool call's arguments are complete (the stream decoder decodes it)."""

    index: int


#: What an assembler's ``feed`` returns: deltas, and markers of calls that ended.
Fact = StreamDelta | CallEnded


class Assembler:
    """The part every wire's assembler shares: what the stream has said about its end."""

    #: The wire's name, for error messages.
    wire = ""

    def __init__(self, issuer: str) -> None:
        self.issuer = issuer
        self.finished = False
        self.stop_reason: str | None = None
        self.usage: dict[str, JsonValue] = {}

    def feed(self, event: dict[str, Any]) -> list[Fact]:
        """The deltas ``event`` adds; raises StreamFailed for an error event. ``event`` is the
        caller's: what the assembler changes, it copies first."""
        raise NotImplementedError

    def response(self) -> dict[str, Any]:
        """The wire's complete response as JSON data, built from what has arrived."""
        raise NotImplementedError

    def end_of_body(self) -> None:
        """The SSE body said ``[DONE]`` (only Chat-Completions-shaped wires send it)."""

    def stop(self, reason: object) -> None:
        """The stop event came, with ``reason``."""
        self.finished = True
        if reason is not None:
            self.stop_reason = str(reason)

    def use(self, usage: object) -> None:
        """Usage reported by the stream (a later report adds to or replaces earlier fields)."""
        if isinstance(usage, dict):
            self.usage.update(usage)


class Calls:
    """Tool calls built from fragments: found by the wire's index or id, in arrival order."""

    def __init__(self) -> None:
        self.calls: list[dict[str, Any]] = []
        self.keys: dict[object, int] = {}
        self.open: set[int] = set()

    def find(self, key: object) -> int | None:
        """The position of the call known by ``key`` (an index or an id), if any."""
        return self.keys.get(key)

    def start(self, call: dict[str, Any], *keys: object) -> tuple[int, Fact]:
        """Add ``call`` (its arguments as a list of fragments), known by ``keys``."""
        index = len(self.calls)
        self.calls.append(call)
        self.open.add(index)
        for key in keys:
            if key is not None:
                self.keys[key] = index
        return index, started(index, call.get("id"), call.get("name") or "")

    def end_all(self) -> list[Fact]:
        """Markers for every call still open, in order."""
        ended: list[Fact] = [CallEnded(index) for index in sorted(self.open)]
        self.open.clear()
        return ended

    def end(self, index: int) -> list[Fact]:
        """The marker for call ``index`` if it is still open."""
        if index not in self.open:
            return []
        self.open.discard(index)
        return [CallEnded(index)]


def started(index: int, call_id: object, name: str) -> ToolCallStarted:
    """The started delta, with an id only where the wire gave a usable one."""
    usable = call_id if isinstance(call_id, str) and call_id not in ("", "null") else None
    return ToolCallStarted(index, usable, name)
