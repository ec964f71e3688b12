"""The end of the layout pass: the wire format's own rules (providers.Wire), applied to the
whole laid-out conversation, so that its encoder only spells.

In this order: blank text left out (a tool result left with nothing says ``(no output)``);
consecutive steps of one role merged (system steps aside: those wires take system text in a
parameter of its own); a ``This is file {id}:`` label before each document of a message that
has no text.
"""

from __future__ import annotations

from typing import Any

from ..content import File, Json, Text
from ..messages import Assistant, System, User
from ..providers import Wire
from ..turns import EMPTY_RESULT_TEXT
from .values import PlannedResult, Step, ToolTurn, label_this, text


def wire_rules(steps: tuple[Step, ...], wire: Wire) -> tuple[Step, ...]:
    """``steps`` as the wire's rules want them; the same tuple for a wire without rules."""
    if not (wire.rejects_blank_text or wire.roles_alternate or wire.documents_need_text):
        return steps
    laid: list[Step] = []
    last = -1  # index in ``laid`` of the last step that is not a System
    for step in steps:
        if wire.rejects_blank_text:
            kept = _without_blank(step)
            if kept is None:
                continue
            step = kept
        if isinstance(step, System):
            laid.append(step)
            continue
        if wire.roles_alternate and last >= 0 and _merged(laid[last], step) is not None:
            laid[last] = _merged(laid[last], step)  # type: ignore[assignment]
            continue
        laid.append(step)
        last = len(laid) - 1
    if wire.documents_need_text:
        laid = [_labelled(step) for step in laid]
    return tuple(laid)


def _blank(part: Any) -> bool:
    """Text of nothing but white space (``isspace`` stops at the first other character;
    ``strip`` would copy every text)."""
    return type(part) is Text and (not part.text or part.text.isspace())


def _without_blank(step: Step) -> Step | None:
    """The step without blank text parts; None when nothing is left."""
    if isinstance(step, User):
        if isinstance(step.content, str):
            return step if step.content and not step.content.isspace() else None
        parts = step.parts
        kept = [p for p in parts if not _blank(p)]
        if len(kept) == len(parts):
            return step
        return User.model_construct(content=kept) if kept else None
    if isinstance(step, Assistant):
        if not any(map(_blank, step.content)):
            return step
        content = [p for p in step.content if not _blank(p)]
        return Assistant.model_construct(content=content) if content else None
    if isinstance(step, ToolTurn):
        if not _any_blank(step):
            return step  # most turns: nothing to leave out, nothing copied
        results = tuple(_result_without_blank(r) for r in step.results)
        extra = tuple(p for p in step.extra if not _blank(p))
        return ToolTurn(results, extra)
    return step


def _any_blank(turn: ToolTurn) -> bool:
    for result in turn.results:
        for part in result.parts:
            if _blank(part):
                return True
    return any(map(_blank, turn.extra))


def _result_without_blank(result: PlannedResult) -> PlannedResult:
    parts: tuple[Text | Json | File, ...] = tuple(p for p in result.parts if not _blank(p))
    if len(parts) == len(result.parts):
        return result
    return PlannedResult(
        result.call_id,
        result.name,
        parts or (text(EMPTY_RESULT_TEXT),),
        result.is_error,
        result.denied,
        result.error_flag,
    )


def _merged(before: Step, step: Step) -> Step | None:
    """One step of both when they have the same role on the wire, else None."""
    kind = type(step)
    if kind is ToolTurn or kind is Assistant and not isinstance(before, Assistant):
        return None  # most steps: a tool turn, or an assistant message after a tool turn
    if isinstance(before, Assistant) and isinstance(step, Assistant):
        return Assistant.model_construct(content=[*before.content, *step.content])
    if isinstance(step, User) and isinstance(before, User):
        return User.model_construct(content=[*before.parts, *step.parts])
    if isinstance(step, User) and isinstance(before, ToolTurn):
        return ToolTurn(before.results, (*before.extra, *step.parts))
    return None


def _labelled(step: Step) -> Step:
    """A message of files alone gets ``This is file {id}:`` before each document."""
    kind = type(step)
    if kind is Assistant or kind is ToolTurn and not step.extra:  # type: ignore[union-attr]
        return step
    if isinstance(step, User):
        parts = _labels(step.parts)
        return step if parts is None else User.model_construct(content=parts)
    if isinstance(step, ToolTurn):
        extra = _labels(list(step.extra)) if step.extra else None
        return step if extra is None else ToolTurn(step.results, tuple(extra))
    return step


def _labels(parts: list[Text | File]) -> list[Text | File] | None:
    if any(isinstance(p, Text) for p in parts):
        return None
    if not any(isinstance(p, File) and p.kind == "document" for p in parts):
        return None
    labelled: list[Text | File] = []
    for part in parts:
        if isinstance(part, File) and part.kind == "document":
            labelled.append(label_this(part))
        labelled.append(part)
    return labelled
