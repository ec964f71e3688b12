"""Upload once: provider file ids instead of re-sending the bytes every turn (DESIGN.md §5.4).

``Uploads`` (library.py) caches ids by (provider, account, sha256), in memory or beside a
SQLite SessionStore (cache.py); ``sync``/``async_sync`` upload through the caller's official
SDK client (one module per Files API: anthropic, openai, google, mistral, xai; drivers in
sync.py); ``resolve`` swaps files for their ids before ``encode``.
"""

from __future__ import annotations

from .library import DEFAULT_MIN_BYTES, Uploads
from .sync import Outcome
from .transfer import Progress

__all__ = ["DEFAULT_MIN_BYTES", "Outcome", "Progress", "Uploads"]
