"""SQLite rows: ``sessions.db`` in WAL mode, one writer at a time (``BEGIN IMMEDIATE``).

SQLite has one write lock per database, so every append, ``delete`` and ``gc`` is already
serialised across all processes on the machine; a writer waits up to ``BUSY_TIMEOUT_S`` for
it instead of failing.
"""

from __future__ import annotations

import contextlib
import sqlite3
import threading
from collections.abc import Iterator
from pathlib import Path

from ..errors import StoreError
from .migrations import migrate
from .rows import Cursor, Rows, bump_epoch

#: How long a writer waits for another process's write transaction before giving up.
BUSY_TIMEOUT_S = 60.0


class SqliteRows(Rows):
    """The rows of a store directory's ``sessions.db``."""

    def __init__(self, database: Path) -> None:
        self.where = str(database)
        self._lock = threading.RLock()
        try:
            conn = sqlite3.connect(
                database, timeout=BUSY_TIMEOUT_S, isolation_level=None, check_same_thread=False
            )
            conn.execute("PRAGMA foreign_keys = ON")
            conn.execute("PRAGMA journal_mode = WAL")
            conn.execute("PRAGMA synchronous = FULL")
            migrate(conn, str(database))
        except sqlite3.Error as exc:
            raise StoreError(f"cannot open the session database {database}: {exc}") from exc
        self._conn = conn

    def close(self) -> None:
        with self._lock:
            self._conn.close()

    @contextlib.contextmanager
    def _write(self) -> Iterator[Cursor]:
        """One write transaction; other writers wait (busy timeout) instead of failing."""
        with self._lock, self._errors():
            self._conn.execute("BEGIN IMMEDIATE")
            try:
                yield self._conn
            except BaseException:
                self._conn.execute("ROLLBACK")
                raise
            self._conn.execute("COMMIT")

    @contextlib.contextmanager
    def _collecting(self) -> Iterator[Cursor]:
        """A write transaction (so no append runs); the epoch moves on even if it rolls back."""
        try:
            with self._write() as conn:
                bump_epoch(conn)
                yield conn
        except BaseException:
            with self._write() as conn:
                bump_epoch(conn)
            raise

    @contextlib.contextmanager
    def _read(self) -> Iterator[Cursor]:
        with self._lock, self._errors():
            yield self._conn

    @contextlib.contextmanager
    def _errors(self) -> Iterator[None]:
        try:
            yield
        except sqlite3.Error as exc:
            raise StoreError(f"session store {self.where}: {exc}") from exc
