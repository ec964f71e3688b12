"""The end of the layout pass: the wire format's own rules (providers.Wire), applied to the
whole laid-out conversation, so that its encoder only spells.

In this order: blank text and empty thinking left out (a tool result left with nothing says
``(no output)``; an assistant message left with nothing is left out);
consecutive steps of one role merged (system steps aside: those wires take system text in a
parameter of its own); a ``This is file {id}:`` label before each document of a message that
has no text. Then ``check_wire_rules`` refuses what no layout mends: a conversation that does
not start with a user message, a user message right after tool results, a media type the
wire has no format for.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..capability import Capabilities
from ..content import File, Json, Text, Thinking, ToolCall, text_part
from ..errors import CapabilityError, ConversationError
from ..messages import Assistant, System, User, base_type
from ..providers import Wire
from ..turns import EMPTY_RESULT_TEXT
from .values import PlannedResult, Step, ToolTurn, label_this


def wire_rules(steps: tuple[Step, ...], wire: Wire) -> tuple[Step, ...]:
    """``steps`` as the wire's rules want them; the same tuple for a wire without rules.

    One loop over the steps, each rule checked inline (a cold encode pays for each function
    and table it touches): most steps keep every part and are placed as they are.
    """
    blank, alternate, documents = (
        wire.rejects_blank_text, wire.roles_alternate, wire.documents_need_text
    )  # fmt: skip
    if not (blank or alternate or documents):
        return steps
    laid: list[Any] = []
    last = -1  # index in ``laid`` of the last step that is not a System
    before: Any = None  # its kind
    step: Any
    kind: Any
    for step in steps:
        kind = type(step)
        if kind is not ToolTurn and kind is not Assistant and kind is not User:
            kind = base_type(step)
        if blank and _has_blank(step, kind):
            step = _without_blank(step, kind)
            if step is None:
                continue
        if kind is System:
            laid.append(step)
            continue
        if alternate and kind is not ToolTurn and before is not None:
            if kind is Assistant and before is Assistant:
                laid[last] = Assistant.model_construct(
                    role="assistant", content=(*laid[last].content, *step.content)
                )
                continue
            if kind is User and before is User:
                laid[last] = User.model_construct(
                    role="user", content=(*laid[last].parts, *step.parts)
                )
                continue
            if kind is User and before is ToolTurn:
                earlier = laid[last]
                laid[last] = ToolTurn(earlier.results, (*earlier.extra, *step.parts))
                continue
        laid.append(step)
        last, before = len(laid) - 1, kind
    if documents:  # a tool turn with nothing beside its results: as it is
        for i, step in enumerate(laid):
            kind = type(step)
            if kind is ToolTurn:
                if step.extra:
                    extra = _labels(step.extra)
                    if extra is not None:
                        laid[i] = ToolTurn(step.results, extra)
            elif (kind is User or base_type(step) is User) and type(step.content) is not str:
                parts = _labels(step.content)
                if parts is not None:
                    laid[i] = User.model_construct(role="user", content=parts)
    return tuple(laid)


def _is_blank(part: Any) -> bool:
    """Text of nothing but white space (``isspace`` stops at the first other character;
    ``strip`` would copy every text), or thinking that carries nothing: no text, and not
    redacted data (such a reasoning block is rejected, and an assistant message left with
    no block at all is left out, never sent empty)."""
    kind = type(part)
    if isinstance(part, Thinking):
        return not part.signature if part.redacted else not part.text
    if kind is not Text and (kind is File or base_type(part) is not Text):
        return False
    return not part.text or part.text.isspace()


def _has_blank(step: Any, kind: type) -> bool:
    """Whether ``step`` holds blank text (most steps do not: they are kept as they are)."""
    if kind is ToolTurn:
        for result in step.results:
            if _any_blank(result.parts, File):
                return True
        return any(map(_is_blank, step.extra))
    if kind is User:
        content = step.content
        if type(content) is str:
            return not content or content.isspace()
        return any(map(_is_blank, content))
    if kind is Assistant:
        return _any_blank(step.content, ToolCall)
    return False


def _any_blank(parts: Any, never: type) -> bool:
    """Whether ``parts`` hold blank text; a part of type ``never`` is not text (the most
    common part besides text: File in a tool result, ToolCall in an assistant message)."""
    for part in parts:
        kind = type(part)
        if kind is Text:  # most parts, read here
            if not part.text or part.text.isspace():
                return True
        elif kind is not never and _is_blank(part):
            return True
    return False


def _without_blank(step: Any, kind: type) -> Step | None:
    """The step without its blank text parts; None when nothing is left."""
    if kind is ToolTurn:
        results = tuple(_result_without_blank(r) for r in step.results)
        return ToolTurn(results, tuple(p for p in step.extra if not _is_blank(p)))
    if kind is User:
        if type(step.content) is str:
            return None  # blank (``_has_blank``)
        kept = tuple(p for p in step.content if not _is_blank(p))
        return User.model_construct(role="user", content=kept) if kept else None
    content = tuple(p for p in step.content if not _is_blank(p))  # an Assistant
    return Assistant.model_construct(role="assistant", content=content) if content else None


def _result_without_blank(result: PlannedResult) -> PlannedResult:
    parts: tuple[Text | Json | File, ...] = tuple(p for p in result.parts if not _is_blank(p))
    if len(parts) == len(result.parts):
        return result
    return PlannedResult(
        result.call_id,
        result.name,
        parts or (text_part(EMPTY_RESULT_TEXT),),
        result.is_error,
        result.denied,
        result.error_flag,
    )


def _labels(parts: Any) -> tuple[Text | File, ...] | None:
    """``parts`` with ``This is file {id}:`` before each document, where they hold documents
    and no text (a message of files alone); None where nothing changes."""
    found = False
    for part in parts:
        kind = type(part)
        if kind is Text:
            return None
        if kind is File or base_type(part) is File:
            found = found or part.kind == "document"
        elif base_type(part) is Text:
            return None
    if not found:
        return None
    labelled: list[Text | File] = []
    for part in parts:
        if base_type(part) is File and part.kind == "document":
            labelled.append(label_this(part))
        labelled.append(part)
    return tuple(labelled)


def check_wire_rules(
    steps: tuple[Step, ...], wire: Wire, caps: Capabilities, start: int = 0
) -> None:
    """Raise where the laid-out ``steps`` break a rule of ``wire`` that the layout cannot mend:
    ConversationError for a conversation that does not start with a user message
    (``starts_with_user``), CapabilityError for what only a capabilities override asks for —
    a user message or parts right after tool results (``user_follows_tool``), a file of a type
    the wire has no format for (``formats``). Steps before ``start`` passed these checks in an
    earlier plan of the same history (plan.passed): only the first is looked at again."""
    first = next((step for step in steps if not isinstance(step, System)), None)
    if wire.starts_with_user and (first is None or isinstance(first, Assistant)):
        raise ConversationError(
            f"the {wire.name} wire needs a user message with content first, and this "
            "conversation has none before the first assistant message (blank text is left out: "
            "the service rejects it). Start the messages with a User message holding text or a "
            "file."
        )
    messages = [step for step in steps[start:] if not isinstance(step, System)]
    if not wire.user_follows_tool:
        for step, after in zip(messages, [*messages[1:], None], strict=True):
            if isinstance(step, ToolTurn) and step.extra:
                raise _after_tools(wire, step.extra)
            if isinstance(step, ToolTurn) and isinstance(after, User):
                raise _after_tools(wire, after.parts)
    if wire.formats is not None:
        for file in _files(messages):
            if file.media_type not in wire.formats:
                raise _no_format(wire, wire.formats, file, caps)


def _files(steps: list[Any]) -> list[File]:
    """Every file the steps send, in order."""
    parts: list[Any] = []
    for step in steps:
        if isinstance(step, ToolTurn):
            for result in step.results:
                parts.extend(result.parts)
            parts.extend(step.extra)
        elif isinstance(step, User):
            parts.extend(step.parts)
    return [part for part in parts if isinstance(part, File)]


def _after_tools(wire: Wire, parts: Any) -> CapabilityError:
    files = ", ".join(p.identifier for p in parts if isinstance(p, File)) or "user text"
    return CapabilityError(
        f"the {wire.name} wire has no message shared with tool results, and no user message "
        f"may follow them directly ({files}); only a capabilities override asks for that: use "
        'followup = user_after_tool = "turn" and tool_result "fallback" instead of "sibling".'
    )


def _no_format(
    wire: Wire, formats: Mapping[str, str], file: File, caps: Capabilities
) -> CapabilityError:
    return CapabilityError(
        f"{caps.provider}:{caps.model}: the {wire.name} wire has no format for "
        f"{file.media_type} (file {file.identifier}); it takes "
        f"{', '.join(dict.fromkeys(formats.values()))}. Only a capabilities override routes "
        'it here: set this type\'s tool_result to "error" in the override.'
    )
