"""The page: each target's turns side by side, as escaped HTML.

Every string that comes from the conversation (text, JSON, names, ids, reasons, URLs) goes
through ``esc`` (``html.escape`` with ``quote=True``) before it reaches the page, in text
and in attributes alike. No URL is ever built from conversation text: ``src`` attributes are
``data:`` URLs made here from bytes (media.py), and there are no links at all.
"""

from __future__ import annotations

import html
import json
from collections.abc import Sequence
from typing import Any

from .. import __version__, headers
from ..content import File, Json, ProviderPart, Text, Thinking, ToolCall
from ..headers import human_size
from ..plan import Decision
from . import media
from .assets import policy, style_sheet
from .layout import Block, Shown, Step, Turn
from .targets import Target

#: Text fallbacks and text documents show at most this many characters.
PREVIEW_CHARS = 4000


def esc(value: object) -> str:
    """``value`` as text safe in HTML content and in quoted attributes."""
    return html.escape(str(value), quote=True)


def page(targets: Sequence[Target], messages: int) -> str:
    """The whole self-contained page for ``targets`` (same conversation, one per model)."""
    style = style_sheet(len(targets))
    names = ", ".join(t.model for t in targets)
    head = (
        '<!doctype html>\n<html lang="en"><head><meta charset="utf-8">\n'
        f'<meta http-equiv="Content-Security-Policy" content="{esc(policy(style))}">\n'
        '<meta name="referrer" content="no-referrer">\n'
        '<meta name="viewport" content="width=device-width,initial-scale=1">\n'
        f"<title>toolwire view: {esc(names)}</title>\n<style>{style}</style></head>\n"
    )
    intro = (
        '<body><header class="page"><h1>What the model sees</h1>'
        f"<p>{messages} message{'s' if messages != 1 else ''} as {esc(names)} "
        f"receive{'s' if len(targets) == 1 else ''} them · tokens are estimates · "
        "images are shown from the bytes sent</p></header>\n"
    )
    body = [_summary(targets)]
    running = [0] * len(targets), [0] * len(targets)
    for index in range(len(targets[0].turns) if targets else 0):
        body.append(_turn_row(targets, index, running))
    footer = (
        f'<footer class="page">toolwire {esc(__version__)} · this page loads nothing from '
        "elsewhere and runs no script</footer></body></html>\n"
    )
    main = "<main>\n" + "\n".join(body) + "</main>\n"
    return head + intro + _switcher(targets) + main + footer


def _switcher(targets: Sequence[Target]) -> str:
    """One radio button per model and their labels: on a screen too narrow for the columns
    side by side, the style sheet shows only the checked model's column (assets.py)."""
    if len(targets) < 2:
        return ""
    radios = "".join(
        f'<input type="radio" class="pick" name="model" id="m{i}"{" checked" if i == 0 else ""}>'
        for i in range(len(targets))
    )
    labels = "".join(f'<label for="m{i}">{esc(t.model)}</label>' for i, t in enumerate(targets))
    return f'{radios}\n<nav class="switch" aria-label="model">{labels}</nav>\n'


def _summary(targets: Sequence[Target]) -> str:
    cards = []
    for column, t in enumerate(targets):
        window = (
            f"{t.context_window:,} tokens"
            if t.context_window
            else "not in models.dev: totals below have no limit"
        )
        cards.append(
            f'<div class="model c{column}"><h2>{esc(t.model)}</h2><dl>'
            f"<dt>wire</dt><dd>{esc(t.caps.wire)}</dd>"
            f"<dt>input</dt><dd><b>≈ {t.total_tokens:,} tokens</b> (estimated)</dd>"
            f"<dt>request</dt><dd>{human_size(t.request_bytes)} of JSON as encoded</dd>"
            f"<dt>files</dt><dd>{_modes(t)}</dd>"
            f"<dt>context window</dt><dd>{window}</dd></dl></div>"
        )
    return (
        '<section class="grid summary"><div class="gutter"></div>' + "".join(cards) + "</section>"
    )


def _modes(target: Target) -> str:
    counts: dict[str, int] = {}
    for turn in target.turns:
        for d in turn.decisions:
            counts[d.mode] = counts.get(d.mode, 0) + 1
    if not counts:
        return "none"
    return " ".join(f'<span class="mode {m}">{m} {n}</span>' for m, n in sorted(counts.items()))


def _turn_row(targets: Sequence[Target], index: int, running: tuple[list[int], list[int]]) -> str:
    first = targets[0].turns[index]
    span = f"{first.first}" if first.first == first.last else f"{first.first}–{first.last}"
    gutter = f'<div class="gutter"><b>#{span}</b>turn {index + 1}</div>'
    cells = []
    for column, t in enumerate(targets):
        running[0][column] += t.turn_tokens[index]
        running[1][column] += t.turn_bytes[index]
        figures = (
            f'<div class="figures"><span><b>≈ {t.turn_tokens[index]:,}</b> tokens</span>'
            f"<span><b>{human_size(t.turn_bytes[index])}</b></span>"
            f"<span>so far ≈ {running[0][column]:,} tokens · {human_size(running[1][column])}"
            "</span></div>"
        )
        turn = t.turns[index]
        steps = "".join(_step(s, t) for s in turn.steps)
        cells.append(f'<div class="cell c{column}">{steps}{figures}{_decisions(turn, t)}</div>')
    return f'<section class="grid turn">{gutter}{"".join(cells)}</section>'


def _step(step: Step, target: Target) -> str:
    added = f' <span class="why">{esc(step.added)}</span>' if step.added else ""
    classes = f"msg {step.role}" + (" added" if step.added.startswith("added") else "")
    blocks = "".join(_block(b, target) for b in step.blocks)
    return f'<article class="{classes}"><div class="who">{step.role}{added}</div>{blocks}</article>'


def _block(block: Block, target: Target) -> str:
    flag = f'<span class="flag">{esc(block.flag)}</span>' if block.flag else ""
    heading = f'<div class="bh">{esc(block.heading)}{flag}</div>' if block.heading else ""
    parts = "".join(_shown(s, target) for s in block.parts)
    return f'<div class="block">{heading}{parts}</div>'


def _shown(shown: Shown, target: Target) -> str:
    part = shown.part
    if shown.role == "label":
        return f'<div class="text"><span class="tag added">label</span>{esc(_text(part))}</div>'
    tag = standing_for(shown)
    if tag:
        text = _text(part)[:PREVIEW_CHARS]
        return f'<div class="text"><span class="tag added">{esc(tag)}</span>{esc(text)}</div>'
    if isinstance(part, File):
        return _file(part, shown.decision, target, made_from(shown))
    return _part(part)


def standing_for(shown: Shown) -> str:
    """What a text that stands for a file says of it, from the file's Decision (the HTML
    view's tag and the terminal view's line): where it travels, what it was converted to,
    whose text fallback it is; "" for any other part."""
    if shown.original is None or shown.role not in _TAGS:
        return ""
    decision = shown.decision
    where = _TRAVELS.get(decision.position, "") if decision is not None else ""
    converted_to = (decision.converted_to if decision is not None else None) or "text"
    return _TAGS[shown.role].format(
        name=shown.original.identifier,
        media_type=shown.original.media_type,
        where=where or "elsewhere in the request",
        to=converted_to,
    )


def made_from(shown: Shown) -> str:
    """What an image a conversion made is, from the converted file's Decision (the HTML
    view's note and the terminal view's line): ``page 2 of 3 rendered from report.pdf``, and
    the pages it did not render (a conversion renders the first ones); "" for any other part."""
    if shown.made is None or shown.original is None or shown.decision is None:
        return ""
    (k, n), original = shown.made, shown.original
    word, verb = _MADE.get(shown.decision.converted_to or "", ("image", "converted"))
    if n == 1:
        return f"{verb} from {original.identifier}"
    local = word == "page" and original.source.is_local
    total = headers.pdf_page_count(original.read()) if local else None
    if total and total > n:
        return (
            f"{word} {k} of the {n} {verb} from {original.identifier} "
            f"(pages {n + 1}–{total} of {total} not rendered)"
        )
    return f"{word} {k} of {n} {verb} from {original.identifier}"


#: An image a conversion made, by the Decision's ``converted_to``: what it is, how it came.
_MADE = {"pages": ("page", "rendered"), "frames": ("frame", "taken")}

#: The tag on a text that stands for a file, by its role (layout.Shown).
_TAGS = {
    "pointer": "{name} travels {where}",
    "text-fallback": "text fallback of {name} ({media_type})",
    "converted": "{name} converted to {to} ({media_type})",
}

#: Where a file that left its tool result travels, by its Decision's position.
_TRAVELS = {
    "after_results": "after the results, in the same message",
    "user_message": "in a user message after the results",
    "user_message_after_bridge": "in a user message after the results and a bridging reply",
}


def _text(part: Any) -> str:
    return part.text if isinstance(part, Text) else str(part)


def _part(part: Any) -> str:
    if isinstance(part, Text):
        return f'<div class="text">{esc(part.text)}</div>'
    if isinstance(part, Json):
        return f"<pre>{esc(json.dumps(part.value, indent=2, ensure_ascii=False))}</pre>"
    if isinstance(part, Thinking):
        body = (part.signature or "") if part.redacted else part.text
        what = "redacted thinking" if part.redacted else "thinking"
        signed = f" · signed by {part.provider}" if part.provider else ""
        summary = f"{what} ({len(body):,} characters{signed})"
        return f'<details class="thinking"><summary>{esc(summary)}</summary><pre>{esc(body)}</pre></details>'
    if isinstance(part, ProviderPart):
        summary = f"{part.kind} from {part.provider} (sent back to {part.provider} only)"
        body = json.dumps(part.data, indent=2, ensure_ascii=False)
        return f'<details class="thinking"><summary>{esc(summary)}</summary><pre>{esc(body)}</pre></details>'
    if isinstance(part, ToolCall):
        arguments = part.invalid_arguments or json.dumps(part.arguments, indent=2)
        call = f'<span class="tag">calls</span><code>{esc(part.name)}</code> <span class="tag">{esc(part.id)}</span>'
        return f'<div class="call">{call}<pre>{esc(arguments)}</pre></div>'
    return f"<pre>{esc(part)}</pre>"


def _file(file: File, decision: Decision | None, target: Target, made: str = "") -> str:
    facts = [f"<b>{esc(file.identifier)}</b>", esc(file.media_type)]
    if made:  # the tokens and reason are the converted file's, told in its turn's list
        facts.append(f'<span class="note">{esc(made)}</span>')
        decision = None
    elif decision is not None and decision.media_type != file.media_type:
        facts.append(f'<span class="note">converted from {esc(decision.media_type)}</span>')
    if not file.source.is_local:
        facts.append(f"sent by reference: {esc(file.source.describe())}")
        return _figure("", facts, decision, target)
    facts.append(human_size(len(file.read())))
    if file.kind == "image":
        shown = media.picture(file)
        inner = _picture(shown, file, facts)
    elif file.media_type == "application/pdf":
        pages, first = media.pdf_first_page(file)
        facts.append(f"{pages} page{'s' if pages != 1 else ''}" if pages else "pages unknown")
        inner = _picture(first, file, [], "page")
    elif file.kind in ("audio", "video"):
        inner = _player(file)
    else:
        inner = f"<pre>{esc(file.text_fallback()[:PREVIEW_CHARS])}</pre>"
    return _figure(inner, facts, decision, target)


def _picture(shown: media.Picture | str, file: File, facts: list[str], kind: str = "image") -> str:
    if isinstance(shown, str):
        return f'<div class="note">{esc(shown)}</div>'
    if facts:
        facts.append(f"{shown.width}x{shown.height} px sent")
        if shown.note:
            facts.append(esc(shown.note))
    return (
        f'<img class="{kind}" src="{esc(shown.url)}" alt="{esc(file.identifier)}" loading="lazy" '
        f'decoding="async" width="{shown.shown_width}" height="{shown.shown_height}">'
    )


def _player(file: File) -> str:
    source = media.player_source(file)
    if not source.startswith("data:"):
        return f'<div class="note">{esc(source)}</div>'
    tag = "audio" if file.kind == "audio" else "video"
    return f'<{tag} controls preload="metadata" src="{esc(source)}"></{tag}>'


def _figure(inner: str, facts: list[str], decision: Decision | None, target: Target) -> str:
    if decision is not None:
        tokens = target.decision_tokens.get(id(decision))
        if tokens is not None:
            facts.append(f"≈ {tokens:,} tokens")
        facts.append(f'<span class="mode {esc(decision.mode)}">{esc(decision.mode)}</span>')
        facts.extend(f'<span class="note">{esc(n)}</span>' for n in decision.notes)
    return f'<figure class="file">{inner}<figcaption>{" · ".join(facts)}</figcaption></figure>'


def _decisions(turn: Turn, target: Target) -> str:
    if not turn.decisions:
        return ""
    items = []
    for d in turn.decisions:
        tokens = target.decision_tokens.get(id(d))
        cost = f" · ≈ {tokens:,} tokens" if tokens is not None else ""
        notes = "".join(f"; {esc(n)}" for n in d.notes)
        items.append(
            f'<li><span class="mode {esc(d.mode)}">{esc(d.mode)}</span><b>{esc(d.identifier)}</b> '
            f"{esc(d.media_type)} (message {d.message_index}){cost} — {esc(d.reason)}{notes}</li>"
        )
    return f'<ul class="decisions">{"".join(items)}</ul>'
