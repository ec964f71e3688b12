"""Ids kept beside a SQLite SessionStore: shared by processes, never uploaded twice."""

from __future__ import annotations

import sqlite3
import threading
import time

import pytest

import toolwire as tw
from toolwire.uploads.account import account_of
from toolwire.uploads.cache import CLAIM_TIMEOUT_S, Entry, Key, SqliteCache

from .conftest import ANTHROPIC, history, pdf
from .race import assert_uploaded_once, two_workers_sync


def test_ids_outlive_the_process_that_uploaded_them(serve, tmp_path):
    client, state = serve("anthropic")
    turn = history(pdf(seed=1))
    first = tw.Uploads(store=tw.SessionStore(tmp_path)).sync(turn, ANTHROPIC, client)
    later = tw.Uploads(store=tw.SessionStore(tmp_path))
    again = later.sync(turn, ANTHROPIC, client)
    assert again[0].file_id == first[0].file_id and not again[0].uploaded
    assert len(state.uploads) == 1
    assert (tmp_path / "uploads.sqlite").is_file()


@pytest.mark.slow
def test_two_processes_sharing_a_store_upload_the_same_content_once(tmp_path):
    document = tmp_path / "shared.pdf"
    document.write_bytes(pdf(size=400_000, seed=2).read())
    store = tmp_path / "store"
    tw.SessionStore(store)  # created once, as a deployment would
    assert_uploaded_once(*two_workers_sync([str(store)], document))


def test_a_sync_waits_for_the_upload_another_worker_has_claimed(serve, tmp_path):
    client, state = serve("anthropic")
    uploads = tw.Uploads(store=tw.SessionStore(tmp_path))
    file = pdf(seed=3)
    key = Key("anthropic", account_of(client), file.source.sha256())
    other = SqliteCache(tmp_path / "uploads.sqlite")
    assert other.claim(key, "other-worker", time.time()) == "mine"
    threading.Timer(0.3, other.record, (key, "other-worker", Entry("file_by_other"))).start()
    [outcome] = uploads.sync(history(file), ANTHROPIC, client)
    assert outcome.file_id == "file_by_other" and not outcome.uploaded
    assert state.uploads == []


def test_a_claim_left_by_a_dead_worker_is_taken_over(serve, tmp_path):
    client, state = serve("anthropic")
    uploads = tw.Uploads(store=tw.SessionStore(tmp_path))
    file = pdf(seed=4)
    with sqlite3.connect(tmp_path / "uploads.sqlite") as db:
        db.execute(
            "INSERT INTO upload_claims VALUES (?, ?, ?, ?, ?)",
            ("anthropic", account_of(client), file.source.sha256(), "dead",
             time.time() - CLAIM_TIMEOUT_S - 1),
        )  # fmt: skip
    [outcome] = uploads.sync(history(file), ANTHROPIC, client)
    assert outcome.uploaded and len(state.uploads) == 1


def test_a_failed_upload_leaves_no_row_and_no_claim(serve, tmp_path):
    client, state = serve("anthropic")
    state.failures.append((400, {"type": "error", "error": {"message": "nope"}}))
    uploads = tw.Uploads(store=tw.SessionStore(tmp_path))
    with pytest.raises(tw.UploadError):
        uploads.sync(history(pdf(seed=5)), ANTHROPIC, client)
    with sqlite3.connect(tmp_path / "uploads.sqlite") as db:
        rows = [
            db.execute(f"SELECT COUNT(*) FROM {t}").fetchone()[0]
            for t in ("upload_ids", "upload_claims")
        ]
    assert rows == [0, 0]


def test_the_schema_is_built_by_numbered_migrations_recorded_once(tmp_path):
    SqliteCache(tmp_path / "uploads.sqlite")
    SqliteCache(tmp_path / "uploads.sqlite")
    with sqlite3.connect(tmp_path / "uploads.sqlite") as db:
        assert db.execute("SELECT version FROM upload_migrations").fetchall() == [(1,)]
        assert db.execute("PRAGMA journal_mode").fetchone() == ("wal",)


def test_forget_and_remember_go_through_the_shared_file(tmp_path):
    one = tw.Uploads(store=tw.SessionStore(tmp_path), account="a")
    two = tw.Uploads(store=tw.SessionStore(tmp_path), account="a")
    file = pdf(seed=6)
    one.remember(ANTHROPIC, file, "file_x")
    assert two.file_id_for(ANTHROPIC, file) == "file_x"
    assert two.forget(ANTHROPIC, "file_x") == 1
    assert one.file_id_for(ANTHROPIC, file) is None
