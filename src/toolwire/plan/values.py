"""The plan's values: a Decision per file, and the conversation laid out for one target.

Names: a *tool turn* is the results of one assistant message's tool calls (the consecutive
ToolResult messages after it), in call order: ``ToolTurn``; toolwire uses "turn" for nothing
else. A *message* is one user, assistant or system message; a *group* is what the planner lays
out together (one message, or a tool turn with the user message placed after it); an agent
*step* is one model call. (The table's placement value ``"turn"`` names a user message after
a bridging assistant message.) Files *left out* are the oldest beyond a request budget.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal, NamedTuple

from ..capability import Capabilities
from ..content import File, Json, Text, text_part
from ..messages import Assistant, System, User

if TYPE_CHECKING:
    from .cache import CachePoints
    from .ids import ToolNames

#: Where one file goes (DESIGN.md §3 "Modes").
Mode = Literal["native", "sibling", "fallback", "text", "converted"]
#: What ``encode`` does with a file that no route can carry (DESIGN.md §5.2 for "convert").
OnUnsupported = Literal["error", "convert", "text"]
#: What a converted file became (``Decision.converted_to``).
ConvertedTo = Literal["text", "pages", "frames", "image"]

#: The minimal assistant message between a tool turn and a user turn, where roles alternate.
BRIDGE_TEXT = "(continuing)"


@dataclass(frozen=True)
class Decision:
    """What happens to one file of the conversation for one target model.

    ``converted_to``: for ``mode="converted"``, what the file became ("text", "pages",
    "frames" or "image"); the reason says exactly what was done and where it went.
    """

    message_index: int
    identifier: str
    media_type: str
    kind: str
    mode: Mode
    reason: str
    notes: tuple[str, ...] = ()
    converted_to: ConvertedTo | None = None


_new, _set = object.__new__, object.__setattr__


def decided(
    message_index: int,
    file: File,
    mode: Mode,
    reason: str,
    notes: tuple[str, ...] = (),
    converted_to: ConvertedTo | None = None,
) -> Decision:
    """The Decision for ``file``, its fields set in one ``__dict__``: the layout makes one per
    file of every encode, and the frozen dataclass's ``__init__`` sets each of its eight
    fields through ``object.__setattr__`` (1.6 µs against 0.8). Equal to ``Decision(...)``."""
    decision = _new(Decision)
    _set(decision, "__dict__", {
        "message_index": message_index, "identifier": file.identifier,
        "media_type": file.media_type, "kind": file.kind, "mode": mode, "reason": reason,
        "notes": notes, "converted_to": converted_to,
    })  # fmt: skip
    return decision


class PlannedResult(NamedTuple):
    """One tool result as the target will receive it (a tuple, as every plan value made per
    message of every encode: a frozen dataclass takes longer to make).

    ``error_flag``: the wire's own error flag is set (an error output, on a target whose
    table says the flag is supported); ``is_error`` says the output was an error at all.
    """

    call_id: str
    name: str
    parts: tuple[Text | Json | File, ...]
    is_error: bool = False
    denied: bool = False
    error_flag: bool = False


class ToolTurn(NamedTuple):
    """All results of one tool turn, plus parts that share their provider message."""

    results: tuple[PlannedResult, ...]
    extra: tuple[Text | File, ...] = ()


Step = System | User | Assistant | ToolTurn
# The planner makes messages with ``model_construct(role=..., content=...)``: given every
# field, pydantic resolves no default (five functions fewer on a cold encode).


@dataclass(frozen=True)
class Plan:
    """The conversation laid out for one target, with a Decision per file.

    ``names``: the tool-call ids and tool names the wire gets (ids pass); ``scrub``: some step
    (where a byte budget measured the messages: some message) holds a lone surrogate, so the
    payload's strings must be made UTF-8-encodable when spelled;
    ``sign_first_call``: the target rejects a replayed model message whose first function
    call carries no thought signature (the encoder spells the documented placeholder).
    """

    caps: Capabilities
    steps: tuple[Step, ...]
    decisions: tuple[Decision, ...]
    names: ToolNames
    scrub: bool = False
    sign_first_call: bool = False
    #: Where the prompt-cache marks go (``encode(..., cache=True)`` on a target with marks).
    cache: CachePoints | None = None
    #: At most how many bytes the JSON of the steps takes, every file as routed (plan.tally;
    #: None where not measured): ``encode`` measures no body this bound keeps within budget.
    bound: int | None = None
    #: All system texts joined, for wires with a separate system parameter (``system_text``).
    system: str | None = None

    @property
    def target(self) -> str:
        """``provider:model`` for messages."""
        return f"{self.caps.provider}:{self.caps.model}"


def see_text(file: File) -> str:
    """What a tool result says in place of a file that travels elsewhere."""
    return f"See file {file.identifier}."


def label_see(file: File) -> Text:
    return text_part(see_text(file))


def label_this(file: File) -> Text:
    return text_part(f"This is file {file.identifier}:")


def system_text(steps: tuple[Step, ...]) -> str | None:
    """All system texts of ``steps`` joined (``Plan.system``); None where there are none."""
    texts = [
        s.text
        for s in steps
        if type(s) is System or type(s) is not ToolTurn and isinstance(s, System)
    ]
    return "\n\n".join(texts) if texts else None
