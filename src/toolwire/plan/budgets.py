"""Request budgets (DESIGN.md §5.3): which files one request leaves out, oldest first.

A target's per-request limits (``Capabilities.budgets``: request bytes as sent, images, PDF
pages, documents, and Anthropic's many-images edge) are data in capabilities.toml. The
layout measures every message as it goes (plan.tally); where that tally may break a limit,
every medium of the conversation is measured here as it will be sent:

- bytes: the base64 length of what goes (the fitted image where ``fit_images`` shrinks it;
  a URL or file id by its text), plus ``FRAMING`` for the JSON around it; the conversation's
  text by its length, plus ``HEADROOM`` for what the caller adds (model, max_tokens, tools);
- images, PDF pages (headers.pdf_page_count, pypdfium2's page tree), documents: counted.

Then the newest media are admitted first; the first medium that would break a limit closes
that limit, and every older medium it measures is left out: newest media always win, and
the last turn's files are kept if anything is. Where bytes bind, the medium that would
break them, if an image, is first re-encoded (imagefit, deterministically) to the bytes
left. ``left_out`` returns an ``Outcome``: each File left out (by id) with the ``Limit``
that left it out (its Decision's ``limit``), and each image re-fitted.

``request.plan_request`` checks the spelled body with ``wire_size`` (no serialisation) unless
``Plan.bound`` (plan.tally) already proves it within the budget, and plans again with the
overshoot kept free when the text estimate was short. Measuring is plan.measure (each message once, and the
running sums of a growing history, so that when no limit binds nothing is walked); with
``on_unsupported="convert"`` a conversion's images count, and plan.shrink drops the oldest
conversions' images before the walk leaves any file out.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from ..capability import Capabilities
from ..capability_schema import Budgets
from ..content import File
from ..errors import ToolwireError
from ..memo import MeasureMemo
from .files import Policy
from .measure import (
    FRAMING,
    PER_MESSAGE,
    SLACK,
    Fit,
    Medium,
    Totals,
    edge_of,
    measures,
    sent_bytes,
    text_bytes,
)
from .shrink import shrink as _shrink
from .values import Limit

__all__ = ["FRAMING", "HEADROOM", "PER_MESSAGE", "SLACK", "Medium", "text_bytes"]

#: Bytes kept free for what the caller adds to the body (model, max_tokens, tools, …).
HEADROOM = 16 * 1024
#: The fewest raw bytes an image is re-encoded to before it is left out instead.
MIN_REFIT = 48 * 1024

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
    """What the budgets decided: files left out (id -> the limit) and images re-fitted to the
    bytes left (id -> (the smaller File, the note its Decision records, the limit))."""

    left: dict[int, Limit] = field(default_factory=dict)
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
) -> Outcome:
    """The oldest media beyond the target's budgets, and the images fitted to the bytes left.
    With ``on_unsupported="convert"`` (``policy``), the images a conversion makes count too,
    and the oldest conversions' images go first (``shrunk``), before any file is left out."""
    limits = caps.budgets
    if not binds(limits):
        return Outcome()
    fit = fit if sized(limits) else None
    convert = policy if policy is not None and policy.on_unsupported == "convert" else None
    fetch = policy.fetch if policy is not None else None
    total, found = measures(messages, caps, fit, convert, memo, fetch)
    if _within(total, limits, reserve):
        return Outcome()  # nothing binds: nothing walked
    media = [medium for measures in found for medium in measures.media]
    text = 0
    if limits.max_request_bytes:  # the text first: no medium left out can make it fit
        text = sum(measures.text for measures in found) + HEADROOM + reserve
        if text > limits.max_request_bytes:
            raise too_large(caps, text)
    if not media:
        return Outcome()
    media, shrunk = _shrink(media, caps, text)
    walk = _Walk(limits, text, caps, fit)
    for medium in reversed(media):
        walk.admit(medium)
    closed = walk.out
    closed.update(_many_images(media, closed, limits))
    counts: dict[str, int] = {}
    for name in closed.values():
        counts[name] = counts.get(name, 0) + 1
    left = {k: limit_of(caps, name, counts[name], len(media)) for k, name in closed.items()}
    return Outcome(left, walk.refit, shrunk)


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
        self.refit: dict[int, tuple[File, str, Limit]] = {}
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
        size = sent_bytes(smaller) + FRAMING
        if size > room:
            return None
        why = f"{note or 're-encoded'} to fit the request budget max_request_bytes"
        self.refit[id(medium.file)] = (smaller, why, limit_of(self.caps, "max_request_bytes"))
        return medium._replace(bytes=size, edge=edge_of(smaller))


def _many_images(media: list[Medium], closed: dict[int, str], limits: Budgets) -> dict[int, str]:
    """Anthropic: beyond ``many_images_count`` images, none may exceed ``many_images_edge``."""
    count, edge = limits.many_images_count, limits.many_images_edge
    if not count or not edge:
        return {}
    kept = [m for m in media if m.images and id(m.file) not in closed]
    if len(kept) <= count:
        return {}
    return {id(m.file): "many_images_edge" for m in kept if m.edge > edge}


def limit_of(caps: Capabilities, name: str, excess: int = 0, total: int = 0) -> Limit:
    """The request budget ``name`` as the limit that changed a file; ``excess`` of ``total``
    media were left out by it."""
    limits = caps.budgets
    source = limits.budget_evidence or ""
    if name == "many_images_edge":
        edge, count = limits.many_images_edge or 0, limits.many_images_count or 0
        return Limit(name, edge, source, excess, count)
    return Limit(name, getattr(limits, name), source, excess, total)
