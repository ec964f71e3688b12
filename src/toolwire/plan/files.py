"""Per file, the first passes of the plan: route → convert → budgets.

- route: where the target's table lets the file go (routes.route: native, sibling,
  fallback, or "none" with the reason);
- convert: a file no route carries, converted to what the target takes. The seam for
  ``on_unsupported="convert"`` (DESIGN.md §5.2): the identity until the converters are
  wired in;
- budgets: per-request limits (today the count limits of counts.py): the *oldest* files
  beyond a cell's ``max_count`` are left out, whatever their route.

What is still "none" after the three is refused (listed in the UnsupportedContentError) or,
with ``on_unsupported="text"``, replaced by its text fallback: ``Settled``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from ..capability import Capabilities, Cell
from ..content import File, Text
from ..counts import left_out_reason
from ..routes import Fetcher, Route, route
from .values import Mode, OnUnsupported, text

Fit = Callable[[File, Cell], tuple[File, str | None]]


@dataclass(frozen=True)
class Policy:
    """What every file of one plan is decided with: the target and the caller's choices."""

    caps: Capabilities
    on_unsupported: OnUnsupported
    fetch: Fetcher | None
    fit: Fit | None


@dataclass(frozen=True)
class Settled:
    """One file's outcome: its mode and what is sent (the File, or a Text for text mode);
    ``refused`` carries the reason when nothing is sent and the policy is "error"."""

    mode: Mode
    sent: File | Text
    reason: str
    notes: tuple[str, ...] = ()
    refused: str | None = None


def routed(file: File, in_tool_result: bool, policy: Policy) -> Route:
    """Pass 1, route: the best route the target's table gives ``file`` at its position."""
    return route(file, in_tool_result, policy.caps, policy.fetch, policy.fit)


def converted(chosen: Route, policy: Policy) -> Route:
    """Pass 2, convert: the identity until ``on_unsupported="convert"`` is wired in (a route
    of "none" will then become the conversion the target can take)."""
    return chosen


@dataclass
class Budget:
    """Pass 3, budgets: per cell with a ``max_count``, how many of its files, oldest first,
    one request leaves out (counts.oldest_left_out), and how many were met so far; ``left``:
    id(File) -> reason for the oldest media beyond the request's budgets (plan.budgets)."""

    excess: dict[Cell, int]
    met: dict[Cell, int] = field(default_factory=dict)
    left: dict[int, str] = field(default_factory=dict)
    refit: dict[int, tuple[File, str]] = field(default_factory=dict)

    @property
    def binds(self) -> bool:
        """Whether a budget changes some file (earlier layouts cannot be reused then)."""
        return bool(self.excess or self.left or self.refit)

    def admitted(self, file: File, chosen: Route, caps: Capabilities) -> Route:
        """``chosen``, or a "none" route naming the limit for a file left out. The cell's
        count comes first: it counts every file of the conversation, those the request's
        budgets leave out too, so both leave out the oldest."""
        counted = self._counted(file, chosen, caps)
        if counted is not chosen:
            return counted
        if self.left and id(file) in self.left:
            return Route("none", file, self.left[id(file)])
        if self.refit and id(file) in self.refit and chosen.mode != "none":
            smaller, note = self.refit[id(file)]
            return Route(chosen.mode, smaller, chosen.reason, (note,))
        return chosen

    def _counted(self, file: File, chosen: Route, caps: Capabilities) -> Route:
        if not self.excess:
            return chosen
        cell = caps.cell(file.media_type)
        if cell is None or cell not in self.excess:
            return chosen
        met = self.met[cell] = self.met.get(cell, 0) + 1
        if met > self.excess[cell]:
            return chosen
        return Route("none", file, left_out_reason(cell, self.excess[cell]))


def settled(file: File, chosen: Route, policy: Policy) -> Settled:
    """A carried file as routed; else its refusal or (``on_unsupported="text"``) its text."""
    if chosen.mode != "none":
        return Settled(chosen.mode, chosen.file, chosen.reason, chosen.notes)
    if policy.on_unsupported == "error":
        return Settled("text", text(""), chosen.reason, refused=chosen.reason)
    reason = f"replaced by its text fallback: {chosen.reason}"
    return Settled("text", text(file.text_fallback()), reason)
