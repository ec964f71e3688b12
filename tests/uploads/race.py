"""Two worker processes syncing the same file at the same moment (child_sync.py), against a
local Files API stand-in that answers slowly: the claim row must make one upload and the
other worker wait for its id, whatever store the workers share."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from .servers import State, files_server

CHILD = Path(__file__).with_name("child_sync.py")


def two_workers_sync(store: list[str], document: Path) -> tuple[list[dict[str, Any]], State]:
    """Each child's answer and the server's record. ``store`` is the store's arguments to
    child_sync.py after its first (a directory, or a database URL and a blob directory)."""
    with files_server("anthropic") as (url, state):
        state.delay = 1.0  # the second child claims while the first one's upload runs
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
        args = [sys.executable, str(CHILD), store[0], url, str(document), *store[1:]]
        children = [
            subprocess.Popen(
                args,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
                env=env,
            )  # fmt: skip
            for _ in range(2)
        ]
        try:
            answers = _race(children)
        except BaseException:  # a worker that failed leaves no process or open pipe behind
            for child in children:
                child.kill()
                for pipe in (child.stdin, child.stdout, child.stderr):
                    if pipe is not None:
                        pipe.close()
                child.wait()
            raise
    return answers, state


def _race(children: list[subprocess.Popen[str]]) -> list[dict[str, Any]]:
    for child in children:  # both ready before either starts: they race for the claim
        assert child.stdout is not None and child.stdin is not None
        line = child.stdout.readline()
        if line != "ready\n":
            child.kill()
            err = child.stderr.read() if child.stderr is not None else ""
            raise AssertionError(f"a worker did not start (it printed {line!r}): {err}")
    for child in children:
        child.stdin.write("go\n")  # type: ignore[union-attr]
        child.stdin.flush()  # type: ignore[union-attr]
    answers = []
    for child in children:
        out, err = child.communicate(timeout=60)
        assert child.returncode == 0, err
        answers.append(json.loads(out))
    return answers


def assert_uploaded_once(answers: list[dict[str, Any]], state: State) -> None:
    """One upload, the same id for both, and the waiting child never sent the bytes."""
    assert state.violations == []
    assert len(state.uploads) == 1
    assert answers[0]["file_id"] == answers[1]["file_id"]
    assert sorted(a["uploaded"] for a in answers) == [False, True]
    assert state.max_in_flight == 1
