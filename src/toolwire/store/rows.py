"""Where a SessionStore keeps its rows: the SQL both row backends (SQLite, PostgreSQL) share.

A row backend holds sessions, messages (neutral JSON), the blobs each message references and
a ``gc_epoch`` counter. Subclasses supply connections and locking:

- ``_write()``: one transaction for an append; appends of *one* session are serialised (the
  upsert of its ``sessions`` row locks it until commit) and none waits for another session's;
  every append excludes a running garbage collection.
- ``_collecting()``: one transaction that excludes every append (``delete`` and ``gc``); it
  moves ``gc_epoch`` on, before and after, whatever happens.
- ``_read()``: a connection for queries.

Why the epoch: blobs are written *before* the transaction that references them (the slow
part runs unlocked), so a collection may remove a blob between its write and the commit.
An append notes the epoch before writing its blobs; inside its transaction (where no
collection runs) an unchanged epoch proves no collection ran since, and a changed one makes
it check each blob and write back any that went. So a committed row never references a
missing blob, without a look at the blob store on the fast path.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import Any, Protocol

from ..errors import ConflictError, StoreError, suggest
from . import codec
from .migrations import now


class Cursor(Protocol):
    """What a backend's connection offers the shared SQL (``?`` placeholders)."""

    def execute(self, sql: str, params: tuple[Any, ...] = ...) -> Any: ...


#: Called inside the append transaction when a collection ran since the blobs were written:
#: ``(sha256, bytes)``; puts the blob back if it went.
Ensure = Callable[[str, bytes], None]


class Rows:
    """The shared SQL; see the module docstring for what subclasses provide."""

    #: Shown in errors: the database file or the URL without its password.
    where: str

    def _write(self) -> AbstractContextManager[Cursor]:
        raise NotImplementedError

    def _read(self) -> AbstractContextManager[Cursor]:
        raise NotImplementedError

    def _collecting(self) -> AbstractContextManager[Cursor]:
        raise NotImplementedError

    def close(self) -> None:
        raise NotImplementedError

    # --- writing ------------------------------------------------------------------------

    def epoch(self) -> int:
        """The collection counter; note it before writing blobs, pass it to ``insert``."""
        with self._read() as cur:
            return _epoch(cur)

    def insert(
        self,
        session_id: str,
        rows: list[codec.Stored],
        *,
        is_new: bool,
        expect: int | None,
        epoch: int,
        ensure: Ensure,
    ) -> list[int] | None:
        """Append ``rows`` in one transaction; their positions, or None when ``is_new`` and
        the session exists. ConflictError when ``expect`` is not the session's count."""
        with self._write() as cur:
            if not self._claim(cur, session_id, is_new):
                return None
            (start,) = _one(
                cur,
                "SELECT COALESCE(MAX(position) + 1, 0) FROM messages WHERE session_id = ?",
                (session_id,),
            )
            if expect is not None and start != expect:
                raise ConflictError(
                    f"session {session_id!r} holds {start} messages, not the {expect} "
                    f"expected: another writer appended first. Reload it and retry with "
                    f"expect={start}",
                    current=start,
                )
            if _epoch(cur) != epoch:
                for row in rows:
                    for digest, data in row.blobs.items():
                        ensure(digest, data)
            stamp = now()
            for offset, row in enumerate(rows):
                self._insert_message(cur, session_id, start + offset, row, stamp)
        return [start + offset for offset in range(len(rows))]

    def delete(self, session_id: str, remove: Callable[[set[str]], int]) -> int:
        """Remove the session and ``remove`` the blobs only it referenced; StoreError if unknown.

        The work is the session's size, not the store's: other orphans wait for ``collect``.
        """
        with self._collecting() as cur:
            mine = {row[0] for row in cur.execute(_SESSION_BLOBS_SQL, (session_id,)).fetchall()}
            if cur.execute("DELETE FROM sessions WHERE id = ?", (session_id,)).rowcount == 0:
                raise StoreError(self._unknown(cur, session_id))
            gone = {
                digest
                for digest in sorted(mine)
                if _one(cur, _DROP_UNREFERENCED_SQL, (digest, digest)) is not None
            }
            return remove(gone)

    def collect(self, sweep: Callable[[set[str]], int]) -> int:
        """Drop blob rows nothing references, then ``sweep`` every blob not kept."""
        with self._collecting() as cur:
            return self._collect(cur, sweep)

    # --- reading ------------------------------------------------------------------------

    def messages(
        self, session_id: str
    ) -> tuple[list[tuple[int, int, Any]], dict[int, dict[str, int]]]:
        """``(message id, position, body)`` in order and each message's recorded blob sizes."""
        with self._read() as cur:
            rows = cur.execute(
                "SELECT id, position, body FROM messages WHERE session_id = ? ORDER BY position",
                (session_id,),
            ).fetchall()
            if not rows and not _exists(cur, session_id):
                raise StoreError(self._unknown(cur, session_id))
            sizes: dict[int, dict[str, int]] = {}
            for message_id, digest, size in cur.execute(_SIZES_SQL, (session_id,)).fetchall():
                if isinstance(size, int) and size > 0 and isinstance(digest, str):
                    sizes.setdefault(message_id, {})[digest] = size
        return [tuple(row) for row in rows], sizes

    def sessions(self) -> list[tuple[Any, ...]]:
        """``(id, messages, files, file bytes, created, updated)`` per session, oldest first."""
        with self._read() as cur:
            return [tuple(row) for row in cur.execute(_LIST_SQL).fetchall()]

    def count(self, session_id: str) -> int:
        """How many messages the session holds; StoreError if the store has no such session."""
        with self._read() as cur:
            (count,) = _one(
                cur, "SELECT COUNT(*) FROM messages WHERE session_id = ?", (session_id,)
            )
            if count == 0 and not _exists(cur, session_id):
                raise StoreError(self._unknown(cur, session_id))
        return int(count)

    def exists(self, session_id: str) -> bool:
        with self._read() as cur:
            return _exists(cur, session_id)

    def ids(self) -> list[str]:
        """Every session id, oldest first."""
        with self._read() as cur:
            rows = cur.execute("SELECT id FROM sessions ORDER BY created_at, id").fetchall()
        return [row[0] for row in rows]

    # --- internals ----------------------------------------------------------------------

    @staticmethod
    def _claim(cur: Cursor, session_id: str, is_new: bool) -> bool:
        """Create or touch the session's row, which locks it until commit."""
        stamp = now()
        if is_new:
            sql = (
                "INSERT INTO sessions (id, created_at, updated_at) VALUES (?, ?, ?) "
                "ON CONFLICT (id) DO NOTHING RETURNING id"
            )
            return _one(cur, sql, (session_id, stamp, stamp)) is not None
        cur.execute(
            "INSERT INTO sessions (id, created_at, updated_at) VALUES (?, ?, ?) "
            "ON CONFLICT (id) DO UPDATE SET updated_at = excluded.updated_at",
            (session_id, stamp, stamp),
        )
        return True

    @staticmethod
    def _insert_message(
        cur: Cursor, session_id: str, position: int, row: codec.Stored, stamp: str
    ) -> None:
        (message_id,) = _one(
            cur,
            "INSERT INTO messages (session_id, position, role, body, created_at) "
            "VALUES (?, ?, ?, ?, ?) RETURNING id",
            (session_id, position, row.role, row.body, stamp),
        )
        for digest, data in row.blobs.items():
            cur.execute(
                "INSERT INTO blobs (sha256, size) VALUES (?, ?) ON CONFLICT DO NOTHING",
                (digest, len(data)),
            )
            cur.execute(
                "INSERT INTO message_blobs (message_id, sha256) VALUES (?, ?) "
                "ON CONFLICT DO NOTHING",
                (message_id, digest),
            )

    @staticmethod
    def _collect(cur: Cursor, sweep: Callable[[set[str]], int]) -> int:
        cur.execute("DELETE FROM blobs WHERE sha256 NOT IN (SELECT sha256 FROM message_blobs)")
        keep = {row[0] for row in cur.execute("SELECT sha256 FROM blobs").fetchall()}
        return sweep(keep)

    @staticmethod
    def _unknown(cur: Cursor, session_id: str) -> str:
        names = [row[0] for row in cur.execute("SELECT id FROM sessions").fetchall()]
        return f"no session {session_id!r} in this store.{suggest(session_id, names)}"


def bump_epoch(cur: Cursor) -> None:
    """Move ``gc_epoch`` on: appends whose blobs were written before now re-check them."""
    cur.execute("UPDATE store_state SET value = value + 1 WHERE name = 'gc_epoch'")


def _one(cur: Cursor, sql: str, params: tuple[Any, ...] = ()) -> Any:
    """The first row or None. Every row is fetched: a SQLite statement left unfinished keeps
    its read snapshot open, and a later write from that connection would fail as busy."""
    rows = cur.execute(sql, params).fetchall()
    return rows[0] if rows else None


def _epoch(cur: Cursor) -> int:
    row = _one(cur, "SELECT value FROM store_state WHERE name = 'gc_epoch'")
    return int(row[0]) if row else 0


def _exists(cur: Cursor, session_id: str) -> bool:
    return _one(cur, "SELECT 1 FROM sessions WHERE id = ?", (session_id,)) is not None


_LIST_SQL = """
SELECT s.id,
       (SELECT COUNT(*) FROM messages m WHERE m.session_id = s.id),
       COUNT(b.sha256),
       CAST(COALESCE(SUM(b.size), 0) AS BIGINT),
       s.created_at,
       s.updated_at
FROM sessions s
LEFT JOIN blobs b ON b.sha256 IN (
    SELECT mb.sha256 FROM message_blobs mb JOIN messages m ON m.id = mb.message_id
    WHERE m.session_id = s.id)
GROUP BY s.id, s.created_at, s.updated_at
ORDER BY s.created_at, s.id
"""

_SESSION_BLOBS_SQL = """
SELECT DISTINCT mb.sha256 FROM message_blobs mb JOIN messages m ON m.id = mb.message_id
WHERE m.session_id = ?
"""

_DROP_UNREFERENCED_SQL = """
DELETE FROM blobs WHERE sha256 = ?
AND NOT EXISTS (SELECT 1 FROM message_blobs WHERE sha256 = ?) RETURNING sha256
"""

_SIZES_SQL = """
SELECT mb.message_id, b.sha256, b.size
FROM message_blobs mb JOIN blobs b ON b.sha256 = mb.sha256 JOIN messages m ON m.id = mb.message_id
WHERE m.session_id = ?
"""
