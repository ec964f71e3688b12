"""Provider file ids in a PostgreSQL SessionStore's database, shared by workers on any host.

The same contract as ``cache.SqliteCache``: ids unique by (provider, account, sha256), a
claim row per key being uploaded (another worker waits for its id), a claim older than
``CLAIM_TIMEOUT_S`` taken over. Each operation is one transaction on a connection of the
store's own pool that first takes a transaction-level advisory lock on the key, so reading
the id, checking the claim and writing it happen as one step for that key across every
process. Claim ages use the database's clock, not the hosts'.

The schema changes only through numbered migrations recorded in
``toolwire_upload_schema_version`` (forward-only, refused when newer than this code), run by
the same runner as the store's own (``store.schema``). psycopg is never imported here: the
pool comes from the store, and errors are recognised by the psycopg module the store already
loaded.
"""

from __future__ import annotations

import contextlib
import hashlib
import sys
from collections.abc import Iterator
from typing import Any

from ..errors import StoreError
from ..store.schema import Migration, PostgresDialect, Schema, migrate
from .cache import CLAIM_TIMEOUT_S, Claim, Entry, Key

#: (version, description, statements) in order; append new ones, never edit applied ones.
MIGRATIONS: list[Migration] = [
    (
        1,
        "upload_ids and upload_claims, keyed by (provider, account, sha256)",
        (
            """CREATE TABLE upload_ids (
                provider TEXT NOT NULL, account TEXT NOT NULL, sha256 TEXT NOT NULL,
                file_id TEXT NOT NULL, expires_at DOUBLE PRECISION,
                recorded_at DOUBLE PRECISION NOT NULL,
                PRIMARY KEY (provider, account, sha256))""",
            "CREATE INDEX upload_ids_by_file_id ON upload_ids (provider, file_id)",
            """CREATE TABLE upload_claims (
                provider TEXT NOT NULL, account TEXT NOT NULL, sha256 TEXT NOT NULL,
                owner TEXT NOT NULL, claimed_at DOUBLE PRECISION NOT NULL,
                PRIMARY KEY (provider, account, sha256))""",
        ),
    ),
]
LATEST = MIGRATIONS[-1][0]
#: Held by whoever migrates (a different key from the store's own migration lock).
MIGRATION_LOCK = 0x746F6F6C_75706C64
_REFUSAL = (
    "the upload cache in {where} has schema version {version}, but this toolwire knows "
    "versions up to {latest}; upgrade toolwire to use it"
)
#: Brought up to date when a cache opens; concurrent openers wait, then find the work done.
SCHEMA = Schema(
    MIGRATIONS, "toolwire_upload_schema_version", _REFUSAL, PostgresDialect(MIGRATION_LOCK)
)
_NOW = "extract(epoch from clock_timestamp())::double precision"
_KEY = "provider = %s AND account = %s AND sha256 = %s"


class PostgresCache:
    """Ids in the tables ``upload_ids``/``upload_claims`` of a PostgreSQL SessionStore."""

    def __init__(self, pool: Any, where: str) -> None:
        self.where = where
        self._pool = pool
        self._error: type[Exception] = sys.modules["psycopg"].Error
        with self._connection() as conn:
            migrate(conn, where, SCHEMA)

    def get(self, key: Key, until: float) -> Entry | None:
        """The cached id if it stays fresh until ``until``."""
        with self._connection() as conn:
            entry = _entry(conn, key)
        return entry if entry is not None and entry.is_fresh(until) else None

    def claim(self, key: Key, owner: str, until: float) -> Entry | Claim:
        """A fresh entry, else "mine" (``owner`` now uploads it) or "wait" (another does)."""
        with self._locked(key) as conn:
            entry = _entry(conn, key)
            if entry is not None and entry.is_fresh(until):
                return entry
            held = conn.execute(
                f"SELECT 1 FROM upload_claims WHERE {_KEY} AND claimed_at > {_NOW} - %s",
                (*_where(key), CLAIM_TIMEOUT_S),
            ).fetchone()
            if held:
                return "wait"
            conn.execute(
                "INSERT INTO upload_claims (provider, account, sha256, owner, claimed_at) "
                f"VALUES (%s, %s, %s, %s, {_NOW}) ON CONFLICT (provider, account, sha256) "
                "DO UPDATE SET owner = excluded.owner, claimed_at = excluded.claimed_at",
                (*_where(key), owner),
            )
            return "mine"

    def record(self, key: Key, owner: str | None, entry: Entry) -> None:
        """Store ``entry`` and drop ``owner``'s claim (``owner`` None: a manual record)."""
        with self._locked(key) as conn:
            conn.execute(
                "INSERT INTO upload_ids (provider, account, sha256, file_id, expires_at, "
                f"recorded_at) VALUES (%s, %s, %s, %s, %s, {_NOW}) "
                "ON CONFLICT (provider, account, sha256) DO UPDATE SET file_id = "
                "excluded.file_id, expires_at = excluded.expires_at, "
                "recorded_at = excluded.recorded_at",
                (*_where(key), entry.file_id, entry.expires_at),
            )
            _unclaim(conn, key, owner)

    def release(self, key: Key, owner: str) -> None:
        """Drop ``owner``'s claim without recording anything (the upload failed)."""
        with self._locked(key) as conn:
            _unclaim(conn, key, owner)

    def forget(self, provider: str, file_id: str, account: str | None) -> int:
        """Drop every entry of ``provider`` holding ``file_id``; how many were dropped."""
        sql, args = "provider = %s AND file_id = %s", [provider, file_id]
        if account is not None:
            sql, args = sql + " AND account = %s", [*args, account]
        with self._connection() as conn:
            return int(conn.execute(f"DELETE FROM upload_ids WHERE {sql}", args).rowcount)

    @contextlib.contextmanager
    def _connection(self) -> Iterator[Any]:
        try:
            with self._pool.connection() as conn:
                yield conn
        except self._error as exc:
            raise StoreError(f"the upload cache in {self.where} failed: {exc}") from exc

    @contextlib.contextmanager
    def _locked(self, key: Key) -> Iterator[Any]:
        """One transaction holding the key's advisory lock until it ends."""
        with self._connection() as conn, conn.transaction():
            conn.execute("SELECT pg_advisory_xact_lock(%s)", (_lock_id(key),))
            yield conn


def _where(key: Key) -> tuple[str, str, str]:
    return key.provider, key.account, key.sha256


def _entry(conn: Any, key: Key) -> Entry | None:
    row = conn.execute(
        f"SELECT file_id, expires_at FROM upload_ids WHERE {_KEY}", _where(key)
    ).fetchone()
    return Entry(row[0], row[1]) if row else None


def _unclaim(conn: Any, key: Key, owner: str | None) -> None:
    sql, args = f"DELETE FROM upload_claims WHERE {_KEY}", list(_where(key))
    if owner is not None:
        sql, args = sql + " AND owner = %s", [*args, owner]
    conn.execute(sql, args)


def _lock_id(key: Key) -> int:
    """A signed 64-bit advisory-lock key for one cache key (a collision only serialises)."""
    digest = hashlib.sha256("\0".join(("upload", *_where(key))).encode()).digest()
    return int.from_bytes(digest[:8], "big", signed=True)
