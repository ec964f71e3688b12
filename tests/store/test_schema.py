"""The one migrations runner (store.schema): a failed step leaves nothing, a newer one is refused."""

from __future__ import annotations

import sqlite3
from contextlib import closing

import pytest

from toolwire.errors import StoreError
from toolwire.store.schema import Schema, SqliteDialect, current_version, migrate

STEPS = [
    (1, "one table", ("CREATE TABLE one (id INTEGER)",)),
    (2, "a broken step", ("CREATE TABLE two (id INTEGER)", "NOT SQL")),
]


def _schema(steps=STEPS) -> Schema:
    return Schema(steps, "test_version", "{where} is at {version}, not {latest}", SqliteDialect())


def test_a_failing_step_rolls_back_every_step_of_that_run(tmp_path):
    with closing(sqlite3.connect(tmp_path / "x.db", isolation_level=None)) as conn:
        with pytest.raises(sqlite3.OperationalError):
            migrate(conn, "x.db", _schema())
        assert current_version(conn, _schema()) == 0
        assert conn.execute("SELECT name FROM sqlite_master").fetchall() == []


def test_a_database_newer_than_the_steps_is_refused_with_the_schemas_own_words(tmp_path):
    with closing(sqlite3.connect(tmp_path / "x.db", isolation_level=None)) as conn:
        assert migrate(conn, "x.db", _schema(STEPS[:1])) == 1
        conn.execute("INSERT INTO test_version VALUES (5, 'future', 'later')")
        with pytest.raises(StoreError, match=r"^x\.db is at 5, not 1$"):
            migrate(conn, "x.db", _schema(STEPS[:1]))
