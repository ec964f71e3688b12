"""The session database schema: numbered migrations recorded in schema_version."""

from __future__ import annotations

import sqlite3
from contextlib import closing

import pytest

from toolwire.errors import StoreError
from toolwire.store import SessionStore
from toolwire.store.migrations import LATEST, MIGRATIONS, current_version, migrate


def _versions(path):
    with closing(sqlite3.connect(path / "sessions.db")) as conn:
        return conn.execute("SELECT version FROM schema_version ORDER BY version").fetchall()


def test_a_new_store_records_every_migration_once(tmp_path):
    SessionStore(tmp_path).close()
    SessionStore(tmp_path).close()
    assert _versions(tmp_path) == [(number,) for number, _, _ in MIGRATIONS]
    assert MIGRATIONS[-1][0] == LATEST


def test_the_database_runs_in_wal_mode_with_foreign_keys_enforced(tmp_path):
    store = SessionStore(tmp_path)
    conn = store._rows._conn
    assert conn.execute("PRAGMA journal_mode").fetchone() == ("wal",)
    assert conn.execute("PRAGMA foreign_keys").fetchone() == (1,)
    with pytest.raises(sqlite3.IntegrityError, match="FOREIGN KEY"):
        conn.execute(
            "INSERT INTO messages (session_id, position, role, body, created_at) "
            "VALUES ('nobody', 0, 'user', '{}', 'now')"
        )
    store.close()


def test_migrate_brings_an_empty_database_to_the_latest_version(tmp_path):
    with closing(sqlite3.connect(tmp_path / "x.db", isolation_level=None)) as conn:
        assert current_version(conn) == 0
        assert migrate(conn, "x.db") == LATEST
        assert current_version(conn) == LATEST
        rows = conn.execute("SELECT name FROM sqlite_master WHERE type='table'").fetchall()
    tables = {row[0] for row in rows}
    assert {"sessions", "messages", "blobs", "message_blobs", "schema_version"} <= tables


def test_a_database_from_a_newer_toolwire_is_refused(tmp_path):
    SessionStore(tmp_path).close()
    with closing(sqlite3.connect(tmp_path / "sessions.db", isolation_level=None)) as conn:
        conn.execute(
            "INSERT INTO schema_version (version, description, applied_at) "
            "VALUES (?, 'future', 'later')",
            (LATEST + 1,),
        )
    with pytest.raises(StoreError, match=f"schema version {LATEST + 1}.*upgrade toolwire"):
        SessionStore(tmp_path)


def test_a_store_made_by_an_older_toolwire_is_migrated_forward_and_keeps_its_sessions(
    tmp_path, monkeypatch
):
    import toolwire as tw
    from toolwire.store import migrations

    monkeypatch.setattr(migrations, "MIGRATIONS", MIGRATIONS[:1])
    monkeypatch.setattr(migrations, "LATEST", 1)
    with closing(sqlite3.connect(tmp_path / "sessions.db", isolation_level=None)) as conn:
        migrations.migrate(conn, "old")
        conn.execute("INSERT INTO sessions VALUES ('old', 'then', 'then')")
        conn.execute(
            "INSERT INTO messages (session_id, position, role, body, created_at) "
            """VALUES ('old', 0, 'user', '{"role":"user","content":"hi"}', 'then')"""
        )
    monkeypatch.undo()
    with SessionStore(tmp_path) as store:
        assert _versions(tmp_path) == [(number,) for number, _, _ in MIGRATIONS]
        assert store.append("old", tw.User("again"), expect=1) == 1
        assert [m.content for m in store.load("old")] == ["hi", "again"]
