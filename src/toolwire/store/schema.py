"""One runner for toolwire's numbered, forward-only schema migrations, on SQLite or PostgreSQL.

Each migration is a list of statements applied in one transaction and recorded in a version
table; a database is brought up to date when it is opened, and one whose recorded version is
newer than this code knows is refused rather than guessed at. The store's SQLite schema
(``store.migrations``), its PostgreSQL schema (``store.pg_migrations``) and the PostgreSQL
upload cache (``uploads.cache_postgres``) differ only in their ``Schema`` (the steps, the
version table, the refusal) and its ``Dialect``: how to ask whether a table exists, the
placeholder, and how the migrating transaction is taken so that concurrent openers wait for
it, then find the work done.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Protocol

from ..errors import StoreError

#: (version, description, statements); a schema's list is in order, append-only.
Migration = tuple[int, str, tuple[str, ...]]


class Dialect(Protocol):
    """What the runner asks of a database engine."""

    @property
    def placeholder(self) -> str: ...

    def has_table(self, conn: Any, name: str) -> bool: ...

    def transaction(self, conn: Any) -> contextlib.AbstractContextManager[None]: ...


@dataclass(frozen=True)
class SqliteDialect:
    """SQLite on an autocommit connection (``isolation_level=None``).

    ``BEGIN IMMEDIATE`` takes the database's write lock, which serialises migrating openers.
    """

    placeholder = "?"

    def has_table(self, conn: Any, name: str) -> bool:
        found = conn.execute(
            "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", (name,)
        ).fetchone()
        return bool(found)

    @contextlib.contextmanager
    def transaction(self, conn: Any) -> Iterator[None]:
        conn.execute("BEGIN IMMEDIATE")
        try:
            yield
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        conn.execute("COMMIT")


@dataclass(frozen=True)
class PostgresDialect:
    """PostgreSQL on an autocommit psycopg connection; tables in its ``search_path``.

    The transaction holds the advisory lock ``lock`` (one key per schema) until it ends.
    """

    lock: int
    placeholder = "%s"

    def has_table(self, conn: Any, name: str) -> bool:
        (exists,) = conn.execute(f"SELECT to_regclass('{name}') IS NOT NULL").fetchone()
        return bool(exists)

    @contextlib.contextmanager
    def transaction(self, conn: Any) -> Iterator[None]:
        with conn.transaction():
            conn.execute("SELECT pg_advisory_xact_lock(%s)", (self.lock,))
            yield


@dataclass(frozen=True)
class Schema:
    """One database schema: its migrations, where they are recorded, how a newer one is refused.

    ``refusal`` is the error's text, a format string of ``where``, ``version`` and ``latest``.
    """

    migrations: Sequence[Migration]
    version_table: str
    refusal: str
    dialect: Dialect

    @property
    def latest(self) -> int:
        """The version this code brings a database to."""
        return self.migrations[-1][0]


def current_version(conn: Any, schema: Schema) -> int:
    """The highest migration of ``schema`` applied (0 for a new database)."""
    if not schema.dialect.has_table(conn, schema.version_table):
        return 0
    row = conn.execute(f"SELECT COALESCE(MAX(version), 0) FROM {schema.version_table}").fetchone()
    return int(row[0])


def migrate(conn: Any, where: str, schema: Schema) -> int:
    """Apply every pending migration in one transaction; return the resulting version."""
    if _refuse_newer(current_version(conn, schema), where, schema) == schema.latest:
        return schema.latest
    mark = schema.dialect.placeholder
    with schema.dialect.transaction(conn):
        conn.execute(
            f"CREATE TABLE IF NOT EXISTS {schema.version_table} (version INTEGER PRIMARY KEY, "
            "description TEXT NOT NULL, applied_at TEXT NOT NULL)"
        )
        version = _refuse_newer(current_version(conn, schema), where, schema)
        for number, description, statements in schema.migrations:
            if number <= version:
                continue
            for statement in statements:
                conn.execute(statement)
            conn.execute(
                f"INSERT INTO {schema.version_table} (version, description, applied_at) "
                f"VALUES ({mark}, {mark}, {mark})",
                (number, description, now()),
            )
    return schema.latest


def _refuse_newer(version: int, where: str, schema: Schema) -> int:
    if version > schema.latest:
        raise StoreError(schema.refusal.format(where=where, version=version, latest=schema.latest))
    return version


def now() -> str:
    """The current UTC time as ISO 8601 text with milliseconds (sortable)."""
    return datetime.now(UTC).isoformat(timespec="milliseconds")
