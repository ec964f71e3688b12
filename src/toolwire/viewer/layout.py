"""What each target receives, turn by turn: the planner's layout in the view's own terms.

``laid_out`` is the only place the view reads the plan (``toolwire.plan_request``, the very
plan ``encode`` spells: images fitted, budgets applied, ``on_unsupported`` as given) and cuts
its steps into turns, one per group of the conversation — a message, or a run of tool
results with the user message that follows them. Every target groups the same messages, so
turns line up side by side across models. A refactor of the planner changes this module only.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any, Literal

from ..capability import Capabilities
from ..content import File, Json, Text, Thinking, ToolCall
from ..messages import System, ToolResult, User
from ..plan import Decision, Plan, PlannedResult, ToolTurn, label_see, label_this
from ..plan.layout import left_out_whole, passed_over
from ..plan.values import BRIDGE

#: How a part came to be where it is.
Role = Literal["sent", "text-fallback", "pointer", "converted", "label"]


@dataclass(frozen=True)
class Shown:
    """One part as the target receives it; ``original`` is the file a text stands for (its
    text fallback, a pointer to where it travels, or its conversion's first part), and
    ``decision`` that file's Decision (or a sent file's own)."""

    part: Text | Json | File | Thinking | ToolCall
    role: Role = "sent"
    decision: Decision | None = None
    original: File | None = None
    #: For an image a conversion made (a rendered page, a video frame): ``(k, n)``, the
    #: k-th of the n images made from ``original``, whose Decision ``decision`` is.
    made: tuple[int, int] | None = None


@dataclass(frozen=True)
class Block:
    """Parts under one heading: a tool result, or the parts after the results."""

    heading: str
    parts: tuple[Shown, ...]
    flag: str = ""


@dataclass(frozen=True)
class Step:
    """One provider message; ``added`` says why toolwire added it ("" for the user's own)."""

    role: str
    blocks: tuple[Block, ...]
    added: str = ""


@dataclass(frozen=True)
class Turn:
    """The steps one group of messages (``first``..``last``) becomes, with its decisions."""

    first: int
    last: int
    steps: tuple[Step, ...]
    decisions: tuple[Decision, ...]


BRIDGE_ADDED = "added by toolwire: roles must alternate before the next user turn"
FALLBACK_ADDED = "added by toolwire: carries what the tool result could not"
AFTER_TOOL_ADDED = "the user's next message, placed after the tool turn as this target requires"


def laid_out(messages: Sequence[Any], planned: Plan) -> tuple[Turn, ...]:
    """The conversation as the plan's target receives it, cut into turns (see module doc)."""
    messages, caps = list(messages), planned.caps
    steps, decisions = list(planned.steps), planned.decisions
    turns: list[Turn] = []
    i = k = 0
    while k < len(steps):
        step = steps[k]
        i = _next_of_its_kind(messages, i, step, caps)
        if isinstance(step, ToolTurn):
            end, taken, shown = _tool_group(messages, i, steps, k, decisions, caps)
        else:
            message = messages[i] if i < len(messages) else None
            end, taken, shown = i + 1, 1, [_plain(step, message, decisions, i)]
        mine = tuple(d for d in decisions if i <= d.message_index < end)
        turns.append(Turn(i, end - 1, tuple(shown), mine))
        i, k = end, k + taken
    return tuple(turns)


def _next_of_its_kind(messages: list[Any], i: int, step: Any, caps: Capabilities) -> int:
    """The first message from ``i`` on that ``step`` stands for: one of its kind (a tool
    turn's first result) that the plan sends. The messages passed over have no step of their
    own: the plan left them out whole (plan.layout.left_out_whole: blank text, thinking the
    target cannot take back) or merged them into the step before (a wire whose roles
    alternate)."""
    kind = ToolResult if isinstance(step, ToolTurn) else type(step)
    j = i
    while j < len(messages) and (
        not isinstance(messages[j], kind) or left_out_whole(messages[j], j, caps)
    ):
        j += 1
    return j if j < len(messages) else i


def _tool_group(
    messages: list[Any],
    start: int,
    steps: list[Any],
    k: int,
    decisions: Sequence[Decision],
    caps: Capabilities,
) -> tuple[int, int, list[Step]]:
    """(end index, steps taken, shown steps) of the tool turn at steps[k]: its results, then
    a bridging assistant turn and a user message where the plan added them."""
    j = start
    while j < len(messages) and isinstance(messages[j], ToolResult):
        j += 1
    after = passed_over(messages, j, caps)  # the plan's own grouping (plan.layout)
    follow = after < len(messages) and isinstance(messages[after], User)
    end = after + int(follow)
    queues = _queues(d for d in decisions if start <= d.message_index < end)
    originals = {m.call_id: m for m in messages[start:j]}
    turn: ToolTurn = steps[k]
    systems = _systems_after(steps, k + 1)  # the system text the plan passed over
    rest = steps[k + 1 + len(systems) : k + 3 + len(systems)]
    _carried(queues, [*turn.extra, *(p for s in rest if isinstance(s, User) for p in s.parts)])
    shown = [_tool_step(turn, originals, queues), *(_plain(s, None, (), 0) for s in systems)]
    carried = caps.followup != "merge" and any(
        d.mode == "fallback" or (d.mode == "converted" and _labelled(rest))
        for d in decisions
        if start <= d.message_index < j
    )  # the fallback files (or converted parts) travel in a user message of their own
    why = FALLBACK_ADDED if carried else AFTER_TOOL_ADDED
    if rest and rest[0] is BRIDGE:  # the plan added it (plan.values.BRIDGE)
        shown.append(Step("assistant", (Block("", _parts(rest[0].content, queues)),), BRIDGE_ADDED))
        shown.append(_pending(rest[1], queues, why))
        return end, 3 + len(systems), shown
    pending = carried or (follow and caps.user_after_tool != "merge")
    if pending and rest and isinstance(rest[0], User):
        shown.append(_pending(rest[0], queues, why))
        return end, 2 + len(systems), shown
    return end, 1 + len(systems), shown


def _systems_after(steps: list[Any], k: int) -> list[System]:
    """The System steps from ``steps[k]`` on, up to the first step of another kind."""
    systems: list[System] = []
    while k + len(systems) < len(steps) and isinstance(steps[k + len(systems)], System):
        systems.append(steps[k + len(systems)])
    return systems


def _carried(queues: _Queues, parts: Sequence[Any]) -> None:
    """Note the files the plan carries beside or after the results, by the ``See file …``
    text each leaves in its tool result: a conversion's images are told by those texts."""
    queues.carried = {label_see(p): p for p in parts if isinstance(p, File)}


def _labelled(rest: list[Any]) -> bool:
    """Whether the next step is a user message the plan added to carry files: it opens with
    the plan's ``This is file …:`` label (converted parts placed after the results)."""
    first = rest[0].parts[0] if rest and isinstance(rest[0], User) and rest[0].parts else None
    return isinstance(first, Text) and first.text.startswith(_label_prefix())


@cache
def _label_prefix() -> str:
    """The words every ``label_this`` label starts with (``This is file ``)."""
    return label_this(File.from_bytes(b"x", "text/plain", "x")).text.removesuffix("x:")


def _tool_step(turn: ToolTurn, originals: dict[str, ToolResult], queues: _Queues) -> Step:
    blocks = [_result(r, originals.get(r.call_id), queues) for r in turn.results]
    if turn.extra:
        blocks.append(Block("in the same message, after the results", _parts(turn.extra, queues)))
    return Step("tool", tuple(blocks))


def _result(result: PlannedResult, original: ToolResult | None, queues: _Queues) -> Block:
    before = list(original.parts) if original is not None else []
    shown = _in_place(result.parts, before, queues)
    flag = "denied" if result.denied else "error" if result.is_error else ""
    return Block(f"result of {result.name} ({result.call_id})", tuple(shown), flag)


def _in_place(sent: Sequence[Any], before: Sequence[Any], queues: _Queues) -> list[Shown]:
    """The parts of a tool result or user message as sent, each file's read from its
    Decision: the file itself, the text standing for it (its text fallback, or a pointer to
    where it travels), or the ``Decision.parts`` parts its conversion left here."""
    shown: list[Shown] = []
    at = 0
    for was in before:
        if at >= len(sent):
            break
        if not isinstance(was, File):
            shown.append(_one(sent[at], queues))
            at += 1
            continue
        decision = _peek(queues, was.identifier)
        if decision is None:
            shown.append(_one(sent[at], queues))
            at += 1
        elif decision.mode in ("sibling", "fallback") and not isinstance(sent[at], File):
            shown.append(Shown(sent[at], "pointer", decision, was))  # the file keeps its Decision
            at += 1
        elif decision.mode == "text":
            shown.append(Shown(sent[at], "text-fallback", _take(queues, was.identifier), was))
            at += 1
        elif decision.mode == "converted":
            _take(queues, was.identifier)
            made = sent[at : at + decision.parts]
            at += len(made)
            _note_images(queues, made, decision, was)
            for position, part in enumerate(made):
                if isinstance(part, File):  # an image it made: "page k of n of …"
                    shown.append(queues.made[part.identifier])
                elif position > 0:
                    shown.append(_one(part, queues))
                else:
                    shown.append(Shown(part, "converted", decision, was))
        else:
            shown.append(_one(sent[at], queues))
            at += 1
    shown.extend(_one(part, queues) for part in sent[at:])  # e.g. an empty result's text
    return shown


def _plain(step: Any, message: Any, decisions: Sequence[Decision], index: int) -> Step:
    """A system, user or assistant message of the conversation, as planned."""
    if isinstance(step, System):
        return Step("system", (Block("", (Shown(Text(text=step.text)),)),))
    queues = _queues(d for d in decisions if d.message_index == index)
    if isinstance(step, User):
        shown = _user_parts(step.parts, message.parts if isinstance(message, User) else (), queues)
        return Step("user", (Block("", shown),))
    return Step("assistant", (Block("", _parts(step.content, queues)),))


def _user_parts(sent: Sequence[Any], before: Sequence[Any], queues: _Queues) -> tuple[Shown, ...]:
    """A user message's parts, each file's read from its Decision (``_in_place``)."""
    return tuple(_in_place(sent, before, queues))


def _pending(step: Any, queues: _Queues, why: str) -> Step:
    return Step("user", (Block("", _parts(step.parts, queues)),), why)


def _parts(parts: Sequence[Any], queues: _Queues) -> tuple[Shown, ...]:
    """Parts in order; the planner's ``This is file X:`` before file X is marked a label."""
    shown = []
    for position, part in enumerate(parts):
        after = parts[position + 1] if position + 1 < len(parts) else None
        if isinstance(part, Text) and isinstance(after, File) and part == label_this(after):
            shown.append(Shown(part, "label"))
        else:
            shown.append(_one(part, queues))
    return tuple(shown)


def _note_images(queues: _Queues, made: Sequence[Any], decision: Decision, was: File) -> None:
    """The images among a conversion's parts (in place, or the ``See file …`` text of one
    carried elsewhere), each tied to the converted file's Decision as its k-th of n."""
    images = [
        p if isinstance(p, File) else queues.carried[p]
        for p in made
        if isinstance(p, File) or (isinstance(p, Text) and p in queues.carried)
    ]
    for k, image in enumerate(images, 1):
        queues.made[image.identifier] = Shown(image, "sent", decision, was, (k, len(images)))


def _one(part: Any, queues: _Queues) -> Shown:
    if isinstance(part, File):
        decision = _take(queues, part.identifier)
        if decision is None and part.identifier in queues.made:
            return queues.made[part.identifier]
        return Shown(part, "sent", decision)
    return Shown(part)


@dataclass
class _Queues:
    """A group's Decisions by file id, taken in order as its files are met; ``made``: the
    images conversions made, by id; ``carried``: the files sent beside or after the results,
    by the text each leaves in its result."""

    decisions: dict[str, list[Decision]] = field(default_factory=dict)
    made: dict[str, Shown] = field(default_factory=dict)
    carried: dict[Text, File] = field(default_factory=dict)


def _queues(decisions: Any) -> _Queues:
    queues = _Queues()
    for d in decisions:
        queues.decisions.setdefault(d.identifier, []).append(d)
    return queues


def _peek(queues: _Queues, identifier: str) -> Decision | None:
    queue = queues.decisions.get(identifier)
    return queue[0] if queue else None


def _take(queues: _Queues, identifier: str) -> Decision | None:
    queue = queues.decisions.get(identifier)
    return queue.pop(0) if queue else None
