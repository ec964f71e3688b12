"""``StreamDecoder``: a streamed reply, event by event → the ``tw.Assistant`` ``decode`` gives.

Feed it what the official SDK's stream yields (its event objects or their dicts) or the raw
body (SSE or NDJSON bytes, text or lines); each ``feed`` returns what is new, for the UI
(``TextDelta``, ``ThinkingDelta``, ``ToolCallStarted``, ``ToolCallDelta``,
``ToolCallFinished``). ``result()`` is the reply: the wire's assembler has rebuilt the
response the SDK returns without streaming, and ``tw.decode`` reads it, so thinking,
signatures and tool calls come out exactly as they do for the same reply made whole.

>>> decoder = tw.StreamDecoder("anthropic:claude-sonnet-4-6")          # doctest: +SKIP
>>> for event in client.messages.create(..., stream=True):
...     for delta in decoder.feed(event):
...         if isinstance(delta, tw.TextDelta):
...             print(delta.text, end="")
>>> history.append(decoder.result())
"""

from __future__ import annotations

from collections.abc import AsyncIterable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from ..capability import capabilities
from ..content import JsonValue, ToolCall
from ..errors import DecodeError
from ..messages import Assistant
from ..providers import wire_named
from . import as_data, decode, with_declared_names
from ._common import brief
from .deltas import (
    StreamDelta,
    TextDelta,
    ThinkingDelta,
    ToolCallDelta,
    ToolCallFinished,
    ToolCallStarted,
)
from .sse import DONE, LineReader
from .streams import Assembler, CallEnded, StreamFailed

if TYPE_CHECKING:
    from ..tools import Tool

#: What ``feed`` takes besides the SDK's event objects and dicts: the raw body.
_RAW = (str, bytes, bytearray, memoryview)


class StreamDecoder:
    """Accumulates one streamed reply of ``model`` ('provider:model-id') into an Assistant.

    ``tools``: as for ``tw.decode`` (arguments come back under their declared names).
    ``stop_reason`` and ``usage`` are the provider's own, as the stream reported them.
    """

    def __init__(self, model: str, *, tools: Sequence[Tool] = ()) -> None:
        caps = self._caps = capabilities(model)
        stream = wire_named(caps.wire).decoder.stream
        if stream is None:
            raise DecodeError(f"the {caps.wire} wire of {model} has no stream decoder")
        self.model = model
        self._tools = tuple(tools)
        self._assembler: Assembler = stream(caps.issuer)
        self._lines = LineReader()
        self._failure: DecodeError | None = None
        self._events = 0
        self._text = 0
        self._thinking = 0
        self._calls: dict[int, tuple[str, int, bool]] = {}  # name, argument characters, done

    @property
    def finished(self) -> bool:
        """Whether the stream's stop event has arrived."""
        return self._assembler.finished

    @property
    def stop_reason(self) -> str | None:
        """The provider's stop reason (``end_turn``, ``tool_calls``, ``STOP``, …), once sent."""
        return self._assembler.stop_reason

    @property
    def usage(self) -> Mapping[str, JsonValue]:
        """The token usage the stream reported, in the provider's own fields."""
        return dict(self._assembler.usage)

    def feed(self, event: object) -> list[StreamDelta]:
        """What ``event`` adds to the reply, in order.

        ``event``: an SDK stream event (or its dict), or a piece of the raw body (bytes, text
        or a line). Raises DecodeError for an error event or data that is no event of the
        wire; ``partial()`` keeps what arrived before it.
        """
        if self._failure is not None:
            raise self._failure
        events = self._lines.feed(event) if isinstance(event, _RAW) else [as_data(event)]
        deltas: list[StreamDelta] = []
        for data in events:
            deltas += self._apply(data)
        return deltas

    def result(self) -> Assistant:
        """The whole reply, as ``tw.decode`` gives it for the same reply made whole.

        Raises DecodeError if the stream failed, or ended before its stop event (a dropped
        connection, a cut-off tool call): the message names what arrived; ``partial()``
        returns it.
        """
        for data in self._lines.close():
            self._apply(data)
        if self._failure is not None:
            raise self._failure
        if not self.finished:
            raise DecodeError(
                f"the stream of {self.model} ended before its stop event, after "
                f"{self._received()}: the reply is incomplete. partial() returns what arrived; "
                "retry the request (or feed the rest of the stream)."
            )
        return decode(self._assembler.response(), self.model, tools=self._tools)

    def partial(self) -> Assistant:
        """What has arrived so far, decoded as far as it goes (an argument still streaming
        is kept as ``invalid_arguments`` text); empty before anything has."""
        caps = self._caps
        try:
            message = wire_named(caps.wire).decoder.decode(self._assembler.response(), caps.issuer)
        except (DecodeError, KeyError, TypeError, AttributeError, ValueError):
            return Assistant(content=[])
        return with_declared_names(message, self._tools, caps) if self._tools else message

    def _apply(self, data: dict[str, Any] | str) -> list[StreamDelta]:
        if data == DONE:
            self._assembler.end_of_body()
            return []
        if not isinstance(data, dict):
            raise DecodeError(f"not an event of a stream: {brief(data)}")
        try:
            facts = self._assembler.feed(data)
        except StreamFailed as exc:
            self._failure = DecodeError(
                f"the stream of {self.model} carried an error after {self._received()}: "
                f"{str(exc).rstrip('.')}. "
                "partial() returns what arrived before it."
            )
            raise self._failure from None
        except (KeyError, TypeError, AttributeError, ValueError, IndexError) as exc:
            # kept, like an error event: a reply missing an event must not pass as whole
            self._failure = DecodeError(
                f"this does not read as a stream event of the {self._assembler.wire} wire for "
                f"{self.model} ({type(exc).__name__}: {exc}): {brief(data)}. Feed the events "
                "of the SDK's stream (or their dicts) or the raw body, in order."
            )
            raise self._failure from exc
        self._events += 1
        return [self._note(fact) for fact in facts]

    def _note(self, fact: StreamDelta | CallEnded) -> StreamDelta:
        """``fact`` as the delta it is (an ended call decoded), counted for error messages."""
        if isinstance(fact, CallEnded):
            name, size, _ = self._calls.get(fact.index, ("", 0, False))
            self._calls[fact.index] = (name, size, True)
            return ToolCallFinished(fact.index, self._call(fact.index))
        if isinstance(fact, TextDelta):
            self._text += len(fact.text)
        elif isinstance(fact, ThinkingDelta):
            self._thinking += len(fact.text)
        elif isinstance(fact, ToolCallStarted):
            self._calls[fact.index] = (fact.name, 0, False)
        elif isinstance(fact, ToolCallDelta):
            name, size, done = self._calls.get(fact.index, ("", 0, False))
            self._calls[fact.index] = (name, size + len(fact.arguments), done)
        return fact

    def _call(self, index: int) -> ToolCall:
        calls = self.partial().tool_calls
        if index >= len(calls):
            raise DecodeError(f"the stream of {self.model} ended tool call {index} it never began")
        return calls[index]

    def _received(self) -> str:
        """What the stream has brought, for error messages."""
        parts = [f"{self._events} events", f"{self._text} characters of text"]
        if self._thinking:
            parts.append(f"{self._thinking} of thinking")
        for index, (name, size, done) in sorted(self._calls.items()):
            state = "complete" if done else f"arguments cut off after {size} characters"
            parts.append(f"tool call {index} {name} ({state})")
        return ", ".join(parts)


def decode_stream(events: Iterable[object], model: str, *, tools: Sequence[Tool] = ()) -> Assistant:
    """The Assistant of a whole stream (SDK events or raw body pieces), as ``tw.decode``
    gives it for the same reply made whole.

    >>> reply = tw.decode_stream(client.messages.create(..., stream=True), MODEL)  # doctest: +SKIP
    """
    decoder = StreamDecoder(model, tools=tools)
    for event in events:
        decoder.feed(event)
    return decoder.result()


async def decode_stream_async(
    events: AsyncIterable[object], model: str, *, tools: Sequence[Tool] = ()
) -> Assistant:
    """``decode_stream`` for an async stream (``AsyncAnthropic``, ``AsyncOpenAI``, …)."""
    decoder = StreamDecoder(model, tools=tools)
    async for event in events:
        decoder.feed(event)
    return decoder.result()
