"""The layout pass: groups of messages laid out as the target takes them.

A group is one message, or a tool turn with the user message that follows it — past any
system text and messages the plan leaves out whole (``passed_over``), which belong to the
group. For each group, each file goes through the file passes (plan.files) and the
group is laid out:

- a tool turn's results in call order; a sibling file after all results in the same message;
  a fallback file leaves ``See file {id}.`` in its result and is carried, after all results,
  by ``This is file {id}:`` + the file — in the same message, a separate user message, or a
  user message after a minimal assistant message (``BRIDGE_TEXT``), as the target's
  ``followup`` says; a user message right after a tool turn is merged with the pending
  fallback message, or placed as ``user_after_tool`` says;
- an assistant message keeps only the thinking, call signatures and provider parts its
  target can verify (``Capabilities.issuer``: replay by issuer), as the wire takes them
  (``Wire.thinking_needs_signature``, ``takes_thinking``, ``base64_signatures``: its
  encoder then neither drops nor refuses); a message left with nothing is left out.

The wire's own rules (providers.Wire: alternating roles, no blank text, a text block beside a
document, a user message first) are applied to the whole laid-out conversation at the end
(``wire_rules``). An agent's growing history resumes from its last plan (memo.LastPlans), at
the first group that changed, or after its last group where nothing joins it (``joins``).
"""

from __future__ import annotations

import base64
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from functools import partial
from typing import Any

from ..capability import Capabilities
from ..content import File, Json, ProviderPart, Text, Thinking, ToolCall, text_part
from ..errors import ConversationError, Unsupported
from ..headers import image_size
from ..messages import (
    Assistant,
    ErrorJsonOutput,
    ErrorTextOutput,
    ExecutionDeniedOutput,
    System,
    ToolResult,
    User,
)
from ..providers import Wire, wire_named
from ..routes import route
from ..sources import BytesSource, ProviderFileSource
from ..turns import EMPTY_RESULT_TEXT, in_call_order
from . import convert
from .files import NO_BUDGET, Budget, Policy, Settled, settled
from .measure import PER_PART
from .provider_parts import kept_for
from .tally import UNSIZED, Tally
from .values import (
    BRIDGE,
    Decision,
    Mode,
    PlannedResult,
    Position,
    Resize,
    Step,
    ToolTurn,
    label_see,
    label_this,
)
from .wire_rules import carries_nothing

#: Per group: its first message index, and the steps, decisions and tally (plan.tally) before it.
Marks = tuple[int, int, int, tuple[int, ...]]


@dataclass
class Planner:
    """Lays the groups of one conversation out, in order (``run``), measuring each message
    and file for the request budgets as it goes (``tally``)."""

    policy: Policy
    budget: Budget
    tally: Tally
    steps: list[Step] = field(default_factory=list)
    decisions: list[Decision] = field(default_factory=list)
    #: The source of each decision's file, in the same order (plan.mark_repeats reads them).
    sources: list[Any] = field(default_factory=list)
    unsupported: list[Unsupported] = field(default_factory=list)
    marks: list[Marks] = field(default_factory=list)
    #: ``joins(message, index)``: whether a message that came next would join the last group
    #: laid out (``joins_tool_turn``, where that is a tool turn without its user message);
    #: None where nothing would.
    joins: Callable[[Any, int], bool] | None = None

    @property
    def wire(self) -> Wire:
        """The target's wire, whose facts the replay of thinking reads."""
        return wire_named(self.policy.caps.wire)

    def run(self, messages: Sequence[Any], start: int = 0) -> None:
        """Lay out ``messages[start:]``, one group after another; each message is measured for
        the budgets (``Tally.message``) as it is laid out."""
        i, count = start, len(messages)
        calls = _calls(messages[start - 1]) if start else []  # the last assistant's, unanswered
        while i < count:
            self.marks.append((i, len(self.steps), len(self.decisions), tuple(self.tally)))
            message = messages[i]
            if isinstance(message, ToolResult):
                j = i + 1
                while j < count and isinstance(messages[j], ToolResult):
                    j += 1
                after = passed_over(messages, j, self.policy.caps)
                follow = after < count and isinstance(messages[after], User)
                self._lay_out_turn(messages, i, j, after, follow, calls)
                calls = []
                self.joins = None if follow else partial(joins_tool_turn, caps=self.policy.caps)
                i = after + follow
                continue
            if calls:
                raise _unanswered(messages, i)
            self.joins = None
            match message:
                case User():
                    self.steps.append(self._user(message, i))
                case Assistant():
                    self.tally.message(message)
                    calls = [call.id for call in message.tool_calls]
                    replayed = verifiable(message, self.policy.caps, self.wire, i)
                    if replayed is not None:
                        self.steps.append(replayed)
                case System():
                    self.tally.message(message)
                    self.steps.append(message)
                case _:
                    raise ConversationError(f"message {i} is not a toolwire message: {message!r}")
            i += 1

    # --- tool turns ------------------------------------------------------------------------

    def _lay_out_turn(
        self,
        messages: Sequence[Any],
        start: int,
        end: int,
        after: int,
        follow: bool,
        calls: list[str],
    ) -> None:
        """Lay out the results ``messages[start:end]``, the system text passed over up to
        ``after`` (``passed_over``), and the user message there where ``follow``."""
        results: list[PlannedResult] = []
        siblings: list[Text | File] = []
        fallbacks: list[Text | File] = []
        error_status = self.policy.caps.error_status
        for index, result in in_call_order(messages, start, end, calls or None):
            self.tally.message(result)
            given = result.parts
            parts: list[Text | Json | File] = []
            for part in given:
                if not isinstance(part, File):
                    parts.append(part)
                    continue
                placed = self._tool_part(part, index, siblings, fallbacks, given)
                if isinstance(placed, list):  # a conversion's parts (plan.convert)
                    parts += placed
                else:
                    parts.append(placed)
            if not parts:  # a conversion that made nothing: never sent empty
                parts.append(text_part(EMPTY_RESULT_TEXT))
                self.tally.text(len(EMPTY_RESULT_TEXT) + PER_PART, True, None)
            denied = isinstance(result.output, ExecutionDeniedOutput)
            error = isinstance(result.output, ErrorTextOutput | ErrorJsonOutput)
            flag = error and bool(error_status)
            results.append(
                PlannedResult(result.call_id, result.name, tuple(parts), error, denied, flag)
            )
        between = self._systems(messages[end:after])
        user_parts = self._user(messages[after], after).parts if follow else ()
        self._place(tuple(results), siblings, fallbacks, user_parts, between)

    def _systems(self, passed: Sequence[Any]) -> list[System]:
        """The system messages among those a tool turn passed over, measured."""
        systems = [message for message in passed if isinstance(message, System)]
        for system in systems:
            self.tally.message(system)
        return systems

    def _tool_part(
        self,
        part: Text | Json | File,
        index: int,
        siblings: list[Any],
        fallbacks: list[Any],
        given: Sequence[Text | Json | File] = (),
    ) -> Text | Json | File:
        """One part of a result as placed; ``given``: all its parts (the texts a conversion
        or a text fallback does not repeat)."""
        if not isinstance(part, File):
            return part
        above = convert.repeated(part, _texts(given)) if part.text else False
        mode, sent = self._decide(part, index, in_tool_result=True, text_above=above)
        if mode == "converted":
            sent = convert.without_repeats(part, sent, _texts(given))
            made = convert.in_tool_result(sent, siblings, fallbacks)
            self._counted(part, len(made))
            return made  # type: ignore[return-value]
        if mode == "sibling":
            siblings += [label_this(sent), sent]
        elif mode == "fallback":
            fallbacks += [label_this(sent), sent]
        else:
            placed: File | Text = sent  # native File, or its text fallback as Text
            return placed
        return label_see(sent)

    def _place(
        self,
        results: tuple[PlannedResult, ...],
        siblings: list[Text | File],
        fallbacks: list[Text | File],
        user_parts: tuple[Text | File, ...],
        between: list[System],
    ) -> None:
        """Append the tool turn, the system text ``between`` it and the user message, and
        the message that carries what follows the results (after a bridge where the
        placement is ``"turn"``)."""
        caps, extra = self.policy.caps, list(siblings)
        pending: list[Text | File] = []
        placement = None
        if fallbacks:
            placement = caps.followup
            (extra if placement == "merge" else pending).extend(fallbacks)
        if user_parts:
            if placement in (None, "merge"):
                placement = caps.user_after_tool
                (extra if placement == "merge" else pending).extend(user_parts)
            else:
                pending.extend(user_parts)
        self.steps.append(ToolTurn(results=results, extra=tuple(extra)))
        self.steps += between
        if pending:
            if placement == "turn":
                self.steps.append(BRIDGE)
            self.steps.append(User(content=tuple(pending)))

    # --- files ---------------------------------------------------------------------------

    def _user(self, message: User, index: int) -> User:
        """The user message as sent, measured: itself when it holds no file (nothing to
        route)."""
        self.tally.message(message)
        if not any(isinstance(part, File) for part in message.parts):
            return message
        parts: list[Text | File] = []
        for part in message.parts:
            if not isinstance(part, File):
                parts.append(part)
                continue
            mode, sent = self._decide(part, index, in_tool_result=False)
            if mode == "converted":
                parts += [p for _, p in sent]
                self._counted(part, len(sent))
            else:
                parts.append(sent)
        if len(parts) == len(message.parts) and all(map(_same, parts, message.parts)):
            return message  # every file sent as given (most)
        return User(content=tuple(parts))

    def _decide(
        self, file: File, index: int, in_tool_result: bool, text_above: bool = False
    ) -> tuple[Mode, Any]:
        """The file passes, in order: route → convert → budgets; then what is sent. (Convert
        turns a route of "none" into a conversion when the file is settled, after the budgets,
        so a file they leave out is converted too: plan.files.)"""
        policy, budget = self.policy, self.budget
        counted = budget.counted_out(file, policy.caps) if budget.excess else None
        if counted is not None:  # left out by count before it is routed: never downloaded
            chosen = counted
            self.tally.counted(counted.cell)
        else:
            chosen = route(file, in_tool_result, policy.caps, policy.fetch, policy.fit)
            self.tally.file(file, None if chosen.mode == "none" else chosen.file, chosen.cell)
            if budget is not NO_BUDGET:
                chosen = budget.admitted(file, chosen, index)
        outcome: Settled = settled(file, chosen, policy, in_tool_result, text_above)
        if outcome.refused is not None:
            self.unsupported.append(
                Unsupported(index, file.identifier, file.media_type, outcome.refused, outcome.limit)
            )
            return outcome.mode, outcome.sent
        if outcome.limit is not None and isinstance(outcome.sent, Text):  # its description
            text = outcome.sent.text
            self.tally.text(len(text) + PER_PART, text.isascii(), outcome.sent)
        elif outcome.mode not in _ROUTED:  # a conversion or a text fallback: size not known
            self.tally[UNSIZED] += 1
        sent = outcome.sent if isinstance(outcome.sent, File) else None
        self.sources.append(file.source)
        self.decisions.append(
            Decision(
                message_index=index,
                identifier=file.identifier,
                media_type=file.media_type,
                kind=file.kind,
                mode=outcome.mode,
                reason=outcome.reason,
                notes=outcome.notes,
                converted_to=outcome.converted_to,
                position=self._position(outcome, in_tool_result),
                limit=outcome.limit,
                resize=resize_of(file, sent) if sent is not None else None,
                upload_id=_upload_id(sent),
            )
        )
        return outcome.mode, outcome.sent

    def _counted(self, file: File, parts: int) -> None:
        """Record on ``file``'s Decision (the last one) how many parts its conversion left in
        place."""
        last = self.decisions[-1] if self.decisions else None
        if last is not None and last.identifier == file.identifier:
            self.decisions[-1] = replace(last, parts=parts)

    def _position(self, outcome: Settled, in_tool_result: bool) -> Position:
        """Where the file's content goes: for a conversion, where its images go."""
        if not in_tool_result:
            return "user"
        modes = {outcome.mode}
        if outcome.mode == "converted":
            modes = {mode for mode, part in outcome.sent if isinstance(part, File)}
        if "fallback" in modes:
            placement = self.policy.caps.followup
            if placement == "message" and self.wire.roles_alternate:
                placement = "merge"  # the wire rules merge that message into the results'
            return _AFTER[placement]
        if "sibling" in modes:
            return "after_results"
        return "tool_result"


#: Decision modes whose files the tally measures as sent.
_ROUTED = frozenset(("native", "sibling", "fallback"))

#: Where a fallback file goes, by the target's ``followup`` placement.
_AFTER: dict[str, Position] = {
    "merge": "after_results",
    "message": "user_message",
    "turn": "user_message_after_bridge",
}


def passed_over(messages: Sequence[Any], end: int, caps: Capabilities) -> int:
    """The index of the first message after a tool turn's results (which end at ``end``)
    that is sent as a message of its own: past system text (it goes apart, or stays between)
    and past messages the plan leaves out whole (``left_out_whole``). A user message there is
    the turn's follow-up, placed as the table says (``user_after_tool``: after a bridge where
    the wire wants one) even when an empty message stood between; the messages passed over
    belong to the tool turn's group. The view reads the groups with it too (viewer.layout)."""
    index = end
    while index < len(messages) and (
        isinstance(messages[index], System) or left_out_whole(messages[index], index, caps)
    ):
        index += 1
    return index


def joins_tool_turn(message: Any, index: int, caps: Capabilities) -> bool:
    """Whether ``message`` (message ``index``), coming right after a tool turn laid out
    without a user message, joins it: more results, the user message, or what the turn
    passes over to reach one (``passed_over``); an assistant message the plan sends is the
    only thing that closes it."""
    return not isinstance(message, Assistant) or left_out_whole(message, index, caps)


def left_out_whole(message: Any, index: int, caps: Capabilities) -> bool:
    """Whether the plan leaves ``message`` (message ``index``) out whole on the target's
    wire: nothing is left of it once the wire rules leave out blank text and empty thinking
    (``carries_nothing``), or, for an assistant message, once replay by issuer leaves out what
    the target cannot verify (``verifiable``)."""
    wire = wire_named(caps.wire)
    match message:
        case System() | User():
            return carries_nothing(message, wire)
        case Assistant():
            replayed = verifiable(message, caps, wire, index)
            return replayed is None or carries_nothing(replayed, wire)
        case _:
            return False


def resize_of(original: File, sent: File) -> Resize | None:
    """The image's size before and after, where the plan sends other bytes of the same image
    (fitted by fit_images or a request budget); None for anything else."""
    if sent is original or original.kind != "image" or not original.source.is_local:
        return None
    if not isinstance(sent.source, BytesSource):  # a file id, not other bytes
        return None
    before, after = original.read(), sent.read()
    return Resize(image_size(before), image_size(after), len(before), len(after))


def _upload_id(sent: File | None) -> str | None:
    """The provider file id a file goes by (uploads: ``encode(..., uploads=…)``)."""
    source = sent.source if sent is not None else None
    return source.file_id if isinstance(source, ProviderFileSource) else None


def _texts(parts: Any) -> tuple[str, ...]:
    return tuple(p.text for p in parts if isinstance(p, Text))


def verifiable(
    message: Assistant, caps: Capabilities, wire: Wire, index: int = 0
) -> Assistant | None:
    """The assistant message with only what the target's issuer can verify: its own thinking
    and the call signatures it issued (replay by issuer), and the provider parts it sent on
    ``wire`` (a built-in tool's items are read by that provider's API only); on a wire that
    takes thinking back only signed, its signed thinking; on one with no place for thinking,
    only the thinking the table replays (``reasoning_replay``). None when nothing is left. A
    signature the wire sends as bytes that is not base64 is a ConversationError naming
    message ``index``.

    The message itself when nothing changes (most messages: no thinking, no signature).
    """
    content = message.content
    if not any(_signed(p) for p in content):
        return message if content else None  # the common case: nothing to verify
    issuer = caps.issuer
    replayed = _replays_thinking(message, caps, wire)
    keep = [p for p in content if _verified(p, issuer, wire) and (replayed or not _is_thought(p))]
    calls = [
        p.model_copy(update={"signature": None, "provider": None})
        if isinstance(p, ToolCall) and p.signature is not None and p.provider != issuer
        else p
        for p in keep
    ]
    if not calls:
        return None
    if wire.base64_signatures or wire.base64_part_fields:
        _check_base64(calls, wire, index)
    if len(calls) == len(content) and all(map(_same, calls, content)):
        return message
    return Assistant(content=tuple(calls))


def _replays_thinking(message: Assistant, caps: Capabilities, wire: Wire) -> bool:
    """Whether ``message``'s thinking goes back: on a wire with a place for it, always (as its
    issuer can verify); on one without, where the table replays it for such a message."""
    if wire.takes_thinking:
        return True
    replay = caps.reasoning_replay
    return replay is not None and (replay.on == "all" or bool(message.tool_calls))


def _is_thought(part: object) -> bool:
    return isinstance(part, Thinking)


def _verified(part: object, issuer: str, wire: Wire | None) -> bool:
    """Whether ``part`` goes to ``issuer`` on ``wire``: its own thinking (signed, where the
    wire needs a signature) and its provider parts of that wire; every other part."""
    match part:
        case Thinking():
            if wire is not None and not _has_place(part, wire):
                return False
            needs_signature = wire is not None and wire.thinking_needs_signature
            return part.provider == issuer and not (needs_signature and part.signature is None)
        case ProviderPart():
            return kept_for(part, issuer, wire.name if wire is not None else "")
        case _:
            return True


def _has_place(thinking: Thinking, wire: Wire) -> bool:
    """Whether the wire has a place for this thinking (``Wire.takes_redacted_thinking``,
    ``thinking_needs_text``)."""
    if thinking.redacted:
        return wire.takes_redacted_thinking
    return bool(thinking.text) or not wire.thinking_needs_text


def _check_base64(parts: list[Any], wire: Wire, index: int) -> None:
    """Refuse a signature (``Wire.base64_signatures``) or a provider part's field
    (``base64_part_fields``) the wire sends as bytes that is not base64 text."""
    kinds = wire.base64_signatures
    for part in parts:
        if isinstance(part, ProviderPart):
            for path in wire.base64_part_fields:
                _check_field(part, path, index)
            continue
        match part:
            case Thinking(redacted=True, signature=str() as signature) if "redacted" in kinds:
                what = "redacted reasoning data"
            case Thinking(redacted=False, signature=str() as signature) if "thinking" in kinds:
                what = "the thought signature of a thinking part"
            case ToolCall(signature=str() as signature) if "call" in kinds:
                what = f"the thought signature of tool call {part.id!r}"
            case _:
                continue
        _must_be_base64(signature, f"message {index}: {what}", "signatures")


def _check_field(part: ProviderPart, path: tuple[str, ...], index: int) -> None:
    """Refuse the text at ``path`` in ``part``'s data where it is not base64."""
    value: Any = part.data
    for key in path:
        value = value.get(key) if isinstance(value, dict) else None
    if isinstance(value, str):
        where = f"message {index}: the {'.'.join(path)} of a {part.kind} part"
        _must_be_base64(value, where, "provider parts")


def _must_be_base64(text: str, what: str, kept: str) -> None:
    """A ConversationError saying ``what`` is not base64 text, where it is not."""
    try:
        base64.b64decode(text, validate=True)
    except ValueError as exc:  # binascii.Error is a ValueError
        raise ConversationError(
            f"{what} is not base64 text ({exc}); keep {kept} exactly as toolwire.decoders "
            "returned them"
        ) from exc


def _signed(part: object) -> bool:
    """Whether ``part`` is thinking, a provider part or a signed call."""
    return isinstance(part, Thinking | ProviderPart) or (
        isinstance(part, ToolCall) and bool(part.signature)
    )


def _same(a: object, b: object) -> bool:
    return a is b


def _calls(message: Any) -> list[str]:
    """The ids of an assistant message's tool calls (none for any other message)."""
    return [c.id for c in message.tool_calls] if isinstance(message, Assistant) else []


def _unanswered(messages: Sequence[Any], i: int) -> ConversationError:
    """An assistant's tool calls must be answered before anything else follows."""
    missing = ", ".join(f"{c.id} ({c.name})" for c in messages[i - 1].tool_calls)
    return ConversationError(
        f"message {i - 1} calls tools {missing}, but message {i} is not their result; "
        "every tool call needs a ToolResult right after the assistant message"
    )
