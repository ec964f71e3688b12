"""Request budgets, first step (plan.budgets): the oldest conversions' images go first.

With ``on_unsupported="convert"`` a PDF becomes page images and a video frames
(plan.convert). Where the images or bytes of the whole request break the target's budget,
the images of the *oldest* conversions are dropped first, last page or frame first: a PDF's
pages beyond what is kept are sent as its text only, a video gets fewer frames, and a
conversion that keeps none is its text alone. Only then does the walk of plan.budgets leave
whole files out, oldest first.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..capability import Capabilities
    from .budgets import Medium
    from .values import Limit


def image_limit(caps: Capabilities) -> tuple[str, int] | None:
    """The images one request takes at most: the budget, or the image cells' ``max_count``
    (Bedrock's 20), the stricter, with its name."""
    found = []
    if caps.budgets.max_images_per_request:
        found.append((caps.budgets.max_images_per_request, "max_images_per_request"))
    for media_type, cell in caps.cells.items():
        if media_type.startswith("image/") and cell.max_count:
            found.append((cell.max_count, "max_count of images"))
    if not found:
        return None
    count, name = min(found)
    return name, count


def shrink(
    media: list[Medium], caps: Capabilities, text: int
) -> tuple[list[Medium], dict[int, tuple[int, str, Limit]]]:
    """``media`` with the oldest conversions' images dropped until the request's image and
    byte budgets hold (or no conversion has an image left), and per shrunk file (by id) the
    images kept, the note its Decision's reason gets, and the first budget that bound."""
    if not any(m.sizes for m in media):
        return media, {}
    over: dict[str, list[Any]] = {}  # name -> [excess, limit]
    images = image_limit(caps)
    if images is not None:
        over[images[0]] = [sum(m.images for m in media) - images[1], images[1]]
    if caps.budgets.max_request_bytes:
        limit = caps.budgets.max_request_bytes
        over["max_request_bytes"] = [sum(m.bytes for m in media) + text - limit, limit]
    shrunk: dict[int, tuple[int, str, Limit]] = {}
    result = []
    for medium in media:
        binding = [name for name, (excess, _) in over.items() if excess > 0]
        if not medium.sizes or not binding:
            result.append(medium)
            continue
        kept = len(medium.sizes)
        while kept and any(excess > 0 for excess, _ in over.values()):
            kept -= 1
            for name, entry in over.items():
                entry[0] -= 1 if name != "max_request_bytes" else medium.sizes[kept]
        dropped = medium.sizes[kept:]
        result.append(
            medium._replace(
                images=kept, bytes=medium.bytes - sum(dropped), sizes=medium.sizes[:kept]
            )
        )
        note = _note(caps, binding, over, kept, len(medium.sizes))
        shrunk[id(medium.file)] = (kept, note, _limit(caps, binding[0], over[binding[0]][1]))
    return result, shrunk


def _note(
    caps: Capabilities, binding: list[str], over: dict[str, list[Any]], kept: int, made: int
) -> str:
    limits = ", ".join(f"{name} = {over[name][1]:,}" for name in binding)
    return (
        f"; {kept} of its {made} images kept, the rest as text: request budget {limits} binds "
        f"(the oldest conversions' images go first; {caps.budgets.budget_evidence})"
    )


def _limit(caps: Capabilities, name: str, value: int) -> Limit:
    """The budget ``name`` (an image cell's count is its ``max_count``) as a Decision's limit."""
    from .values import Limit

    if name == "max_count of images":
        cells = [c for t, c in caps.cells.items() if t.startswith("image/") and c.max_count]
        source = next((c.evidence for c in cells if c.max_count == value), "")
        return Limit("max_count", value, source)
    return Limit(name, value, caps.budgets.budget_evidence or "")
