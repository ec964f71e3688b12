"""The plan's values: a Decision per file, and the conversation laid out for one target.

Names: a *tool turn* is the results of one assistant message's tool calls (the consecutive
ToolResult messages after it), in call order: ``ToolTurn``; toolwire uses "turn" for nothing
else. A *message* is one user, assistant or system message; a *group* is what the planner lays
out together (one message, or a tool turn with the user message placed after it); an agent
*step* is one model call. (The table's placement value ``"turn"`` names a user message after
a bridging assistant message.) Files *left out* are the oldest beyond a request budget.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Literal

from ..capability import Capabilities
from ..content import File, Json, Text, text_part
from ..digest import digest_of
from ..messages import Assistant, System, User

if TYPE_CHECKING:
    from ..providers import Wire
    from ..tools import ToolChoice
    from ..tools.repair import PreparedTool, ToolNote
    from .cache import CachePoints
    from .ids import ToolNames
    from .provider_parts import PartLeftOut

#: Where one file goes (DESIGN.md §3 "Modes").
Mode = Literal["native", "sibling", "fallback", "text", "converted"]
#: What ``encode`` does with a file that no route can carry (DESIGN.md §5.2 for "convert").
OnUnsupported = Literal["error", "convert", "text"]
#: What ``encode`` does with a file a request budget leaves out: its description instead
#: ("evict"), or a BudgetError ("error").
OnBudget = Literal["evict", "error"]
#: What a converted file became (``Decision.converted_to``).
ConvertedTo = Literal["text", "pages", "frames", "image"]

#: The minimal assistant message between a tool turn and a user turn, where roles alternate.
BRIDGE_TEXT = "(continuing)"
#: The minimal assistant message the plan adds between tool results and a user message the
#: target takes only as a turn of its own: one object, so that a reader of the plan tells it
#: from a message of the conversation that happens to say the same (``step is BRIDGE``).
BRIDGE = Assistant(content=(text_part(BRIDGE_TEXT),))


#: Where a file's content went in the request (``Decision.position``): inside its tool
#: result; in the same provider message after all results; in a user message of its own
#: after the tool turn (after a minimal assistant message where roles alternate); or in the
#: user's own message, where it was.
Position = Literal[
    "tool_result", "after_results", "user_message", "user_message_after_bridge", "user"
]


@dataclass(frozen=True)
class Limit:
    """A request budget that changed a file: the table's field (``max_request_bytes``,
    ``max_images_per_request``, ``max_count`` of a cell, ``many_images_edge``, …), its
    value, and the evidence recorded for it. ``left_out`` of ``among`` files were left out by
    it (0 where it re-fitted or shrank the file instead)."""

    name: str
    value: int
    source: str
    left_out: int = 0
    among: int = 0
    #: What the limit counts, for the sentence (``files of image/png, image/jpeg``).
    counted: str = "media files"


@dataclass(frozen=True)
class Resize:
    """An image sent at another size than it has: pixels and bytes before and after."""

    from_px: tuple[int, int] | None
    to_px: tuple[int, int] | None
    from_bytes: int
    to_bytes: int


@dataclass(frozen=True)
class Repeat:
    """The earlier file of the same request with the same content (it is sent again)."""

    identifier: str
    message_index: int


@dataclass(frozen=True)
class Decision:
    """What happens to one file of the conversation for one target model.

    Data, each field set by the pass that decided it: ``mode`` and ``position`` (where its
    content went); ``converted_to`` for ``mode="converted"`` ("text", "pages", "frames" or
    "image"); ``limit``, the request budget that left it out, re-fitted it or shrank its
    conversion; ``resize``, the image's size before and after fitting; ``repeats``, the
    earlier file of the request with the same content; ``upload_id``, the provider file id it
    goes by; ``parts``, how many parts stand for it where it was (a conversion's, in its tool
    result or user message; 1 otherwise), so a reader of the plan (the view) can tell which
    parts came from which file. ``reason`` is the sentence a person reads, rendered from these by the planner
    (``render_reason``); no code reads it back.
    """

    message_index: int
    identifier: str
    media_type: str
    kind: str
    mode: Mode
    reason: str
    notes: tuple[str, ...] = ()
    converted_to: ConvertedTo | None = None
    position: Position = "tool_result"
    limit: Limit | None = None
    resize: Resize | None = None
    repeats: Repeat | None = None
    upload_id: str | None = None
    parts: int = 1


def limit_sentence(limit: Limit) -> str:
    """Why a budget changed a file, naming the limit, its value and its evidence."""
    if limit.name == "many_images_edge":
        return (
            f"a request with more than {limit.among} images takes none larger than "
            f"{limit.value} px a side (many_images_edge; {limit.left_out} left out): pass "
            f"fit_images=True to downscale them ({limit.source})"
        )
    if limit.name == "max_count":
        return (
            f"one request takes at most {limit.value} {limit.counted} and this conversation "
            f"has {limit.among}: the {limit.left_out} oldest are left out ({limit.source})"
        )
    if not limit.left_out:
        return f"request budget {limit.name} = {limit.value:,} binds ({limit.source})"
    return (
        f"request budget {limit.name} = {limit.value:,} binds: the {limit.left_out} oldest of "
        f"{limit.among} {limit.counted} are left out, the newest kept ({limit.source})"
    )


def render_reason(basis: str, repeats: Repeat | None = None) -> str:
    """A Decision's reason: what the passes said of the file, then the repeat it is."""
    if repeats is None:
        return basis
    return f"{basis}; repeats file {repeats.identifier} of message {repeats.message_index}"


@dataclass(frozen=True)
class PlannedResult:
    """One tool result as the target will receive it.

    ``error_flag``: the wire's own error flag is set (an error output, on a target whose
    table says the flag is supported); ``is_error`` says the output was an error at all.
    """

    call_id: str
    name: str
    parts: tuple[Text | Json | File, ...]
    is_error: bool = False
    denied: bool = False
    error_flag: bool = False


@dataclass(frozen=True)
class ToolTurn:
    """All results of one tool turn, plus parts that share their provider message."""

    results: tuple[PlannedResult, ...]
    extra: tuple[Text | File, ...] = ()

    @cached_property
    def digest(self) -> bytes:
        """The content digest (``toolwire.digest``): the key of its spelling (memo.Memo)."""
        return digest_of(self)


Step = System | User | Assistant | ToolTurn


@dataclass(frozen=True)
class Plan:
    """The conversation laid out for one target, with a Decision per file.

    ``names``: the tool-call ids and tool names the wire gets (ids pass); ``wire``: the wire
    format the steps are laid out for, whose ``spell`` writes them; ``scrub``: some step
    (where a byte budget measured the messages: some message) holds a lone surrogate, so the
    payload's strings must be made UTF-8-encodable when spelled;
    ``sign_first_call``: the target rejects a replayed model message whose first function
    call carries no thought signature (the encoder spells the documented placeholder).
    """

    caps: Capabilities
    steps: tuple[Step, ...]
    decisions: tuple[Decision, ...]
    names: ToolNames
    wire: Wire
    scrub: bool = False
    sign_first_call: bool = False
    #: PDFs are spelled with document citations enabled (``Capabilities.pdf_citations``).
    pdf_citations: bool = False
    #: The field the model's reasoning goes back in, and on which assistant messages
    #: (``Capabilities.reasoning_replay``: ("reasoning_content", "tool_calls")); None: nowhere.
    reasoning_replay: tuple[str, str] | None = None
    #: The chat server takes a message's texts as a list of parts (else one string).
    text_parts: bool = False
    #: Where the prompt-cache marks go (``encode(..., cache=True)`` on a target with marks).
    cache: CachePoints | None = None
    #: At most how many bytes the JSON of the steps takes, every file as routed or described
    #: (plan.tally; None where a file goes as text of a size the tally does not know: a
    #: conversion, a text fallback): ``encode`` measures no body this bound keeps within budget.
    bound: int | None = None
    #: All system texts joined, for wires with a separate system parameter (plan.passed).
    system: str | None = None
    #: The tool definitions, prepared for the target (tools.repair), and the tool choice the
    #: request spells (``encode(tools=…)``).
    tools: tuple[PreparedTool, ...] = ()
    tool_choice: ToolChoice | None = None
    #: What was changed in the tools' schemas for this target (tools.repair; issue 31).
    tool_notes: tuple[ToolNote, ...] = ()
    #: The provider parts the target does not receive: another API's (plan.provider_parts).
    parts_left_out: tuple[PartLeftOut, ...] = ()
    #: The body's size in bytes as the SDK sends it, where the byte budget measured it.
    size: int | None = None
    #: The keyword arguments the byte budget spelled to measure them, so that ``spell`` does
    #: not spell the same plan again (None where nothing was measured).
    spelled: dict[str, object] | None = field(default=None, compare=False, repr=False)

    @property
    def budgets_bound(self) -> dict[str, int]:
        """Per request budget that changed a file (``Decision.limit``: left out, re-fitted or
        its conversion shrunk), how many files it changed; empty when none did."""
        return budgets_bound(self.decisions)

    @property
    def target(self) -> str:
        """``provider:model`` for messages."""
        return f"{self.caps.provider}:{self.caps.model}"


def budgets_bound(decisions: Sequence[Decision]) -> dict[str, int]:
    """How many of ``decisions`` each request budget changed (their ``limit``)."""
    bound: dict[str, int] = {}
    for decision in decisions:
        if decision.limit is not None:
            bound[decision.limit.name] = bound.get(decision.limit.name, 0) + 1
    return bound


def see_text(file: File) -> str:
    """What a tool result says in place of a file that travels elsewhere."""
    return f"See file {file.identifier}."


def label_see(file: File) -> Text:
    return text_part(see_text(file))


def label_this(file: File) -> Text:
    return text_part(f"This is file {file.identifier}:")
