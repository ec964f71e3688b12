"""Where provider file ids are kept: in memory, in ``uploads.sqlite`` beside a SQLite
SessionStore, or in a PostgreSQL SessionStore's database (``cache_postgres``).

An id is keyed by (provider, account, sha256 of the uploaded bytes) and may carry an expiry
(Unix time). Before uploading, a worker *claims* the key; another worker that finds the claim
waits for its result instead of uploading the same content again. A claim older than
``CLAIM_TIMEOUT_S`` belongs to a worker that died, and may be taken over.
"""

from __future__ import annotations

import sqlite3
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, Protocol

from ..errors import StoreError

#: A claim this old (seconds) is abandoned: its worker died mid-upload.
CLAIM_TIMEOUT_S = 900.0
#: How long a writer waits for another process's write transaction.
BUSY_TIMEOUT_S = 60.0

Claim = Literal["mine", "wait"]


@dataclass(frozen=True)
class Key:
    """What an id is cached by: the provider, the account, the content."""

    provider: str
    account: str
    sha256: str


@dataclass(frozen=True)
class Entry:
    """A provider file id, and when the provider forgets it (None: never)."""

    file_id: str
    expires_at: float | None = None

    def is_fresh(self, until: float) -> bool:
        """Whether the id stays usable until ``until`` (Unix time)."""
        return self.expires_at is None or self.expires_at > until


class MemoryCache:
    """Ids in this process only (the default)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._entries: dict[Key, Entry] = {}
        self._claims: dict[Key, tuple[str, float]] = {}

    def get(self, key: Key, until: float) -> Entry | None:
        """The cached id if it stays fresh until ``until``."""
        entry = self._entries.get(key)
        return entry if entry is not None and entry.is_fresh(until) else None

    def claim(self, key: Key, owner: str, until: float) -> Entry | Claim:
        """A fresh entry, else "mine" (``owner`` now uploads it) or "wait" (another does)."""
        with self._lock:
            entry = self.get(key, until)
            if entry is not None:
                return entry
            held = self._claims.get(key)
            if held is not None and held[1] > time.time() - CLAIM_TIMEOUT_S:
                return "wait"
            self._claims[key] = (owner, time.time())
            return "mine"

    def record(self, key: Key, owner: str | None, entry: Entry) -> None:
        """Store ``entry`` and drop ``owner``'s claim (``owner`` None: a manual record)."""
        with self._lock:
            self._entries[key] = entry
            if owner is None or self._claims.get(key, ("",))[0] == owner:
                self._claims.pop(key, None)

    def release(self, key: Key, owner: str) -> None:
        """Drop ``owner``'s claim without recording anything (the upload failed)."""
        with self._lock:
            if self._claims.get(key, ("",))[0] == owner:
                del self._claims[key]

    def forget(self, provider: str, file_id: str, account: str | None) -> int:
        """Drop every entry of ``provider`` holding ``file_id``; how many were dropped."""
        with self._lock:
            gone = [
                k
                for k, e in self._entries.items()
                if k.provider == provider and e.file_id == file_id and account in (None, k.account)
            ]
            for key in gone:
                del self._entries[key]
            return len(gone)


_MIGRATIONS = (
    (
        1,
        """
        CREATE TABLE upload_ids (
            provider TEXT NOT NULL, account TEXT NOT NULL, sha256 TEXT NOT NULL,
            file_id TEXT NOT NULL, expires_at REAL, recorded_at REAL NOT NULL,
            PRIMARY KEY (provider, account, sha256));
        CREATE INDEX upload_ids_by_file_id ON upload_ids (provider, file_id);
        CREATE TABLE upload_claims (
            provider TEXT NOT NULL, account TEXT NOT NULL, sha256 TEXT NOT NULL,
            owner TEXT NOT NULL, claimed_at REAL NOT NULL,
            PRIMARY KEY (provider, account, sha256));
        """,
    ),
)


class SqliteCache:
    """Ids in a SQLite file (WAL) that several processes share: ``<store dir>/uploads.sqlite``."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._lock = threading.RLock()
        try:
            conn = sqlite3.connect(
                path, timeout=BUSY_TIMEOUT_S, isolation_level=None, check_same_thread=False
            )
            conn.execute("PRAGMA journal_mode = WAL")
            self._conn = conn
            with self._write() as cur:
                _migrate(cur)
        except sqlite3.Error as exc:
            raise StoreError(f"cannot open the upload cache {path}: {exc}") from exc

    def _write(self) -> _Transaction:
        return _Transaction(self)

    def get(self, key: Key, until: float) -> Entry | None:
        """The cached id if it stays fresh until ``until``."""
        with self._lock:
            row = self._conn.execute(
                "SELECT file_id, expires_at FROM upload_ids "
                "WHERE provider = ? AND account = ? AND sha256 = ?",
                (key.provider, key.account, key.sha256),
            ).fetchone()
        entry = Entry(row[0], row[1]) if row else None
        return entry if entry is not None and entry.is_fresh(until) else None

    def claim(self, key: Key, owner: str, until: float) -> Entry | Claim:
        """A fresh entry, else "mine" (``owner`` now uploads it) or "wait" (another does)."""
        where = (key.provider, key.account, key.sha256)
        with self._write() as cur:
            row = cur.execute(
                "SELECT file_id, expires_at FROM upload_ids "
                "WHERE provider = ? AND account = ? AND sha256 = ?",
                where,
            ).fetchone()
            if row and Entry(row[0], row[1]).is_fresh(until):
                return Entry(row[0], row[1])
            stale = time.time() - CLAIM_TIMEOUT_S
            held = cur.execute(
                "SELECT 1 FROM upload_claims WHERE provider = ? AND account = ? AND sha256 = ? "
                "AND claimed_at > ?",
                (*where, stale),
            ).fetchone()
            if held:
                return "wait"
            cur.execute(
                "INSERT OR REPLACE INTO upload_claims VALUES (?, ?, ?, ?, ?)",
                (*where, owner, time.time()),
            )
            return "mine"

    def record(self, key: Key, owner: str | None, entry: Entry) -> None:
        """Store ``entry`` and drop ``owner``'s claim (``owner`` None: a manual record)."""
        where = (key.provider, key.account, key.sha256)
        with self._write() as cur:
            cur.execute(
                "INSERT OR REPLACE INTO upload_ids VALUES (?, ?, ?, ?, ?, ?)",
                (*where, entry.file_id, entry.expires_at, time.time()),
            )
            self._unclaim(cur, key, owner)

    def release(self, key: Key, owner: str) -> None:
        """Drop ``owner``'s claim without recording anything (the upload failed)."""
        with self._write() as cur:
            self._unclaim(cur, key, owner)

    def forget(self, provider: str, file_id: str, account: str | None) -> int:
        """Drop every entry of ``provider`` holding ``file_id``; how many were dropped."""
        with self._write() as cur:
            sql, args = "provider = ? AND file_id = ?", [provider, file_id]
            if account is not None:
                sql, args = sql + " AND account = ?", [*args, account]
            return cur.execute(f"DELETE FROM upload_ids WHERE {sql}", args).rowcount

    @staticmethod
    def _unclaim(cur: sqlite3.Connection, key: Key, owner: str | None) -> None:
        sql = "DELETE FROM upload_claims WHERE provider = ? AND account = ? AND sha256 = ?"
        args: tuple[str, ...] = (key.provider, key.account, key.sha256)
        if owner is not None:
            sql, args = sql + " AND owner = ?", (*args, owner)
        cur.execute(sql, args)


class _Transaction:
    """``BEGIN IMMEDIATE`` … ``COMMIT`` under the cache's lock; errors become StoreError."""

    def __init__(self, cache: SqliteCache) -> None:
        self.cache = cache

    def __enter__(self) -> sqlite3.Connection:
        self.cache._lock.acquire()
        try:
            self.cache._conn.execute("BEGIN IMMEDIATE")
        except sqlite3.Error as exc:
            self.cache._lock.release()
            raise StoreError(f"the upload cache {self.cache.path} is busy: {exc}") from exc
        return self.cache._conn

    def __exit__(self, kind: object, exc: BaseException | None, tb: object) -> None:
        try:
            self.cache._conn.execute("ROLLBACK" if exc is not None else "COMMIT")
        finally:
            self.cache._lock.release()
        if isinstance(exc, sqlite3.Error):
            raise StoreError(f"the upload cache {self.cache.path} failed: {exc}") from exc


def _migrate(cur: sqlite3.Connection) -> None:
    """Numbered migrations, each recorded in ``upload_migrations`` once applied."""
    cur.execute(
        "CREATE TABLE IF NOT EXISTS upload_migrations "
        "(version INTEGER PRIMARY KEY, applied_at REAL NOT NULL)"
    )
    done = {row[0] for row in cur.execute("SELECT version FROM upload_migrations")}
    for version, script in _MIGRATIONS:
        if version in done:
            continue
        for statement in filter(str.strip, script.split(";")):
            cur.execute(statement)
        cur.execute("INSERT INTO upload_migrations VALUES (?, ?)", (version, time.time()))


class Cache(Protocol):
    """What ``Uploads`` asks of a cache (MemoryCache, SqliteCache, PostgresCache)."""

    def get(self, key: Key, until: float) -> Entry | None: ...

    def claim(self, key: Key, owner: str, until: float) -> Entry | Claim: ...

    def record(self, key: Key, owner: str | None, entry: Entry) -> None: ...

    def release(self, key: Key, owner: str) -> None: ...

    def forget(self, provider: str, file_id: str, account: str | None) -> int: ...


def open_cache(store: Any) -> Cache:
    """The cache for ``Uploads(store=...)``: memory for None, else the SessionStore's database
    (``uploads.sqlite`` beside a SQLite store's ``sessions.db``; a PostgreSQL store's tables)."""
    if store is None:
        return MemoryCache()
    database: tuple[str, Any, str] | None = getattr(store, "database", None)
    if database is not None and database[0] == "sqlite":
        return SqliteCache(Path(database[1]).with_name("uploads.sqlite"))
    if database is not None and database[0] == "postgresql":
        from .cache_postgres import PostgresCache

        return PostgresCache(database[1], database[2])
    raise StoreError(
        f"Uploads(store=...) keeps ids in a SessionStore's database (SQLite or PostgreSQL); "
        f"a {type(store).__name__} is not a SessionStore. Use Uploads() to keep "
        "ids in memory, or a SessionStore every worker shares."
    )
