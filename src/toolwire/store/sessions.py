"""SessionStore: conversations kept as neutral JSON rows, file bytes in content-addressed blobs.

Rows and blobs are separate choices. Rows: a directory's ``sessions.db`` (SQLite, WAL mode,
the default, no extra dependency) or a PostgreSQL database (``postgresql://…``, psycopg 3 with
a connection pool). Blobs: a directory (by default the store directory's ``blobs/``) or object
storage (``s3://bucket/prefix``, ``gs://…``). Every File's bytes are stored once, by sha256,
so a stored session replays exactly: it re-encodes byte-identically for the same model after
the original file is moved, changed or deleted, and re-encodes for any other model like the
original conversation would.

Concurrency: any number of processes (on any number of hosts, with PostgreSQL) may append to
the same or different sessions. Each append is one transaction that assigns the message's
position; appends to one session are serialised, ``expect=N`` makes one conditional. Blobs are
written before the row that references them commits, so a process killed mid-append leaves at
most an unreferenced blob, collected by the next ``gc``; ``store.rows`` says why
a collection can never remove a blob an append is about to reference.

Loaded files hold ``BlobSource(sha256, root=<this store's blob location>, size)``. With a
directory, ``tw.dump_conversation(store.load(id))`` writes the directory's absolute path and
``tw.load_conversation(text, trust=("paths",))`` of that text gives files that read as long as
the store stays where it is (a blob root is a local path: ``foreign``); object-storage blobs are fetched and checked by ``load`` (with ``verify=False``, on a
File's first read, through this store's object-store client). For JSON that reads
anywhere, use ``export`` (bytes inlined as base64) and ``import_``. Rows and exports are
untrusted data: ``trust`` says which File sources they may hold (never a local path) and how
blobs are read (only this store's, never through a link).
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Collection, Iterable, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal
from urllib.parse import urlsplit

from ..content import File
from ..errors import ConflictError, StoreError, ToolwireError
from ..foreign import Trust
from ..messages import Message
from ..sources import MAX_FILE_BYTES, BlobSource
from . import codec, trust
from . import trust as trust_rules  # ``import_`` takes a ``trust`` argument
from .blobs import BlobStore
from .objects import ObjectBlobs, is_object_url
from .rows import Rows
from .sqlite import BUSY_TIMEOUT_S, SqliteRows
from .trust import EXPORT_FORMAT, MAX_IMPORT_BYTES, MAX_JSON_VALUES

__all__ = ["BUSY_TIMEOUT_S", "SessionInfo", "SessionStore"]

#: Object-storage blobs a ``load`` fetches at once.
FETCH_THREADS = 8
_POSTGRES = ("postgresql://", "postgres://")


def _parsed_location(location: str | Path) -> str:
    """The store's location: a directory path as it is, ``sqlite:///path`` as that path,
    a PostgreSQL URL as it is; any other URL a StoreError (never a directory named after the
    scheme)."""
    text = str(location)
    if isinstance(location, Path) or "://" not in text or text.startswith(_POSTGRES):
        return text
    scheme, _, rest = text.partition("://")
    if scheme == "sqlite" and rest.startswith("/"):
        return rest  # sqlite:///var/data/agents -> the store directory /var/data/agents
    raise StoreError(
        f"SessionStore({text!r}): a store is a directory path, sqlite:///path/to/dir, or "
        "postgresql://user@host/db (with blobs='s3://bucket/prefix'); "
        f"{scheme!r} is none of those"
    )


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

    ``location`` is the store's directory (created unless ``create=False``; its
    ``sessions.db`` holds the rows, ``blobs/`` the bytes) or a ``postgresql://`` URL.
    ``blobs`` puts the bytes elsewhere: a directory, or object storage such as
    ``s3://bucket/prefix`` (required with PostgreSQL); ``blob_options`` are the object
    store's settings (by default the standard environment: ``AWS_ENDPOINT_URL``, …).
    Opening fails fast with the cause: ``connect_timeout`` seconds for PostgreSQL to answer
    (default: the URL's ``connect_timeout``, else 5), and a missing bucket is a StoreError
    when the store opens, not at the first append.
    Sessions are created by their first append; ``list_sessions``, ``count``, ``delete``,
    ``export``, ``import_`` and ``copy_to`` manage them, and ``gc`` collects blobs left by a
    process killed mid-append. Example::

        store = tw.SessionStore("agent-store")
        store.append("s1", tw.User("What is on the screen?"))
        store.append("s1", tw.ToolResult.of("c1", "screenshot", tw.File.from_path("shot.png")))
        request = tw.encode(store.load("s1"), "anthropic:claude-sonnet-4-6")

        shared = tw.SessionStore("postgresql://db/agents", blobs="s3://media/sessions")
        shared.append("s1", message, expect=len(history))  # ConflictError if it moved on
    """

    def __init__(
        self,
        location: str | Path,
        *,
        blobs: str | Path | None = None,
        blob_options: Mapping[str, object] | None = None,
        create: bool = True,
        connect_timeout: float | None = None,
    ) -> None:
        self.path: Path | None = None
        self.location = _parsed_location(location)
        if self.location.startswith(_POSTGRES):
            if blobs is None:
                raise StoreError(
                    "a PostgreSQL session store needs somewhere for file bytes: pass "
                    "blobs='s3://bucket/prefix' (or a directory every worker shares)"
                )
            self.blobs = _open_blobs(blobs, blob_options)
            from .postgres import PostgresRows

            self._rows: Rows = PostgresRows(self.location, connect_timeout)
        else:
            self.path = _store_dir(Path(self.location).absolute(), create)
            self.location = str(self.path)
            self.blobs = _open_blobs(blobs or self.path / "blobs", blob_options)
            self._rows = SqliteRows(self.path / "sessions.db")
        self._root = str(self.blobs.root)

    # --- writing ------------------------------------------------------------------------

    def append(self, session_id: str, message: Message, *, expect: int | None = None) -> int:
        """Add one message at the end of the session (created if new); return its position.

        With ``expect=N`` the message is added only if the session holds N messages now
        (0 for a new one); otherwise ConflictError, whose ``current`` is the count found.
        """
        return self.extend(session_id, [message], expect=expect)[0]

    def extend(
        self, session_id: str, messages: Iterable[Message], *, expect: int | None = None
    ) -> list[int]:
        """Add messages at the end of the session in one transaction; return their positions.

        ``expect`` as for ``append``: all are added, or none.
        """
        if expect is not None and (type(expect) is not int or expect < 0):
            raise StoreError(f"expect is a message count (an int >= 0), not {expect!r}")
        positions = self._add(session_id, messages, is_new=False, expect=expect)
        assert positions is not None
        return positions

    def _add(
        self, session_id: str, messages: Iterable[Any], *, is_new: bool, expect: int | None
    ) -> list[int] | None:
        """``extend``; with ``is_new``, None when the session exists as the insert runs."""
        _check_id(session_id)
        rows = []
        for k, message in enumerate(messages):
            where = f"session {session_id!r}, new message {k}"
            rows.append(codec.to_stored(codec.validate(message, where), self._root, where))
        try:
            epoch = self._rows.epoch()
            for row in rows:  # written before the transaction: the slow part, unlocked
                for data in row.blobs.values():
                    self.blobs.put(data)
            return self._rows.insert(
                session_id, rows, is_new=is_new, expect=expect, epoch=epoch, ensure=self._ensure
            )
        except ConflictError:
            raise
        except StoreError as exc:
            raise StoreError(f"session {session_id!r}: {exc}") from exc

    def _ensure(self, digest: str, data: bytes) -> None:
        """Put a blob back if a collection removed it after this append wrote it."""
        if not self.blobs.has(digest):
            self.blobs.put(data)

    def delete(self, session_id: str) -> int:
        """Remove a session and the blobs no other session references; return how many went.

        Only this session's blobs are looked at; ``gc`` collects any other orphans.
        """
        return self._rows.delete(session_id, self.blobs.remove)

    def gc(self) -> int:
        """Collect unreferenced blobs (e.g. left by a process killed mid-append).

        Appends wait while it runs; one whose blobs it removed writes them back before
        committing (``store.rows``), so it never breaks a session being written.
        """
        return self._rows.collect(self.blobs.sweep)

    def import_(
        self,
        data: str | bytes | dict[str, object],
        session_id: str | None = None,
        *,
        max_bytes: int = MAX_IMPORT_BYTES,
        max_values: int = MAX_JSON_VALUES,
        trust: Collection[Trust] = (),
    ) -> str:
        """Store a session from ``export`` JSON (as ``session_id`` or its own id); return the id.

        Exports over ``max_bytes`` (the JSON text, or the files it inlines; 256 MiB by
        default) or ``max_values`` JSON values (1,000,000: the count, counted before parsing,
        bounds the memory the import takes), of an unknown format version, or naming a local
        path are refused: see ``store.trust`` for what an import may carry. Cloud object URLs
        (s3://, gs://) and provider file ids are read with *your* access, so an export from
        elsewhere carries them only with ``trust=("cloud", "file-ids")``.
        """
        doc = trust_rules.export_document(data, max_bytes, max_values)
        target = session_id or doc.get("id")
        if not isinstance(target, str) or not target:
            raise StoreError("the export names no session id; pass session_id=…")
        _check_id(target)
        if target in self:  # a quick refusal; the insert's transaction checks again
            raise _exists_error(target)
        messages = trust_rules.export_messages(doc, target, self._root, max_bytes)
        trust_rules.foreign(messages, f"the export of session {target!r}", trust)
        self._add_new(target, messages)
        return target

    def copy_to(self, other: SessionStore, session_ids: Iterable[str] | None = None) -> list[str]:
        """Copy sessions (all by default) into ``other``, e.g. SQLite to PostgreSQL + S3.

        Each is read and verified here, then stored there under the same id with its blobs;
        one that ``other`` already holds is refused (StoreError) before anything is copied.
        """
        ids = list(self._rows.ids() if session_ids is None else session_ids)
        taken = [i for i in ids if i in other]
        if taken:
            raise StoreError(
                f"{other!r} already holds session(s) {', '.join(map(repr, taken))}; "
                "delete them there first or copy the others by id"
            )
        for session_id in ids:
            other._add_new(session_id, self.load(session_id))
        return ids

    def _add_new(self, session_id: str, messages: list[Any]) -> None:
        if self._add(session_id, messages, is_new=True, expect=None) is None:
            raise _exists_error(session_id)

    # --- reading ------------------------------------------------------------------------

    def load(
        self, session_id: str, *, verify: bool = True, max_values: int = MAX_JSON_VALUES
    ) -> list[Message]:
        """The session's messages in order; every blob is read and checked against its hash.

        With ``verify=False`` no blob is read here: each File's bytes are read (object
        storage: fetched) and checked when the File is first read, and a failure then names
        the session, message, file and hash as it would here. A row over ``max_values`` JSON
        values is refused before it is parsed (rows are written within the same limits;
        raise it for a row an older toolwire wrote).
        """
        _check_id(session_id)
        rows, sizes = self._rows.messages(session_id)
        located = [
            (f"session {session_id!r}, message {position}", body, sizes.get(key, {}))
            for key, position, body in rows
        ]
        messages = [self._message(where, body, size, max_values) for where, body, size in located]
        pairs = [(where, m) for (where, _, _), m in zip(located, messages, strict=True)]
        if verify:
            self._fetch(pairs)
        else:
            self._defer(pairs)
        return messages

    def list_sessions(self) -> list[SessionInfo]:
        """Every session, oldest first."""
        return [SessionInfo(*row) for row in self._rows.sessions()]

    def count(self, session_id: str) -> int:
        """How many messages ``session_id`` holds, in one small query (no rows, no blobs):
        what a reader that follows a session polls. StoreError (with the closest ids) if the
        store has no such session."""
        _check_id(session_id)
        return self._rows.count(session_id)

    def export(self, session_id: str) -> str:
        """The session as self-contained JSON (file bytes inlined as base64) for ``import_``."""
        messages = [codec.portable(m) for m in self.load(session_id)]
        body = [codec.as_data(m) for m in messages]  # as dump_conversation, surrogates kept
        doc = {"format": EXPORT_FORMAT, "version": 1, "id": session_id, "messages": body}
        return codec.dumps(doc)

    @property
    def database(
        self,
    ) -> tuple[Literal["sqlite"], Path, str] | tuple[Literal["postgresql"], object, str]:
        """``("sqlite", sessions.db path, where)`` or ``("postgresql", connection pool, where)``
        (``where`` the URL without its password; the pool a ``psycopg_pool.ConnectionPool``):
        where companions such as ``tw.Uploads(store=...)`` keep their own tables."""
        pool = getattr(self._rows, "pool", None)
        if pool is not None:
            return "postgresql", pool, self._rows.where
        assert self.path is not None
        return "sqlite", self.path / "sessions.db", self._rows.where

    def __contains__(self, session_id: object) -> bool:
        return isinstance(session_id, str) and self._rows.exists(session_id)

    def close(self) -> None:
        """Close the database connection(s) (the store is unusable afterwards)."""
        self._rows.close()

    def __enter__(self) -> SessionStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        if self.path is not None and self._root == str(self.path / "blobs"):
            return f"SessionStore({self.location!r})"
        return f"SessionStore({self._rows.where!r}, blobs={self._root!r})"

    # --- internals ----------------------------------------------------------------------

    def _message(
        self, where: str, body: object, sizes: dict[str, int], max_values: int = MAX_JSON_VALUES
    ) -> Message:
        """A row's message, its Files confined to what a store trusts (``trust.confine``)."""
        if isinstance(body, str | bytes | bytearray) and len(body) > trust.MAX_ROW_BYTES:
            raise StoreError(
                f"{where} is unreadable: its row is {len(body):,} bytes, over the "
                f"{trust.MAX_ROW_BYTES:,} a stored message may take (its files are stored apart)"
            )
        try:
            message = codec.from_stored(trust.load_json(body, "its body", max_values), self._root)
        except (ValueError, RecursionError, ToolwireError) as exc:
            raise StoreError(f"{where} is unreadable: {trust.reason(exc)}") from exc
        confined: Message = trust.confine(message, where, self._root, sizes)
        return confined

    def _fetch(self, located: list[tuple[str, Any]]) -> None:
        """Read every blob once, checked against its hash (object storage: several at once,
        the bytes kept in each loaded File's source)."""
        files = _blob_files(located)
        if not isinstance(self.blobs, ObjectBlobs):
            for where, file, _ in files:
                codec.read(file, where)
            return
        blobs = self.blobs
        first = {source.digest: (where, file, source) for where, file, source in reversed(files)}
        with ThreadPoolExecutor(min(FETCH_THREADS, len(first) or 1)) as pool:
            found = dict(
                zip(first, pool.map(lambda f: _fetched(blobs, *f), first.values()), strict=True)
            )
        for _, _, source in files:
            source._data = found[source.digest]

    def _defer(self, located: list[tuple[str, Any]]) -> None:
        """Give each blob a read run on its File's first read (``load`` with ``verify=False``),
        named as ``load`` names it; Files of one load holding the same blob read it once."""
        blobs, fetched, lock = self.blobs, dict[str, bytes](), threading.Lock()

        def fetch(where: str, file: File, source: BlobSource) -> bytes:
            with lock:
                if source.digest not in fetched:
                    fetched[source.digest] = _fetched(blobs, where, file, source)
                return fetched[source.digest]

        for where, file, source in _blob_files(located):
            source._fetch = functools.partial(fetch, where, file, source)


def _blob_files(located: list[tuple[str, Any]]) -> list[tuple[str, File, BlobSource]]:
    """``(where, file, source)`` for every File of the messages held in a blob."""
    return [
        (where, file, file.source)
        for where, message in located
        for file in codec.files_of(message)
        if isinstance(file.source, BlobSource)
    ]


def _fetched(blobs: BlobStore | ObjectBlobs, where: str, file: File, source: BlobSource) -> bytes:
    """A blob's bytes, checked against its hash; a failure names ``where`` and the file."""
    try:
        if isinstance(blobs, ObjectBlobs):
            return blobs.fetch(source.digest, source.size, MAX_FILE_BYTES)
        return BlobSource(sha256=source.digest, root=source.root, size=source.size).read()
    except ToolwireError as exc:
        raise type(exc)(f"{where}, file {codec.label(file)}: {exc}") from exc


def _open_blobs(location: str | Path, options: Mapping[str, Any] | None) -> BlobStore | ObjectBlobs:
    """A directory (path or file:// URL) is a BlobStore; s3://, gs://, … are ObjectBlobs."""
    text = str(location)
    if is_object_url(text):
        return ObjectBlobs(text, options)
    if text.startswith("file://"):
        text = urlsplit(text).path
    return BlobStore(Path(text))


def _store_dir(path: Path, create: bool) -> Path:
    if not create and not (path / "sessions.db").is_file():
        raise StoreError(f"no session store at {path} (no sessions.db there)")
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise StoreError(f"cannot create the session store {path}: {exc}") from exc
    return path


def _exists_error(session_id: str) -> StoreError:
    return StoreError(f"session {session_id!r} already exists; delete it or pass session_id=…")


def _check_id(session_id: object) -> None:
    if not isinstance(session_id, str) or not session_id:
        raise StoreError(f"a session id is a non-empty string, not {session_id!r}")
    try:
        session_id.encode("utf-8")
    except UnicodeEncodeError:
        raise StoreError(
            f"session id {session_id!r} holds a lone surrogate; pass valid Unicode"
        ) from None
