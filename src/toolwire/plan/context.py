"""The context window as a request budget (issue 37): files by id still cost their tokens.

Where files go by provider file id (``encode(..., uploads=)``), a request of many
screenshots is a few kilobytes, so no byte budget binds, while the model reads every image:
a long session overflows its context window. This pass measures the planned request in
tokens (``estimate_tokens``, each file priced as the plan sends it, a file by id at its own
content's cost) and, where the total breaks the window, scans the history as plan.budgets
does (the same ``Scan``: oldest first, in steps down to ``evict_to`` of the window, the
newest kept), naming the files to leave out; the planner then lays them out as their
descriptions.

The window is ``Budgets.max_context_tokens`` where set (a TOML row or the caller's
``capabilities=``), else models.dev's context window less the model's output limit (which a
reply may need), at most a quarter of the window.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..capability import Capabilities
from ..content import File
from ..errors import ToolwireError
from .budgets import Scan
from .measure import Measured, Medium
from .values import Limit, Plan


class ContextWindowError(ToolwireError):
    """The conversation's text alone is beyond the model's context window (files by id being
    left out cannot help): shorten it with ``tw.fit``."""


def window_of(caps: Capabilities, model: str) -> tuple[int, str] | None:
    """The input tokens one request may hold, and where the figure comes from; None when
    neither the table nor models.dev knows the model's context window."""
    if caps.budgets.max_context_tokens:
        source = caps.budgets.budget_evidence or "the caller's max_context_tokens"
        return caps.budgets.max_context_tokens, source
    from ..model_facts import dataset_version, facts

    found = facts(model)
    if found is None or not found.context_window:
        return None
    window = found.context_window
    kept = min(found.max_output or 0, window // 4)
    source = (
        f"models.dev {dataset_version()}: context window {window:,} tokens, less "
        f"{kept:,} kept for the reply (the output limit, at most a quarter)"
    )
    return window - kept, source


def left_for_context(
    sent: Sequence[Any],
    originals: Sequence[Any],
    laid_out: Plan,
    model: str,
    evict_to: float,
) -> dict[tuple[int, int], Limit]:
    """The files of ``sent`` (the messages as planned: files by id) to leave out so that the
    request's tokens keep within the context window: (message index, id(File)) -> the limit.
    ``originals``: the same messages with each file's own content, which its tokens are read
    from. A ContextWindowError where the text alone is beyond the window."""
    from ..tokens import estimate_tokens, sent_parts

    caps = laid_out.caps
    found = window_of(caps, model)
    if found is None:
        return {}
    window, source = found
    estimate = estimate_tokens(originals, model, capabilities=caps, plan=laid_out)
    if estimate.total <= window:
        return {}
    priced: dict[int, list[Any]] = {}
    for file in estimate.files:
        priced.setdefault(file.message_index, []).append(file)
    scan = Scan(caps, None, evict_to, 0, False, [("max_context_tokens", "tokens", window)])
    for index, message in enumerate(sent):
        files = [part for part, _ in sent_parts(index, message) if isinstance(part, File)]
        media = tuple(
            Medium(file, 0, 0, 0, 0, 0, 0, tokens=price.tokens)
            for file, price in zip(files, priced.get(index, ()), strict=False)
            if price.mode not in ("text", "none")  # a description already: not a medium
        )
        text = estimate.per_message[index] - sum(m.tokens for m in media)
        scan.add(Measured(media, text))
    if scan.text > window:
        raise ContextWindowError(
            f"{caps.provider}:{caps.model}: the conversation's text alone is about "
            f"{scan.text:,} tokens, beyond the context window of {window:,} ({source}). "
            "Shorten it with tw.fit(messages, model) first."
        )
    among = sum(1 for f in estimate.files if f.mode not in ("text", "none"))
    count = len(scan.out)
    return {
        key: Limit("max_context_tokens", window, source, count, among, "files' tokens")
        for key in scan.out
    }
