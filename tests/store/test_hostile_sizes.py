"""Imports and stored rows whose parsed form would dwarf their text (issue 33, high).

JSON of empty containers costs the process about 80 times its size once parsed: a 20 MB
export took a host to 1.6 GB, 60 MB past 3.6 GB and a pydantic-core panic. The store counts a
document's values before it parses anything (``store.trust.values``) and refuses one over
``max_values``; a stored row is also held to ``MAX_ROW_BYTES``. Each hostile case runs in a
child process whose peak memory (``VmHWM``) is asserted (stopped if it never ends).
"""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
import textwrap
from contextlib import closing
from pathlib import Path

import pytest

import toolwire as tw
from toolwire.store import SessionStore
from toolwire.store.trust import MAX_JSON_VALUES, values

#: Seconds after which the child is stopped and the test fails: a guard against a walk that
#: never ends (an exponential one), far above any machine's time; speed is not asserted here.
HANG_SECONDS = 120
PEAK_MB = 300


def run_child(code: str, *args: str) -> dict[str, object]:
    """Run ``code`` in a fresh interpreter; it prints one JSON line: its result, with the
    child's peak memory in MB added."""
    script = textwrap.dedent(code) + textwrap.dedent(
        """
        import json as _json
        # VmHWM starts afresh at exec; ru_maxrss would start from the parent's size at fork
        _status = open("/proc/self/status").read().splitlines()
        RESULT["peak_mb"] = max(int(l.split()[1]) for l in _status if l.startswith("VmHWM")) / 1024
        print(_json.dumps(RESULT))
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", script, *args],
        capture_output=True,
        text=True,
        timeout=HANG_SECONDS,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout.strip().splitlines()[-1])  # type: ignore[no-any-return]


IMPORT = """
import sys, time
import toolwire as tw
count = int(sys.argv[2])
text = '{"format":"toolwire.session","version":1,"id":"x","messages":[' + ",".join(["[]"] * count) + "]}"
store = tw.SessionStore(sys.argv[1])
start = time.perf_counter()
try:
    store.import_(text)
    RESULT = {"error": None}
except tw.ToolwireError as exc:
    RESULT = {"error": type(exc).__name__ + ": " + str(exc)}
RESULT["seconds"] = time.perf_counter() - start
RESULT["text_mb"] = len(text) / 1e6
"""


@pytest.mark.parametrize("megabytes", [20, 60])
def test_an_export_of_empty_containers_is_refused_before_it_is_parsed(
    tmp_path: Path, megabytes: int
) -> None:
    found = run_child(IMPORT, str(tmp_path / "store"), str(megabytes * 1_000_000 // 3))
    assert str(found["error"]).startswith("StoreError: the session export holds more than")
    assert "max_values" in str(found["error"])
    assert float(found["peak_mb"]) < PEAK_MB + 2 * megabytes  # type: ignore[arg-type]  # the text itself


LOAD = """
import sys, time
import toolwire as tw
store = tw.SessionStore(sys.argv[1])
start = time.perf_counter()
try:
    store.load("s1")
    RESULT = {"error": None}
except tw.ToolwireError as exc:
    RESULT = {"error": type(exc).__name__ + ": " + str(exc)}
RESULT["seconds"] = time.perf_counter() - start
"""


def stored_row(tmp_path: Path, body: str) -> Path:
    """A store whose session s1 holds one message, its row then replaced by ``body``."""
    store = SessionStore(tmp_path / "store")
    store.append("s1", tw.User("hi"))
    with closing(sqlite3.connect(store.path / "sessions.db")) as conn, conn:
        conn.execute("UPDATE messages SET body = ? WHERE position = 0", (body,))
    return store.path


def test_a_stored_row_of_empty_containers_is_refused_before_it_is_parsed(tmp_path: Path) -> None:
    output = "[" + ",".join(["[]"] * 7_000_000) + "]"
    body = '{"role": "tool", "call_id": "c", "name": "t", "output": {"type": "json", "value": '
    path = stored_row(tmp_path, body + output + "}}")
    found = run_child(LOAD, str(path))
    assert str(found["error"]).startswith("StoreError: session 's1', message 0 is unreadable:")
    assert "JSON values" in str(found["error"])
    assert float(found["peak_mb"]) < PEAK_MB  # type: ignore[arg-type]


def test_a_stored_row_over_the_row_size_is_refused(tmp_path: Path) -> None:
    text = "x" * (64 * 1024 * 1024 + 1)
    path = stored_row(tmp_path, json.dumps({"role": "user", "content": text}))
    with pytest.raises(tw.StoreError, match=r"message 0 is unreadable: its row is .* bytes"):
        SessionStore(path).load("s1")


def test_text_full_of_commas_and_brackets_is_counted_without_its_strings(tmp_path: Path) -> None:
    """A legitimate export whose texts hold millions of commas (a CSV a tool returned) is
    counted with its strings left out, and imports."""
    csv = "a,b,[c],{d}\n" * 400_000  # 2.4 million commas and brackets inside one string
    source = SessionStore(tmp_path / "source")
    source.append("s1", tw.User("the table:"))
    source.append("s1", tw.User(csv))
    exported = source.export("s1")
    assert exported.count(",") > MAX_JSON_VALUES
    assert values(exported, MAX_JSON_VALUES) < 100
    target = SessionStore(tmp_path / "target")
    assert target.import_(exported, "copy") == "copy"
    assert target.load("copy")[1] == tw.User(csv)


def test_the_value_count_is_an_upper_bound_of_what_json_parses() -> None:
    documents = [
        '{"a": [1, 2, {"b": "c,d[{"}], "e": null}',
        '[[], [[]], {}, "x\\"y,", 0.5]',
        "[]",
        '"just, a string"',
    ]
    for text in documents:
        parsed = json.loads(text)
        assert values(text, 0) >= _count(parsed), text
        assert values(text.encode(), 0) == values(text, 0)


def _count(value: object) -> int:
    if isinstance(value, list):
        return 1 + sum(_count(v) for v in value)
    if isinstance(value, dict):
        return 1 + sum(_count(v) for v in value.values())
    return 1
