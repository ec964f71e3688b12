"""SessionStore against the naive store (base64 inline in the rows), measured in the same run.

A session of 500 messages (an assistant tool call and its result, over and over) where 100
results carry a 640x480 PNG screenshot. Both stores append one message per transaction with
the same SQLite settings (WAL, synchronous=FULL), then load the whole session back.

    .venv/bin/python bench/store.py [--messages 500] [--images 100] [--distinct N]

``--distinct`` below ``--images`` makes screenshots repeat (the same screen seen again), which
the content-addressed store keeps once. Prints figures; asserts nothing about time.

``--backends`` measures each row/blob backend instead: a 60-turn
session carrying ~30 MB of media, appended then loaded, and 8 worker processes appending at
once, on SQLite or PostgreSQL rows with directory or S3 blobs (a private PostgreSQL cluster
and moto's S3 emulator on 127.0.0.1, started here as the tests start them).
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import sqlite3
import struct
import subprocess
import sys
import tempfile
import time
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import toolwire as tw

EXAMPLES = Path(__file__).parents[1] / "examples"


class NaiveStore:
    """The baseline: each message's JSON with file bytes inline as base64, one row each."""

    def __init__(self, path: Path) -> None:
        self.conn = sqlite3.connect(path, isolation_level=None)
        self.conn.execute("PRAGMA journal_mode = WAL")
        self.conn.execute("PRAGMA synchronous = FULL")
        self.conn.execute(
            "CREATE TABLE messages (session_id TEXT, position INTEGER, body TEXT, "
            "PRIMARY KEY (session_id, position))"
        )

    def append(self, session_id: str, message: Any) -> None:
        body = tw.dump_conversation([message])
        self.conn.execute("BEGIN IMMEDIATE")
        (position,) = self.conn.execute(
            "SELECT COALESCE(MAX(position) + 1, 0) FROM messages WHERE session_id = ?",
            (session_id,),
        ).fetchone()
        self.conn.execute("INSERT INTO messages VALUES (?, ?, ?)", (session_id, position, body))
        self.conn.execute("COMMIT")

    def load(self, session_id: str) -> list[Any]:
        rows = self.conn.execute(
            "SELECT body FROM messages WHERE session_id = ? ORDER BY position", (session_id,)
        ).fetchall()
        return [tw.load_conversation(body)[0] for (body,) in rows]

    def close(self) -> None:
        self.conn.close()


def screenshots(count: int) -> list[bytes]:
    """``count`` distinct valid PNGs: photo.png with a numbered tEXt chunk before IEND."""
    photo = (EXAMPLES / "photo.png").read_bytes()
    head, iend = photo[:-12], photo[-12:]
    shots = []
    for n in range(count):
        payload = b"tEXt" + f"shot\x00{n}".encode()
        chunk = struct.pack(">I", len(payload) - 4) + payload
        shots.append(head + chunk + struct.pack(">I", zlib.crc32(payload)) + iend)
    return shots


def session(messages: int, images: int, distinct: int) -> list[Any]:
    """System, user, then (assistant call, tool result) pairs; ``images`` results hold a PNG."""
    shots = screenshots(distinct)
    pairs = (messages - 2) // 2
    every = max(1, pairs // images)
    out: list[Any] = [tw.System("You operate a browser."), tw.User("Book the cheapest flight.")]
    shown = 0
    for n in range(pairs):
        call = tw.ToolCall(id=f"c{n}", name="browser", arguments={"step": n})
        out.append(tw.Assistant([tw.Text(text=f"Step {n}."), call]))
        if n % every == 0 and shown < images:
            image = tw.File.from_bytes(shots[shown % distinct], media_type="image/png")
            value: Any = [f"screen after step {n}", image]
            shown += 1
        else:
            value = {"step": n, "status": "ok", "title": f"Page {n}"}
        out.append(tw.ToolResult.of(f"c{n}", "browser", value))
    return out[:messages]


def timed(action: Callable[[], Any]) -> tuple[float, Any]:
    start = time.perf_counter()
    result = action()
    return time.perf_counter() - start, result


def dir_size(path: Path) -> int:
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file())


def measure(messages: list[Any], work: Path) -> dict[str, dict[str, float]]:
    store = tw.SessionStore(work / "store")
    naive = NaiveStore(work / "naive.db")
    figures: dict[str, dict[str, float]] = {}
    append_s, _ = timed(lambda: [store.append("bench", m) for m in messages])
    naive_append_s, _ = timed(lambda: [naive.append("bench", m) for m in messages])
    load_s, loaded = timed(lambda: store.load("bench"))
    naive_load_s, naive_loaded = timed(lambda: naive.load("bench"))
    assert len(loaded) == len(naive_loaded) == len(messages)
    store.close()
    naive.close()
    figures["SessionStore"] = {
        "append_s": append_s,
        "load_s": load_s,
        "db_bytes": (work / "store" / "sessions.db").stat().st_size,
        "blob_bytes": dir_size(work / "store" / "blobs"),
    }
    figures["naive base64 rows"] = {
        "append_s": naive_append_s,
        "load_s": naive_load_s,
        "db_bytes": (work / "naive.db").stat().st_size,
        "blob_bytes": 0,
    }
    return figures


def report(figures: dict[str, dict[str, float]], label: str) -> None:
    ours, base = figures["SessionStore"], figures["naive base64 rows"]
    print(f"\n{label}")
    print(f"{'':20} {'append s':>9} {'load s':>8} {'db MB':>8} {'blobs MB':>9} {'total MB':>9}")
    for name, f in figures.items():
        total = (f["db_bytes"] + f["blob_bytes"]) / 1e6
        print(
            f"{name:20} {f['append_s']:9.3f} {f['load_s']:8.3f} {f['db_bytes'] / 1e6:8.2f} "
            f"{f['blob_bytes'] / 1e6:9.2f} {total:9.2f}"
        )
    ratio_total = (ours["db_bytes"] + ours["blob_bytes"]) / base["db_bytes"]
    print(
        f"{'ratio (ours/naive)':20} {ours['append_s'] / base['append_s']:9.2f} "
        f"{ours['load_s'] / base['load_s']:8.2f} {ours['db_bytes'] / base['db_bytes']:8.3f} "
        f"{'':9} {ratio_total:9.2f}"
    )


# --- backends -------------------------------------------------------------------------------

TURNS, MEDIA_BYTES, WORKERS, WORKER_APPENDS = 60, 500_000, 8, 30

WORKER = """
import os, sys, time
import toolwire as tw
location, blobs, session, count, go, size = sys.argv[1:7]
store = tw.SessionStore(location, blobs=blobs or None)
while not os.path.exists(go):
    time.sleep(0.001)
for n in range(int(count)):
    data = b"\\x89PNG\\r\\n\\x1a\\n" + os.urandom(int(size))
    store.append(session, tw.User([tw.Text(text=str(n)), tw.File.from_bytes(data)]))
"""


def turns(count: int) -> list[Any]:
    """``count`` turns: an assistant tool call and its result carrying a distinct image."""
    out: list[Any] = []
    for n in range(count):
        data = b"\x89PNG\r\n\x1a\n" + os.urandom(MEDIA_BYTES)
        call = tw.ToolCall(id=f"c{n}", name="screenshot", arguments={"step": n})
        out.append(tw.Assistant([call]))
        out.append(tw.ToolResult.of(f"c{n}", "screenshot", [tw.File.from_bytes(data)]))
    return out


class Clock:
    """Seconds spent in named methods of an object (wrapped in place)."""

    def __init__(self) -> None:
        self.spent: dict[str, float] = {}

    def wrap(self, owner: Any, name: str, label: str) -> None:
        inner = getattr(owner, name)

        def timed_call(*args: Any, **kwargs: Any) -> Any:
            start = time.perf_counter()
            try:
                return inner(*args, **kwargs)
            finally:
                self.spent[label] = self.spent.get(label, 0.0) + time.perf_counter() - start

        setattr(owner, name, timed_call)


def one_session(location: str, blobs: str | None, messages: list[Any]) -> dict[str, float]:
    store = tw.SessionStore(location, blobs=blobs)
    clock = Clock()
    clock.wrap(store.blobs, "put", "blob puts")
    clock.wrap(store._rows, "insert", "row transactions")
    append_s, _ = timed(lambda: [store.append("bench", m) for m in messages])
    store.close()
    store = tw.SessionStore(location, blobs=blobs)
    clock.wrap(store._rows, "messages", "row reads")
    load_s, loaded = timed(lambda: store.load("bench"))
    assert len(loaded) == len(messages)
    store.close()
    return {"append_s": append_s, "load_s": load_s, **clock.spent}


def workers(location: str, blobs: str | None, work: Path) -> float:
    """Seconds for WORKERS processes to append WORKER_APPENDS messages each to one session."""
    go = work / f"go-{time.monotonic_ns()}"
    args = [location, blobs or "", "shared", str(WORKER_APPENDS), str(go), str(MEDIA_BYTES // 4)]
    children = [subprocess.Popen([sys.executable, "-c", WORKER, *args]) for _ in range(WORKERS)]
    time.sleep(1.5)  # imports and connections done before the clock starts
    start = time.perf_counter()
    go.touch()
    assert all(child.wait() == 0 for child in children)
    return time.perf_counter() - start


def bench_backends() -> None:
    servers = _servers()
    messages = turns(TURNS)
    media = sum(len(m.output.value[0].read()) for m in messages[1::2])
    print(
        f"{TURNS} turns ({len(messages)} messages), {media / 1e6:.1f} MB of media; "
        f"{WORKERS} workers × {WORKER_APPENDS} appends of {MEDIA_BYTES // 4 // 1000} KB"
    )
    print(
        f"{'backend':14} {'append/s':>9} {'load s':>7} {'puts s':>7} {'rows s':>7} "
        f"{'read s':>7} {'8 workers append/s':>19}"
    )
    with servers.postgres() as pg, servers.s3(), tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        for n, name in enumerate(["sqlite+dir", "sqlite+s3", "postgres+dir", "postgres+s3"]):
            location, blobs = _place(name, n, pg, work)
            f = one_session(location, blobs, messages)
            location, blobs = _place(name, n + 10, pg, work)
            tw.SessionStore(location, blobs=blobs).close()
            rate = WORKERS * WORKER_APPENDS / workers(location, blobs, work)
            print(
                f"{name:14} {len(messages) / f['append_s']:9.1f} {f['load_s']:7.2f} "
                f"{f['blob puts']:7.2f} {f['row transactions']:7.2f} {f['row reads']:7.3f} "
                f"{rate:19.1f}"
            )


def _place(name: str, n: int, pg: str, work: Path) -> tuple[str, str | None]:
    rows, blobs = name.split("+")
    location = str(work / f"store-{n}")
    if rows == "postgres":
        import psycopg

        with psycopg.connect(pg, autocommit=True) as conn:
            conn.execute(f"CREATE DATABASE bench{n}")
        location = pg.rsplit("/", 1)[0] + f"/bench{n}"
    blob_location = str(work / f"blobs-{n}") if rows == "postgres" else None
    if blobs == "s3":
        blob_location = f"s3://toolwire-tests/bench-{n}"
    return location, blob_location


def _servers() -> Any:
    """tests/store/servers.py: the private PostgreSQL cluster and the S3 emulator."""
    path = Path(__file__).parents[1] / "tests" / "store" / "servers.py"
    spec = importlib.util.spec_from_file_location("store_servers", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--messages", type=int, default=500)
    parser.add_argument("--images", type=int, default=100)
    parser.add_argument("--distinct", type=int, default=None, help="distinct screenshots")
    parser.add_argument("--backends", action="store_true", help="SQLite/PostgreSQL × dir/S3")
    args = parser.parse_args()
    if args.backends:
        bench_backends()
        return
    distinct = args.distinct or args.images
    messages = session(args.messages, args.images, distinct)
    with tempfile.TemporaryDirectory(prefix="toolwire-bench-") as tmp:
        figures = measure(messages, Path(tmp))
    label = (
        f"{len(messages)} messages, {args.images} images ({distinct} distinct, "
        f"{len(screenshots(1)[0]) / 1e3:.0f} KB each)"
    )
    report(figures, label)


if __name__ == "__main__":
    main()
