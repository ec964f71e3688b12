"""What a store trusts: rows tampered in SQLite and hand-made exports never read outside it."""

from __future__ import annotations

import base64
import hashlib
import json
import os
import sqlite3
import threading
from contextlib import closing
from pathlib import Path

import pytest

import toolwire as tw
from toolwire.store import SessionStore
from toolwire.store.codec import file_dicts
from toolwire.store.trust import MAX_IMPORT_BYTES

EXAMPLES = Path(__file__).parents[2] / "examples"
PHOTO = (EXAMPLES / "photo.png").read_bytes()
SECRET = b"MARKER-outside-the-store-never-read\n"
DEEP = "[" * 100_000 + "]" * 100_000


@pytest.fixture
def marker(tmp_path):
    """A file outside every store whose content must never come out of one."""
    path = tmp_path / "outside" / "marker.txt"
    path.parent.mkdir()
    path.write_bytes(SECRET)
    return path


def stored_photo(tmp_path):
    """A store with session s1: a text message, then the photo (message 1)."""
    store = SessionStore(tmp_path / "store")
    store.append("s1", tw.User("look"))
    store.append("s1", tw.User([tw.File.from_bytes(PHOTO, name="photo.png")]))
    (digest,) = store.blobs.digests()
    return store, digest


def tamper(store, position, change):
    """Rewrite message ``position`` of s1 directly in SQLite: ``change(body_dict)``."""
    with closing(sqlite3.connect(store.path / "sessions.db")) as conn, conn:
        (body,) = conn.execute(
            "SELECT body FROM messages WHERE session_id = 's1' AND position = ?", (position,)
        ).fetchone()
        data = json.loads(body)
        change(data)
        conn.execute(
            "UPDATE messages SET body = ? WHERE session_id = 's1' AND position = ?",
            (json.dumps(data), position),
        )


def set_source(source):
    def change(data):
        (item,) = file_dicts(data)
        item["source"] = source

    return change


def refused(store, match, *, verify=True):
    """load (and export) raise a StoreError matching ``match``; the marker never shows."""
    with pytest.raises(tw.StoreError, match=match) as info:
        store.load("s1", verify=verify)
    assert SECRET.decode().strip() not in str(info.value)
    with pytest.raises(tw.StoreError):
        store.export("s1")
    return info.value


def photo_export(**changes):
    source = {"type": "bytes", "data": base64.b64encode(PHOTO).decode()}
    file = {"type": "file", "media_type": "image/png", "name": "photo.png", "source": source}
    doc = {
        "format": "toolwire.session",
        "version": 1,
        "id": "imp",
        "messages": [{"role": "user", "content": [file]}],
    }
    for key, value in changes.items():
        if key == "source":
            file["source"] = value
        else:
            doc[key] = value
    return doc


def finishes(call, seconds=10.0):
    """Run ``call`` in a thread; fail (instead of hanging) if it blocks, e.g. on a FIFO."""
    outcome = {}

    def run():
        try:
            outcome["value"] = call()
        except BaseException as exc:  # handed to the test below
            outcome["error"] = exc

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(seconds)
    assert not thread.is_alive(), "blocked (on a FIFO?)"
    if "error" in outcome:
        raise outcome["error"]
    return outcome["value"]


# --- rows tampered in SQLite --------------------------------------------------------------


@pytest.mark.parametrize("verify", [True, False])
def test_a_row_naming_a_local_path_is_refused_without_reading_it(tmp_path, marker, verify):
    store, _ = stored_photo(tmp_path)
    tamper(store, 1, set_source({"type": "path", "path": str(marker)}))
    error = refused(
        store, r"session 's1', message 1, file photo\.png: a path source", verify=verify
    )
    assert "never a local path" in str(error)


def test_a_row_with_inline_bytes_is_refused(tmp_path):
    store, _ = stored_photo(tmp_path)
    data = base64.b64encode(PHOTO).decode()
    tamper(store, 1, set_source({"type": "bytes", "data": data}))
    refused(store, r"session 's1', message 1, file photo\.png: a bytes source")


@pytest.mark.parametrize("url", ["file:///etc/passwd", "data:image/png;base64,AAAA", "ftp://h/a"])
def test_a_row_naming_a_url_toolwire_does_not_fetch_is_refused(tmp_path, url):
    store, _ = stored_photo(tmp_path)
    tamper(store, 1, set_source({"type": "url", "url": url}))
    refused(store, r"session 's1', message 1, file photo\.png: a url source")


def test_a_row_naming_a_blob_root_outside_reads_only_this_stores_blobs(tmp_path, marker):
    store, _ = stored_photo(tmp_path)
    outside = hashlib.sha256(SECRET).hexdigest()
    blob = marker.parent / outside[:2] / outside
    blob.parent.mkdir()
    blob.write_bytes(SECRET)
    tamper(store, 1, set_source({"type": "blob", "sha256": outside, "root": str(marker.parent)}))
    refused(
        store, rf"session 's1', message 1, file photo\.png: blob {outside[:12]}… is not recorded"
    )


def test_a_row_blob_root_is_ignored_in_favour_of_the_stores_own(tmp_path, marker):
    store, digest = stored_photo(tmp_path)
    tamper(store, 1, set_source({"type": "blob", "sha256": digest, "root": str(marker.parent)}))
    (file,) = store.load("s1")[1].content
    assert file.source.root == str(store.blobs.root)
    assert file.read() == PHOTO


@pytest.mark.parametrize("digest", ["../outside/marker.txt", "A" * 64, "0" * 63, "0" * 64 + "\n"])
def test_a_row_whose_digest_is_not_a_sha256_is_refused(tmp_path, marker, digest):
    store, _ = stored_photo(tmp_path)
    tamper(store, 1, set_source({"type": "blob", "sha256": digest}))
    refused(store, r"session 's1', message 1 is unreadable: .*sha256")


@pytest.mark.parametrize(
    "body",
    [
        "[]",
        "null",
        '"text"',
        "{",
        DEEP,
        '{"role": "user"}',
        '{"role": "user", "content": 5}',
        '{"role": "robot", "content": "hi"}',
        '{"role": "user", "content": [{"type": "file", "media_type": "image/png"}]}',
        '{"role": "user", "content": [{"type": "file", "source": 7, "media_type": "x/y"}]}',
        '{"role": "tool", "call_id": "c", "name": "t", "output": {"type": "content", "value": 1}}',
        '{"role": "tool", "call_id": "c", "name": "t", "output": {"type": "json", "value": '
        + "[" * 5000
        + "]" * 5000
        + "}}",
        b'{"role": "user", "content": "a BLOB, not TEXT"}\xff',
        12345,
    ],
    ids=lambda body: repr(body)[:40],
)
def test_a_malformed_row_is_a_store_error_naming_session_and_message(tmp_path, body):
    store, _ = stored_photo(tmp_path)
    with closing(sqlite3.connect(store.path / "sessions.db")) as conn, conn:
        conn.execute("UPDATE messages SET body = ? WHERE position = 1", (body,))
    with pytest.raises(tw.StoreError, match=r"^session 's1', message 1 is unreadable: "):
        store.load("s1")


# --- blob files tampered on disk -----------------------------------------------------------


@pytest.mark.parametrize("target", ["marker", "/dev/zero"])
def test_a_blob_replaced_by_a_symlink_is_refused_not_followed(tmp_path, marker, target):
    store, digest = stored_photo(tmp_path)
    path = store.blobs.path(digest)
    path.unlink()
    path.symlink_to(marker if target == "marker" else target)
    refused(store, rf"session 's1', message 1, file photo\.png: blob {digest[:12]}… .*symbolic")
    assert store.blobs.put(PHOTO) == digest  # replaces the link, writes nothing through it
    assert not path.is_symlink()
    assert marker.read_bytes() == SECRET
    assert store.load("s1")[1].content[0].read() == PHOTO


def test_a_shard_directory_replaced_by_a_symlink_is_refused(tmp_path, marker):
    store, digest = stored_photo(tmp_path)
    shard = store.blobs.path(digest).parent
    moved = marker.parent / shard.name
    shard.rename(moved)
    shard.symlink_to(moved)
    refused(store, rf"session 's1', message 1, file photo\.png: blob {digest[:12]}… .*symbolic")
    assert list(store.blobs.digests()) == []  # nor does a sweep reach through it


def test_a_blob_replaced_by_a_fifo_is_refused_without_waiting(tmp_path):
    store, digest = stored_photo(tmp_path)
    path = store.blobs.path(digest)
    path.unlink()
    os.mkfifo(path)
    with pytest.raises(
        tw.StoreError, match=rf"file photo\.png: blob {digest[:12]}… .*not a regular"
    ):
        finishes(lambda: store.load("s1"))
    assert finishes(lambda: store.blobs.put(PHOTO)) == digest  # put replaces it
    assert store.load("s1")[1].content[0].read() == PHOTO


@pytest.mark.parametrize("change", ["truncated", "extended"])
def test_a_blob_of_another_size_than_recorded_is_refused(tmp_path, change):
    store, digest = stored_photo(tmp_path)
    path = store.blobs.path(digest)
    path.write_bytes(PHOTO[:-10] if change == "truncated" else PHOTO + b"\0" * 10)
    size = len(PHOTO) + (-10 if change == "truncated" else 10)
    refused(
        store,
        rf"session 's1', message 1, file photo\.png: blob {digest[:12]}… .* is {size} bytes; "
        rf"the store recorded {len(PHOTO)} bytes",
    )


def test_a_huge_sparse_blob_is_refused_without_reading_it(tmp_path):
    store, digest = stored_photo(tmp_path)
    os.truncate(store.blobs.path(digest), 64 * 1024**3)  # sparse: no disk, 64 GiB to read
    refused(store, rf"blob {digest[:12]}… .* is {64 * 1024**3} bytes; the store recorded")


# --- hand-made exports ------------------------------------------------------------------


def test_an_export_naming_a_local_path_is_refused_and_stores_nothing(tmp_path, marker):
    store = SessionStore(tmp_path / "store")
    doc = photo_export(source={"type": "path", "path": str(marker)})
    with pytest.raises(
        tw.StoreError, match=r"the export of session 'imp', message 0, file photo\.png: a path"
    ) as info:
        store.import_(doc)
    assert SECRET.decode().strip() not in str(info.value)
    assert "imp" not in store
    assert list(store.blobs.digests()) == []


def test_an_export_naming_a_blob_root_outside_is_refused_and_reads_nothing(tmp_path, marker):
    outside = hashlib.sha256(SECRET).hexdigest()
    blob = marker.parent / outside[:2] / outside
    blob.parent.mkdir()
    blob.write_bytes(SECRET)
    store = SessionStore(tmp_path / "store")
    doc = photo_export(source={"type": "blob", "sha256": outside, "root": str(marker.parent)})
    with pytest.raises(
        tw.StoreError, match=rf"session 'imp'.*a blob reference \({outside[:12]}…\) is refused"
    ):
        store.import_(json.dumps(doc))
    assert "imp" not in store
    assert list(store.blobs.digests()) == []


def test_an_export_cannot_reference_another_sessions_blob_by_its_digest(tmp_path):
    store, digest = stored_photo(tmp_path)  # another session's file, held by this store
    doc = photo_export(source={"type": "blob", "sha256": digest, "root": str(store.blobs.root)})
    with pytest.raises(tw.StoreError, match="a blob reference .* is refused in an import"):
        store.import_(doc)
    assert "imp" not in store


@pytest.mark.parametrize("url", ["file:///etc/passwd", "data:text/plain,hi", "javascript:x"])
def test_an_export_naming_a_url_toolwire_does_not_fetch_is_refused(tmp_path, url):
    store = SessionStore(tmp_path / "store")
    with pytest.raises(tw.StoreError, match=r"session 'imp', message 0, file photo\.png: a url"):
        store.import_(photo_export(source={"type": "url", "url": url}))
    assert "imp" not in store


@pytest.mark.parametrize("version", [2, 0, None, "1", True, 1.0])
def test_an_export_of_an_unknown_version_is_refused_naming_versions(tmp_path, version):
    store = SessionStore(tmp_path / "store")
    with pytest.raises(
        tw.StoreError, match=rf"format version {version!r}; this toolwire knows version\(s\) 1\."
    ):
        store.import_(photo_export(version=version))


def test_an_export_over_the_size_cap_is_refused_as_text_and_as_data(tmp_path):
    store = SessionStore(tmp_path / "store")
    text = json.dumps(photo_export())
    with pytest.raises(tw.StoreError, match=rf"is {len(text)} bytes; imports over 1000 bytes"):
        store.import_(text, max_bytes=1000)
    with pytest.raises(
        tw.StoreError, match=rf"'imp' carries {len(PHOTO)} bytes of files; imports over 1000"
    ):
        store.import_(photo_export(), max_bytes=1000)
    assert "imp" not in store
    assert store.import_(text, max_bytes=len(text)) == "imp"
    assert MAX_IMPORT_BYTES == 256 * 1024 * 1024


@pytest.mark.parametrize(
    "doc",
    [
        DEEP,
        '{"format": "toolwire.session", "version": 1, "id": "imp", "messages": ' + DEEP + "}",
        photo_export(messages=json.loads("[" * 500 + "]" * 500)),
        photo_export(messages="[]"),
        photo_export(messages=None),
        photo_export(messages=[[]]),
        photo_export(messages=[{"role": "user"}]),
        photo_export(id=7),
        photo_export(id=""),
        photo_export(source={"type": "blob", "sha256": "../../dev/zero"}),
        photo_export(source=None),
        photo_export(
            messages=[
                {
                    "role": "tool",
                    "call_id": "c",
                    "name": "t",
                    "output": {"type": "json", "value": json.loads("[" * 900 + "]" * 900)},
                }
            ]
        ),
        b"\xff\xfe not JSON",
        "[]",
    ],
    ids=lambda doc: repr(doc)[:30],
)
def test_a_malformed_export_is_a_store_error(tmp_path, doc):
    store = SessionStore(tmp_path / "store")
    with pytest.raises(tw.StoreError):
        store.import_(doc)
    assert store.list_sessions() == []
