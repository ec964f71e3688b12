"""Request budgets (DESIGN.md §5.3): which files one request leaves out, oldest first.

A target's per-request limits (``Capabilities.budgets``: request bytes as sent, images, PDF
pages, documents, and Anthropic's many-images edge) are data in capabilities.toml. The
layout measures every message as it goes (plan.tally); where that tally may break a limit,
every medium of the conversation is measured here as it will be sent (plan.measure):

- bytes: the base64 length of what goes (the fitted image where ``fit_images`` shrinks it;
  a URL or file id by its text), plus ``FRAMING`` for the JSON around it; the conversation's
  text by its length, plus ``HEADROOM`` for what the caller adds (model, max_tokens, tools);
- images, PDF pages (headers.pdf_page_count, pypdfium2's page tree), documents: counted.

Then the history is scanned from its first message (``Scan``), as the requests of an agent
loop met it: media are kept while every limit holds, and when one breaks the oldest kept are
left out until that limit is down to ``evict_to`` of it, the newest message's only as far as
the limit needs (issue 37: one step frees room for several turns, so the requests between
steps start alike and a prompt cache keeps serving them). The newest medium is never left
out for older ones; an image that alone breaks the
bytes left is re-encoded (imagefit) to fit them. With ``on_unsupported="convert"`` a
conversion's images count, and an old conversion loses its images (last first, its text
stays) when its turn to be left out comes. ``left_out`` returns an ``Outcome``: each file
left out (by message index and id) with the ``Limit`` that left it out (its Decision's ``limit``), each image
re-fitted and each conversion shrunk. What happens to a file left out is plan.files': its
description (``on_budget="evict"``) or a BudgetError.

``request.plan_request`` checks the spelled body with ``wire_size`` (no serialisation) unless
``Plan.bound`` (plan.tally) already proves it within the budget, and plans again with the
overshoot kept free when the text estimate was short.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from ..capability import Capabilities, Cell
from ..capability_schema import Budgets
from ..content import File
from ..counts import counted_out
from ..errors import ToolwireError
from ..memo import MeasureMemo
from .files import Policy
from .measure import (
    FRAMING,
    PER_MESSAGE,
    SLACK,
    Fit,
    Measured,
    Medium,
    Totals,
    edge_of,
    measures,
    sent_bytes,
    text_bytes,
)
from .values import Limit

__all__ = ["FRAMING", "HEADROOM", "PER_MESSAGE", "SLACK", "Medium", "text_bytes"]

#: Bytes kept free for what the caller adds to the body (model, max_tokens, tools, …).
HEADROOM = 16 * 1024
#: The fewest raw bytes an image is re-encoded to before it is left out instead.
MIN_REFIT = 48 * 1024
#: Re-fit targets are whole steps of this many bytes, so that the next turns, whose room
#: differs by a little text, ask for the same re-fit and find it kept (memo.Memo.fitted).
REFIT_STEP = 64 * 1024

_COUNTED = (
    ("max_images_per_request", "images"),
    ("max_pdf_pages_per_request", "pages"),
    ("max_documents_per_request", "documents"),
    ("max_request_bytes", "bytes"),
)


class RequestTooLargeError(ToolwireError):
    """The conversation's text alone breaks the target's request budget."""


def binds(limits: Budgets) -> bool:
    """Whether the target has any per-request limit (most have none: nothing to do)."""
    return any(getattr(limits, name) for name, _ in _COUNTED) or bool(limits.many_images_count)


def sized(limits: Budgets) -> bool:
    """Whether a limit reads images as fitted: their bytes, or their edges beyond a count."""
    return bool(limits.max_request_bytes or limits.many_images_count and limits.many_images_edge)


@dataclass
class Outcome:
    """What the budgets decided: files left out ((message index, id) -> the limit: each
    occurrence on its own) and images re-fitted to the bytes left (id -> (the smaller File,
    the note its Decision records, the limit))."""

    left: dict[tuple[int, int], Limit] = field(default_factory=dict)
    refit: dict[int, tuple[File, str, Limit]] = field(default_factory=dict)
    #: id(File) -> (the images its conversion keeps, the note, the budget that bound).
    shrunk: dict[int, tuple[int, str, Limit]] = field(default_factory=dict)


def left_out(
    messages: Sequence[Any],
    caps: Capabilities,
    fit: Fit | None,
    reserve: int = 0,
    policy: Policy | None = None,
    memo: MeasureMemo | None = None,
    excess: Mapping[Cell, int] | None = None,
) -> Outcome:
    """The oldest media beyond the target's budgets, evicted in steps (``Scan``), and the
    newest image re-fitted where it alone breaks the bytes left. With
    ``on_unsupported="convert"`` (``policy``), the images a conversion makes count too, and
    an old conversion loses its images (last page first) before its place in the history
    comes to be left out: its text stays. ``excess``: the files per cell the count budgets
    leave out (counts.oldest_left_out), which are not sent, so not measured (nor, by URL,
    downloaded)."""
    limits = caps.budgets
    if not binds(limits):
        return Outcome()
    fit = fit if sized(limits) else None
    convert = policy if policy is not None and policy.on_unsupported == "convert" else None
    fetch = policy.fetch if policy is not None else None
    out = counted_out(messages, caps, excess) if excess else set()
    total, found = measures(messages, caps, fit, convert, memo, fetch, out)
    if _within(total, limits, reserve):
        return Outcome()  # nothing binds: nothing walked
    if limits.max_request_bytes:  # the text first: no medium left out can make it fit
        text = total.text + HEADROOM + reserve
        if text > limits.max_request_bytes:
            raise too_large(caps, text)
    evict_to = policy.evict_to if policy is not None else 1.0
    if out:  # measured from memory, they are in: taken out
        found = [_without(measured, at, out) for at, measured in enumerate(found)]
    scan = Scan(caps, fit, evict_to, HEADROOM + reserve, convert is not None)
    for measured in found:
        scan.add(measured)
    media = [(at, medium) for at, measured in enumerate(found) for medium in measured.media]
    closed = scan.out
    closed.update(_many_images(media, closed, limits))
    counts: dict[str, int] = {}
    for name in closed.values():
        counts[name] = counts.get(name, 0) + 1
    left = {k: scan.limit(name, counts[name], len(media)) for k, name in closed.items()}
    return Outcome(left, scan.refit, scan.shrunk_limits())


def _without(measured: Measured, at: int, out: set[tuple[int, int]]) -> Measured:
    """Message ``at`` measured without the files the count budgets leave out (``out``)."""
    media = tuple(m for m in measured.media if (at, id(m.file)) not in out)
    return measured if len(media) == len(measured.media) else replace(measured, media=media)


def _within(found: Totals, limits: Budgets, reserve: int) -> bool:
    """Whether every medium fits every limit as it is (nothing converted): then nothing is
    left out or re-fitted, as the walk would find."""
    if found.converted:
        return False
    for name, measure in _COUNTED:
        limit = getattr(limits, name)
        used = getattr(found, measure) + (
            found.text + HEADROOM + reserve if measure == "bytes" else 0
        )
        if limit and used > limit:
            return False
    count, edge = limits.many_images_count, limits.many_images_edge
    return not (count and edge and found.images > count and found.edge > edge)


def too_large(caps: Capabilities, size: int) -> RequestTooLargeError:
    """The error for a request whose text alone breaks the byte budget."""
    limit = caps.budgets.max_request_bytes or 0
    return RequestTooLargeError(
        f"{caps.provider}:{caps.model}: the conversation's text alone is about {size:,} bytes "
        f"as sent, beyond max_request_bytes = {limit:,} ({caps.budgets.budget_evidence}). "
        f"Shorten it with tw.fit(messages, model) first."
    )


class Scan:
    """The media of a history from the oldest, each message's text first, kept while every
    budget holds. When one breaks, older messages' media are evicted, oldest first, until each
    budget that broke is down to ``evict_to`` of its room (and every other within its limit),
    and of the newest message's only as many as the limits themselves need: one eviction
    frees room for several turns, so the requests between evictions start alike and a prompt
    cache keeps serving them. The scan is the same for a history and its continuation, so
    the files it keeps move only at an eviction. The newest medium is never evicted for
    older ones; where it alone breaks the bytes left, an image is re-fitted to them
    (``MIN_REFIT`` at least), anything else left out. Each occurrence of a file is its own
    (one File object may stand in two messages)."""

    def __init__(
        self,
        caps: Capabilities,
        fit: Fit | None,
        evict_to: float,
        fixed: int,
        convert: bool,
        limits: list[tuple[str, str, int]] | None = None,
    ) -> None:
        """``limits``: (name, measure, value) of each limit the scan holds (default: the
        target's request budgets; plan.context scans the context window's tokens); ``fixed``:
        what the text holds besides the messages, in the unit of the byte or token limit."""
        if limits is None:
            budgets = caps.budgets
            limits = [(name, measure, getattr(budgets, name)) for name, measure in _COUNTED]
            limits = [entry for entry in limits if entry[2]]
        self.limits = list(limits)  # its own list: the image count below is the scan's alone
        if convert:  # a conversion's images count against an image cell's max_count too
            for media_type, cell in caps.cells.items():
                if media_type.startswith("image/") and cell.max_count:
                    self.limits.append(("max_count of images", "images", cell.max_count))
                    break
        self.caps, self.fit, self.evict_to = caps, fit, evict_to
        self.text = fixed  # the text so far, and what the caller adds
        self.used = dict.fromkeys(_MEASURES, 0)
        self.kept: deque[Medium] = deque()
        #: The message each kept medium is in (parallel to ``kept``), and the current one.
        self.where: deque[int] = deque()
        self.message = -1
        self.dropped_at = -1  # the message of the file last left out
        #: (message index, id(File)) -> the limit's name: each occurrence of a file on its
        #: own (one File object may stand in two messages).
        self.out: dict[tuple[int, int], str] = {}
        self.refit: dict[int, tuple[File, str, Limit]] = {}
        self.shrunk: dict[int, tuple[int, int, str]] = {}  # id -> (images kept, made, limit)

    def add(self, measured: Any) -> None:
        self.message += 1
        self.text += measured.text
        for medium in measured.media:
            self.kept.append(medium)
            self.where.append(self.message)
            self._count(medium, 1)
        broken = self._broken()
        if broken:
            self._evict(broken)

    def _count(self, medium: Medium, sign: int) -> None:
        for measure in _MEASURES:
            self.used[measure] += sign * getattr(medium, measure)

    def _room(self, measure: str, limit: int) -> int:
        """What the media may take of ``limit``: the text takes its share of bytes or tokens
        (a scan measures its text in the unit of its size limit)."""
        return limit - self.text if measure in ("bytes", "tokens") else limit

    def _broken(self) -> list[str]:
        return [n for n, m, limit in self.limits if self.used[m] > self._room(m, limit)]

    def _above_low_water(self, broken: list[str]) -> bool:
        for name, measure, limit in self.limits:
            room = self._room(measure, limit)
            low = int(room * self.evict_to) if name in broken else room
            if self.used[measure] > max(low, 0):
                return True
        return False

    def _evict(self, broken: list[str]) -> None:
        dropped = None
        # down to the low-water mark with older messages' media; the newest message's
        # only as far as the limit itself needs
        while self.where and self.where[0] < self.message and self._above_low_water(broken):
            dropped = self._drop_oldest(broken[0])
        while len(self.kept) > 1 and self._broken():
            dropped = self._drop_oldest(self._broken()[0])
        if self.kept and self._broken():  # the newest alone breaks a budget
            newest = self.kept[-1]
            name = self._broken()[0]
            smaller = self._refitted(newest) if name == "max_request_bytes" else None
            if smaller is not None:
                self._count(newest, -1)
                self.kept[-1] = smaller
                self._count(smaller, 1)
            while self.kept and self._broken():
                self._drop_oldest(name)
        elif dropped is not None and self.evict_to >= 1 and broken == ["max_request_bytes"]:
            # one file at a time: the last image left out, re-fitted to the bytes left
            smaller = self._refitted(dropped)
            if smaller is not None:
                del self.out[(self.dropped_at, id(dropped.file))]
                self.kept.appendleft(smaller)
                self.where.appendleft(self.dropped_at)
                self._count(smaller, 1)

    def _drop_oldest(self, name: str) -> Medium | None:
        """The oldest kept medium out: a conversion's last image, else the whole file (which
        is returned)."""
        oldest = self.kept[0]
        if oldest.sizes:  # a conversion: its images go one by one, its text stays
            key = id(oldest.file)
            made = self.shrunk[key][1] if key in self.shrunk else len(oldest.sizes)
            last = oldest.sizes[-1]
            smaller = replace(
                oldest, images=oldest.images - 1, bytes=oldest.bytes - last, sizes=oldest.sizes[:-1]
            )
            self._count(oldest, -1)
            self.shrunk[key] = (len(smaller.sizes), made, self.shrunk.get(key, (0, 0, name))[2])
            if smaller.sizes:
                self.kept[0] = smaller
                self._count(smaller, 1)
            else:  # its text alone: kept, but no longer evictable
                self.kept.popleft()
                self.where.popleft()
                self.text += smaller.bytes
            return None
        self._count(self.kept.popleft(), -1)
        self.dropped_at = self.where.popleft()
        self.out[(self.dropped_at, id(oldest.file))] = name
        return oldest

    def _refitted(self, medium: Medium) -> Medium | None:
        """The image re-encoded within the bytes left beside the other media kept (at least
        ``MIN_REFIT`` of them)."""
        room = self._room("bytes", self.caps.budgets.max_request_bytes or 0)
        kept = bool(self.kept) and self.kept[-1] is medium  # the newest, or one left out
        room -= self.used["bytes"] - (medium.bytes if kept else 0)
        cell = self.caps.cell(medium.file.media_type)
        raw = (room - FRAMING) * 3 // 4
        raw -= raw % REFIT_STEP  # the same target for nearby rooms: a re-fit is kept (memo)
        if not medium.images or self.fit is None or cell is None or raw < MIN_REFIT or medium.sizes:
            return None
        if not medium.file.source.is_local:
            return None
        smaller, note = self.fit(
            medium.file, replace(cell, max_bytes=min(raw, cell.max_bytes or raw))
        )
        size = sent_bytes(smaller) + FRAMING
        if size > room:
            return None
        why = f"{note or 're-encoded'} to fit the request budget max_request_bytes"
        self.refit[id(medium.file)] = (smaller, why, limit_of(self.caps, "max_request_bytes"))
        return replace(medium, bytes=size, edge=edge_of(smaller))

    def shrunk_limits(self) -> dict[int, tuple[int, str, Limit]]:
        """Per conversion that lost images: how many it keeps, the note, the budget."""
        found = {}
        for key, (kept, made, name) in self.shrunk.items():
            limit = self.limit(name)
            note = (
                f"; {kept} of its {made} images kept, the rest as text: request budget "
                f"{name} = {limit.value:,} binds (the oldest media go first; {limit.source})"
            )
            found[key] = (kept, note, limit)
        return found

    def limit(self, name: str, excess: int = 0, total: int = 0) -> Limit:
        """The budget ``name`` as the limit that changed a file (``limit_of``); an image
        cell's count is its ``max_count``."""
        if name == "max_count of images":
            value = next(v for n, _, v in self.limits if n == name)
            cells = [c for t, c in self.caps.cells.items() if t.startswith("image/")]
            source = next((c.evidence for c in cells if c.max_count == value), "")
            return Limit("max_count", value, source, excess, total, "images")
        return limit_of(self.caps, name, excess, total)


#: What the scan counts of each medium (``Medium``'s fields).
_MEASURES = ("images", "pages", "documents", "bytes", "tokens")


def _many_images(
    media: list[tuple[int, Medium]], closed: dict[tuple[int, int], str], limits: Budgets
) -> dict[tuple[int, int], str]:
    """Anthropic: beyond ``many_images_count`` images, none may exceed ``many_images_edge``."""
    count, edge = limits.many_images_count, limits.many_images_edge
    if not count or not edge:
        return {}
    kept = [(at, m) for at, m in media if m.images and (at, id(m.file)) not in closed]
    if len(kept) <= count:
        return {}
    return {(at, id(m.file)): "many_images_edge" for at, m in kept if m.edge > edge}


def limit_of(caps: Capabilities, name: str, excess: int = 0, total: int = 0) -> Limit:
    """The request budget ``name`` as the limit that changed a file; ``excess`` of ``total``
    media were left out by it."""
    limits = caps.budgets
    source = limits.budget_evidence or ""
    if name == "many_images_edge":
        edge, count = limits.many_images_edge or 0, limits.many_images_count or 0
        return Limit(name, edge, source, excess, count)
    return Limit(name, getattr(limits, name), source, excess, total)
