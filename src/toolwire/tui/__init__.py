"""``toolwire show``: the terminal view of what each target model receives (issue 36).

A Textual application over the same plan ``encode`` and the HTML view read
(``viewer.targets``, ``viewer.layout``): messages in the target's order and roles, each file's
one-line preview and Decision, detail that expands, thinking folded and dim, a key to switch
targets, tokens and bytes per turn, and a session store followed as an agent writes to it.
Importing this package imports Textual (the ``tui`` extra); ``import toolwire`` does not.

>>> app = SessionApp.for_messages(messages, ["anthropic:claude-sonnet-4-5", "groq:llama-4"])  # doctest: +SKIP
>>> app.run()                                                                                  # doctest: +SKIP
"""

from __future__ import annotations

from .app import SessionApp
from .feed import Conversation, Feed, StoredSession

__all__ = ["Conversation", "Feed", "SessionApp", "StoredSession"]
