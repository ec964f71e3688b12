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
from ..messages import Assistant, System, User, base_type
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
        if base_type(step) is System:
            laid.append(step)
            continue
        merged = _merged(laid[last], step) if wire.roles_alternate and last >= 0 else None
        if merged is not None:
            laid[last] = merged
            continue
        laid.append(step)
        last = len(laid) - 1
    if wire.documents_need_text:  # a tool turn with nothing beside its results: as it is
        laid = [s if type(s) is ToolTurn and not s.extra else _labelled(s) for s in laid]
    return tuple(laid)


def _blank(part: Any) -> bool:
    """Text of nothing but white space (``isspace`` stops at the first other character;
    ``strip`` would copy every text)."""
    if type(part) is not Text and base_type(part) is not Text:  # a File, most often
        return False
    return not part.text or part.text.isspace()


def _without_blank(step: Any) -> Step | None:
    """The step without blank text parts; None when nothing is left."""
    if type(step) is ToolTurn:
        if not _any_blank(step):
            return step  # most turns: nothing to leave out, nothing copied
        results = tuple(_result_without_blank(r) for r in step.results)
        extra = tuple(p for p in step.extra if not _blank(p))
        return ToolTurn(results, extra)
    kind = base_type(step)
    if kind is User:
        if type(step.content) is str:
            return step if step.content and not step.content.isspace() else None
        parts = step.parts
        kept = [p for p in parts if not _blank(p)]
        if len(kept) == len(parts):
            return step
        return User.model_construct(content=kept) if kept else None
    if kind is Assistant:
        if not any(map(_blank, step.content)):
            return step
        content = [p for p in step.content if not _blank(p)]
        return Assistant.model_construct(content=content) if content else None
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


def _merged(before: Any, step: Any) -> Step | None:
    """One step of both when they have the same role on the wire, else None."""
    if type(step) is ToolTurn:
        return None  # most steps: a tool turn
    kind, earlier = base_type(step), type(before) if type(before) is ToolTurn else base_type(before)
    if kind is Assistant and earlier is Assistant:
        return Assistant.model_construct(content=[*before.content, *step.content])
    if kind is User and earlier is User:
        return User.model_construct(content=[*before.parts, *step.parts])
    if kind is User and earlier is ToolTurn:
        return ToolTurn(before.results, (*before.extra, *step.parts))
    return None


def _labelled(step: Any) -> Step:
    """A message of files alone gets ``This is file {id}:`` before each document."""
    if type(step) is ToolTurn:
        extra = _labels(list(step.extra)) if step.extra else None
        return step if extra is None else ToolTurn(step.results, tuple(extra))
    if base_type(step) is User:
        parts = _labels(step.parts)
        return step if parts is None else User.model_construct(content=parts)
    return step


def _labels(parts: list[Any]) -> list[Text | File] | None:
    kinds = [base_type(p) for p in parts]
    if Text in kinds:
        return None
    if not any(k is File and p.kind == "document" for k, p in zip(kinds, parts, strict=True)):
        return None
    labelled: list[Text | File] = []
    for kind, part in zip(kinds, parts, strict=True):
        if kind is File and part.kind == "document":
            labelled.append(label_this(part))
        labelled.append(part)
    return labelled
