"""``view``: one self-contained HTML page showing what each target model receives.

DESIGN.md §5.7. The page shows each message as the target receives it, in its order and
roles (the bridging assistant turn and labelled fallback messages toolwire adds, marked as
such), images from the bytes actually sent, PDFs with their page count and first page,
players for audio and video, every Decision with its reason and estimated tokens, thinking
folded, and tokens and bytes per turn with running totals; several models side by side.

Everything from the conversation is escaped, the page loads nothing from anywhere else and
runs no script (a Content-Security-Policy forbids it).
"""

from __future__ import annotations

from collections.abc import Sequence

from ..errors import ToolwireError
from ..messages import Message
from ..plan import OnUnsupported


def view(
    messages: Sequence[Message],
    model: str | Sequence[str],
    *,
    on_unsupported: OnUnsupported = "text",
) -> str:
    """The HTML page showing ``messages`` as ``model`` (or each of several models) receives them.

    Files no route can carry are shown as their text fallback, with a Decision saying so
    (``on_unsupported="error"`` raises instead, as ``encode`` does by default).

    >>> html = tw.view(messages, ["anthropic:claude-sonnet-4-6", "groq:llama-4"])  # doctest: +SKIP
    >>> Path("view.html").write_text(html)                                          # doctest: +SKIP
    """
    from .html import page
    from .targets import target

    models = [model] if isinstance(model, str) else list(model)
    if not models:
        raise ToolwireError("view needs at least one model, e.g. 'anthropic:claude-sonnet-4-5'")
    messages = list(messages)
    return page([target(messages, m, on_unsupported) for m in models], len(messages))
