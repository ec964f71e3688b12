"""Request budgets, measuring (plan.budgets): each file as it will be sent, once per message.

- bytes: the base64 length of what goes (the fitted image where ``fit_images`` shrinks it;
  a URL or file id by its text), plus ``FRAMING`` for the JSON around it; the conversation's
  text by its length; a file converted (``on_unsupported="convert"``) as its conversion;
- images, PDF pages (headers.pdf_page_count, pypdfium2's page tree), documents: counted.

With a memo (``memo.MeasureMemo``, the ``encode`` boundary's), ``measures`` keeps each
history's measures per target, fitter and converters (weakly held: they leave with the
conversation), so an agent re-encoding its history measures only the new turns.
"""

from __future__ import annotations

import json
import operator
import weakref
from collections.abc import Callable, Sequence
from functools import partial
from json.encoder import c_make_encoder, encode_basestring, encode_basestring_ascii  # type: ignore[attr-defined]
from typing import Any, NamedTuple

from .. import headers
from ..capability import Capabilities, Cell
from ..capability_schema import Budgets
from ..content import File, Json, Text, ToolCall
from ..mediatypes import is_textual
from ..memo import PAGES_LIMIT, RUN_LIMIT, MeasureMemo, untie
from ..messages import (
    Assistant,
    ContentOutput,
    ErrorJsonOutput,
    ErrorTextOutput,
    JsonOutput,
    System,
    TextOutput,
    ToolResult,
    User,
    base_type,
)
from ..routes import Fetcher, route
from ..sources import BytesSource, UrlSource
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


class Medium(NamedTuple):
    """One file of the conversation as the budgets measure it (a tuple: made per file of
    every message a cold encode measures)."""

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
    #: Its input tokens as sent (the context budget's scan: plan.context).
    tokens: int = 0


class Measured(NamedTuple):
    """One message: its media, and its text as sent (about)."""

    media: tuple[Medium, ...]
    text: int


def of_message(
    message: Any,
    caps: Capabilities,
    fit: Fit | None,
    convert: Policy | None = None,
    pages: dict[int, Any] | None = None,
    fetch: Fetcher | None = None,
) -> Measured:
    """``message`` measured: its media as sent, and (where a byte budget needs it) its text as
    sent, about (``text_bytes``), in one pass over its parts. With ``fetch``, a file by URL is
    measured as its route sends it (downloaded, where the position takes no URL)."""
    textual = bool(caps.budgets.max_request_bytes)  # the text counts for the byte budget only
    if textual:
        about, parts = head_sizes(message)
    else:
        about, parts = 0, _parts(message)
    media = []
    in_result = type(message) is ToolResult
    for part in parts:
        kind = type(part)
        if kind is Text:
            about += len(part.text) if textual else 0
        elif kind is File or isinstance(part, File):
            made = conversion_cost(part, convert, in_result) if convert else None
            if made is not None:
                media.append(_converted(part, *made))
                continue
            cell = caps.cell(part.media_type)
            if cell is None or cell.tool_result == "error" and not cell.user_sources:
                continue
            if fetch is not None and type(part.source) is UrlSource:
                sent = route(part, in_result, caps, fetch, fit).file
                media.append(_medium(part, sent, caps.budgets, pages))
            else:
                media.append(_measure(part, cell, fit, caps.budgets, pages))
        elif textual:
            about += part_sizes(part)[0]
    return Measured(tuple(media), about)


def plain_file(file: File) -> bool:
    """Whether every string of ``file`` is ASCII (a source other than bytes: not known)."""
    name, text = file.name, file.text
    return (
        type(file.source) is BytesSource
        and file.media_type.isascii()
        and (name is None or name.isascii())
        and (text is None or text.isascii())
    )


def _conversions(convert: Policy | None) -> Any:
    return None if convert is None else convert.converters


class Totals(NamedTuple):
    """A conversation's measures summed: what ``left_out`` checks before walking its media."""

    images: int = 0
    pages: int = 0
    documents: int = 0
    bytes: int = 0  # of the media as sent
    text: int = 0  # text_bytes of the messages
    edge: int = 0  # the longest side of any image
    converted: int = 0  # media measured as their conversion


def measures(
    messages: Sequence[Any],
    caps: Capabilities,
    fit: Fit | None,
    convert: Policy | None = None,
    memo: MeasureMemo | None = None,
    fetch: Fetcher | None = None,
) -> tuple[Totals, Sequence[Measured]]:
    """Each message measured (``of_message``), and their sum. With a ``memo``, kept per
    history (its first two messages' digests: the first is often one system prompt every
    session shares), target, fitter and converters: a history that grew (the same messages,
    then new ones) measures its new messages only; one changed before its end, the messages
    from the first it changed."""
    if memo is None or fetch is not None or not messages:  # downloads: measured afresh
        found = [of_message(m, caps, fit, convert, None, fetch) for m in messages]
        return _summed(Totals(), found), found
    runs, pages = memo.runs, memo.pages
    first, second = messages[0], messages[1] if len(messages) > 1 else None
    heads = (getattr(first, "digest", None), getattr(second, "digest", None))
    key = (id(caps), id(fit), _conversions(convert), heads)
    run = runs.pop(key, None)
    if run is None or run.caps is not caps or run.fit is not fit:
        run = _Run(caps, fit)
    kept = run.common(messages)
    if kept < len(run.messages):
        run.messages, run.found = run.messages[:kept], run.found[:kept]
        run.total = _summed(Totals(), run.found)
    new = [of_message(m, caps, fit, convert, pages) for m in messages[kept:]]
    run.messages = (*run.messages, *messages[kept:])
    run.found += new
    run.total = _summed(run.total, new)
    runs[key] = run  # the newest last: the oldest of more than RUN_LIMIT runs is dropped
    if len(runs) > RUN_LIMIT:
        runs.pop(next(iter(runs)))
    return run.total, run.found


class _Run:
    """One history measured: its messages, each one's measures and their sum."""

    def __init__(self, caps: Capabilities, fit: Fit | None) -> None:
        self.caps, self.fit = caps, fit
        self.messages: tuple[Any, ...] = ()
        self.found: list[Measured] = []
        self.total = Totals()

    def common(self, messages: Sequence[Any]) -> int:
        """How many of ``messages``, from the first, are the very messages measured: the
        measures hold the messages' Files, and the budgets name the files they leave out
        by which File they are (plan.files.Budget), so an equal message loaded anew is
        measured anew."""
        kept = self.messages
        if len(messages) >= len(kept) and all(map(operator.is_, kept, messages)):
            return len(kept)  # a history that only grew: compared as pointers, in C
        count = 0
        for old, message in zip(kept, messages, strict=False):
            if old is not message:
                break
            count += 1
        return count


def _summed(start: Totals, found: list[Measured]) -> Totals:
    images, pages, documents, size, text, edge, converted = start
    for measured_ in found:
        text += measured_.text
        for m in measured_.media:
            images, pages, documents = images + m.images, pages + m.pages, documents + m.documents
            size, edge = size + m.bytes, max(edge, m.edge)
            converted += m.converted
    return Totals(images, pages, documents, size, text, edge, converted)


def _converted(file: File, sizes: tuple[int, ...], text: int) -> Medium:
    """A file as its conversion: each image made, and the texts (plan.convert.measure)."""
    sizes = tuple(size + FRAMING for size in sizes)
    size = sum(sizes) + text + FRAMING
    return Medium(file, len(sizes), 0, 0, size, 0, 12 * size, sizes, converted=True)


def _text_about(message: Any) -> int:
    """A message's text, calls and JSON as sent, about (``text_bytes``)."""
    about, parts = head_sizes(message)
    return about + sum(part_sizes(part)[0] for part in parts)


def head_sizes(message: Any) -> tuple[int, Sequence[Any]]:
    """What a message holds outside its parts, as sent, about; and its parts."""
    kind = type(message)
    about = PER_MESSAGE
    if kind is ToolResult:
        output = message.output
        shape = base_type(output)  # a subclass of an output too
        if shape is ContentOutput:
            return about, output.value
        if shape is TextOutput or shape is ErrorTextOutput:
            return about + len(output.value), ()
        if shape is JsonOutput or shape is ErrorJsonOutput:
            return about + _json_chars(output.value)[0], ()
        return about, ()
    if kind is User:
        content = message.content
        return (about + len(content), ()) if type(content) is str else (about, content)
    if kind is Assistant:
        return about, message.content
    if kind is System:
        return about + len(message.text), ()
    return about, _parts(message)


def part_sizes(part: Any) -> tuple[int, int, bool]:
    """One part's text as sent (about), at most its characters of JSON (plan.tally.Tally.text's
    rule), and whether its strings are all ASCII (False where not known)."""
    kind = type(part)
    if kind is Text:
        text = part.text
        return len(text), len(text) + PER_PART, text.isascii()
    if kind is ToolCall:
        return call_sizes(part)
    if kind is Json:
        size, plain = _json_chars(part.value)
        return size, size + PER_PART, plain
    if kind is File or isinstance(part, File):
        return 0, 0, plain_file(part)
    return 0, len(repr(part)) + PER_PART, False


def call_sizes(call: ToolCall) -> tuple[int, int, bool]:
    """``part_sizes`` of a tool call (the layout measures each assistant's calls with it):
    its arguments as spaced JSON, its id and name; signature, provider and invalid arguments
    count toward the characters only (they are not text the model reads)."""
    arguments, plain = _json_chars(call.arguments, spaced=True)
    call_id, name = call.id, call.name
    strings = len(call_id) + len(name)
    extra = 0
    for value in (call.signature, call.provider, call.invalid_arguments):
        if value:
            extra += len(value)
            plain = plain and value.isascii()
    plain = plain and call_id.isascii() and name.isascii()
    return arguments + strings, arguments + strings + extra + PER_PART, plain


def _json_chars(value: Any, spaced: bool = False) -> tuple[int, bool]:
    """Characters of ``value`` as compact JSON (its repr's where it is not JSON); ``spaced``:
    as tool-call arguments at their longest (ASCII escapes, ", " and ": "). And whether every
    string in it (keys too) is ASCII: no escape in the ASCII-escaped text, or the other text
    all ASCII (False where not known: read by repr)."""
    try:
        if spaced:
            text = "".join(_SPACED(value, 0))
            return len(text), "\\u" not in text
        text = "".join(_COMPACT(value, 0))
        return len(text), text.isascii()
    except (TypeError, ValueError, RecursionError):  # not JSON, or a cycle
        return len(repr(value)), False


def _encoder(item: str, key: str, ascii: bool) -> Callable[[Any, int], list[str]]:
    """A JSON encoder made once, called without ``JSONEncoder.encode``'s two Python frames
    (a third of a cold measure's time went there): the C encoder itself where there is one.
    ``"".join(encoder(value, 0))`` is the text. It keeps no cycle markers; a cycle raises
    RecursionError, which its callers take."""
    python = json.JSONEncoder(separators=(item, key), ensure_ascii=ascii)
    try:  # a private function of CPython's json: any other signature falls back
        made = c_make_encoder and c_make_encoder(
            None, python.default, encode_basestring_ascii if ascii else encode_basestring,
            None, key, item, False, False, True,
        )  # fmt: skip
    except TypeError:
        made = None
    if not made:
        return lambda value, _level: [python.encode(value)]
    made_encoder: Callable[[Any, int], list[str]] = made
    return made_encoder


_SPACED = _encoder(", ", ": ", ascii=True)
_COMPACT = _encoder(",", ":", ascii=False)


def _parts(message: Any) -> Sequence[Any]:
    kind = type(message)
    if kind is User:
        content = message.content
        return () if type(content) is str else content
    if kind is ToolResult:
        output = message.output
        return output.value if type(output) is ContentOutput else ()
    if isinstance(message, User) and not isinstance(message.content, str):
        return message.content
    if isinstance(message, ToolResult) and isinstance(message.output, ContentOutput):
        return message.output.value
    return ()


def _measure(
    file: File, cell: Cell, fit: Fit | None, limits: Budgets, pages: dict[int, Any] | None = None
) -> Medium:
    """``file`` as sent (``fitted``)."""
    return _medium(file, fitted(file, cell, fit), limits, pages)


def fitted(file: File, cell: Cell, fit: Fit | None) -> File:
    """``file`` as ``fit`` sends it: a local image fitted to its cell, else itself."""
    if fit is not None and file.media_type.startswith("image/") and file.source.is_local:
        return fit(file, cell)[0]
    return file


def _medium(file: File, sent: File, limits: Budgets, pages: dict[int, Any] | None = None) -> Medium:
    """``file``, sent as ``sent`` (``sizes``)."""
    return Medium(file, *sizes(file, sent, limits, pages))


def sizes(
    file: File, sent: File, limits: Budgets, pages: dict[int, Any] | None = None
) -> tuple[int, int, int, int, int, int]:
    """``Medium``'s figures for ``file`` sent as ``sent``: images, pages, documents, bytes,
    edge, bound; its page count and longest side read only where a limit needs them."""
    media_type = file.media_type
    source = sent.source
    size = b64_length(len(source.data)) if type(source) is BytesSource else sent_bytes(sent)
    label = 12 * (len(file.identifier) + len(media_type)) + 2 * FRAMING
    if media_type.startswith("image/"):
        edge = edge_of(sent) if limits.many_images_count else 0
        textual = media_type == "image/svg+xml"
        images, documents = 1, 0
    else:
        edge, textual, images = 0, is_textual(media_type), 0
        documents = int(not media_type.startswith(("audio/", "video/")))
    pdf = media_type == "application/pdf"
    return (
        images,
        _pages(file, pages) if pdf and limits.max_pdf_pages_per_request else 0,
        documents,
        size + FRAMING,
        edge,
        label + (12 * len(_read(sent)) if textual and source.is_local else size),
    )


def sent_bytes(file: File) -> int:
    source = file.source
    if type(source) is BytesSource:
        return b64_length(len(source.data))
    if source.is_local:
        return b64_length(len(_read(file)))
    return len(source.describe()) * 2  # a URL or file id, in the text


def _pages(file: File, known: dict[int, Any] | None) -> int:
    """The PDF's page count, kept per source while it lives (an agent sends the same PDFs
    every turn)."""
    source = file.source
    if known is None:
        return pdf_pages(file)[0]
    key = id(source)
    hit = known.get(key)
    if hit is not None and hit[0]() is source:
        pages: int = hit[1]
        return pages
    count = pdf_pages(file)[0]
    known[key] = (weakref.ref(source, partial(untie, known, key)), count)
    if len(known) > PAGES_LIMIT:
        del known[next(iter(known))]  # the oldest
    return count


def edge_of(file: File) -> int:
    if not file.source.is_local:
        return 0
    size = headers.image_size(_read(file))  # the header only is read: nothing copied
    return max(size) if size else 0


def _read(file: File) -> bytes:
    source = file.source
    return source.data if type(source) is BytesSource else file.read()


def text_bytes(messages: Sequence[Any]) -> int:
    """The conversation's text, tool calls and JSON, about as many bytes as they take sent."""
    return sum(map(_text_about, messages))
