"""Base64 of file bytes, computed once per file per process and reused across re-encodes.

Agents re-encode a growing history after every turn; without this cache every image would be
base64-encoded again on every turn. Entries are keyed by the content hash (and the prefix, so
a data URL is built once too) and evicted least-recently-used beyond a memory bound.
"""

from __future__ import annotations

import base64
import threading
from collections import OrderedDict

from .content import File

#: Upper bound on the characters kept in the cache (≈ bytes, base64 is ASCII).
CACHE_LIMIT = 256 * 1024 * 1024

_cache: OrderedDict[tuple[str, str], str] = OrderedDict()
_size = 0
_lock = threading.Lock()


def b64(file: File) -> str:
    """The file's bytes as standard base64 text."""
    return _encoded(file, "")


def data_url(file: File) -> str:
    """``data:<media type>;base64,<bytes>`` for wires that take data URLs."""
    return _encoded(file, f"data:{file.media_type};base64,")


def _encoded(file: File, prefix: str) -> str:
    global _size
    key = (file.source.sha256(), prefix)
    with _lock:
        hit = _cache.get(key)
        if hit is not None:
            _cache.move_to_end(key)
            return hit
    value = prefix + base64.b64encode(file.read()).decode("ascii")
    if len(value) > CACHE_LIMIT // 4:
        return value  # too large to be worth keeping
    with _lock:
        if key not in _cache:
            _cache[key] = value
            _size += len(value)
        while _size > CACHE_LIMIT and _cache:
            _, old = _cache.popitem(last=False)
            _size -= len(old)
    return value


def clear() -> None:
    """Empty the cache (benchmarks use it to measure cold encodes)."""
    global _size
    with _lock:
        _cache.clear()
        _size = 0
