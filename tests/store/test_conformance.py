"""One suite, every backend (conftest.BACKENDS): SQLite or PostgreSQL rows, directory or S3 blobs.

PostgreSQL is a private cluster these tests start; S3 is moto's server on 127.0.0.1 — an
emulator, reached through the standard AWS_* settings exactly as a real bucket would be.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

import toolwire as tw
from toolwire.request import encode

from .conftest import Backend
from .together import release_together

EXAMPLES = Path(__file__).parents[2] / "examples"
PHOTO = EXAMPLES / "photo.png"
#: Writers × appends each in the concurrency test (the issue's figure: 8 × 200).
WRITERS, APPENDS = 8, int(os.environ.get("TOOLWIRE_STORE_APPENDS", "200"))

WRITER = """
import os, sys
import toolwire as tw
location, blobs, session, writer, count, photo_path = sys.argv[1:7]
photo = open(photo_path, "rb").read()
store = tw.SessionStore(location, blobs=blobs or None)
print("ready", flush=True)
sys.stdin.readline()  # go: every writer has its store open (together.release_together)
for n in range(int(count)):
    unique = b"\\x89PNG\\r\\n\\x1a\\n" + f"{writer}-{n}".encode() + os.urandom(64)
    parts = [tw.Text(text=f"{writer} {n}"), tw.File.from_bytes(photo), tw.File.from_bytes(unique)]
    store.append(session, tw.User(parts))
"""

VICTIM = """
import os, sys
import toolwire as tw
store = tw.SessionStore(sys.argv[1], blobs=sys.argv[2] or None)
n = 0
while True:
    big = b"\\x89PNG\\r\\n\\x1a\\n" + os.urandom(256 * 1024)
    parts = [tw.Text(text=f"big {n}"), tw.File.from_bytes(big), tw.File.from_bytes(big[:999])]
    position = store.append(sys.argv[3], tw.User(parts))
    print(position, flush=True)
    n += 1
"""


def _conversation(folder: Path) -> list[object]:
    shot, pdf = folder / "shot.png", folder / "report.pdf"
    shutil.copy(PHOTO, shot)
    shutil.copy(EXAMPLES / "report.pdf", pdf)
    return [
        tw.System("You look at files."),
        tw.User([tw.Text(text="What is this?"), tw.File.from_path(shot)]),
        tw.Assistant([tw.ToolCall(id="c1", name="fetch", arguments={"what": "report"})]),
        tw.ToolResult.of("c1", "fetch", [tw.File.from_path(pdf, name="report.pdf"), "p. 1"]),
        tw.Assistant("Done."),
    ]


@pytest.mark.parametrize("model", ["anthropic:claude-sonnet-4-5", "openai:gpt-5"])
def test_a_session_replays_exactly_after_the_original_files_are_deleted(
    backend: Backend, tmp_path: Path, model: str
) -> None:
    originals = tmp_path / "originals"
    originals.mkdir()
    messages = _conversation(originals)
    expected = encode(messages, model, on_unsupported="text").to_json()
    with backend.open() as store:
        assert store.extend("s1", messages[:2]) == [0, 1]
        assert store.extend("s1", messages[2:]) == [2, 3, 4]
    shutil.rmtree(originals)
    with backend.open() as store:  # a new connection: nothing cached from the writes
        loaded = store.load("s1")
        again = encode(loaded, model, on_unsupported="text").to_json()
        assert again == expected
        assert tw.load_conversation(tw.dump_conversation(loaded), trust=("paths",))[3] == loaded[3]
        (info,) = store.list_sessions()
    assert (info.id, info.messages, info.files) == ("s1", 5, 2)
    assert info.file_bytes == PHOTO.stat().st_size + (EXAMPLES / "report.pdf").stat().st_size


def test_append_with_expect_adds_only_at_the_count_it_names(backend: Backend) -> None:
    with backend.open() as store:
        assert store.append("s1", tw.User("first"), expect=0) == 0
        with pytest.raises(tw.ConflictError, match=r"'s1' holds 1 messages, not the 0") as info:
            store.append("s1", tw.User("stale"), expect=0)
        assert info.value.current == 1
        photo = tw.File.from_path(PHOTO)
        with pytest.raises(tw.ConflictError) as info:
            store.extend("s1", [tw.User([photo]), tw.User("b")], expect=2)
        assert info.value.current == 1
        assert store.extend("s1", [tw.User([photo]), tw.User("b")], expect=1) == [1, 2]
        with pytest.raises(tw.ConflictError) as info:
            store.append("new", tw.User("x"), expect=1)  # a session that does not exist holds 0
        assert info.value.current == 0
        assert "new" not in store
        assert [len(store.load("s1"))] == [3]


def test_count_is_one_sessions_message_count_and_an_unknown_id_is_a_store_error(
    backend: Backend,
) -> None:
    with backend.open() as store:
        store.extend("s1", [tw.User("a"), tw.User("b")])
        store.append("s2", tw.User("other"))
        assert (store.count("s1"), store.count("s2")) == (2, 1)
        store.append("s1", tw.User("c"))
        assert store.count("s1") == 3
        with pytest.raises(
            tw.StoreError, match=r"no session 's11' in this store. Did you mean 's1'"
        ):
            store.count("s11")
        store.delete("s2")
        with pytest.raises(tw.StoreError, match="no session 's2'"):
            store.count("s2")
        with pytest.raises(tw.StoreError, match="non-empty string"):
            store.count("")


def test_a_tampered_blob_is_refused_naming_session_file_and_hash(backend: Backend) -> None:
    photo = tw.File.from_path(PHOTO, name="photo.png")
    digest = photo.source.sha256()
    with backend.open() as store:
        store.append("s1", tw.User([photo]))
        flipped = bytearray(PHOTO.read_bytes())
        flipped[100] ^= 1
        _overwrite_blob(backend, store, digest, bytes(flipped))
        with pytest.raises(
            tw.StoreError, match=rf"session 's1', message 0, file photo\.png.*{digest[:12]}"
        ):
            store.load("s1")


def _overwrite_blob(backend: Backend, store: tw.SessionStore, digest: str, data: bytes) -> None:
    """What someone with write access to the bucket or directory might do."""
    if backend.blobs and backend.blobs.startswith("s3://"):
        import boto3

        bucket, _, prefix = backend.blobs[len("s3://") :].partition("/")
        key = f"{prefix}/{digest[:2]}/{digest}"
        boto3.client("s3").put_object(Bucket=bucket, Key=key, Body=data)
    else:
        path = Path(str(store.blobs.root)) / digest[:2] / digest
        path.chmod(0o644)
        path.write_bytes(data)


def test_putting_the_bytes_again_repairs_a_damaged_blob_and_never_replaces_a_good_one(
    backend: Backend,
) -> None:
    data = PHOTO.read_bytes()
    with backend.open() as store:
        digest = store.blobs.put(data)
        _overwrite_blob(backend, store, digest, data[:-1] + b"\0")
        assert store.blobs.put(data) == digest
        assert store.blobs.get(digest) == data
        assert store.blobs.put(data) == digest
        assert list(store.blobs.digests()) == [digest]


def test_delete_and_gc_collect_only_unreferenced_blobs(backend: Backend) -> None:
    photo, wav = tw.File.from_path(PHOTO), tw.File.from_path(EXAMPLES / "tone.wav")
    with backend.open() as store:
        store.append("keep", tw.User([photo]))
        store.append("drop", tw.User([photo, wav]))
        orphan = store.blobs.put(b"left by a writer killed before its row committed")
        assert store.delete("drop") == 1  # the wav: only the session's own blobs are looked at
        assert set(store.blobs.digests()) == {photo.source.sha256(), orphan}
        assert store.gc() == 1  # the orphan
        assert list(store.blobs.digests()) == [photo.source.sha256()]
        assert not store.blobs.has(orphan)
        assert store.load("keep")[0].content[0].read() == photo.read()
        with pytest.raises(tw.StoreError, match="no session 'drop'"):
            store.delete("drop")


def test_an_append_whose_blob_a_gc_removed_before_its_commit_writes_it_back(
    backend: Backend, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The race the epoch closes: blob written, a collection runs (another worker), then the
    append's transaction commits — the row must never reference a missing blob."""
    with backend.open() as store, backend.open() as other:
        put, collections = store.blobs.put, []

        def put_then_collect_elsewhere(data: bytes) -> str:
            digest = put(data)
            if not collections:  # the first put only; the append's put-back is the second
                collections.append(other.gc())
            return digest

        monkeypatch.setattr(store.blobs, "put", put_then_collect_elsewhere)
        store.append("s1", tw.User([tw.File.from_path(PHOTO)]))
        monkeypatch.undo()
        assert collections == [1]  # the blob was not referenced yet: it went
        assert other.load("s1")[0].content[0].read() == PHOTO.read_bytes()


def test_import_export_and_copy_between_stores_keep_the_session(
    backend: Backend, tmp_path: Path
) -> None:
    with tw.SessionStore(tmp_path / "local") as local, backend.open() as store:
        local.append("s1", tw.User([tw.Text(text="hi"), tw.File.from_path(PHOTO)]))
        assert local.copy_to(store) == ["s1"]
        assert store.load("s1") != local.load("s1")  # the blobs are the other store's …
        assert store.export("s1") == local.export("s1")  # … the content is the same
        with pytest.raises(tw.StoreError, match="already holds session"):
            local.copy_to(store)
        assert store.import_(local.export("s1"), "s2") == "s2"
        assert store.export("s2").replace('"s2"', '"s1"', 1) == local.export("s1")


def _spawn(script: str, *args: str, **kw: object) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-c", script, *args], text=True, **kw)  # type: ignore[call-overload]


@pytest.mark.slow
def test_eight_processes_appending_at_once_lose_nothing(backend: Backend) -> None:
    backend.open().close()  # schema created once, before the race
    plan = [("shared" if w < WRITERS // 2 else f"own-{w}", f"w{w}") for w in range(WRITERS)]
    pipe = subprocess.PIPE
    args = [[*backend.args, s, w, str(APPENDS), str(PHOTO)] for s, w in plan]
    children = [_spawn(WRITER, *a, stdin=pipe, stdout=pipe, stderr=pipe) for a in args]
    release_together(children)  # every writer has its store open: the appends overlap
    errors = [child.communicate(timeout=300)[1] for child in children]  # every child waited for
    assert [child.returncode for child in children] == [0] * WRITERS, [e for e in errors if e]
    with backend.open() as store:
        shared = [m.content[0].text for m in store.load("shared")]
        assert len(shared) == WRITERS // 2 * APPENDS
        for session, writer in plan:
            texts = (
                shared if session == "shared" else [m.content[0].text for m in store.load(session)]
            )
            assert [t for t in texts if t.startswith(f"{writer} ")] == [
                f"{writer} {n}" for n in range(APPENDS)
            ]
        assert len(list(store.blobs.digests())) == 1 + WRITERS * APPENDS  # the photo once
        assert store.gc() == 0


def _kill_at_random(backend: Backend, session: str, after: float) -> int:
    """Start a writer of 256 KB blobs, kill -9 it after ``after`` s; last acknowledged position."""
    child = _spawn(VICTIM, *backend.args, session, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert child.stdout is not None
    first = child.stdout.readline()
    if not first:  # it died before its first append: say why, not ValueError
        raise AssertionError(f"the writer failed: {child.communicate(timeout=30)[1]}")
    acknowledged = [int(first)]
    time.sleep(after)
    os.kill(child.pid, signal.SIGKILL)
    rest, err = child.communicate(timeout=30)
    assert child.returncode == -signal.SIGKILL, err
    return max(acknowledged + [int(line) for line in rest.split()])


@pytest.mark.slow
def test_writers_killed_at_random_moments_lose_nothing_acknowledged(backend: Backend) -> None:
    backend.open().close()
    delays = [0.0, 0.013, 0.029, 0.047, 0.11]
    last = {f"victim-{k}": _kill_at_random(backend, f"victim-{k}", d) for k, d in enumerate(delays)}
    with backend.open() as store:
        for session, position in last.items():
            messages = store.load(session)  # reads and verifies every blob
            assert len(messages) >= position + 1
            texts = [m.content[0].text for m in messages]
            assert texts == [f"big {n}" for n in range(len(messages))]
        store.gc()
        referenced = {f.source.sha256() for s in last for m in store.load(s) for f in m.content[1:]}
        assert set(store.blobs.digests()) == referenced
        assert (
            store.append("victim-0", tw.User("the store still takes appends"))
            == len(store.load("victim-0")) - 1
        )


def test_a_blob_grown_after_it_was_recorded_is_refused(backend: Backend) -> None:
    photo = tw.File.from_path(PHOTO, name="photo.png")
    with backend.open() as store:
        store.append("s1", tw.User([photo]))
        _overwrite_blob(backend, store, photo.source.sha256(), PHOTO.read_bytes() + b"more")
        with pytest.raises(tw.StoreError, match=r"session 's1', message 0, file photo\.png"):
            store.load("s1")


def test_workers_retrying_on_conflict_with_expect_add_each_message_once(backend: Backend) -> None:
    """Optimistic concurrency as an agent service uses it: read, decide, append if unchanged."""
    backend.open().close()
    conflicts: list[int] = []

    def worker(name: str) -> None:
        with backend.open() as store:
            for n in range(8):
                while True:
                    seen = len(store.load("s")) if "s" in store else 0
                    try:
                        store.append("s", tw.User(f"{name} {n}"), expect=seen)
                        break
                    except tw.ConflictError as exc:
                        conflicts.append(exc.current)

    threads = [threading.Thread(target=worker, args=(f"w{k}",)) for k in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    with backend.open() as store:
        texts = [m.content for m in store.load("s")]
    assert sorted(texts) == sorted(f"w{k} {n}" for k in range(4) for n in range(8))
    assert all(0 < current <= 32 for current in conflicts)
