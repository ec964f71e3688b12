"""Pass 2, convert (DESIGN.md §5.2): a file no route carries becomes what the target reads.

With ``on_unsupported="convert"``, a file whose route is "none" goes through
``toolwire.convert.convert`` with a :class:`~toolwire.convert.Target` built from the table:
the image types the target takes *at the file's position* (inside the tool result when it takes
images there, else in the labelled follow-up message; in a user message, what a user message
takes), at most as many images as the cells' ``max_count`` allows, fitted by the plan's fitter.
Each image the conversion makes is then routed like any file (``files.routed``), so the
layout places it inside the tool result, beside the results or in the follow-up message with
the usual ordering and role rules; the conversion's texts stay where the file was.

A file no converter handles (an archive, a corrupt PDF, SVG without cairosvg) is replaced by
its text description, and the Decision's reason says why. The file keeps one Decision, with
``mode="converted"`` and ``converted_to``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..content import File, Text, text_part
from ..errors import InvalidFileError, MissingDependencyError
from ..routes import Route
from .files import Policy, Settled, routed
from .values import Limit, label_see, label_this

if TYPE_CHECKING:  # toolwire.convert imports the readers, which import the plan: import late
    from ..convert import Conversion, Target

#: Rendered PDF pages and video frames per file (DESIGN.md §5.2).
PAGES = 20
FRAMES = 8
#: Where a produced image went, for the Decision's reason.
_WHERE = {
    "native": "inside the tool result",
    "sibling": "beside the tool results, in the same message",
    "fallback": "in a labelled user message after the tool results",
}

Placed = tuple[tuple[str, Text | File], ...]


def conversion(file: File, chosen: Route, policy: Policy, in_tool_result: bool) -> Settled:
    """``file`` (whose route ``chosen`` is "none") converted for the target, or its text."""
    from ..convert import convert

    target = target_for(policy, in_tool_result)
    most, bound, limit = _allowed(file, chosen, policy)
    if chosen.limit is not None and file.kind == "image":
        return _described(file, chosen.reason, limit)  # left out for size: its description
    try:
        made = convert(file, target, pages=min(PAGES, most), frames=min(FRAMES, most),
                       converters=dict(policy.converters))  # fmt: skip
    except (InvalidFileError, MissingDependencyError) as exc:
        return _described(file, f"it could not be converted ({exc}); {chosen.reason}", limit)
    if made is None:
        why = (
            "the target takes no images"
            if file.kind == "image"
            else f"no converter takes {file.media_type}"
        )
        return _described(file, f"{why}; {chosen.reason}", limit)
    placed = _routed(made, policy, in_tool_result)
    where = _where(placed, in_tool_result)
    reason = f"converted: {made.reason}; {where}{bound}; as it was: {chosen.reason}"
    return Settled("converted", placed, reason, converted_to=made.converted_to, limit=limit)


def _allowed(file: File, chosen: Route, policy: Policy) -> tuple[int, str, Limit | None]:
    """How many images the conversion may make under the request budgets, the note saying
    which budget bound, and that budget: none for a file they left out (its text only)."""
    if chosen.limit is not None:
        return 0, "; its text only, as the request budgets leave the file out", chosen.limit
    found: tuple[int, str, Limit] | None = (policy.shrunk or {}).get(id(file))
    if found is None:
        return max(PAGES, FRAMES), "", None
    return found


def measure(file: File, policy: Policy, in_tool_result: bool) -> tuple[tuple[int, ...], int] | None:
    """What ``file`` costs converted, for the request budgets (plan.budgets), or None when it
    is routed as it is: the bytes as sent of each image made (base64, oldest page or frame
    first) and of the texts. Conversions are kept per content: the plan converts nothing again."""
    from ..convert import convert
    from ..wire_size import b64_length

    if policy.on_unsupported != "convert" or routed(file, in_tool_result, policy).mode != "none":
        return None
    try:
        made = convert(file, target_for(policy, in_tool_result), pages=PAGES, frames=FRAMES,
                       converters=dict(policy.converters))  # fmt: skip
    except (InvalidFileError, MissingDependencyError):
        made = None
    if made is None:
        return (), len(file.text_fallback())
    sizes, text_size = [], 0
    for part in made.parts:
        if isinstance(part, File):
            sizes.append(b64_length(len(part.read())))
        else:
            text_size += len(part.text)
    return tuple(sizes), text_size


def target_for(policy: Policy, in_tool_result: bool) -> Target:
    """What the target takes at this position, as the conversion library's Target."""
    from ..convert import Target
    from ..convert.images import FORMATS

    caps = policy.caps
    inside, followup = [], []
    for media_type, cell in caps.cells.items():
        if media_type not in FORMATS:
            continue
        takes_inside = in_tool_result and cell.tool_result in ("native", "sibling")
        if takes_inside and "bytes" in cell.tool_sources:
            inside.append(media_type)
            continue
        if "bytes" in cell.user_sources and (cell.tool_result != "error" or not in_tool_result):
            followup.append(media_type)
    types = inside or followup
    counts = [c.max_count for t in types if (c := caps.cells[t]).max_count]
    per_request = getattr(getattr(caps, "budgets", None), "max_images_per_request", None)
    if per_request:  # plan.budgets (issue 14): the request's image budget bounds one file too
        counts.append(per_request)
    return Target(frozenset(types), min(counts) if counts else None, _fitter(policy))


def _fitter(policy: Policy) -> Callable[[File], File] | None:
    fit, caps = policy.fit, policy.caps
    if fit is None:
        return None

    def fitted(image: File) -> File:
        cell = caps.cell(image.media_type)
        return fit(image, cell)[0] if cell is not None else image

    return fitted


def _routed(made: Conversion, policy: Policy, in_tool_result: bool) -> Placed:
    """Each part with where it goes: texts where the file was, images as routed."""
    placed: list[tuple[str, Text | File]] = []
    for part in made.parts:
        if isinstance(part, Text):
            placed.append(("native", part))
            continue
        chosen = routed(part, in_tool_result, policy)
        if chosen.mode == "none":  # e.g. over the cell's bytes even after fitting
            placed.append(("native", text_part(part.text_fallback())))
        else:
            placed.append((chosen.mode, chosen.file))
    return tuple(placed)


def _where(placed: Placed, in_tool_result: bool) -> str:
    modes = [mode for mode, part in placed if isinstance(part, File)]
    if not modes:
        return "sent as text " + ("inside the tool result" if in_tool_result else "in the message")
    if not in_tool_result:
        return f"{len(modes)} image(s) in the user message"
    counts = {mode: modes.count(mode) for mode in dict.fromkeys(modes)}
    return "; ".join(f"{n} image(s) {_WHERE[mode]}" for mode, n in counts.items())


def _described(file: File, why: str, limit: Limit | None = None) -> Settled:
    reason = f"replaced by its text fallback: {why}"
    return Settled("text", text_part(file.text_fallback()), reason, limit=limit)


def in_tool_result(placed: Placed, siblings: list[Any], fallbacks: list[Any]) -> list[Any]:
    """The parts that stay inside the tool result; images that travel beside or after the
    results leave ``See file {id}.`` and are carried, labelled, by ``siblings``/``fallbacks``."""
    parts: list[Any] = []
    for mode, part in placed:
        if mode == "sibling":
            siblings += [label_this(part), part]  # type: ignore[arg-type]
        elif mode == "fallback":
            fallbacks += [label_this(part), part]  # type: ignore[arg-type]
        else:
            parts.append(part)
            continue
        parts.append(label_see(part))  # type: ignore[arg-type]
    return parts


def produced(
    file: File, caps: Any, in_tool_result: bool, converters: tuple[tuple[str, Any], ...] = ()
) -> tuple[Text | File, ...]:
    """The parts ``file`` becomes for ``caps`` at its position (for ``estimate_tokens``):
    the conversion's parts (kept per content, so pricing after ``encode`` converts nothing
    again), or its text description where no converter applies."""
    from ..convert import convert

    policy = Policy(caps, "convert", None, None, converters)
    try:
        made = convert(file, target_for(policy, in_tool_result), pages=PAGES, frames=FRAMES,
                       converters=dict(converters))  # fmt: skip
    except (InvalidFileError, MissingDependencyError):
        made = None
    return made.parts if made is not None else (text_part(file.text_fallback()),)


# --- the text a tool result already holds (read_file's header Text) ---------------------------


def without_repeats(file: File, placed: Placed, present: tuple[str, ...]) -> Placed:
    """A conversion's parts without the texts the same tool result already holds."""
    if not file.text or not repeated(file, present):
        return placed
    body, name = file.text.strip(), file.name or file.identifier
    above = text_part(f"The text of {name} is above.")
    return tuple(
        (mode, above if isinstance(part, Text) and body in part.text else part)
        for mode, part in placed
    )


def repeated(file: File, present: tuple[str, ...]) -> bool:
    """Whether a Text of the same tool result holds ``file``'s declared text."""
    return bool(file.text) and _within(file.text.strip(), present)  # type: ignore[union-attr]


def _within(value: str, present: tuple[str, ...]) -> bool:
    return any(value in other for other in present)
