"""Request budgets (DESIGN.md §5.3): which files one request leaves out, oldest first.

A target's per-request limits (``Capabilities.budgets``: request bytes as sent, images, PDF
pages, documents, and Anthropic's many-images edge) are data in capabilities.toml. Before
anything is routed, every medium of the conversation is measured as it will be sent:

- bytes: the base64 length of what goes (the fitted image where ``fit_images`` shrinks it;
  a URL or file id by its text), plus ``FRAMING`` for the JSON around it; the conversation's
  text by its length, plus ``HEADROOM`` for what the caller adds (model, max_tokens, tools);
- images, PDF pages (headers.pdf_page_count, pypdfium2's page tree), documents: counted.

Then the newest media are admitted first; the first medium that would break a limit closes
that limit, and every older medium it measures is left out: newest media always win, and
the last turn's files are kept if anything is. Where bytes bind, the medium that would
break them, if an image, is first re-encoded (imagefit, deterministically) to the bytes
left. ``left_out`` returns an ``Outcome``: each File left out (by id) with the reason its
Decision or the UnsupportedContentError gives, naming the limit, and each image re-fitted.

``request.encode`` checks the encoded body with ``wire_size`` (no serialisation) unless
``upper_bound`` already proves it within the budget, and plans again with the overshoot kept
free when the text estimate was short. Each message is measured once per target and fitter
(weakly held: the measures leave with the conversation).
"""

from __future__ import annotations

import json
import re
import weakref
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from .. import headers
from ..capability import Capabilities, Cell
from ..capability_schema import Budgets
from ..content import File, Json, Text, ToolCall
from ..errors import ToolwireError
from ..mediatypes import is_textual
from ..messages import ContentOutput, JsonOutput, ToolResult, User
from ..sources import BytesSource
from ..token_measures import pdf_pages
from ..wire_size import b64_length
from .convert import measure as conversion_cost
from .files import Policy
from .shrink import shrink as _shrink

#: Bytes kept free for what the caller adds to the body (model, max_tokens, tools, …).
HEADROOM = 16 * 1024
#: JSON around one file's base64 (block type, source, media type, its label text).
FRAMING = 512
#: JSON around one message (role, content list, tool-call ids).
PER_MESSAGE = 96
#: Bytes of JSON an encoder may add beyond the messages (bridges, labels, cache marks).
SLACK = 4096
#: The fewest raw bytes an image is re-encoded to before it is left out instead.
MIN_REFIT = 48 * 1024

Fit = Callable[[File, Cell], tuple[File, str | None]]
_COUNTED = (
    ("max_images_per_request", "images"),
    ("max_pdf_pages_per_request", "pages"),
    ("max_documents_per_request", "documents"),
    ("max_request_bytes", "bytes"),
)


class RequestTooLargeError(ToolwireError):
    """The conversation's text alone breaks the target's request budget."""


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


def binds(limits: Budgets) -> bool:
    """Whether the target has any per-request limit (most have none: nothing to do)."""
    return any(getattr(limits, name) for name, _ in _COUNTED) or bool(limits.many_images_count)


@dataclass
class Outcome:
    """What the budgets decided: files left out (id -> reason) and images re-fitted to the
    bytes left (id -> (the smaller File, the note its Decision records))."""

    left: dict[int, str] = field(default_factory=dict)
    refit: dict[int, tuple[File, str]] = field(default_factory=dict)
    #: id(File) -> (the images its conversion keeps, the note naming the budget that bound).
    shrunk: dict[int, tuple[int, str]] = field(default_factory=dict)


def left_out(
    messages: Sequence[Any],
    caps: Capabilities,
    fit: Fit | None,
    reserve: int = 0,
    policy: Policy | None = None,
) -> Outcome:
    """The oldest media beyond the target's budgets, and the images fitted to the bytes left.
    With ``on_unsupported="convert"`` (``policy``), the images a conversion makes count too,
    and the oldest conversions' images go first (``shrunk``), before any file is left out."""
    limits = caps.budgets
    if not binds(limits):
        return Outcome()
    fit = fit if limits.max_request_bytes else None
    convert = policy if policy is not None and policy.on_unsupported == "convert" else None
    media = measured(messages, caps, fit, convert)
    if not media:
        return Outcome()
    text = 0
    if limits.max_request_bytes:
        text = sum(_of(m, caps, fit, convert).text for m in messages) + HEADROOM + reserve
        if text > limits.max_request_bytes:
            raise too_large(caps, text)
    media, shrunk = _shrink(media, caps, text)
    walk = _Walk(limits, text, caps, fit)
    for medium in reversed(media):
        walk.admit(medium)
    closed = walk.out
    closed.update(_many_images(media, closed, limits))
    counts: dict[str, int] = {}
    for name in closed.values():
        counts[name] = counts.get(name, 0) + 1
    left = {k: reason(caps, name, counts[name], len(media)) for k, name in closed.items()}
    return Outcome(left, walk.refit, shrunk)


def too_large(caps: Capabilities, size: int) -> RequestTooLargeError:
    """The error for a request whose text alone breaks the byte budget."""
    limit = caps.budgets.max_request_bytes or 0
    return RequestTooLargeError(
        f"{caps.provider}:{caps.model}: the conversation's text alone is about {size:,} bytes "
        f"as sent, beyond max_request_bytes = {limit:,} ({caps.budgets.budget_evidence}). "
        f"Shorten it with tw.fit(messages, model) first."
    )


class _Walk:
    """Admits media newest first; the first that breaks a limit closes it for older ones."""

    def __init__(self, limits: Budgets, text: int, caps: Capabilities, fit: Fit | None) -> None:
        self.active = [
            (name, measure, getattr(limits, name) - (text if measure == "bytes" else 0))
            for name, measure in _COUNTED
            if getattr(limits, name)
        ]
        self.used = dict.fromkeys((name for name, _, _ in self.active), 0)
        self.closed: set[str] = set()
        self.out: dict[int, str] = {}
        self.refit: dict[int, tuple[File, str]] = {}
        self.caps, self.fit = caps, fit

    def admit(self, medium: Medium) -> None:
        for name, measure, room in self.active:
            need = getattr(medium, measure)
            if not need or (name not in self.closed and self.used[name] + need <= room):
                continue
            if measure == "bytes" and name not in self.closed:
                smaller = self._refit(medium, room - self.used[name])
                if smaller is not None:
                    medium = smaller
                    continue
            self.closed.add(name)
            self.out[id(medium.file)] = name
            return
        for name, measure, _ in self.active:
            self.used[name] += getattr(medium, measure)

    def _refit(self, medium: Medium, room: int) -> Medium | None:
        """The image re-encoded within the bytes left (at least ``MIN_REFIT`` of them)."""
        cell = self.caps.cell(medium.file.media_type)
        raw = (room - FRAMING) * 3 // 4
        if not medium.images or self.fit is None or cell is None or raw < MIN_REFIT or medium.sizes:
            return None
        if not medium.file.source.is_local:
            return None
        smaller, note = self.fit(
            medium.file, replace(cell, max_bytes=min(raw, cell.max_bytes or raw))
        )
        size = _sent_bytes(smaller) + FRAMING
        if size > room:
            return None
        why = f"{note or 're-encoded'} to fit the request budget max_request_bytes"
        self.refit[id(medium.file)] = (smaller, why)
        return replace(medium, bytes=size, edge=_edge(smaller))


def _many_images(media: list[Medium], closed: dict[int, str], limits: Budgets) -> dict[int, str]:
    """Anthropic: beyond ``many_images_count`` images, none may exceed ``many_images_edge``."""
    count, edge = limits.many_images_count, limits.many_images_edge
    if not count or not edge:
        return {}
    kept = [m for m in media if m.images and id(m.file) not in closed]
    if len(kept) <= count:
        return {}
    return {id(m.file): "many_images_edge" for m in kept if m.edge > edge}


def reason(caps: Capabilities, name: str, excess: int, total: int) -> str:
    """Why a file is left out, naming the limit, for its Decision or the error."""
    limits = caps.budgets
    if name == "many_images_edge":
        return (
            f"a request with more than {limits.many_images_count} images takes none larger than "
            f"{limits.many_images_edge} px a side (many_images_edge; {excess} left out): pass "
            f"fit_images=True to downscale them ({limits.budget_evidence})"
        )
    return (
        f"request budget {name} = {getattr(limits, name):,} binds: the {excess} oldest of "
        f"{total} media files are left out, the newest kept ({limits.budget_evidence})"
    )


# --- measuring --------------------------------------------------------------------------


def measured(
    messages: Sequence[Any], caps: Capabilities, fit: Fit | None, convert: Policy | None = None
) -> list[Medium]:
    """Every file the target could send, oldest first, measured as it would be sent (with
    ``convert``, a file no route carries as its conversion)."""
    return [m for message in messages for m in _of(message, caps, fit, convert).media]


def upper_bound(messages: Sequence[Any], caps: Capabilities, fit: Fit | None) -> int:
    """At most how many bytes of JSON the encoded ``messages`` take when every file is sent
    as routed (no text fallback, no conversion, no tools): encode skips measuring the body
    when this is within the byte budget."""
    size = SLACK
    for message in messages:
        found = _of(message, caps, fit)
        size += found.bound + sum(m.bound for m in found.media)
    return size


@dataclass(frozen=True)
class _Measured:
    """One message: its media, its text as sent (about), and at most its JSON without files."""

    media: tuple[Medium, ...]
    text: int
    bound: int


def _of(
    message: Any, caps: Capabilities, fit: Fit | None, convert: Policy | None = None
) -> _Measured:
    """``message`` measured once per target, fitter and converters (an agent re-sends its
    history)."""
    key = id(message)
    hit = _MEASURED.get(key)
    same = hit is not None and hit[0]() is message and hit[1] is caps and hit[2] is fit
    if same and hit[3] == _conversions(convert):  # type: ignore[index]
        return hit[4]  # type: ignore[index]
    media = []
    for part in _parts(message):
        if not isinstance(part, File):
            continue
        made = conversion_cost(part, convert, isinstance(message, ToolResult)) if convert else None
        if made is not None:
            media.append(_converted(part, *made))
            continue
        cell = caps.cell(part.media_type)
        if cell is not None and (cell.tool_result != "error" or cell.user_sources):
            media.append(_measure(part, cell, fit))
    found = _Measured(tuple(media), text_bytes([message]), _text_bound(message))
    try:
        ref = weakref.ref(message)
    except TypeError:  # not a message: plan refuses it
        return found
    if hit is None:
        weakref.finalize(message, _MEASURED.pop, key, None)  # leaves with the conversation
    _MEASURED[key] = (ref, caps, fit, _conversions(convert), found)
    if len(_MEASURED) > 16384:
        _MEASURED.popitem(last=False)
    return found


#: id(message) -> (a weak reference to it, caps, fitter, converters, its measures).
_MEASURED: OrderedDict[int, tuple[Any, Any, Any, Any, _Measured]] = OrderedDict()


def _conversions(convert: Policy | None) -> Any:
    return None if convert is None else convert.converters


def _converted(file: File, sizes: tuple[int, ...], text: int) -> Medium:
    """A file as its conversion: each image made, and the texts (plan.convert.measure)."""
    sizes = tuple(size + FRAMING for size in sizes)
    size = sum(sizes) + text + FRAMING
    return Medium(file, len(sizes), 0, 0, size, 0, 12 * size, sizes)


def _text_bound(message: Any) -> int:
    """At most the JSON bytes of a message's text, calls and framing: each character of its
    repr (which holds every character of its strings) becomes at most 12 bytes (an escaped
    astral character, ASCII escapes), and a message's framing at most ``PER_MESSAGE``."""
    parts = _parts(message)
    if parts:
        chars = sum(len(repr(p)) for p in parts if not isinstance(p, File))
    else:
        chars = len(repr(message))
    return 12 * (chars + PER_MESSAGE)


def _parts(message: Any) -> Sequence[Any]:
    if isinstance(message, User) and not isinstance(message.content, str):
        return message.content
    if isinstance(message, ToolResult) and isinstance(message.output, ContentOutput):
        return message.output.value
    return ()


def _measure(file: File, cell: Cell, fit: Fit | None) -> Medium:
    image = file.media_type.startswith("image/")
    sent = file
    if image and fit is not None and file.source.is_local:
        sent = fit(file, cell)[0]
    size = _sent_bytes(sent)
    pdf = file.media_type == "application/pdf"
    document = not image and not file.media_type.startswith(("audio/", "video/"))
    label = 12 * (len(file.identifier) + len(file.media_type)) + 2 * FRAMING
    textual = is_textual(file.media_type)
    return Medium(
        file,
        images=int(image),
        pages=_pages(file) if pdf else 0,
        documents=int(document),
        bytes=size + FRAMING,
        edge=_edge(sent) if image else 0,
        bound=label + (12 * len(_read(sent)) if textual and sent.source.is_local else size),
    )


def _sent_bytes(file: File) -> int:
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


def _edge(file: File) -> int:
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


_BOUND = re.compile(
    r"request budget (\w+) = |\((many_images_edge);|one request takes at most \d+ (files) of"
)


def bound(decisions: Sequence[Any]) -> dict[str, int]:
    """Per budget that bound (its field name; a cell's ``max_count``), how many files it left
    out, from Decisions."""
    out: dict[str, int] = {}
    for decision in decisions:
        found = _BOUND.search(decision.reason)
        if found:
            name = found.group(1) or found.group(2) or "max_count"
            out[name] = out.get(name, 0) + 1
    return out
