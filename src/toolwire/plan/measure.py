"""Request budgets, measuring (plan.budgets): each file as it will be sent, once per message.

- bytes: the base64 length of what goes (the fitted image where ``fit_images`` shrinks it;
  a URL or file id by its text), plus ``FRAMING`` for the JSON around it; the conversation's
  text by its length; a file converted (``on_unsupported="convert"``) as its conversion;
- images, PDF pages (headers.pdf_page_count, pypdfium2's page tree), documents: counted.

With a memo (``memo.MeasureMemo``, the ``encode`` boundary's), ``measures`` keeps each
history's measures per target, fitter and converters (bounded: ``memo.RUN_LIMIT``
histories), so an agent re-encoding its history measures only the new turns.
"""

from __future__ import annotations

import functools
import json
import operator
from collections.abc import Callable, Collection, Container, Sequence
from dataclasses import dataclass
from typing import Any

from .. import headers
from ..capability import Capabilities, Cell
from ..capability_schema import Budgets
from ..content import File, Json, Text, ToolCall
from ..mediatypes import is_textual
from ..memo import PAGES_LIMIT, RUN_LIMIT, MeasureMemo
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
)
from ..routes import Fetcher, route
from ..sources import BytesSource, UrlSource
from ..token_measures import pdf_pages
from ..wire_size import Style, b64_length, string_bytes
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
#: How a text is measured: ``len`` (characters), or as a wire sends it (``text_bytes``).
Length = Callable[[str], int]


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
    #: Its input tokens as sent (the context budget's scan: plan.context).
    tokens: int = 0


@dataclass(frozen=True)
class Measured:
    """One message: its media, and its text as sent (about)."""

    media: tuple[Medium, ...]
    text: int


def of_message(
    message: Any,
    caps: Capabilities,
    fit: Fit | None,
    convert: Policy | None = None,
    pages: dict[str, int] | None = None,
    fetch: Fetcher | None = None,
    unsent: Container[int] = (),
) -> Measured:
    """``message`` measured: its media as sent, and (where a byte budget needs it) its text as
    sent, about (``text_bytes``), in one pass over its parts. With ``fetch``, a file by URL is
    measured as its route sends it (downloaded, where the position takes no URL), but for
    those of ``unsent`` (ids of Files a count budget leaves out), which are left out."""
    textual = bool(caps.budgets.max_request_bytes)  # the text counts for the byte budget only
    if textual:
        about, parts = head_sizes(message)
    else:
        about, parts = 0, _parts(message)
    media = []
    in_result = isinstance(message, ToolResult)
    for part in parts:
        if isinstance(part, Text):
            about += len(part.text) if textual else 0
        elif isinstance(part, File):
            if id(part) in unsent:  # left out by count: not sent, so neither fetched nor converted
                continue
            made = conversion_cost(part, convert, in_result) if convert else None
            if made is not None:
                media.append(_converted(part, *made))
                continue
            cell = caps.cell(part.media_type)
            if cell is None or cell.tool_result == "error" and not cell.user_sources:
                continue
            if fetch is not None and isinstance(part.source, UrlSource):
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
        isinstance(file.source, BytesSource)
        and file.media_type.isascii()
        and (name is None or name.isascii())
        and (text is None or text.isascii())
    )


def _conversions(convert: Policy | None) -> Any:
    return None if convert is None else convert.converters


@dataclass(frozen=True)
class Totals:
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
    unsent: Collection[tuple[int, int]] = (),
) -> tuple[Totals, Sequence[Measured]]:
    """Each message measured (``of_message``), and their sum. With a ``memo``, kept per
    history (its first two messages' digests: the first is often one system prompt every
    session shares), target, fitter and converters: a history that grew (the same messages,
    then new ones) measures its new messages only; one changed before its end, the messages
    from the first it changed. With ``fetch``, the files of ``unsent`` ((message index,
    id(File)): those a count budget leaves out) are not measured, so never downloaded."""
    if memo is None or fetch is not None or not messages:  # downloads: measured afresh
        by_message: dict[int, set[int]] = {}
        for at, file_id in unsent if fetch is not None else ():
            by_message.setdefault(at, set()).add(file_id)
        found = [
            of_message(m, caps, fit, convert, None, fetch, by_message.get(at, ()))
            for at, m in enumerate(messages)
        ]
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
    media = [medium for measured in found for medium in measured.media]
    return Totals(
        images=start.images + sum(m.images for m in media),
        pages=start.pages + sum(m.pages for m in media),
        documents=start.documents + sum(m.documents for m in media),
        bytes=start.bytes + sum(m.bytes for m in media),
        text=start.text + sum(measured.text for measured in found),
        edge=max([start.edge, *(m.edge for m in media)]),
        converted=start.converted + sum(m.converted for m in media),
    )


def _converted(file: File, sizes: tuple[int, ...], text: int) -> Medium:
    """A file as its conversion: each image made, and the texts (plan.convert.measure)."""
    sizes = tuple(size + FRAMING for size in sizes)
    size = sum(sizes) + text + FRAMING
    return Medium(file, len(sizes), 0, 0, size, 0, 12 * size, sizes, converted=True)


def _text_about(message: Any, length: Length = len) -> int:
    """A message's text, calls and JSON as sent, about (``text_bytes``)."""
    about, parts = head_sizes(message, length)
    return about + sum(part_sizes(part, length)[0] for part in parts)


def head_sizes(message: Any, length: Length = len) -> tuple[int, Sequence[Any]]:
    """What a message holds outside its parts, as sent, about (each text as ``length``
    measures it: ``text_bytes``); and its parts."""
    match message:
        case ToolResult(output=ContentOutput(value=parts)):
            return PER_MESSAGE, parts
        case ToolResult(output=TextOutput(value=text) | ErrorTextOutput(value=text)):
            return PER_MESSAGE + length(text), ()
        case ToolResult(output=JsonOutput(value=value) | ErrorJsonOutput(value=value)):
            return PER_MESSAGE + _json_chars(value, length=length)[0], ()
        case User(content=str() as text) | System(text=text):
            return PER_MESSAGE + length(text), ()
        case User(content=parts) | Assistant(content=parts):
            return PER_MESSAGE, parts
        case _:
            return PER_MESSAGE, ()


def part_sizes(part: Any, length: Length = len) -> tuple[int, int, bool]:
    """One part's text as sent (about; its texts as ``length`` measures them), at most its
    characters of JSON (plan.tally.Tally.text's rule), and whether its strings are all ASCII
    (False where not known)."""
    match part:
        case Text(text=text):
            return length(text), len(text) + PER_PART, text.isascii()
        case ToolCall():
            return call_sizes(part, length)
        case Json(value=value):
            size, plain = _json_chars(value)
            sent = size if length is len else _json_chars(value, length=length)[0]
            return sent, size + PER_PART, plain
        case File():
            return 0, 0, plain_file(part)
        case _:
            return 0, len(repr(part)) + PER_PART, False


def text_size(message: Any) -> tuple[int, bool]:
    """At most how many characters of JSON a message's text, calls and framing take, and
    whether every string read is ASCII (its files' names and texts included; the files
    themselves are measured on their own: plan.tally.Tally.file).

    The rule: each part's framing takes at most ``PER_PART`` characters' worth, a message's at
    most ``PER_MESSAGE``; a tool result's output is measured as the parts it stands for
    (``ToolResult.parts``); a part of another kind by ``part_sizes`` (its repr, which holds
    every character of its strings, where it is not a toolwire part)."""
    match message:
        case System(text=text) | User(content=str() as text):
            return PER_MESSAGE + PER_PART + len(text), text.isascii()
        case ToolResult(call_id=call_id, name=name):
            chars = PER_MESSAGE + PER_PART + len(call_id) + len(name)
            parts: Sequence[Any] = message.parts
            plain = call_id.isascii() and name.isascii()
        case User(content=parts) | Assistant(content=parts):
            chars, plain = PER_MESSAGE, True
        case _:
            return PER_MESSAGE + len(repr(message)), False
    for part in parts:
        _, more, part_plain = part_sizes(part)
        chars, plain = chars + more, plain and part_plain
    return chars, plain


def call_sizes(call: ToolCall, length: Length = len) -> tuple[int, int, bool]:
    """``part_sizes`` of a tool call (the layout measures each assistant's calls with it):
    its arguments as spaced JSON, its id and name; signature, provider and invalid arguments
    count toward the characters only (they are not text the model reads)."""
    arguments, plain = _json_chars(call.arguments, spaced=True)
    call_id, name = call.id, call.name
    strings = len(call_id) + len(name)
    sent = arguments + strings
    if length is not len:  # the arguments' JSON as a string (as OpenAI's), at most
        sent = _json_chars(call.arguments, True, length)[0] + length(call_id) + length(name)
    extra = 0
    for value in (call.signature, call.provider, call.invalid_arguments):
        if value:
            extra += len(value)
            plain = plain and value.isascii()
    plain = plain and call_id.isascii() and name.isascii()
    return sent, arguments + strings + extra + PER_PART, plain


def _json_chars(value: Any, spaced: bool = False, length: Length = len) -> tuple[int, bool]:
    """Characters of ``value`` as compact JSON (its repr's where it is not JSON; ``length``:
    that text measured so, ``text_bytes``); ``spaced``: as tool-call arguments at their
    longest (ASCII escapes, ", " and ": "). And whether every string in it (keys too) is
    ASCII: no escape in the ASCII-escaped text, or the other text all ASCII (False where not
    known: read by repr)."""
    try:
        if spaced:
            text = json.dumps(value, ensure_ascii=True)
            return length(text), "\\u" not in text
        text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
        return length(text), text.isascii()
    except (TypeError, ValueError, RecursionError):  # not JSON, or a cycle
        return length(repr(value)), False


def _parts(message: Any) -> Sequence[Any]:
    """The parts of a user message or a tool result's content (none for text alone)."""
    match message:
        case User(content=tuple() as parts) | ToolResult(output=ContentOutput(value=parts)):
            return parts
        case _:
            return ()


def _measure(
    file: File, cell: Cell, fit: Fit | None, limits: Budgets, pages: dict[str, int] | None = None
) -> Medium:
    """``file`` as sent (``fitted``)."""
    return _medium(file, fitted(file, cell, fit), limits, pages)


def fitted(file: File, cell: Cell, fit: Fit | None) -> File:
    """``file`` as ``fit`` sends it: a local image fitted to its cell, else itself."""
    if fit is not None and file.media_type.startswith("image/") and file.source.is_local:
        return fit(file, cell)[0]
    return file


def _medium(file: File, sent: File, limits: Budgets, pages: dict[str, int] | None = None) -> Medium:
    """``file``, sent as ``sent`` (``sizes``)."""
    return Medium(file, *sizes(file, sent, limits, pages))


def sizes(
    file: File, sent: File, limits: Budgets, pages: dict[str, int] | None = None
) -> tuple[int, int, int, int, int, int]:
    """``Medium``'s figures for ``file`` sent as ``sent``: images, pages, documents, bytes,
    edge, bound; its page count and longest side read only where a limit needs them."""
    media_type = file.media_type
    source = sent.source
    size = sent_bytes(sent)
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
    if source.is_local:
        return b64_length(len(_read(file)))
    return len(source.describe()) * 2  # a URL or file id, in the text


def _pages(file: File, known: dict[str, int] | None) -> int:
    """The PDF's page count, kept by its content's sha256 (an agent sends the same PDFs every
    turn; ``memo.MeasureMemo.pages``, at most ``PAGES_LIMIT`` of them)."""
    if known is None:
        return pdf_pages(file)[0]
    key = file.source.sha256()
    count = known.get(key)
    if count is None:
        count = known[key] = pdf_pages(file)[0]
        if len(known) > PAGES_LIMIT:
            del known[next(iter(known))]  # the oldest
    return count


def edge_of(file: File) -> int:
    if not file.source.is_local:
        return 0
    size = headers.image_size(_read(file))  # the header only is read: nothing copied
    return max(size) if size else 0


def _read(file: File) -> bytes:
    return file.read()


def text_bytes(messages: Sequence[Any], style: Style | None = None) -> int:
    """The conversation's text, tool calls and JSON, about as many bytes as they take sent:
    each text by its characters, or with ``style`` (the target wire's JSON spelling) by its
    bytes as that wire sends it (``wire_size.string_bytes``: escaped quotes, backslashes and
    control characters, non-ASCII as UTF-8 or as ``\\u`` escapes), as ``fit`` measures."""
    if style is None:
        return sum(map(_text_about, messages))
    return sum(_text_about(m, functools.partial(_sent_length, style=style)) for m in messages)


def _sent_length(text: str, style: Style) -> int:
    """``text``'s bytes as a JSON string's content in ``style`` (its quotes are framing)."""
    return string_bytes(text, style) - 2
