"""Real processes: concurrent appends lose nothing; a kill -9 mid-append leaves the store sound."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from contextlib import closing
from pathlib import Path

import toolwire as tw
from toolwire.store import SessionStore

from .together import release_together

WRITER = """
import os, sys
import toolwire as tw
store_dir, session, writer, count = sys.argv[1:5]
photo = open(sys.argv[5], "rb").read()
store = tw.SessionStore(store_dir)
print("ready", flush=True)
sys.stdin.readline()  # go: every writer has its store open (together.release_together)
for n in range(int(count)):
    unique = b"\\x89PNG\\r\\n\\x1a\\n" + f"{writer}-{n}".encode() + os.urandom(2000)
    parts = [tw.Text(text=f"{writer} {n}"), tw.File.from_bytes(photo), tw.File.from_bytes(unique)]
    store.append(session, tw.User(parts))
"""

VICTIM = """
import os, sys
import toolwire as tw
store = tw.SessionStore(sys.argv[1])
n = 0
while True:
    big = b"\\x89PNG\\r\\n\\x1a\\n" + os.urandom(4 * 1024 * 1024)
    position = store.append(sys.argv[2], tw.User([tw.Text(text=f"big {n}"), tw.File.from_bytes(big)]))
    print(position, flush=True)
    n += 1
"""

PHOTO = Path(__file__).parents[2] / "examples" / "photo.png"


def _writer(store_dir: Path, session: str, writer: str, count: int) -> subprocess.Popen[str]:
    """A WRITER child, waiting for its go (together.release_together)."""
    command = [
        sys.executable,
        "-c",
        WRITER,
        str(store_dir),
        session,
        writer,
        str(count),
        str(PHOTO),
    ]
    pipe = subprocess.PIPE
    return subprocess.Popen(command, stdin=pipe, stdout=pipe, stderr=pipe, text=True)


def _writers(store_dir: Path, plan: list[tuple[str, str]], count: int) -> None:
    children = [_writer(store_dir, session, writer, count) for session, writer in plan]
    release_together(children)  # every writer has its store open: the appends overlap
    for child in children:
        _, err = child.communicate(timeout=60)
        assert child.returncode == 0, err


def test_processes_appending_at_once_to_the_same_and_other_sessions_lose_nothing(tmp_path):
    store_dir = tmp_path / "store"
    SessionStore(store_dir).close()
    plan = [("shared", "w0"), ("shared", "w1"), ("shared", "w2"), ("own-3", "w3")]
    _writers(store_dir, plan, count=15)
    store = SessionStore(store_dir)
    shared = [m.content[0].text for m in store.load("shared")]
    assert len(shared) == 45
    for writer in ("w0", "w1", "w2"):
        assert [t for t in shared if t.startswith(writer)] == [f"{writer} {n}" for n in range(15)]
    assert [m.content[0].text for m in store.load("own-3")] == [f"w3 {n}" for n in range(15)]
    assert len(list(store.blobs.digests())) == 1 + 4 * 15  # the shared photo once
    assert store.gc() == 0


def _kill_mid_append(store_dir: Path, session: str, when_blob_in_flight: bool) -> int:
    """Start a child appending 4 MB blobs, kill -9 it mid-way; return the last committed position."""
    child = subprocess.Popen(
        [sys.executable, "-c", VICTIM, str(store_dir), session], stdout=subprocess.PIPE, text=True
    )
    assert child.stdout is not None
    committed = [int(child.stdout.readline()) for _ in range(3)]
    deadline = time.monotonic() + 5
    while when_blob_in_flight and time.monotonic() < deadline:
        if any((store_dir / "blobs" / "tmp").iterdir()):
            break  # a blob is being written: kill now, between its temp file and its row
    os.kill(child.pid, signal.SIGKILL)
    rest, _ = child.communicate(timeout=10)
    assert child.returncode == -signal.SIGKILL
    return max(committed + [int(line) for line in rest.split()])


def test_a_process_killed_mid_append_leaves_the_store_consistent(tmp_path):
    store_dir = tmp_path / "store"
    SessionStore(store_dir).close()
    last = {
        "in-flight": _kill_mid_append(store_dir, "in-flight", when_blob_in_flight=True),
        "any-time": _kill_mid_append(store_dir, "any-time", when_blob_in_flight=False),
    }
    store = SessionStore(store_dir)
    with closing(sqlite3.connect(store_dir / "sessions.db")) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        assert conn.execute("PRAGMA foreign_key_check").fetchall() == []
        referenced = {row[0] for row in conn.execute("SELECT sha256 FROM message_blobs")}
    for session, position in last.items():
        messages = store.load(session)  # reads and verifies every blob
        assert len(messages) >= position + 1  # every reported append is there
        assert [m.content[0].text for m in messages] == [f"big {n}" for n in range(len(messages))]
    store.gc()
    assert set(store.blobs.digests()) == referenced
    assert list((store_dir / "blobs" / "tmp").iterdir()) == []
    store.append("in-flight", tw.User("the store still takes appends"))


def test_gc_running_while_another_process_appends_never_removes_a_referenced_blob(tmp_path):
    store_dir = tmp_path / "store"
    store = SessionStore(store_dir)
    child = _writer(store_dir, "busy", "w0", 40)
    release_together([child])  # the sweeps below run while it appends, not while it imports
    sweeps = 0
    while child.poll() is None:
        store.gc()
        sweeps += 1
        time.sleep(0.005)  # a writer waiting on the lock gets its turn
    _, err = child.communicate()
    assert child.returncode == 0, err
    assert sweeps > 1
    assert [m.content[0].text for m in store.load("busy")] == [f"w0 {n}" for n in range(40)]
    assert len(list(store.blobs.digests())) == 1 + 40
