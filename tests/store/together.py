"""Writer processes released at one moment, so their writes overlap on a busy machine too.

Each child prints ``ready`` once it has imported toolwire and opened its store, then waits for
a line on stdin; the parent reads every ``ready`` before it writes ``go`` to any. The fixed
sleeps this replaces (0.3 s, 1 s) were shorter than the writers' start on a loaded machine
(0.6-1.3 s for four, 1-2 s for eight, measured): each began as its own import ended, so the
overlap the tests name was left to chance."""

from __future__ import annotations

import select
import subprocess
import time

#: How long a child may take to import toolwire and open its store: a hang, not a slow start.
START_SECONDS = 120.0


def release_together(children: list[subprocess.Popen[str]]) -> None:
    """Wait until every child (text pipes on stdin and stdout) is ready, then say go to all.

    A child that exits or stays silent for ``START_SECONDS`` fails the test with its stderr;
    every child is then killed, so none is left waiting for its go.
    """
    deadline = time.monotonic() + START_SECONDS
    try:
        for child in children:
            assert child.stdout is not None
            left = max(deadline - time.monotonic(), 0)
            line = child.stdout.readline() if select.select([child.stdout], [], [], left)[0] else ""
            if line != "ready\n":
                child.kill()
                _, err = child.communicate(timeout=30)
                raise AssertionError(f"a writer did not start (it printed {line!r}): {err}")
    except BaseException:
        for child in children:
            child.kill()
            child.communicate(timeout=30)
        raise
    for child in children:
        assert child.stdin is not None
        child.stdin.write("go\n")
        child.stdin.flush()
