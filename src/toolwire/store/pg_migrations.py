"""The PostgreSQL session database's schema, changed only through numbered migrations.

As for SQLite (``store.migrations``), and by the same runner (``store.schema``): each
migration is a list of statements applied in one transaction and recorded in
``toolwire_schema_version``; a database is brought up to date when a store opens it, and one
whose recorded version is newer than this code knows is refused. Concurrent openers are
serialised by a transaction-level advisory lock; the later ones find the work done. Tables
live in the connection's schema (``search_path``), so one database can hold several stores in
several schemas.
"""

from __future__ import annotations

from typing import Any

from . import schema
from .schema import Migration, PostgresDialect, Schema

#: (version, description, statements) in order; append new ones, never edit applied ones.
MIGRATIONS: list[Migration] = [
    (
        1,
        "sessions, messages (neutral JSON), blobs, message_blobs and store_state (gc_epoch)",
        (
            """CREATE TABLE sessions (
                id TEXT PRIMARY KEY CHECK (length(id) > 0),
                created_at TEXT NOT NULL,
                updated_at TEXT NOT NULL
            )""",
            """CREATE TABLE messages (
                id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
                session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
                position INTEGER NOT NULL CHECK (position >= 0),
                role TEXT NOT NULL,
                body TEXT NOT NULL,
                created_at TEXT NOT NULL,
                UNIQUE (session_id, position)
            )""",
            """CREATE TABLE blobs (
                sha256 TEXT PRIMARY KEY CHECK (length(sha256) = 64),
                size BIGINT NOT NULL CHECK (size > 0)
            )""",
            """CREATE TABLE message_blobs (
                message_id BIGINT NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
                sha256 TEXT NOT NULL REFERENCES blobs(sha256),
                PRIMARY KEY (message_id, sha256)
            )""",
            "CREATE INDEX message_blobs_by_sha256 ON message_blobs(sha256)",
            """CREATE TABLE store_state (
                name TEXT PRIMARY KEY,
                value BIGINT NOT NULL
            )""",
            "INSERT INTO store_state (name, value) VALUES ('gc_epoch', 0)",
        ),
    ),
]

LATEST = MIGRATIONS[-1][0]

#: The advisory-lock key migrations hold (any constant unlikely to clash with an app's).
MIGRATION_LOCK = 0x746F6F6C_77697265 & 0x7FFFFFFFFFFFFFFF

_REFUSAL = (
    "{where} has toolwire schema version {version}, but this toolwire knows versions up to "
    "{latest}; upgrade toolwire to open it"
)
SCHEMA = Schema(MIGRATIONS, "toolwire_schema_version", _REFUSAL, PostgresDialect(MIGRATION_LOCK))


def current_version(conn: Any) -> int:
    """The highest migration applied (0 for a new database)."""
    return schema.current_version(conn, SCHEMA)


def migrate(conn: Any, where: str) -> int:
    """Apply every pending migration in one transaction; return the resulting version.

    ``conn`` is a psycopg connection in autocommit mode.
    """
    return schema.migrate(conn, where, SCHEMA)
