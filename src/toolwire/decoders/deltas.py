"""What each piece of a streamed reply adds, for an application that renders as it streams.

``StreamDecoder.feed`` returns these; joined in order they are the reply ``result()``
returns: the text deltas make its text, the thinking deltas its readable thinking, and each
tool call is announced when it starts and handed over whole, arguments parsed, when its
last fragment has arrived.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..content import ToolCall


@dataclass(frozen=True)
class TextDelta:
    """Answer text that just arrived."""

    text: str


@dataclass(frozen=True)
class ThinkingDelta:
    """Readable reasoning text that just arrived (redacted or encrypted reasoning has none)."""

    text: str


@dataclass(frozen=True)
class ToolCallStarted:
    """The model began a tool call: its position among the reply's calls, its id (None where
    the wire sends none: the id then comes with ``ToolCallFinished``) and the tool's name."""

    index: int
    id: str | None
    name: str


@dataclass(frozen=True)
class ToolCallDelta:
    """A fragment of a tool call's argument JSON, as it arrived (show it, do not parse it)."""

    index: int
    arguments: str


@dataclass(frozen=True)
class ToolCallFinished:
    """A tool call whose arguments have all arrived, decoded as ``tw.decode`` decodes it.

    Where the wire sends no call id (Gemini, Ollama, some Mistral replies) the id is made
    from the calls of the reply so far; ``result()`` makes it from all of them, so match
    calls by ``index`` and take the ids from ``result()``.
    """

    index: int
    call: ToolCall


#: One piece of a streamed reply.
StreamDelta = TextDelta | ThinkingDelta | ToolCallStarted | ToolCallDelta | ToolCallFinished
