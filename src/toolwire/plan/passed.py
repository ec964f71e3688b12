"""The passes after the layout — the wire's rules, repeated files, the system text — as a
value that grows with the conversation, so an agent's re-encode passes over its new steps
only.

``Passed`` is what those passes made of the first ``steps`` laid-out steps and ``decisions``
decisions. ``passed(before, ...)`` carries it on over the steps and decisions after those: a
plan resumed at a group (memo.LastPlans) starts from the ``Passed`` kept for the steps
before it, so its cost follows the new groups, not the history. Carrying on gives what one
pass over everything gives:

- the wire's rules fold left to right and merge a step only into the last step that is not
  system text, so the fold carries on from that step as it was before the label rule
  (``Passed.unlabelled``: a document's label is decided once its message holds all it will,
  and a message that merges with text later takes none); the first two rules of steps they
  made change nothing (blank text is gone, merged roles stay merged);
- a repeated file is marked by the first decision with its content, and later files never
  change an earlier mark;
- the system texts are the ruled System steps' texts, in order.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from ..messages import System
from ..providers import Wire
from .values import Decision, Repeat, Step, render_reason
from .wire_rules import labelled, merged


@dataclass(frozen=True)
class Passed:
    """The passes after the layout over the first ``steps`` laid-out steps and the first
    ``decisions`` decisions of a conversation."""

    steps: int = 0
    decisions: int = 0
    #: The steps as the wire's rules want them (plan.wire_rules).
    ruled: tuple[Step, ...] = ()
    #: The decisions, those of repeated content marked (``Decision.repeats``).
    marked: tuple[Decision, ...] = ()
    #: The first decision of each content (``content_key``), in order.
    firsts: Mapping[tuple[str, str], Decision] = field(default_factory=dict)
    #: The texts of the System steps of ``ruled``.
    system: tuple[str, ...] = ()
    #: How many files the decisions send as documents, and how many of those are PDFs
    #: (whether a request goes with PDF citations: plan._citations).
    documents: tuple[int, int] = (0, 0)
    #: The steps of ``ruled`` from its last step that is not system text, before the label
    #: rule (plan.wire_rules.labelled): the fold carries on from them, as a message that
    #: later merges with text takes no label.
    unlabelled: tuple[Step, ...] = ()

    @property
    def system_text(self) -> str | None:
        """All system texts joined (``Plan.system``); None where there are none."""
        return "\n\n".join(self.system) if self.system else None


#: Nothing passed yet.
NOTHING = Passed()


def passed(
    before: Passed,
    steps: Sequence[Step],
    decisions: Sequence[Decision],
    sources: Sequence[Any],
    wire: Wire,
    upto: tuple[int, int] | None = None,
) -> Passed:
    """``before`` carried on over ``steps[before.steps:]`` and ``decisions[before.decisions:]``
    (``sources``: each decision's file's source); with ``upto``, over the steps and decisions
    before those two indices only."""
    end_steps, end_decisions = upto if upto is not None else (len(steps), len(decisions))
    if (end_steps, end_decisions) == (before.steps, before.decisions):
        return before  # nothing new to pass over
    new_steps = tuple(steps[before.steps : end_steps])
    ruled, unlabelled, system = _ruled(before, new_steps, wire)
    new = slice(before.decisions, end_decisions)
    marked, firsts = _marked(before, decisions[new], sources[new])
    documents = _documents(before.documents, decisions[new])
    return Passed(end_steps, end_decisions, ruled, marked, firsts, system, documents, unlabelled)


def _ruled(
    before: Passed, new: tuple[Step, ...], wire: Wire
) -> tuple[tuple[Step, ...], tuple[Step, ...], tuple[str, ...]]:
    """The ruled steps, the last of them before their labels (``Passed.unlabelled``) and
    their system texts: the fold of the wire's rules carried on from the last ruled step that
    is not system text (the one a new step may merge into), as it was before its label."""
    ruled = before.ruled
    last = last_message(ruled)
    trailing = sum(isinstance(step, System) for step in ruled[last:])
    merged_tail = merged((*before.unlabelled, *new), wire)
    ruled = ruled[:last] + labelled(merged_tail, wire)  # one step for one
    system = before.system[: len(before.system) - trailing] + tuple(
        step.text for step in merged_tail if isinstance(step, System)
    )
    return ruled, merged_tail[last_message(ruled) - last :], system


def last_message(steps: tuple[Step, ...]) -> int:
    """The index of the last step that is not system text (0 where there is none)."""
    last = len(steps)
    while last > 0 and isinstance(steps[last - 1], System):
        last -= 1
    return max(last - 1, 0)


def _marked(
    before: Passed, decisions: Sequence[Decision], sources: Sequence[Any]
) -> tuple[tuple[Decision, ...], Mapping[tuple[str, str], Decision]]:
    """The decisions, where content sent earlier in the request (same bytes, same URL or file
    id) says which file of which message it repeats.

    The repeat is still sent, so every message stays self-contained: referring back to the
    first copy on the wire differs per provider.
    """
    if not decisions:
        return before.marked, before.firsts
    firsts = dict(before.firsts)
    marked = list(before.marked)
    for decision, source in zip(decisions, sources, strict=True):
        key = content_key(source)
        earlier = firsts.get(key)
        if earlier is None:
            firsts[key] = decision
        else:
            repeat = Repeat(earlier.identifier, earlier.message_index)
            reason = render_reason(decision.reason, repeat)
            decision = replace(decision, repeats=repeat, reason=reason)
        marked.append(decision)
    return tuple(marked), firsts


def _documents(before: tuple[int, int], decisions: Sequence[Decision]) -> tuple[int, int]:
    """``before`` counted on over ``decisions``: the files sent as documents, and the PDFs."""
    documents, pdfs = before
    for decision in decisions:
        if decision.mode in SENT and decision.kind == "document":
            documents += 1
            pdfs += decision.media_type == "application/pdf"
    return documents, pdfs


#: Modes in which a file's own content is sent.
SENT = frozenset(("native", "sibling", "fallback"))


def content_key(source: Any) -> tuple[str, str]:
    """Equal for sources of the same content: local bytes (in memory or on disk) by their
    sha256, a URL or a provider's file id by itself."""
    return ("local" if source.is_local else source.type, source.sha256())
