"""The planner: one Decision per file, and the conversation laid out for the target.

Encoders never decide capability. They receive a Plan whose steps are already in the order
and grouping the provider needs, and only spell each step in the provider's shape:

- ``System``, ``User`` (parts: Text | File), ``Assistant`` — as in the neutral model;
- ``ToolTurn`` — the results of one assistant turn's tool calls, in call order, each with the
  parts that go inside it, plus ``extra`` parts that go in the same provider message after
  all results (sibling files, and fallback files or user text where the provider merges).

Layout rules (DESIGN.md §3): a fallback file leaves ``See file {id}.`` in its result and is
carried, after all results of the turn, by ``This is file {id}:`` + the file — in the same
message, a separate user message, or a user turn after a minimal assistant message, as the
target's ``followup`` says. A real user message right after a tool turn is merged with the
pending fallback message, or placed as ``user_after_tool`` says.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from . import turn_cache
from .capability import Capabilities, Cell
from .content import File, Json, Text
from .counts import left_out_reason, over_count
from .errors import ConversationError, ToolwireError, Unsupported, UnsupportedContentError
from .messages import (
    Assistant,
    ExecutionDeniedOutput,
    System,
    ToolResult,
    User,
)
from .routes import Fetcher, Route, route
from .turn_cache import PlannedTurn
from .turns import in_call_order, output_parts

#: The minimal assistant message between a tool turn and a user turn, where roles must alternate.
BRIDGE_TEXT = "(continuing)"

#: Where one file goes (DESIGN.md §3 "Modes").
Mode = Literal["native", "sibling", "fallback", "text"]
#: What ``encode`` does with a file that no route can carry.
OnUnsupported = Literal["error", "text"]


@dataclass(frozen=True)
class Decision:
    """What happens to one file of the conversation for one target model."""

    message_index: int
    identifier: str
    media_type: str
    kind: str
    mode: Mode
    reason: str
    notes: tuple[str, ...] = ()


@dataclass(frozen=True)
class PlannedResult:
    """One tool result as the target will receive it."""

    call_id: str
    name: str
    parts: tuple[Text | Json | File, ...]
    is_error: bool = False
    denied: bool = False


@dataclass(frozen=True)
class ToolTurn:
    """All results of one assistant turn, plus parts that share their provider message."""

    results: tuple[PlannedResult, ...]
    extra: tuple[Text | File, ...] = ()


Step = System | User | Assistant | ToolTurn


@dataclass(frozen=True)
class Plan:
    """The conversation laid out for one target, with a Decision per file."""

    caps: Capabilities
    steps: tuple[Step, ...]
    decisions: tuple[Decision, ...]

    @property
    def system(self) -> str | None:
        """All system texts joined, for wires with a separate system parameter."""
        texts = [s.text for s in self.steps if isinstance(s, System)]
        return "\n\n".join(texts) if texts else None


def _text(text: str) -> Text:
    return Text(text=text)  # validating a str is cheaper than model_construct (~1 µs vs ~3)


def see_text(file: File) -> str:
    """What a tool result says in place of a file that travels elsewhere."""
    return f"See file {file.identifier}."


def label_see(file: File) -> Text:
    return _text(see_text(file))


def label_this(file: File) -> Text:
    return _text(f"This is file {file.identifier}:")


def plan(
    messages: Sequence[Any],
    caps: Capabilities,
    *,
    on_unsupported: OnUnsupported = "error",
    fetch: Fetcher | None = None,
    fit: Callable[[File, Cell], tuple[File, str | None]] | None = None,
) -> Plan:
    """Lay ``messages`` out for the target described by ``caps``.

    Raises UnsupportedContentError listing every file no route can carry (unless
    ``on_unsupported="text"``) and ConversationError for tool turns that break the rules.
    """
    if on_unsupported not in ("error", "text"):
        raise ToolwireError(f'on_unsupported must be "error" or "text", not {on_unsupported!r}')
    messages = list(messages)
    planner = _Planner(caps, on_unsupported, fetch, fit, over_count(messages, caps))
    reusable = not planner.demote and fetch is None  # see turn_cache
    context = (on_unsupported, fit)
    found = turn_cache.resume(caps, context, messages) if reusable else None
    start = 0
    if found is not None:
        start, steps, decisions, marks = found
        planner.steps, planner.decisions, planner.marks = list(steps), list(decisions), list(marks)
    planner.run(messages, start)
    if planner.unsupported:
        raise UnsupportedContentError(
            f"{caps.provider}:{caps.model}", planner.unsupported, caps.accepted()
        )
    if reusable:
        turn_cache.remember(
            caps, context, messages, planner.marks, planner.steps, planner.decisions
        )
    return Plan(caps, tuple(planner.steps), mark_repeats(messages, planner.decisions))


def mark_repeats(messages: list[Any], decisions: list[Decision]) -> tuple[Decision, ...]:
    """The decisions, where content sent earlier in the request (same bytes, same URL or file
    id) says which file of which message it repeats.

    The repeat is still sent, so every message stays self-contained: referring back to the
    first copy on the wire differs per provider. Decisions are in planning order, each
    message's files in part order, so the n-th decision of a message is its n-th file.
    """
    unsent: dict[int, list[File]] = {}
    first: dict[tuple[str, str], Decision] = {}
    marked = []
    for decision in decisions:
        index = decision.message_index
        if index not in unsent:
            message = messages[index]
            parts = output_parts(message) if isinstance(message, ToolResult) else message.parts
            unsent[index] = [p for p in reversed(parts) if isinstance(p, File)]
        source = unsent[index].pop().source
        key = ("local" if source.is_local else source.type, source.sha256())
        earlier = first.get(key)
        if earlier is None:
            first[key] = decision
        else:
            repeat = f"repeats file {earlier.identifier} of message {earlier.message_index}"
            decision = replace(decision, reason=f"{decision.reason}; {repeat}")
        marked.append(decision)
    return tuple(marked)


@dataclass
class _Planner:
    caps: Capabilities
    on_unsupported: str
    fetch: Fetcher | None
    fit: Callable[[File, Cell], tuple[File, str | None]] | None
    #: per cell with a max_count: how many of its files, oldest first, the request leaves out
    demote: dict[Cell, int] = field(default_factory=dict)
    seen: dict[Cell, int] = field(default_factory=dict)
    steps: list[Step] = field(default_factory=list)
    decisions: list[Decision] = field(default_factory=list)
    unsupported: list[Unsupported] = field(default_factory=list)
    #: per message group (a message, or a tool turn): its first index, steps and decisions before
    marks: list[tuple[int, int, int]] = field(default_factory=list)

    def run(self, messages: list[Any], start: int = 0) -> None:
        i, count = start, len(messages)
        while i < count:
            self.marks.append((i, len(self.steps), len(self.decisions)))
            message = messages[i]
            if isinstance(message, ToolResult):
                j = i + 1
                while j < count and isinstance(messages[j], ToolResult):
                    j += 1
                follow = messages[j] if j < count and isinstance(messages[j], User) else None
                self._tool_turn(messages, i, j, follow, j if follow else None)
                i = j + (1 if follow else 0)
                continue
            self._check_answered(messages, i)
            if isinstance(message, User):
                self.steps.append(self._user(message, i))
            elif isinstance(message, System | Assistant):
                self.steps.append(message)
            else:
                raise ConversationError(f"message {i} is not a toolwire message: {message!r}")
            i += 1

    # --- tool turns ------------------------------------------------------------------------

    def _tool_turn(
        self,
        messages: list[Any],
        start: int,
        end: int,
        follow: User | None,
        follow_index: int | None,
    ) -> None:
        """Plan one tool turn, or reuse its plan from an earlier encode (see turn_cache)."""
        if start == 0 or self.demote or self.fetch is not None:
            return self._plan_turn(messages, start, end, follow, follow_index)
        objects = (self.caps, *messages[start - 1 : end], *([follow] if follow else []))
        context = (self.on_unsupported, self.fit, start)
        turn = turn_cache.get(objects, context)
        if turn is None:
            marks = len(self.steps), len(self.decisions), len(self.unsupported)
            self._plan_turn(messages, start, end, follow, follow_index)
            turn = PlannedTurn(
                tuple(self.steps[marks[0] :]),
                tuple(self.decisions[marks[1] :]),
                tuple(self.unsupported[marks[2] :]),
            )
            turn_cache.put(objects, context, turn)
            return None
        self.steps += turn.steps
        self.decisions += turn.decisions
        self.unsupported += turn.unsupported
        return None

    def _plan_turn(
        self,
        messages: list[Any],
        start: int,
        end: int,
        follow: User | None,
        follow_index: int | None,
    ) -> None:
        ordered = in_call_order(messages, start, end)
        results: list[PlannedResult] = []
        siblings: list[Text | File] = []
        fallbacks: list[Text | File] = []
        for index, result in ordered:
            parts: list[Text | Json | File] = []
            for part in output_parts(result):
                parts.append(self._tool_part(part, index, siblings, fallbacks))
            results.append(
                PlannedResult(
                    call_id=result.call_id,
                    name=result.name,
                    parts=tuple(parts),
                    is_error=result.is_error,
                    denied=isinstance(result.output, ExecutionDeniedOutput),
                )
            )
        user_parts: list[Text | File] = []
        if follow is not None and follow_index is not None:
            user_parts = self._user_parts(follow, follow_index)
        self._place(tuple(results), siblings, fallbacks, user_parts)

    def _tool_part(
        self, part: Text | Json | File, index: int, siblings: list[Any], fallbacks: list[Any]
    ) -> Text | Json | File:
        if not isinstance(part, File):
            return part
        mode, sent = self._decide(part, index, in_tool_result=True)
        if mode == "sibling":
            siblings += [label_this(sent), sent]
        elif mode == "fallback":
            fallbacks += [label_this(sent), sent]
        else:
            return sent  # native File, or its text fallback as Text
        return label_see(sent)

    def _place(
        self,
        results: tuple[PlannedResult, ...],
        siblings: list[Text | File],
        fallbacks: list[Text | File],
        user_parts: list[Text | File],
    ) -> None:
        caps, extra = self.caps, list(siblings)
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
        if pending:
            if placement == "turn":
                self.steps.append(Assistant.model_construct(content=[_text(BRIDGE_TEXT)]))
            self.steps.append(User.model_construct(content=pending))

    # --- files ---------------------------------------------------------------------------

    def _user(self, message: User, index: int) -> User:
        """The user message as sent: itself when it holds no file (nothing to route)."""
        if isinstance(message.content, str) or not any(
            isinstance(p, File) for p in message.content
        ):
            return message
        return User.model_construct(content=self._user_parts(message, index))

    def _user_parts(self, message: User, index: int) -> list[Text | File]:
        parts: list[Text | File] = []
        for part in message.parts:
            if isinstance(part, File):
                part = self._decide(part, index, in_tool_result=False)[1]
            parts.append(part)
        return parts

    def _decide(self, file: File, index: int, in_tool_result: bool) -> tuple[Mode, Any]:
        """(mode, what to send): the routed File, or a Text for text mode."""
        chosen = self._over_limit(file) or route(
            file, in_tool_result, self.caps, self.fetch, self.fit
        )
        if chosen.mode != "none":
            self._record(file, index, chosen.mode, chosen.reason, chosen.notes)
            return chosen.mode, chosen.file
        if self.on_unsupported == "error":
            self.unsupported.append(
                Unsupported(index, file.identifier, file.media_type, chosen.reason)
            )
            return "text", _text("")
        reason = f"replaced by its text fallback: {chosen.reason}"
        self._record(file, index, "text", reason, ())
        return "text", _text(file.text_fallback())

    def _over_limit(self, file: File) -> Route | None:
        """A 'none' route for the oldest files of a cell that has more than max_count."""
        if not self.demote:
            return None
        cell = self.caps.cell(file.media_type)
        if cell is None or cell not in self.demote:
            return None
        seen = self.seen[cell] = self.seen.get(cell, 0) + 1
        if seen > self.demote[cell]:
            return None
        return Route("none", file, left_out_reason(cell, self.demote[cell]))

    def _record(
        self, file: File, index: int, mode: Mode, reason: str, notes: tuple[str, ...]
    ) -> None:
        self.decisions.append(
            Decision(index, file.identifier, file.media_type, file.kind, mode, reason, notes)
        )

    def _check_answered(self, messages: list[Any], i: int) -> None:
        """An assistant's tool calls must be answered before anything else follows."""
        if i == 0 or not isinstance(messages[i - 1], Assistant):
            return
        calls = messages[i - 1].tool_calls
        if calls:
            missing = ", ".join(f"{c.id} ({c.name})" for c in calls)
            raise ConversationError(
                f"message {i - 1} calls tools {missing}, but message {i} is not their result; "
                "every tool call needs a ToolResult right after the assistant message"
            )
