"""Request budgets, measuring (plan.budgets): each file as it will be sent, once per message.

- bytes: the base64 length of what goes (the fitted image where ``fit_images`` shrinks it;
  a URL or file id by its text), plus ``FRAMING`` for the JSON around it; the conversation's
  text by its length; a file converted (``on_unsupported="convert"``) as its conversion;
- images, PDF pages (headers.pdf_page_count, pypdfium2's page tree), documents: counted.

Each message is measured once per target, fitter and converters (weakly held: the measures
leave with the conversation); ``totals`` sums a growing conversation's messages once, so an
agent re-encoding its history measures only the new turns.
"""

from __future__ import annotations

import json
import weakref
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from .. import headers
from ..capability import Capabilities, Cell
from ..capability_schema import Budgets
from ..content import File, Json, Text, ToolCall
from ..mediatypes import is_textual
from ..messages import Assistant, ContentOutput, JsonOutput, ToolResult, User
from ..sources import BytesSource
from ..token_measures import pdf_pages
from ..wire_size import b64_length
from .convert import measure as conversion_cost
from .files import Policy

#: JSON around one file's base64 (block type, source, media type, its label text).
FRAMING = 512
#: JSON around one message (role, content list, tool-call ids).
PER_MESSAGE = 96
#: Characters of JSON around one text or tool-call part (its type, keys, quotes).
PER_PART = 64
#: Bytes of JSON an encoder may add beyond the messages (bridges, labels, cache marks).
SLACK = 4096

Fit = Callable[[File, Cell], tuple[File, str | None]]


@dataclass(frozen=True)
class Medium:
    """One file of the conversation as the budgets measure it."""

    file: File
    images: int
    pages: int
    documents: int
    bytes: int
    edge: int  # the longest side as sent (images), else 0
    bound: int  # at most this many bytes of JSON, framing and label included
    #: A conversion's images (plan.convert.measure): the bytes of each, first page first.
    sizes: tuple[int, ...] = ()
    converted: bool = False


def measured(
    messages: Sequence[Any], caps: Capabilities, fit: Fit | None, convert: Policy | None = None
) -> list[Medium]:
    """Every file the target could send, oldest first, measured as it would be sent (with
    ``convert``, a file no route carries as its conversion)."""
    return [m for message in messages for m in of_message(message, caps, fit, convert).media]


def upper_bound(messages: Sequence[Any], caps: Capabilities, fit: Fit | None) -> int:
    """At most how many bytes of JSON the encoded ``messages`` take when every file is sent
    as routed (no text fallback, no conversion, no tools): encode skips measuring the body
    when this is within the byte budget."""
    return SLACK + totals(messages, caps, fit).bound


@dataclass(frozen=True)
class _Measured:
    """One message: its media, its text as sent (about), and at most its JSON without files."""

    media: tuple[Medium, ...]
    text: int
    bound: int


def of_message(
    message: Any, caps: Capabilities, fit: Fit | None, convert: Policy | None = None
) -> _Measured:
    """``message`` measured once per target, fitter and converters (an agent re-sends its
    history)."""
    key = id(message)
    hit = _MEASURED.get(key)
    same = hit is not None and hit[0]() is message and hit[1] is caps and hit[2] is fit
    if same and hit[3] in (_ANY, _conversions(convert)):  # type: ignore[index]
        return hit[4]  # type: ignore[index]
    media, marker = [], _ANY  # _ANY: the same measures with and without conversions
    for part in _parts(message):
        if not isinstance(part, File):
            continue
        marker = _ANY if convert is not None and marker is _ANY else _conversions(convert)
        made = conversion_cost(part, convert, isinstance(message, ToolResult)) if convert else None
        if made is not None:
            media.append(_converted(part, *made))
            marker = _conversions(convert)
            continue
        cell = caps.cell(part.media_type)
        if cell is not None and (cell.tool_result != "error" or cell.user_sources):
            media.append(_measure(part, cell, fit, caps.budgets))
    if caps.budgets.max_request_bytes:
        found = _Measured(tuple(media), text_bytes([message]), _text_bound(message))
    else:  # the text counts for the byte budget only
        found = _Measured(tuple(media), 0, 0)
    try:
        ref = weakref.ref(message)
    except TypeError:  # not a message: plan refuses it
        return found
    if hit is None:
        weakref.finalize(message, _MEASURED.pop, key, None)  # leaves with the conversation
    _MEASURED[key] = (ref, caps, fit, marker, found)
    if len(_MEASURED) > 16384:
        _MEASURED.popitem(last=False)
    return found


#: id(message) -> (a weak reference to it, caps, fitter, converters, its measures).
_MEASURED: OrderedDict[int, tuple[Any, Any, Any, Any, _Measured]] = OrderedDict()


def _conversions(convert: Policy | None) -> Any:
    return None if convert is None else convert.converters


_ANY = object()


class Totals(NamedTuple):
    """A conversation's measures summed: what ``left_out`` checks before walking its media."""

    images: int = 0
    pages: int = 0
    documents: int = 0
    bytes: int = 0  # of the media as sent
    text: int = 0  # text_bytes of the messages
    bound: int = 0  # upper_bound without SLACK
    edge: int = 0  # the longest side of any image
    converted: int = 0  # media measured as their conversion


def totals(
    messages: Sequence[Any], caps: Capabilities, fit: Fit | None, convert: Policy | None = None
) -> Totals:
    """The measures of ``messages`` summed, kept as running sums per target, fitter and
    converters: a growing history (the same messages, then new ones) adds its new messages
    only. Messages not weakly referable are summed afresh."""
    key = (id(caps), id(fit), _conversions(convert))
    run = _RUNS.pop(key, None)
    if run is None or run.caps is not caps or run.fit is not fit or run.stale:
        run = _Run(caps, fit)
    _RUNS[key] = run  # the newest last: the oldest of more than 8 runs is dropped
    if len(_RUNS) > 8:
        _RUNS.pop(next(iter(_RUNS)))
    kept = run.common(messages)
    del run.ids[kept:], run.refs[kept:], run.sums[kept + 1 :]
    for message in messages[kept:]:
        found = of_message(message, caps, fit, convert)
        try:
            run.refs.append(weakref.ref(message, run.expire))
        except TypeError:
            run.stale = True
            return _summed(Totals(), [of_message(m, caps, fit, convert) for m in messages])
        run.ids.append(id(message))
        run.sums.append(_summed(run.sums[-1], [found]))
    return run.sums[-1]


class _Run:
    """The running sums of one history: ``sums[k]``, its first k messages (by id; each held
    weakly, and the run is stale once one of them is gone, so an id is never one reused)."""

    def __init__(self, caps: Capabilities, fit: Fit | None) -> None:
        self.caps, self.fit, self.stale = caps, fit, False
        self.ids: list[int] = []
        self.refs: list[Any] = []
        self.sums = [Totals()]

    def expire(self, _gone: Any) -> None:
        self.stale = True

    def common(self, messages: Sequence[Any]) -> int:
        """How many of ``messages``, from the first, are the messages summed."""
        count = min(len(self.ids), len(messages))
        ids = list(map(id, messages[:count]))
        if ids == self.ids[:count]:
            return count
        return next(i for i, (a, b) in enumerate(zip(ids, self.ids, strict=False)) if a != b)


def _summed(start: Totals, found: list[_Measured]) -> Totals:
    images, pages, documents, size, text, bound, edge, converted = start
    for measured_ in found:
        text, bound = text + measured_.text, bound + measured_.bound
        for m in measured_.media:
            images, pages, documents = images + m.images, pages + m.pages, documents + m.documents
            size, bound, edge = size + m.bytes, bound + m.bound, max(edge, m.edge)
            converted += m.converted
    return Totals(images, pages, documents, size, text, bound, edge, converted)


#: (id(caps), id(fit), converters) -> the running sums of the latest history.
_RUNS: dict[Any, _Run] = {}


def _converted(file: File, sizes: tuple[int, ...], text: int) -> Medium:
    """A file as its conversion: each image made, and the texts (plan.convert.measure)."""
    sizes = tuple(size + FRAMING for size in sizes)
    size = sum(sizes) + text + FRAMING
    return Medium(file, len(sizes), 0, 0, size, 0, 12 * size, sizes, converted=True)


def _text_bound(message: Any) -> int:
    """At most the JSON bytes of a message's text, calls and framing: each character of its
    strings becomes at most 12 bytes (an escaped astral character, ASCII escapes), each part's
    framing at most ``PER_PART`` characters' worth, a message's at most ``PER_MESSAGE``. Text,
    JSON and tool calls are counted by their strings; any other part by its repr (which holds
    every character of its strings)."""
    parts = _parts(message)
    if isinstance(message, Assistant):
        parts = message.content
    elif not parts:
        return 12 * (len(repr(message)) + PER_MESSAGE)
    chars = PER_MESSAGE
    for part in parts:
        if isinstance(part, Text):
            chars += len(part.text) + PER_PART
        elif isinstance(part, ToolCall):
            chars += _call_chars(part) + PER_PART
        elif not isinstance(part, File):
            chars += len(repr(part))
    return 12 * chars


def _call_chars(call: ToolCall) -> int:
    extra = (call.signature, call.provider, call.invalid_arguments)
    strings = len(call.id) + len(call.name) + sum(len(s) for s in extra if s)
    return strings + len(json.dumps(call.arguments, ensure_ascii=False))


def _parts(message: Any) -> Sequence[Any]:
    if isinstance(message, User) and not isinstance(message.content, str):
        return message.content
    if isinstance(message, ToolResult) and isinstance(message.output, ContentOutput):
        return message.output.value
    return ()


def _measure(file: File, cell: Cell, fit: Fit | None, limits: Budgets) -> Medium:
    """``file`` as sent; its page count and longest side read only where a limit needs them."""
    image = file.media_type.startswith("image/")
    sent = file
    if image and fit is not None and file.source.is_local:
        sent = fit(file, cell)[0]
    size = sent_bytes(sent)
    pdf = file.media_type == "application/pdf"
    document = not image and not file.media_type.startswith(("audio/", "video/"))
    label = 12 * (len(file.identifier) + len(file.media_type)) + 2 * FRAMING
    textual = is_textual(file.media_type)
    return Medium(
        file,
        images=int(image),
        pages=_pages(file) if pdf and limits.max_pdf_pages_per_request else 0,
        documents=int(document),
        bytes=size + FRAMING,
        edge=edge_of(sent) if image and limits.many_images_count else 0,
        bound=label + (12 * len(_read(sent)) if textual and sent.source.is_local else size),
    )


def sent_bytes(file: File) -> int:
    source = file.source
    if type(source) is BytesSource:
        return b64_length(len(source.data))
    if source.is_local:
        return b64_length(len(_read(file)))
    return len(source.describe()) * 2  # a URL or file id, in the text


def _pages(file: File) -> int:
    key = id(file.source)
    hit = _PAGES.get(key)
    if hit is None or hit[0] is not file.source:
        hit = _PAGES[key] = (file.source, pdf_pages(file)[0])
        if len(_PAGES) > 4096:
            _PAGES.pop(next(iter(_PAGES)))
    return hit[1]


def edge_of(file: File) -> int:
    if not file.source.is_local:
        return 0
    size = headers.image_size(_read(file)[:65536]) or headers.image_size(_read(file))
    return max(size) if size else 0


def _read(file: File) -> bytes:
    source = file.source
    return source.data if type(source) is BytesSource else file.read()


#: id(source) -> (the source, its page count): an agent sends the same PDFs every turn.
_PAGES: dict[int, tuple[Any, int]] = {}


def text_bytes(messages: Sequence[Any]) -> int:
    """The conversation's text, tool calls and JSON, about as many bytes as they take sent."""
    size = 0
    for message in messages:
        size += PER_MESSAGE
        content = getattr(message, "content", None)
        if isinstance(content, str):
            size += len(content)
        for part in _all_parts(message):
            if isinstance(part, Text):
                size += len(part.text)
            elif isinstance(part, Json):
                size += len(part.compact())
            elif isinstance(part, ToolCall):
                size += len(json.dumps(part.arguments)) + len(part.name) + len(part.id)
    return size


def _all_parts(message: Any) -> Sequence[Any]:
    if isinstance(message, ToolResult):
        output = message.output
        if isinstance(output, ContentOutput):
            return output.value
        if isinstance(output, JsonOutput):
            return [Json(value=output.value)]
        return [Text(text=str(getattr(output, "value", "")))]
    content = getattr(message, "content", None)
    return content if isinstance(content, list) else ()
