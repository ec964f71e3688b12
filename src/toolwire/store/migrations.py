"""The SQLite session database's schema, changed only through numbered migrations.

Each migration is a list of statements applied in one transaction and recorded in
``schema_version``; a database is brought up to date when it is opened. A database whose
recorded version is newer than this code knows is refused rather than guessed at. The runner
is ``store.schema``'s, shared with the PostgreSQL schemas.
"""

from __future__ import annotations

import sqlite3

from . import schema
from .schema import Migration, Schema, SqliteDialect
from .schema import now as now  # re-exported: store.rows stamps rows with it

#: (version, description, statements) in order; append new ones, never edit applied ones.
MIGRATIONS: list[Migration] = [
    (
        1,
        "sessions, messages (neutral JSON), blobs and which message references which blob",
        (
            """CREATE TABLE sessions (
                id TEXT PRIMARY KEY CHECK (length(id) > 0),
                created_at TEXT NOT NULL,
                updated_at TEXT NOT NULL
            )""",
            """CREATE TABLE messages (
                id INTEGER PRIMARY KEY,
                session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
                position INTEGER NOT NULL CHECK (position >= 0),
                role TEXT NOT NULL,
                body TEXT NOT NULL,
                created_at TEXT NOT NULL,
                UNIQUE (session_id, position)
            )""",
            """CREATE TABLE blobs (
                sha256 TEXT PRIMARY KEY CHECK (length(sha256) = 64),
                size INTEGER NOT NULL CHECK (size > 0)
            )""",
            """CREATE TABLE message_blobs (
                message_id INTEGER NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
                sha256 TEXT NOT NULL REFERENCES blobs(sha256),
                PRIMARY KEY (message_id, sha256)
            )""",
            "CREATE INDEX message_blobs_by_sha256 ON message_blobs(sha256)",
        ),
    ),
    (
        2,
        "store_state: gc_epoch, moved on by every collection (see store.rows)",
        (
            """CREATE TABLE store_state (
                name TEXT PRIMARY KEY,
                value INTEGER NOT NULL
            )""",
            "INSERT INTO store_state (name, value) VALUES ('gc_epoch', 0)",
        ),
    ),
]

LATEST = MIGRATIONS[-1][0]

_REFUSAL = (
    "{where} has schema version {version}, but this toolwire knows versions up to {latest}; "
    "upgrade toolwire to open it"
)


def _schema() -> Schema:
    # Built per call from the module's MIGRATIONS, which tests replace with an older list.
    return Schema(MIGRATIONS, "schema_version", _REFUSAL, SqliteDialect())


def current_version(conn: sqlite3.Connection) -> int:
    """The highest migration applied to this database (0 for a new one)."""
    return schema.current_version(conn, _schema())


def migrate(conn: sqlite3.Connection, where: str) -> int:
    """Apply every pending migration in one write transaction; return the resulting version.

    ``conn`` must be in autocommit mode (``isolation_level=None``). Several processes opening
    the same new store at once are serialised by the write lock; the later ones find the
    work done.
    """
    return schema.migrate(conn, where, _schema())
