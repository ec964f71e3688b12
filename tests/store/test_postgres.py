"""PostgreSQL rows: numbered forward-only migrations, refusals, and what the URL may leak.

Runs on the private cluster conftest starts (a real PostgreSQL 15 server, never skipped).
"""

from __future__ import annotations

import subprocess
import sys
import threading
from pathlib import Path

import psycopg
import pytest

import toolwire as tw
from toolwire.store import SessionStore
from toolwire.store.pg_migrations import LATEST, MIGRATIONS
from toolwire.store.postgres import _redacted

from .conftest import fresh_database


def _versions(url: str) -> list[tuple[int]]:
    with psycopg.connect(url) as conn:
        rows = conn.execute("SELECT version FROM toolwire_schema_version ORDER BY version")
        return [tuple(row) for row in rows.fetchall()]


def test_a_new_database_records_every_migration_once(pg_server: str, tmp_path: Path) -> None:
    url = fresh_database(pg_server)
    SessionStore(url, blobs=tmp_path).close()
    SessionStore(url, blobs=tmp_path).close()
    assert _versions(url) == [(number,) for number, _, _ in MIGRATIONS]
    assert MIGRATIONS[-1][0] == LATEST


def test_stores_opening_a_new_database_at_once_migrate_it_once(
    pg_server: str, tmp_path: Path
) -> None:
    url, errors = fresh_database(pg_server), []

    def open_store() -> None:
        try:
            SessionStore(url, blobs=tmp_path).close()
        except Exception as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    threads = [threading.Thread(target=open_store) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert _versions(url) == [(number,) for number, _, _ in MIGRATIONS]


def test_a_database_from_a_newer_toolwire_is_refused(pg_server: str, tmp_path: Path) -> None:
    url = fresh_database(pg_server)
    SessionStore(url, blobs=tmp_path).close()
    with psycopg.connect(url) as conn:
        conn.execute(
            "INSERT INTO toolwire_schema_version VALUES (%s, 'future', 'later')", (LATEST + 1,)
        )
    with pytest.raises(tw.StoreError, match=f"schema version {LATEST + 1}.*upgrade toolwire"):
        SessionStore(url, blobs=tmp_path)


def test_a_postgresql_store_without_a_blob_location_is_refused() -> None:
    with pytest.raises(tw.StoreError, match="pass blobs='s3://bucket/prefix'"):
        SessionStore("postgresql://localhost/agents")


def test_an_unreachable_database_is_a_store_error_without_the_password(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr("toolwire.store.postgres.CONNECT_TIMEOUT_S", 2.0)
    url = "postgresql://agent:s3cret@127.0.0.1:1/agents?connect_timeout=1"
    with pytest.raises(tw.StoreError, match="cannot open the session database") as info:
        SessionStore(url, blobs=tmp_path)
    assert "s3cret" not in str(info.value)
    assert _redacted(url) == "postgresql://agent:***@127.0.0.1:1/agents?connect_timeout=1"


def test_concurrent_appends_to_one_session_in_threads_are_serialised(
    pg_server: str, tmp_path: Path
) -> None:
    url = fresh_database(pg_server)
    with SessionStore(url, blobs=tmp_path) as store:

        def write(writer: int) -> None:
            for n in range(25):
                store.append("s", tw.User(f"{writer} {n}"))

        threads = [threading.Thread(target=write, args=(w,)) for w in range(6)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        texts = [m.content for m in store.load("s")]
    assert len(texts) == 150
    for writer in range(6):
        assert [t for t in texts if t.startswith(f"{writer} ")] == [
            f"{writer} {n}" for n in range(25)
        ]


def test_opening_a_store_imports_neither_psycopg_nor_obstore_until_asked() -> None:
    code = (
        "import sys, tempfile, toolwire as tw\n"
        "tw.SessionStore(tempfile.mkdtemp()).append('s', tw.User('hi'))\n"
        "print(sorted(m for m in ('psycopg', 'psycopg_pool', 'obstore') if m in sys.modules))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"
