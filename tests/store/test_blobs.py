"""BlobStore: content-addressed, atomic writes, verified reads, sweeping."""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys

import pytest

from toolwire import sources
from toolwire.errors import InvalidFileError, StoreError
from toolwire.sources import BlobSource
from toolwire.store import BlobStore

from .together import release_together


def test_put_stores_bytes_once_under_their_sha256(tmp_path):
    blobs = BlobStore(tmp_path)
    first = blobs.put(b"hello blob")
    second = blobs.put(b"hello blob")
    digest = hashlib.sha256(b"hello blob").hexdigest()
    assert first == second == digest
    assert blobs.path(digest) == tmp_path / digest[:2] / digest
    assert list(blobs.digests()) == [digest]
    assert blobs.get(digest) == b"hello blob"
    assert blobs.size() == len(b"hello blob")


def test_writes_leave_no_temp_files_behind(tmp_path):
    blobs = BlobStore(tmp_path)
    for n in range(5):
        blobs.put(f"blob {n}".encode())
    assert list((tmp_path / "tmp").iterdir()) == []


def test_a_blob_whose_bytes_changed_is_an_error_naming_it(tmp_path):
    blobs = BlobStore(tmp_path)
    digest = blobs.put(b"original bytes")
    blobs.path(digest).write_bytes(b"tampered bytes")
    with pytest.raises(InvalidFileError, match=f"blob {digest[:12]}.*corrupt"):
        blobs.get(digest)


def test_a_missing_blob_is_an_error_naming_it(tmp_path):
    blobs = BlobStore(tmp_path)
    digest = hashlib.sha256(b"never stored").hexdigest()
    with pytest.raises(InvalidFileError, match=f"blob {digest[:12]}.*missing"):
        blobs.get(digest)


def test_put_rewrites_a_truncated_copy(tmp_path):
    blobs = BlobStore(tmp_path)
    digest = blobs.put(b"0123456789")
    blobs.path(digest).write_bytes(b"01234")
    assert blobs.put(b"0123456789") == digest
    assert blobs.get(digest) == b"0123456789"


def test_put_repairs_a_copy_of_the_right_size_whose_bytes_changed(tmp_path):
    blobs = BlobStore(tmp_path)
    digest = blobs.put(b"0123456789")
    damaged = bytearray(b"0123456789")
    damaged[4] ^= 0x01
    blobs.path(digest).write_bytes(bytes(damaged))
    assert blobs.put(b"0123456789") == digest
    assert blobs.path(digest).read_bytes() == b"0123456789"
    assert blobs.get(digest) == b"0123456789"
    assert list((tmp_path / "tmp").iterdir()) == []


def test_put_leaves_an_intact_copy_in_place(tmp_path):
    blobs = BlobStore(tmp_path)
    digest = blobs.put(b"stored once")
    before = blobs.path(digest).stat().st_ino
    blobs.put(b"stored once")
    assert blobs.path(digest).stat().st_ino == before


@pytest.mark.parametrize("digest", ["../../etc/passwd", "ABC", "g" * 64, "A" * 64])
def test_a_name_that_is_not_a_sha256_is_refused(tmp_path, digest):
    with pytest.raises(StoreError, match="not a sha256"):
        BlobStore(tmp_path).path(digest)


def test_sweep_removes_unkept_blobs_and_dead_writers_temp_files(tmp_path):
    blobs = BlobStore(tmp_path)
    kept, dropped = blobs.put(b"kept"), blobs.put(b"dropped")
    dead = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"],
        check=True,
        capture_output=True,
        text=True,
    )
    dead_temp = tmp_path / "tmp" / f"{dead.stdout.strip()}.half-written"
    live_temp = tmp_path / "tmp" / f"{os.getpid()}.in-flight"
    dead_temp.write_bytes(b"partial")
    live_temp.write_bytes(b"partial")
    assert blobs.sweep({kept}) == 1
    assert list(blobs.digests()) == [kept]
    assert not blobs.has(dropped)
    assert not dead_temp.exists()
    assert live_temp.exists()


def test_a_blob_over_the_size_limit_is_refused_before_reading(tmp_path, monkeypatch):
    monkeypatch.setattr(sources, "MAX_FILE_BYTES", 1000)
    blobs = BlobStore(tmp_path)
    digest = blobs.put(b"small")
    os.truncate(blobs.path(digest), 32 * 1024**3)  # sparse: reading it would take 32 GiB
    with pytest.raises(StoreError, match=f"blob {digest[:12]}… .* is {32 * 1024**3} bytes"):
        blobs.get(digest)


def test_a_symlinked_blob_is_neither_present_nor_counted(tmp_path):
    outside = tmp_path / "outside"
    outside.write_bytes(b"x" * 4096)
    blobs = BlobStore(tmp_path / "blobs")
    digest = blobs.put(b"kept")
    blobs.path(digest).unlink()
    blobs.path(digest).symlink_to(outside)
    assert not blobs.has(digest)
    assert blobs.size() == 0  # the link itself, not the 4096 bytes it points at
    assert blobs.put(b"kept") == digest
    assert blobs.has(digest)
    assert outside.read_bytes() == b"x" * 4096


@pytest.mark.parametrize("digest", ["../../etc/passwd", "A" * 64, "0" * 64 + "\n"])
def test_a_blob_source_refuses_a_digest_that_is_not_a_sha256(tmp_path, digest):
    with pytest.raises(ValueError, match="should match pattern"):
        BlobSource(sha256=digest, root=str(tmp_path))


def test_a_blob_source_serialises_its_size_only_when_known(tmp_path):
    digest = hashlib.sha256(b"x").hexdigest()
    assert "size" not in BlobSource(sha256=digest, root="r").model_dump()
    assert BlobSource(sha256=digest, root="r", size=1).model_dump(by_alias=True)["size"] == 1


def test_put_never_writes_through_a_symlinked_shard(tmp_path):
    blobs = BlobStore(tmp_path / "blobs")
    digest = hashlib.sha256(b"blob").hexdigest()
    outside = tmp_path / "outside"
    outside.mkdir()
    (blobs.root / digest[:2]).symlink_to(outside)
    assert blobs.put(b"blob") == digest
    assert list(outside.iterdir()) == []
    assert not (blobs.root / digest[:2]).is_symlink()
    assert blobs.get(digest) == b"blob"


PUTTER = """
import os, sys
from toolwire.store.blobs import BlobStore
store = BlobStore(sys.argv[1])
print("ready", flush=True)
sys.stdin.readline()  # go: every writer has its store open (together.release_together)
for n in range(300):
    store.put(os.urandom(32) + n.to_bytes(2, "big"))
"""


@pytest.mark.slow
def test_writers_in_several_processes_creating_the_same_shards_all_succeed(tmp_path):
    for attempt in range(3):  # each round races to create up to 256 new shard directories
        root = tmp_path / f"store{attempt}"
        BlobStore(root)
        command = [sys.executable, "-c", PUTTER, str(root)]
        pipe = subprocess.PIPE
        children = [
            subprocess.Popen(command, stdin=pipe, stdout=pipe, stderr=pipe, text=True)
            for _ in range(8)
        ]
        release_together(children)  # all eight have imported: their shard creations overlap
        errors = [child.communicate(timeout=120)[1] for child in children]
        assert [c.returncode for c in children] == [0] * 8, [e for e in errors if e]
        assert len(list(BlobStore(root).digests())) == 8 * 300


def test_a_shard_another_writer_makes_between_the_check_and_mkdir_is_used(tmp_path, monkeypatch):
    from toolwire.store import blobs

    store, data = BlobStore(tmp_path / "store"), b"raced bytes"
    digest = hashlib.sha256(data).hexdigest()
    shard = store.path(digest).parent
    real, raced = blobs._is_plain_dir, []

    def other_writer_wins(path):
        if path == shard and not raced:  # the check sees no shard, then another process makes it
            raced.append(True)
            shard.mkdir()
            return False
        return real(path)

    monkeypatch.setattr(blobs, "_is_plain_dir", other_writer_wins)
    assert store.put(data) == digest
    assert raced and store.get(digest) == data
