"""Per-request count limits: which files a request leaves out when a cell has ``max_count``.

Bedrock Converse takes at most 20 images and 5 documents in one request. The files beyond a
limit are the *oldest* ones (as ``fit`` would drop them first), so they are counted over the
whole conversation before anything is routed, and left out in steps (``left_out_in_steps``);
the planner then describes those files (``on_budget="evict"``) or raises a BudgetError, and
routes the rest as usual.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from .capability import Capabilities, Cell
from .content import File
from .messages import ContentOutput, ToolResult, User
from .turns import in_call_order

if TYPE_CHECKING:
    from .plan.values import Limit


def oldest_left_out(
    messages: Sequence[Any],
    caps: Capabilities,
    before: Mapping[Cell, int] | None = None,
    evict_to: float = 1.0,
) -> dict[Cell, int]:
    """Per cell with a ``max_count``: how many of the conversation's files, the oldest, are left out.

    A file no route can carry counts too; that only matters when it is itself replaced by text.
    ``before``: the files per cell of earlier messages, counted before (``messages`` then
    being the ones after them). Files are left out in steps (``left_out_in_steps``).
    """
    if not caps.has_count_limits:
        return {}
    counts: dict[int, int] = {id(c): n for c, n in (before or {}).items() if n}
    cells: dict[int, Cell] = {id(c): c for c in (before or {})}
    newest: dict[int, int] = {}  # the files of each cell in the last message
    for position, message in enumerate(messages):
        last = position == len(messages) - 1
        for part in _files(message):
            cell = caps.cell(part.media_type)
            if cell is not None and cell.max_count:
                counts[id(cell)] = counts.get(id(cell), 0) + 1
                cells[id(cell)] = cell
                if last:
                    newest[id(cell)] = newest.get(id(cell), 0) + 1
    return {
        cells[k]: _spare_the_newest(
            left_out_in_steps(n, cells[k].max_count or 0, evict_to), n, cells[k], newest.get(k, 0)
        )
        for k, n in counts.items()
        if n > (cells[k].max_count or 0)
    }


def counted_out(
    messages: Sequence[Any], caps: Capabilities, excess: Mapping[Cell, int]
) -> set[tuple[int, int]]:
    """(message index, id(File)) of each file the count budgets leave out (``excess``, from
    ``oldest_left_out``): of each cell, its oldest ``excess[cell]`` files, met in the order the
    layout meets them (plan.files.Budget.counted_out counts them as it goes)."""
    left = {cell: n for cell, n in excess.items() if n}
    out: set[tuple[int, int]] = set()
    for index, message in _in_layout_order(messages):
        if not left:
            break
        for part in _files(message):
            cell = caps.cell(part.media_type)
            if cell is not None and cell in left:
                out.add((index, id(part)))
                left[cell] -= 1
                if not left[cell]:
                    del left[cell]
    return out


def _in_layout_order(messages: Sequence[Any]) -> Iterator[tuple[int, Any]]:
    """Each message with its index as the layout meets them: a run of tool results in the
    order the assistant before it made the calls (turns.in_call_order), the rest as given."""
    i = 0
    while i < len(messages):
        if not isinstance(messages[i], ToolResult):
            yield i, messages[i]
            i += 1
            continue
        j = i + 1
        while j < len(messages) and isinstance(messages[j], ToolResult):
            j += 1
        yield from in_call_order(messages, i, j)
        i = j


def _files(message: Any) -> list[File]:
    """The files of a user message or a tool result's content (the only places they go)."""
    match message:
        case ToolResult(output=ContentOutput(value=parts)) | User(content=tuple() as parts):
            return [part for part in parts if isinstance(part, File)]
    return []


def _spare_the_newest(stepped: int, count: int, cell: Cell, newest: int) -> int:
    """A step goes down to its low-water mark with older messages' files only: of the last
    message's, no more than the limit itself needs are left out."""
    return max(count - (cell.max_count or 0), min(stepped, count - newest))


def left_out_in_steps(count: int, most: int, evict_to: float) -> int:
    """How many of ``count`` files, the oldest, are left out where a request takes at most
    ``most``: when a file more would break the limit, the oldest go until ``evict_to`` of it
    is kept (``int(most * evict_to)``, at least one file kept), so the next files fit without
    leaving any other out and the requests between two steps start alike. The same as
    keeping each request's choice and stepping on from it (plan.budgets' scan), computed
    from the count alone."""
    if count <= most:
        return 0
    step = max(1, most + 1 - max(1, int(most * evict_to)))  # files left out at each step
    return -(-(count - most) // step) * step


def count_limit(cell: Cell, excess: int) -> Limit:
    """The cell's ``max_count`` as the limit that leaves a file beyond it out."""
    from .plan.values import Limit

    most = cell.max_count or 0
    counted = f"files of {', '.join(cell.media_types)}"
    return Limit("max_count", most, cell.evidence, excess, most + excess, counted)
