"""Ids kept in a PostgreSQL SessionStore's database: shared by processes, never uploaded twice.

Runs on the private PostgreSQL cluster of tests/store (a real server, never skipped).
"""

from __future__ import annotations

import subprocess
import sys
import threading
import time
from pathlib import Path

import psycopg
import pytest
from store.conftest import fresh_database, pg_server  # noqa: F401  (the cluster fixture)

import toolwire as tw
from toolwire.uploads.account import account_of
from toolwire.uploads.cache import CLAIM_TIMEOUT_S, Entry, Key
from toolwire.uploads.cache_postgres import LATEST, PostgresCache, _lock_id

from .conftest import ANTHROPIC, history, pdf
from .race import assert_uploaded_once, two_workers_sync


@pytest.fixture
def database(pg_server: str) -> str:  # noqa: F811 - the fixture imported above
    return fresh_database(pg_server)


def _store(url: str, tmp_path: Path) -> tw.SessionStore:
    return tw.SessionStore(url, blobs=tmp_path / "blobs")


def _count(url: str, table: str) -> int:
    with psycopg.connect(url) as conn:
        return int(conn.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0])


def test_ids_outlive_the_process_that_uploaded_them_in_postgres(serve, database, tmp_path):
    client, state = serve("anthropic")
    turn = history(pdf(seed=11))
    with _store(database, tmp_path) as store:
        first = tw.Uploads(store=store).sync(turn, ANTHROPIC, client)
    with _store(database, tmp_path) as store:
        again = tw.Uploads(store=store).sync(turn, ANTHROPIC, client)
    assert again[0].file_id == first[0].file_id and not again[0].uploaded
    assert len(state.uploads) == 1
    assert _count(database, "upload_ids") == 1 and _count(database, "upload_claims") == 0


@pytest.mark.slow
def test_two_processes_sharing_a_postgres_store_upload_the_same_content_once(database, tmp_path):
    document = tmp_path / "shared.pdf"
    document.write_bytes(pdf(size=400_000, seed=12).read())
    _store(database, tmp_path).close()  # migrated once, as a deployment would
    assert_uploaded_once(*two_workers_sync([database, str(tmp_path / "blobs")], document))


def test_a_postgres_sync_waits_for_the_upload_another_worker_has_claimed(serve, database, tmp_path):
    client, state = serve("anthropic")
    store = _store(database, tmp_path)
    uploads = tw.Uploads(store=store)
    file = pdf(seed=13)
    key = Key("anthropic", account_of(client), file.source.sha256())
    other = PostgresCache(store.database[1], "other")
    assert other.claim(key, "other-worker", time.time()) == "mine"
    assert other.claim(key, "third-worker", time.time()) == "wait"
    threading.Timer(0.3, other.record, (key, "other-worker", Entry("file_by_other"))).start()
    [outcome] = uploads.sync(history(file), ANTHROPIC, client)
    assert outcome.file_id == "file_by_other" and not outcome.uploaded
    assert state.uploads == []
    store.close()


def test_of_many_workers_claiming_one_content_at_once_exactly_one_uploads(database, tmp_path):
    store = _store(database, tmp_path)
    caches = [PostgresCache(store.database[1], f"worker {n}") for n in range(2)]
    key, start, answers = Key("anthropic", "acct", "ab" * 32), threading.Barrier(8), []

    def claim(n: int) -> None:
        start.wait()
        answers.append(caches[n % 2].claim(key, f"worker-{n}", time.time()))

    threads = [threading.Thread(target=claim, args=(n,)) for n in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(answers) == ["mine"] + ["wait"] * 7
    store.close()


def test_a_claim_waits_while_another_transaction_checks_the_same_content(database, tmp_path):
    store = _store(database, tmp_path)
    cache, key, answers = PostgresCache(store.database[1], "db"), Key("openai", "a", "cd" * 32), []
    with psycopg.connect(database) as other:  # a worker between its id check and its claim
        other.execute("SELECT pg_advisory_xact_lock(%s)", (_lock_id(key),))
        waiting = threading.Thread(target=lambda: answers.append(cache.claim(key, "me", 0.0)))
        waiting.start()
        waiting.join(0.5)
        assert waiting.is_alive() and answers == []
        other.execute(
            "INSERT INTO upload_ids VALUES (%s, %s, %s, 'file_other', NULL, 0)",
            ("openai", "a", "cd" * 32),
        )
        other.commit()
    waiting.join(10)
    assert answers == [Entry("file_other")]  # it saw the other's id, and did not claim
    store.close()


def test_a_postgres_claim_left_by_a_dead_worker_is_taken_over(serve, database, tmp_path):
    client, state = serve("anthropic")
    store = _store(database, tmp_path)
    uploads = tw.Uploads(store=store)
    file = pdf(seed=14)
    with psycopg.connect(database, autocommit=True) as conn:
        conn.execute(
            "INSERT INTO upload_claims VALUES (%s, %s, %s, 'dead', extract(epoch from now()) - %s)",
            ("anthropic", account_of(client), file.source.sha256(), CLAIM_TIMEOUT_S + 1),
        )
    [outcome] = uploads.sync(history(file), ANTHROPIC, client)
    assert outcome.uploaded and len(state.uploads) == 1
    assert _count(database, "upload_claims") == 0
    store.close()


def test_a_failed_upload_leaves_no_postgres_row_and_no_claim(serve, database, tmp_path):
    client, state = serve("anthropic")
    state.failures.append((400, {"type": "error", "error": {"message": "nope"}}))
    with _store(database, tmp_path) as store, pytest.raises(tw.UploadError, match="nope"):
        tw.Uploads(store=store).sync(history(pdf(seed=15)), ANTHROPIC, client)
    assert [_count(database, t) for t in ("upload_ids", "upload_claims")] == [0, 0]


def test_forget_and_remember_go_through_the_shared_database(database, tmp_path):
    with _store(database, tmp_path) as a, _store(database, tmp_path) as b:
        one, two = tw.Uploads(store=a, account="a"), tw.Uploads(store=b, account="a")
        file = pdf(seed=16)
        one.remember(ANTHROPIC, file, "file_x", expires_at=time.time() + 3600)
        assert two.file_id_for(ANTHROPIC, file) == "file_x"
        one.remember(ANTHROPIC, file, "file_y")  # a later record replaces the id
        assert two.file_id_for(ANTHROPIC, file) == "file_y"
        assert two.forget(ANTHROPIC, "file_y") == 1
        assert one.file_id_for(ANTHROPIC, file) is None


def test_the_postgres_cache_schema_is_migrated_once_and_a_newer_one_refused(database, tmp_path):
    for _ in range(2):
        with _store(database, tmp_path) as store:
            tw.Uploads(store=store)
    with psycopg.connect(database, autocommit=True) as conn:
        rows = conn.execute("SELECT version FROM toolwire_upload_schema_version").fetchall()
        assert rows == [(LATEST,)]
        conn.execute(
            "INSERT INTO toolwire_upload_schema_version VALUES (%s, 'future', 'now')",
            (LATEST + 1,),
        )
    with _store(database, tmp_path) as store, pytest.raises(tw.StoreError, match="upgrade"):
        tw.Uploads(store=store)


def test_a_store_that_is_not_a_session_store_is_refused_with_what_to_use(tmp_path):
    with pytest.raises(tw.ToolwireError, match="not a SessionStore"):
        tw.Uploads(store=tw.BlobStore(tmp_path))


def test_importing_toolwire_and_the_uploads_package_loads_no_psycopg():
    code = (
        "import sys, toolwire, toolwire.uploads, toolwire.uploads.cache; "
        "print('psycopg' in sys.modules)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.stdout.strip() == "False", done.stderr
