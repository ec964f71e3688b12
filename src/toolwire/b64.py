"""Base64 of file bytes, computed once per content (``Base64Cache``, owned by ``memo.Memo``).

``b64(file)`` and ``data_url(file)`` are what encoders call; they use the process memo's
cache (toolwire.memo, which documents its bound and lifetime).

The hash costs about half as much as the base64, so it is not taken just to look up a file
that cannot be cached yet: in-memory bytes nobody has hashed are keyed by their bytes object
until a cached file of exactly the same length turns up — the only case in which the two
could be the same content. Then both are hashed and keyed by content, so equal bytes from
another File (a reloaded conversation, a path, a blob) still share one entry.
"""

from __future__ import annotations

import base64
import hashlib
import threading
from collections import Counter, OrderedDict

from .content import File

#: Default bound on the characters kept (≈ bytes, base64 is ASCII), counting the raw bytes
#: kept for entries that are not hashed yet.
CACHE_LIMIT = 256 * 1024 * 1024

_Key = tuple[str, str]  # (sha256, or "id:" + id of the bytes object; prefix)


def b64(file: File) -> str:
    """The file's bytes as standard base64 text."""
    return memo.MEMO.base64.encoded(file, "")


def data_url(file: File) -> str:
    """``data:<media type>;base64,<bytes>`` for wires that take data URLs."""
    return memo.MEMO.base64.encoded(file, f"data:{file.media_type};base64,")


class Base64Cache:
    """Base64 text per content and prefix, least recently used out beyond ``limit``."""

    def __init__(self, limit: int = CACHE_LIMIT) -> None:
        self.limit = limit
        self.entries: OrderedDict[_Key, tuple[str, int]] = OrderedDict()  # -> (text, raw length)
        self.size = 0
        self._unhashed: dict[_Key, bytes] = {}  # identity-keyed entries: their bytes (pins id)
        self._lengths: Counter[int] = Counter()  # raw length -> entries of that length
        self._lock = threading.Lock()

    def encoded(self, file: File, prefix: str) -> str:
        """``prefix`` + the base64 of the file's bytes."""
        data = file.read()
        digest = file.source.known_sha256()
        if digest is None:
            by_identity = (f"id:{id(data)}", prefix)
            hit = self._get(by_identity)
            if hit is not None:
                return hit
            if not self._lengths[len(data)]:  # no cached file is this long: not cached
                return self._put(by_identity, prefix, data, keep_raw=True)
            digest = file.source.sha256()
        key = (digest, prefix)
        hit = self._get(key)
        if hit is None and self._hash_unhashed(len(data)):
            hit = self._get(key)
        return hit if hit is not None else self._put(key, prefix, data, keep_raw=False)

    def clear(self) -> None:
        """Forget every entry."""
        with self._lock:
            self.entries.clear()
            self._unhashed.clear()
            self._lengths.clear()
            self.size = 0

    def _get(self, key: _Key) -> str | None:
        with self._lock:
            hit = self.entries.get(key)
            if hit is None:
                return None
            self.entries.move_to_end(key)
            return hit[0]

    def _put(self, key: _Key, prefix: str, data: bytes, keep_raw: bool) -> str:
        value = prefix + base64.b64encode(data).decode("ascii")
        if len(value) > self.limit // 4:
            return value  # too large to be worth keeping
        cost = len(value) + (len(data) if keep_raw else 0)
        with self._lock:
            if key in self.entries:
                return value
            self.entries[key] = (value, len(data))
            self._lengths[len(data)] += 1
            self.size += cost
            if keep_raw:
                self._unhashed[key] = data
            while self.size > self.limit and self.entries:
                self._drop(next(iter(self.entries)))
        return value

    def _hash_unhashed(self, length: int) -> bool:
        """Key the identity entries of ``length`` bytes by content; True if there were any."""
        with self._lock:
            pending = [(k, raw) for k, raw in self._unhashed.items() if len(raw) == length]
        for old, raw in pending:
            new = (hashlib.sha256(raw).hexdigest(), old[1])
            with self._lock:
                if self._unhashed.get(old) is not raw:
                    continue  # evicted, or re-keyed by another thread meanwhile
                if new in self.entries:
                    self._drop(old)
                    continue
                del self._unhashed[old]
                self.size -= len(raw)
                self.entries[new] = self.entries.pop(old)
        return bool(pending)

    def _drop(self, key: _Key) -> None:
        """Remove one entry (the lock is held)."""
        value, length = self.entries.pop(key)
        raw = self._unhashed.pop(key, None)
        self.size -= len(value) + (len(raw) if raw is not None else 0)
        self._lengths[length] -= 1
        if not self._lengths[length]:
            del self._lengths[length]


from . import memo  # noqa: E402  (after Base64Cache, which memo imports)
