"""The request budgets measured in the layout's own walk (DESIGN.md §5.3, plan.budgets).

An agent's conversation is almost always within every per-request limit of its target, and
the layout (plan.layout) walks every message and routes every file anyway. So the planner
keeps a running ``Tally`` of what the budgets read, with plan.measure's formulas: at most how
many bytes of JSON the request takes, its images, PDF pages and documents, the longest image
side, the files of each count-limited cell, and the messages holding a lone surrogate
(plan.ids). ``fits`` says whether the tally is within every limit of the target. Only where it
is not are the exact budgets computed (plan.budgets.left_out, counts.oldest_left_out) and, if
one binds, the conversation laid out again with the files they leave out.

The tally is never below the exact measures (its byte figure is an upper bound of the body,
above their bytes as sent plus text), so ``fits`` never passes a conversation the exact
budgets would bind. A kept plan stores the tally at each of its groups
(memo.LastPlans): a resumed history measures its new messages only.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..capability import Capabilities, Cell
from ..content import File, ProviderPart
from ..messages import Assistant
from .budgets import HEADROOM, sized
from .files import Fit
from .ids import has_lone_surrogate
from .measure import SLACK, fitted, sizes, text_size

#: The tally's slots (a list of ints, so that a group's snapshot is one ``tuple()`` of it);
#: the files of each count-limited cell follow ``LONE``, in ``Capabilities.counted_cells``'
#: order. ``PARTS``: how many provider parts the messages hold (plan.provider_parts lists
#: the ones a target does not get only where there are any). ``UNSIZED``: how many files go
#: as text of a size the tally does not know (a conversion, a text fallback): where any do,
#: the plan has no bound (``Plan.bound`` is None) and a byte budget measures the body.
CHARS, MEDIA, IMAGES, PAGES, DOCUMENTS, EDGE, PARTS, UNSIZED, LONE = range(9)


class Tally(list[int]):
    """The running measures of the messages laid out so far (the module docstring).

    ``CHARS``: at most how many characters of JSON their text, calls and framing take (each
    becomes at most 12 bytes); ``MEDIA``: at most how many bytes of JSON their files take,
    labels and framing included; ``LONE``: how many messages hold a lone surrogate.
    """

    __slots__ = ("caps", "fit", "pages", "slots")

    def __init__(
        self, caps: Capabilities, fit: Fit | None, pages: dict[str, int] | None = None
    ) -> None:
        slots = caps.counted_order  # made once per target: a cold encode pays for each call
        self.extend([0] * (LONE + 1 + len(slots)))
        self.caps, self.fit, self.pages, self.slots = caps, fit, pages, slots

    def message(self, message: Any) -> None:
        """One message's text, calls and framing (plan.measure.text_size); its files come
        through ``file``."""
        chars, plain = text_size(message)
        self.text(chars, plain, message)
        if isinstance(message, Assistant):
            self[PARTS] += sum(isinstance(part, ProviderPart) for part in message.content)

    def text(self, chars: int, plain: bool, message: Any) -> None:
        """Text the layout sends: ``chars``, at most how many characters of JSON it takes, and
        ``plain``, whether every string read is ASCII (else ``message`` is walked for a lone
        surrogate). Each character becomes at most 12 bytes (an escaped astral character,
        ASCII escapes)."""
        self[CHARS] += chars
        if not plain and has_lone_surrogate(message):
            self[LONE] += 1

    def counted(self, cell: Cell | None) -> None:
        """A file a count budget leaves out (plan.files.Budget.counted_out: ``cell`` is its
        cell): counted against its cell, as every file is; nothing of it is sent but its
        description (``text``)."""
        if cell is not None:
            self[LONE + 1 + self.slots[id(cell)]] += 1

    def file(self, file: File, sent: File | None, cell: Cell | None) -> None:
        """One file of a message, as its route sends it (``sent``; None: no route carries it,
        so it is measured as plan.measure does, fitted where a byte budget needs its size);
        ``cell``: the route's (routes.Route.cell: the table's cell for its media type)."""
        if cell is None:
            return
        caps = self.caps
        if cell.max_count:
            self[LONE + 1 + self.slots[id(cell)]] += 1
        if cell.tool_result == "error" and not cell.user_sources:
            return  # plan.measure leaves it out too: it is refused or text wherever it is
        limits = caps.budgets
        if sent is None:
            sent = fitted(file, cell, self.fit if sized(limits) else None)
        images, pages, documents, _, edge, bound = sizes(file, sent, limits, self.pages)
        self[MEDIA] += bound
        self[IMAGES] += images
        self[PAGES] += pages
        self[DOCUMENTS] += documents
        if edge > self[EDGE]:
            self[EDGE] = edge

    @property
    def bound(self) -> int:
        """At most how many bytes the JSON of the messages laid out so far takes, every file as
        routed (``Plan.bound``)."""
        return SLACK + 12 * self[CHARS] + self[MEDIA]


def fits(
    tally: Tally, caps: Capabilities, reserve: int = 0, excess: Mapping[Cell, int] | None = None
) -> bool:
    """Whether ``tally`` is within every per-request limit of ``caps``' target (then the exact
    budgets would leave nothing more out, and the body is within its byte budget unmeasured).
    ``excess``: the files per cell the count budgets left out of the layout (those the tally
    counts against their cell but not as sent)."""
    limits = caps.budgets
    limit = limits.max_request_bytes
    if limit and tally.bound + HEADROOM + reserve > limit:
        return False
    limit = limits.max_images_per_request
    if limit and tally[IMAGES] > limit:
        return False
    limit = limits.max_pdf_pages_per_request
    if limit and tally[PAGES] > limit:
        return False
    limit = limits.max_documents_per_request
    if limit and tally[DOCUMENTS] > limit:
        return False
    count, edge = limits.many_images_count, limits.many_images_edge
    if count and edge and tally[IMAGES] > count and tally[EDGE] > edge:
        return False
    slot = LONE
    for cell in caps.counted_cells:
        slot += 1
        if tally[slot] - (excess.get(cell, 0) if excess else 0) > (cell.max_count or 0):
            return False
    return True
