"""Base64 of file bytes, computed once per file per process and reused across re-encodes.

Agents re-encode a growing history after every turn; without this cache every image would be
base64-encoded again on every turn. Entries are keyed by the content hash (and the prefix, so
a data URL is built once too) and evicted least-recently-used beyond a memory bound.

The hash itself costs about half as much as the base64, so it is not taken just to look up a
file that cannot be cached yet: in-memory bytes nobody has hashed are keyed by their bytes
object until a cached file of exactly the same length turns up — the only case in which the
two could be the same content. Then both are hashed and keyed by content, so equal bytes from
another File (a reloaded conversation, a path, a blob) still share one entry.
"""

from __future__ import annotations

import base64
import hashlib
import threading
from collections import Counter, OrderedDict

from .content import File
from .sources import BytesSource, Source

#: Upper bound on the characters kept in the cache (≈ bytes, base64 is ASCII), counting the
#: raw bytes kept for entries that are not hashed yet.
CACHE_LIMIT = 256 * 1024 * 1024

_Key = tuple[str, str]  # (sha256, or "id:" + id of the bytes object; prefix)

_cache: OrderedDict[_Key, tuple[str, int]] = OrderedDict()  # key -> (text, raw length)
_unhashed: dict[_Key, bytes] = {}  # entries keyed by identity: their bytes (which pins the id)
_lengths: Counter[int] = Counter()  # raw length -> entries of that length
_size = 0
_lock = threading.Lock()


def b64(file: File) -> str:
    """The file's bytes as standard base64 text."""
    return _encoded(file, "")


def data_url(file: File) -> str:
    """``data:<media type>;base64,<bytes>`` for wires that take data URLs."""
    return _encoded(file, f"data:{file.media_type};base64,")


def _encoded(file: File, prefix: str) -> str:
    data = file.read()
    digest = _known_digest(file.source)
    if digest is None:
        by_identity = (f"id:{id(data)}", prefix)
        hit = _get(by_identity)
        if hit is not None:
            return hit
        if not _lengths[len(data)]:  # no cached file is this long: these bytes are not cached
            return _put(by_identity, prefix, data, keep_raw=True)
        digest = file.source.sha256()
    key = (digest, prefix)
    hit = _get(key)
    if hit is None and _hash_unhashed(len(data)):
        hit = _get(key)
    return hit if hit is not None else _put(key, prefix, data, keep_raw=False)


def _known_digest(source: Source) -> str | None:
    """The content hash when it costs nothing: a path pins it at the read just done, a blob
    stores it, in-memory bytes keep it once something (their identifier) hashed them."""
    if isinstance(source, BytesSource):
        return source._digest
    return source.sha256()


def _get(key: _Key) -> str | None:
    with _lock:
        hit = _cache.get(key)
        if hit is None:
            return None
        _cache.move_to_end(key)
        return hit[0]


def _put(key: _Key, prefix: str, data: bytes, keep_raw: bool) -> str:
    global _size
    value = prefix + base64.b64encode(data).decode("ascii")
    if len(value) > CACHE_LIMIT // 4:
        return value  # too large to be worth keeping
    cost = len(value) + (len(data) if keep_raw else 0)
    with _lock:
        if key in _cache:
            return value
        _cache[key] = (value, len(data))
        _lengths[len(data)] += 1
        _size += cost
        if keep_raw:
            _unhashed[key] = data
        while _size > CACHE_LIMIT and _cache:
            _drop(next(iter(_cache)))
    return value


def _hash_unhashed(length: int) -> bool:
    """Key the identity entries of ``length`` bytes by content; True if there were any."""
    global _size
    with _lock:
        pending = [(k, raw) for k, raw in _unhashed.items() if len(raw) == length]
    for old, raw in pending:
        new = (hashlib.sha256(raw).hexdigest(), old[1])
        with _lock:
            if _unhashed.get(old) is not raw:
                continue  # evicted, or re-keyed by another thread meanwhile
            if new in _cache:
                _drop(old)
                continue
            del _unhashed[old]
            _size -= len(raw)
            _cache[new] = _cache.pop(old)
    return bool(pending)


def _drop(key: _Key) -> None:
    """Remove one entry (the lock is held)."""
    global _size
    value, length = _cache.pop(key)
    raw = _unhashed.pop(key, None)
    _size -= len(value) + (len(raw) if raw is not None else 0)
    _lengths[length] -= 1
    if not _lengths[length]:
        del _lengths[length]


def clear() -> None:
    """Empty the cache (benchmarks use it to measure cold encodes)."""
    global _size
    with _lock:
        _cache.clear()
        _unhashed.clear()
        _lengths.clear()
        _size = 0
