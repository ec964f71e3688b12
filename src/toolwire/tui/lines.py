"""The words the terminal view shows: a file's one-line preview, its Decision in a few words,
its detail, a turn's figures. Plain functions over the plan's data, no Textual, so they are
tested on their own and nothing here decides anything the plan did not.

Every string from the conversation goes through ``plain`` first: a stored or imported session
cannot move the cursor, retitle or clear the terminal it is shown in.
"""

from __future__ import annotations

import json
from typing import Any

from ..content import File, Json, ProviderPart, Text, Thinking, ToolCall
from ..headers import human_size, wav_duration
from ..plan import Decision
from ..viewer.html import standing_for
from ..viewer.layout import Shown, Turn
from ..viewer.targets import Target

#: Text shown in a collapsed section's body at most; the rest is counted, not shown.
DETAIL_CHARS = 6000
#: Lines of a text part shown before the rest is folded.
SHOWN_LINES = 24


def plain(text: str) -> str:
    """``text`` with terminal controls (ESC, BEL, CR, bidi overrides…) shown as escapes."""
    return "".join(
        c if c.isprintable() or c in "\n\t" else c.encode("unicode_escape").decode() for c in text
    )


def preview(file: File, decision: Decision | None, made: str = "") -> str:
    """One line: what the file is (``[Image: photo.png, 640x480, 24 KB]``), then its Decision;
    an image a conversion made says which (``made``: ``page 1 of 3 rendered from a.pdf``)."""
    line = plain(file.description())
    return f"{line}  {verdict(decision, made)}" if decision is not None else line


def verdict(d: Decision, made: str = "") -> str:
    """The Decision in a few words: its mode, where it went, and the budget that bound it;
    ``made`` first for an image its conversion made (the Decision is the converted file's)."""
    words = [_MODES.get(d.mode, d.mode)]
    if d.converted_to:
        words = [plain(made) if made else f"converted to {d.converted_to}"]
    if d.limit is not None and d.limit.left_out:
        words = [f"evicted by {d.limit.name} = {d.limit.value:,}"]
    elif d.limit is not None:
        words.append(f"{d.limit.name} = {d.limit.value:,} binds")
    if d.position != "tool_result":
        words.append(f"→ {d.position.replace('_', ' ')}")
    if d.resize is not None and d.resize.from_px and d.resize.to_px:
        (fw, fh), (tw, th) = d.resize.from_px, d.resize.to_px
        words.append(f"resized {fw}x{fh}→{tw}x{th}")
    if d.upload_id:
        words.append(f"upload {plain(d.upload_id)}")
    if d.repeats is not None:
        words.append(f"repeats {plain(d.repeats.identifier)}")
    return "· " + ", ".join(words)


_MODES = {
    "native": "native",
    "sibling": "sent beside the result",
    "fallback": "in a user message of its own",
    "text": "as text",
    "converted": "converted",
}


def file_detail(
    file: File, decision: Decision | None, tokens: int | None, made: str = ""
) -> list[str]:
    """The facts a file's section expands to: identity, size, travel, reason, tokens (an
    image a conversion made: what it is, and the converted file's reason)."""
    facts = [f"id {plain(file.identifier)} · {plain(file.media_type)}"]
    if made and decision is not None:
        facts.append(f"{plain(made)} · {plain(decision.media_type)}")
    if file.source.is_local:
        data = file.read()
        facts.append(f"size {human_size(len(data))}")
        if file.media_type == "audio/wav" and (seconds := wav_duration(data)) is not None:
            facts.append(f"duration {seconds:.1f} s")
    else:
        facts.append(f"by reference: {plain(file.source.describe())}")
    if decision is not None:
        facts.append(f"travels: {decision.position.replace('_', ' ')}")
        if tokens is not None:
            facts.append(f"≈ {tokens:,} tokens")
        facts.append(f"decision: {plain(decision.reason)}")
        facts.extend(f"note: {plain(n)}" for n in decision.notes)
    return facts


def part_text(part: Any) -> str:
    """A part that is not a file, as text (a tool call as its name and arguments)."""
    if isinstance(part, Text):
        return plain(part.text)
    if isinstance(part, Json):
        return plain(json.dumps(part.value, indent=2, ensure_ascii=False))
    if isinstance(part, ToolCall):
        arguments = part.invalid_arguments or json.dumps(part.arguments, ensure_ascii=False)
        return plain(f"calls {part.name}({arguments})  [{part.id}]")
    if isinstance(part, ProviderPart):
        return plain(f"{part.kind} from {part.provider} (sent back to {part.provider} only)")
    return plain(str(part))


def split_long(text: str, shown: int = SHOWN_LINES) -> tuple[str, str]:
    """(the first ``shown`` lines, the rest or "")."""
    parts = text.split("\n")
    if len(parts) <= shown:
        return text, ""
    return "\n".join(parts[:shown]), "\n".join(parts[shown:])


def thinking_title(part: Thinking) -> str:
    body = (part.signature or "") if part.redacted else part.text
    what = "redacted thinking" if part.redacted else "thinking"
    signed = f", signed by {plain(part.provider)}" if part.provider else ""
    return f"{what} ({len(body):,} characters{signed})"


def thinking_body(part: Thinking) -> str:
    return plain((part.signature or "") if part.redacted else part.text)[:DETAIL_CHARS]


def shown_tag(shown: Shown) -> str:
    """What a part that stands for something else is (a label, a text fallback, a pointer)."""
    if shown.role == "label":
        return "label added by toolwire"
    return plain(standing_for(shown))  # the HTML view's words


def turn_heading(target: Target, index: int, so_far: tuple[int, int]) -> str:
    """``turn 3 · messages 4–5 · ≈ 1,234 tokens · 12 KB · so far ≈ 2,345 tokens · 20 KB``."""
    turn: Turn = target.turns[index]
    span = (
        f"message {turn.first}" if turn.first == turn.last else f"messages {turn.first}–{turn.last}"
    )
    return (
        f"turn {index + 1} · {span} · ≈ {target.turn_tokens[index]:,} tokens · "
        f"{human_size(target.turn_bytes[index])} · so far ≈ {so_far[0]:,} tokens · "
        f"{human_size(so_far[1])}"
    )


def status(target: Target, position: int, count: int, following: str) -> str:
    """The status bar, three short lines (each cut with … where the terminal is narrower):
    the target; its totals against its window and what is followed; its files and the
    budgets that bound them."""
    window = f" of {target.context_window:,}" if target.context_window else ""
    modes: dict[str, int] = {}
    for turn in target.turns:
        for d in turn.decisions:
            modes[d.mode] = modes.get(d.mode, 0) + 1
    files = ", ".join(f"{n} {m}" for m, n in sorted(modes.items())) or "no files"
    where = f"target {position + 1}/{count}" if count > 1 else "target"
    limits = {
        f"{d.limit.name} = {d.limit.value:,}"
        for turn in target.turns
        for d in turn.decisions
        if d.limit is not None
    }
    bound = f" · budgets bound: {', '.join(sorted(limits))}" if limits else ""
    turns = f"{len(target.turns):,} turn{'s' if len(target.turns) != 1 else ''}"
    return (
        f"{where} {plain(target.model)} ({target.caps.wire})\n"
        f"≈ {target.total_tokens:,} tokens{window} · request {human_size(target.request_bytes)}"
        f" · {turns}{following}\n"
        f"files: {files}{bound}"
    )
