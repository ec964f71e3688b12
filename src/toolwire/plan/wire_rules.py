"""The end of the layout pass: the wire format's own rules (providers.Wire), applied to the
whole laid-out conversation, so that its encoder only spells.

Three passes, each where the wire asks for it, each a function from steps to steps that keeps
an unchanged step as the same object:

1. ``without_blank_text``: on every wire, empty text and thinking that carries nothing left
   out (no service takes an empty text block or an empty message); where the wire rejects
   text of white space only (``Wire.rejects_blank_text``), that too. A tool result left with
   nothing says ``(no output)``; a message left with nothing is left out;
2. ``roles_merged``: consecutive steps of one role merged (system steps aside: those wires
   take system text in a parameter of its own);
3. ``documents_labelled``: a ``This is file {id}:`` label before each document of a message
   that has no text.

The layout asks ``carries_nothing`` before it places what follows tool results, so a
message left out here never stood between them and a user message the wire must not put
right after them.

Then ``check_wire_rules`` refuses what no layout mends: a conversation with no message left
to send, one that does not start with a user message, a user message right after tool
results, a media type the wire has no format for.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import pairwise
from typing import Any, TypeVar

from ..capability import Capabilities
from ..content import File, ProviderPart, Text, Thinking, text_part
from ..errors import CapabilityError, ConversationError
from ..messages import Assistant, System, User
from ..providers import Wire
from ..turns import EMPTY_RESULT_TEXT
from .values import PlannedResult, Step, ToolTurn, label_this

P = TypeVar("P")


def wire_rules(steps: tuple[Step, ...], wire: Wire) -> tuple[Step, ...]:
    """``steps`` as the wire's rules want them (the module docstring)."""
    return labelled(merged(steps, wire), wire)


def merged(steps: tuple[Step, ...], wire: Wire) -> tuple[Step, ...]:
    """The first two rules: ``steps`` without blank text, their roles merged where the wire
    wants them alternating (a label is decided once a message holds all it will hold:
    plan.passed carries the fold on from the steps before their labels)."""
    steps = without_blank_text(steps, wire.rejects_blank_text, wire.signature_on_next_part)
    return roles_merged(steps) if wire.roles_alternate else steps


def labelled(steps: tuple[Step, ...], wire: Wire) -> tuple[Step, ...]:
    """The third rule, one step for one: each document of a message without text labelled,
    where the wire wants text beside a document."""
    return documents_labelled(steps) if wire.documents_need_text else steps


# --- 1. blank text --------------------------------------------------------------------------


def without_blank_text(
    steps: tuple[Step, ...], white_space: bool = True, signed_empty: bool = False
) -> tuple[Step, ...]:
    """The steps without empty text (and, with ``white_space``, text of white space only)
    and thinking that carries nothing; a message left with nothing is left out, never sent
    empty. ``signed_empty``: an empty text a signature stands on is kept
    (``Wire.signature_on_next_part``)."""
    blank = _Blank(white_space, signed_empty)
    kept = (_step_without_blank(step, blank) for step in steps)
    return tuple(step for step in kept if step is not None)


def carries_nothing(message: User | Assistant | System, wire: Wire) -> bool:
    """Whether ``without_blank_text`` leaves ``message`` out whole on ``wire``: the layout
    asks before it places what follows tool results (plan.layout), so the message left out
    is never the one that kept the conversation in a shape the wire accepts."""
    blank = _Blank(wire.rejects_blank_text, wire.signature_on_next_part)
    return _step_without_blank(message, blank) is None


def _step_without_blank(step: Step, blank: _Blank) -> Step | None:
    """The step without its blank parts (itself where it has none); None where nothing is left."""
    match step:
        case ToolTurn(results=results, extra=extra):
            kept_results = tuple(_result_without_blank(result, blank) for result in results)
            kept_extra = _without_blank(extra, blank)
            if len(kept_extra) == len(extra) and all(map(_same, kept_results, results)):
                return step
            return ToolTurn(kept_results, kept_extra)
        case User(content=str() as text) | System(text=text):
            return None if _blank(text, blank.white_space) else step
        case User(content=tuple() as parts):
            user_parts = _without_blank(parts, blank)
            if len(user_parts) == len(parts):
                return step
            return User(content=user_parts) if user_parts else None
        case Assistant(content=content):
            assistant_parts = _without_blank(content, blank)
            if len(assistant_parts) == len(content):
                return step
            return Assistant(content=assistant_parts) if assistant_parts else None
        case _:
            return step


def _result_without_blank(result: PlannedResult, blank: _Blank) -> PlannedResult:
    """The result without blank parts; ``(no output)`` where nothing is left."""
    parts = _without_blank(result.parts, blank)
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


def _without_blank(parts: tuple[P, ...], blank: _Blank) -> tuple[P, ...]:
    """The parts without blank ones, and without the provider part that annotates a blank
    text left out (``ANNOTATES_TEXT``: it would otherwise go on the text before)."""
    kept: list[P] = []
    dropped = False  # the part before was a blank text, left out
    signed = False  # the part before was a signature with no thought
    for part in parts:
        if _is_blank(part, blank.white_space) and not (signed and isinstance(part, Text)):
            dropped = isinstance(part, Text)
            signed = False
            continue
        if dropped and isinstance(part, ProviderPart) and part.kind in ANNOTATES_TEXT:
            continue
        dropped = False
        signed = blank.signed_empty and _is_signature(part)
        kept.append(part)
    return tuple(kept) if len(kept) < len(parts) else parts


@dataclass(frozen=True)
class _Blank:
    """What is blank on a wire: text of white space too (``Wire.rejects_blank_text``), and
    whether an empty text a signature stands on is kept (``signature_on_next_part``)."""

    white_space: bool
    signed_empty: bool = False


def _is_signature(part: object) -> bool:
    """A Thinking that is a signature alone: no text, not redacted."""
    return (
        isinstance(part, Thinking) and not part.text and not part.redacted and bool(part.signature)
    )


#: Kinds of provider parts that annotate the text right before them (decoders.anthropic's
#: citations, decoders.openai_responses' annotations): their encoder puts them back on it.
ANNOTATES_TEXT = frozenset(("citations", "annotations"))


def _same(a: object, b: object) -> bool:
    return a is b


def _is_blank(part: object, white_space: bool) -> bool:
    """Text that is blank (``_blank``), or thinking that carries nothing: redacted without
    its data, or with no text, signature or id (the services reject such a block)."""
    match part:
        case Thinking(redacted=True, signature=signature):
            return not signature
        case Thinking(text=text, signature=signature, id=thinking_id):
            return not text and not signature and not thinking_id
        case Text(text=text):
            return _blank(text, white_space)
        case _:
            return False


def _blank(text: str, white_space: bool) -> bool:
    """No text at all (on every wire), or, with ``white_space``, white space only."""
    return not text or (white_space and text.isspace())


# --- 2. one role after another --------------------------------------------------------------


def roles_merged(steps: tuple[Step, ...]) -> tuple[Step, ...]:
    """Consecutive user messages merged, and consecutive assistant messages; a user message
    right after a tool turn joins the tool turn's message (its ``extra``). System steps are
    passed over: they go in a parameter of their own."""
    merged: list[Step] = []
    last: int | None = None  # where the last step that is not a System is, in ``merged``
    for step in steps:
        if isinstance(step, System):
            merged.append(step)
            continue
        joined = _joined(merged[last], step) if last is not None else None
        if joined is not None:
            merged[last] = joined  # type: ignore[index]
            continue
        merged.append(step)
        last = len(merged) - 1
    return tuple(merged)


def _joined(before: Step, step: Step) -> Step | None:
    """``before`` and ``step`` as one message, where the wire takes them as one; else None."""
    match before, step:
        case Assistant(), Assistant():
            return Assistant(content=(*before.content, *step.content))
        case User(), User():
            return User(content=(*before.parts, *step.parts))
        case ToolTurn(), User():
            return ToolTurn(before.results, (*before.extra, *step.parts))
        case _:
            return None


# --- 3. a label beside a document -----------------------------------------------------------


def documents_labelled(steps: tuple[Step, ...]) -> tuple[Step, ...]:
    """Each document of a message that holds no text gets ``This is file {id}:`` before it
    (the wire takes no document block without text beside it). A tool turn with nothing
    beside its results stays as it is."""
    return tuple(_step_labelled(step) for step in steps)


def _step_labelled(step: Step) -> Step:
    match step:
        case ToolTurn(extra=extra) if extra:
            labelled = _labelled(extra)
            return step if labelled is None else ToolTurn(step.results, labelled)
        case User(content=tuple() as parts):
            labelled = _labelled(parts)
            return step if labelled is None else User(content=labelled)
        case _:
            return step


def _labelled(parts: Sequence[Text | File]) -> tuple[Text | File, ...] | None:
    """``parts`` with a label before each document, where they hold documents and no text;
    None where nothing changes."""
    if any(isinstance(part, Text) for part in parts):
        return None
    if not any(_is_document(part) for part in parts):
        return None
    labelled: list[Text | File] = []
    for part in parts:
        if isinstance(part, File) and _is_document(part):
            labelled.append(label_this(part))
        labelled.append(part)
    return tuple(labelled)


def _is_document(part: object) -> bool:
    return isinstance(part, File) and part.kind == "document"


def check_wire_rules(
    steps: tuple[Step, ...], wire: Wire, caps: Capabilities, start: int = 0
) -> None:
    """Raise where the laid-out ``steps`` break a rule of ``wire`` that the layout cannot mend:
    ConversationError for a conversation with no message left to send (none at all, or
    system text alone on a wire that sends it apart: ``system_apart``) or that does not
    start with a user message (``starts_with_user``); CapabilityError for what only a
    capabilities override asks for — a user message or parts right after tool results
    (``user_follows_tool``), a file of a type
    the wire has no format for (``formats``). Steps before ``start`` passed these checks in an
    earlier plan of the same history (plan.passed): only the first is looked at again."""
    first = next((step for step in steps if not isinstance(step, System)), None)
    if first is None and (wire.system_apart or not steps):
        raise _nothing_to_send(wire, steps)
    if wire.starts_with_user and (first is None or isinstance(first, Assistant)):
        raise ConversationError(
            f"the {wire.name} wire needs a user message with content first, and this "
            "conversation has none before the first assistant message (blank text is left out: "
            "the service rejects it). Start the messages with a User message holding text or a "
            "file."
        )
    messages = [step for step in steps[start:] if not isinstance(step, System)]
    if not wire.user_follows_tool:
        for step, after in pairwise([*messages, None]):
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


def _nothing_to_send(wire: Wire, steps: tuple[Step, ...]) -> ConversationError:
    """The error for a plan with no message to send (``steps``: its System steps, if any)."""
    what = "only system text is" if steps else "no message is"
    apart = " besides the system text, which this wire sends apart" if steps else ""
    return ConversationError(
        f"there is nothing to send on the {wire.name} wire: {what} left once blank text, "
        "empty thinking and thinking the target cannot take back are left out, and a request "
        f"needs a message for the model to answer{apart}. Add a User message with text or a "
        "file."
    )


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
