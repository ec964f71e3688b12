"""SessionStore: conversations kept in SQLite as neutral JSON, file bytes in a BlobStore.

A store is a directory: ``sessions.db`` (SQLite, WAL mode, foreign keys on) and ``blobs/``.
Every File's bytes are stored once, by sha256, so a stored session replays exactly: it
re-encodes byte-identically for the same model after the original file is moved, changed or
deleted, and re-encodes for any other model like the original conversation would.

Concurrency: any number of processes may append to the same or different sessions. Each
append is one ``BEGIN IMMEDIATE`` transaction that assigns the message's position; its blobs
are written and fsynced before the row that references them commits, so a process killed
mid-append leaves at most an unreferenced blob, collected by the next ``delete`` or ``gc``.

Loaded files hold ``BlobSource(sha256, root=<this store's blobs/>)``.
``tw.dump_conversation(store.load(id))`` therefore writes each blob's absolute root, and
``tw.load_conversation`` of that text gives files that read as long as the store stays where
it is. For JSON that reads anywhere, use ``export`` (bytes inlined as base64) and ``import_``.
Rows and exports are untrusted data: ``trust`` says which File sources they may hold (never a
local path) and how blobs are read (only this store's, never through a link).
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
import threading
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import StoreError, ToolwireError, suggest
from ..messages import dump_conversation
from ..sources import BlobSource
from . import codec, trust
from .blobs import BlobStore
from .migrations import migrate, now
from .trust import EXPORT_FORMAT, MAX_IMPORT_BYTES

#: How long a writer waits for another process's write transaction before giving up.
BUSY_TIMEOUT_S = 60.0


@dataclass(frozen=True)
class SessionInfo:
    """One stored session: how many messages, how many distinct files and their bytes."""

    id: str
    messages: int
    files: int
    file_bytes: int
    created_at: str
    updated_at: str


class SessionStore:
    """Conversations by session id, appended message by message, replayed exactly.

    ``path`` is the store's directory (created unless ``create=False``). Sessions are created
    by their first append; ``list_sessions``, ``delete``, ``export`` and ``import_`` manage
    them, and ``gc`` collects blobs left by a process killed mid-append. Example::

        store = tw.SessionStore("agent-store")
        store.append("s1", tw.User("What is on the screen?"))
        store.append("s1", tw.ToolResult.of("c1", "screenshot", tw.File.from_path("shot.png")))
        request = tw.encode(store.load("s1"), "anthropic:claude-sonnet-4-5")
    """

    def __init__(self, path: str | Path, *, create: bool = True) -> None:
        self.path = Path(path).absolute()
        if not create and not (self.path / "sessions.db").is_file():
            raise StoreError(f"no session store at {self.path} (no sessions.db there)")
        try:
            self.path.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise StoreError(f"cannot create the session store {self.path}: {exc}") from exc
        self.blobs = BlobStore(self.path / "blobs")
        self._root = str(self.blobs.root)
        self._lock = threading.RLock()
        self._conn = self._connect()

    # --- writing ------------------------------------------------------------------------

    def append(self, session_id: str, message: Any) -> int:
        """Add one message at the end of the session (created if new); return its position."""
        return self.extend(session_id, [message])[0]

    def extend(self, session_id: str, messages: Iterable[Any]) -> list[int]:
        """Add messages at the end of the session in one transaction; return their positions."""
        return self._add(session_id, messages, is_new=False)

    def _add(self, session_id: str, messages: Iterable[Any], *, is_new: bool) -> list[int]:
        """``extend``; with ``is_new``, the session must not exist when the insert runs."""
        _check_id(session_id)
        rows = []
        for k, message in enumerate(messages):
            where = f"session {session_id!r}, new message {k}"
            rows.append(codec.to_stored(codec.validate(message, where), self._root, where))
        try:  # written and fsynced before the transaction: the slow part, unlocked
            for row in rows:
                for data in row.blobs.values():
                    self.blobs.put(data)
            with self._write() as conn:
                # Checked under the write lock: another importer of the same id may have
                # committed since any earlier look (the blobs put above go at the next gc).
                taken = is_new and self._exists(conn, session_id)
                positions = [] if taken else self._insert(conn, session_id, rows)
        except StoreError as exc:
            raise StoreError(f"session {session_id!r}: {exc}") from exc
        if taken:
            raise _exists_error(session_id)
        return positions

    def delete(self, session_id: str) -> int:
        """Remove a session and collect blobs no longer referenced; return how many went."""
        with self._write() as conn:
            if conn.execute("DELETE FROM sessions WHERE id = ?", (session_id,)).rowcount == 0:
                raise StoreError(self._unknown(conn, session_id))
            return self._collect(conn)

    def gc(self) -> int:
        """Collect unreferenced blobs (e.g. left by a process killed mid-append)."""
        with self._write() as conn:
            return self._collect(conn)

    def import_(
        self,
        data: str | bytes | dict[str, Any],
        session_id: str | None = None,
        *,
        max_bytes: int = MAX_IMPORT_BYTES,
    ) -> str:
        """Store a session from ``export`` JSON (as ``session_id`` or its own id); return the id.

        Exports over ``max_bytes`` (the JSON text, or the files it inlines; 256 MiB by
        default), of an unknown format version, or naming a local path are refused: see
        ``store.trust`` for what an import may carry.
        """
        doc = trust.export_document(data, max_bytes)
        target = session_id or doc.get("id")
        if not isinstance(target, str) or not target:
            raise StoreError("the export names no session id; pass session_id=…")
        if target in self:  # a quick refusal; the insert's transaction checks again
            raise _exists_error(target)
        self._add(target, trust.export_messages(doc, target, self._root, max_bytes), is_new=True)
        return target

    # --- reading ------------------------------------------------------------------------

    def load(self, session_id: str, *, verify: bool = True) -> list[Any]:
        """The session's messages in order; every blob is read and checked against its hash.

        With ``verify=False`` blobs are read (and checked) lazily, when a File is first read.
        """
        with self._read() as conn:
            rows = conn.execute(
                "SELECT id, position, body FROM messages WHERE session_id = ? ORDER BY position",
                (session_id,),
            ).fetchall()
            if not rows and not self._exists(conn, session_id):
                raise StoreError(self._unknown(conn, session_id))
            sizes = _recorded_sizes(conn, session_id)
        messages = [
            self._message(f"session {session_id!r}, message {position}", body, sizes.get(key, {}))
            for key, position, body in rows
        ]
        if verify:
            for (_, position, _), message in zip(rows, messages, strict=True):
                _verify(message, f"session {session_id!r}, message {position}")
        return messages

    def list_sessions(self) -> list[SessionInfo]:
        """Every session, oldest first."""
        with self._read() as conn:
            rows = conn.execute(_LIST_SQL).fetchall()
        return [SessionInfo(*row) for row in rows]

    def export(self, session_id: str) -> str:
        """The session as self-contained JSON (file bytes inlined as base64) for ``import_``."""
        messages = [codec.portable(m) for m in self.load(session_id)]
        body = json.loads(dump_conversation(messages))
        doc = {"format": EXPORT_FORMAT, "version": 1, "id": session_id, "messages": body}
        return json.dumps(doc, ensure_ascii=False)

    def __contains__(self, session_id: object) -> bool:
        with self._read() as conn:
            return isinstance(session_id, str) and self._exists(conn, session_id)

    def close(self) -> None:
        """Close the database connection (the store is unusable afterwards)."""
        with self._lock:
            self._conn.close()

    def __enter__(self) -> SessionStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"SessionStore({str(self.path)!r})"

    # --- internals ----------------------------------------------------------------------

    def _connect(self) -> sqlite3.Connection:
        database = self.path / "sessions.db"
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
        return conn

    @contextlib.contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        """One write transaction; other writers wait (busy timeout) instead of failing."""
        with self._lock, self._sqlite_errors():
            self._conn.execute("BEGIN IMMEDIATE")
            try:
                yield self._conn
            except BaseException:
                self._conn.execute("ROLLBACK")
                raise
            self._conn.execute("COMMIT")

    @contextlib.contextmanager
    def _read(self) -> Iterator[sqlite3.Connection]:
        with self._lock, self._sqlite_errors():
            yield self._conn

    @contextlib.contextmanager
    def _sqlite_errors(self) -> Iterator[None]:
        try:
            yield
        except sqlite3.Error as exc:
            raise StoreError(f"session store {self.path}: {exc}") from exc

    def _insert(
        self, conn: sqlite3.Connection, session_id: str, rows: list[codec.Stored]
    ) -> list[int]:
        stamp = now()
        conn.execute(
            "INSERT INTO sessions (id, created_at, updated_at) VALUES (?, ?, ?) "
            "ON CONFLICT (id) DO UPDATE SET updated_at = excluded.updated_at",
            (session_id, stamp, stamp),
        )
        (start,) = conn.execute(
            "SELECT COALESCE(MAX(position) + 1, 0) FROM messages WHERE session_id = ?",
            (session_id,),
        ).fetchone()
        for offset, row in enumerate(rows):
            message_id = conn.execute(
                "INSERT INTO messages (session_id, position, role, body, created_at) "
                "VALUES (?, ?, ?, ?, ?)",
                (session_id, start + offset, row.role, row.body, stamp),
            ).lastrowid
            for digest, data in row.blobs.items():
                self._reference(conn, message_id, digest, data)
        return [start + offset for offset in range(len(rows))]

    def _reference(
        self, conn: sqlite3.Connection, message_id: int | None, digest: str, data: bytes
    ) -> None:
        # A gc that ran between our blob write and this transaction may have removed it:
        # under the write lock no gc runs, so checking (and rewriting) here is enough.
        if not self.blobs.has(digest):
            self.blobs.put(data)
        conn.execute(
            "INSERT OR IGNORE INTO blobs (sha256, size) VALUES (?, ?)", (digest, len(data))
        )
        conn.execute(
            "INSERT OR IGNORE INTO message_blobs (message_id, sha256) VALUES (?, ?)",
            (message_id, digest),
        )

    def _collect(self, conn: sqlite3.Connection) -> int:
        conn.execute("DELETE FROM blobs WHERE sha256 NOT IN (SELECT sha256 FROM message_blobs)")
        keep = {row[0] for row in conn.execute("SELECT sha256 FROM blobs")}
        return self.blobs.sweep(keep)

    def _message(self, where: str, body: object, sizes: dict[str, int]) -> Any:
        """A row's message, its Files confined to what a store trusts (``trust.confine``)."""
        try:
            message = codec.from_stored(trust.load_json(body, "its body"), self._root)
        except (ValueError, RecursionError, ToolwireError) as exc:
            raise StoreError(f"{where} is unreadable: {trust.reason(exc)}") from exc
        return trust.confine(message, where, self._root, sizes)

    @staticmethod
    def _exists(conn: sqlite3.Connection, session_id: str) -> bool:
        return (
            conn.execute("SELECT 1 FROM sessions WHERE id = ?", (session_id,)).fetchone()
            is not None
        )

    @staticmethod
    def _unknown(conn: sqlite3.Connection, session_id: str) -> str:
        names = [row[0] for row in conn.execute("SELECT id FROM sessions")]
        return f"no session {session_id!r} in this store.{suggest(session_id, names)}"


_LIST_SQL = """
SELECT s.id,
       (SELECT COUNT(*) FROM messages m WHERE m.session_id = s.id),
       COUNT(b.sha256),
       COALESCE(SUM(b.size), 0),
       s.created_at,
       s.updated_at
FROM sessions s
LEFT JOIN blobs b ON b.sha256 IN (
    SELECT mb.sha256 FROM message_blobs mb JOIN messages m ON m.id = mb.message_id
    WHERE m.session_id = s.id)
GROUP BY s.id
ORDER BY s.created_at, s.id
"""


def _recorded_sizes(conn: sqlite3.Connection, session_id: str) -> dict[int, dict[str, int]]:
    """message id → {sha256: size} of the blobs the store recorded for each message."""
    found: dict[int, dict[str, int]] = {}
    for message_id, digest, size in conn.execute(_SIZES_SQL, (session_id,)):
        if isinstance(size, int) and size > 0 and isinstance(digest, str):
            found.setdefault(message_id, {})[digest] = size
    return found


_SIZES_SQL = """
SELECT mb.message_id, b.sha256, b.size
FROM message_blobs mb JOIN blobs b ON b.sha256 = mb.sha256 JOIN messages m ON m.id = mb.message_id
WHERE m.session_id = ?
"""


def _verify(message: Any, where: str) -> None:
    """Read every blob of ``message`` once; BlobSource checks the bytes against the hash."""
    for file in codec.files_of(message):
        if isinstance(file.source, BlobSource):
            codec.read(file, where)


def _exists_error(session_id: str) -> StoreError:
    return StoreError(f"session {session_id!r} already exists; delete it or pass session_id=…")


def _check_id(session_id: object) -> None:
    if not isinstance(session_id, str) or not session_id:
        raise StoreError(f"a session id is a non-empty string, not {session_id!r}")
