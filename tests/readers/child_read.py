"""Run ``read_file`` on one file in a child process under a memory cap and a deadline.

A hostile file may make a parser allocate gigabytes, abort the process or spin for minutes;
in a child process that costs the test run nothing. The child prints one JSON line: the
header of the output, or the ToolwireError it raised, the CPU time it and its read worker
used (a bound that holds on a busy machine, unlike wall time), and its peak resident memory: its own
(``VmHWM``, which starts afresh at exec) or its read worker's (``RUSAGE_CHILDREN`` once the
worker is reaped), whichever is larger. The parent's ``os.wait4`` figure is not used: on
Linux a child's ``ru_maxrss`` starts from the parent's resident size at fork.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

#: Address space the child may map: far above what reading any of the files needs, far below
#: what the undefended readers allocate on the hostile ones.
MEMORY_LIMIT = 3 * 1024**3

_CHILD = """
import json, resource, sys
limit = int(sys.argv[2])
resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
from toolwire.errors import ToolwireError
from toolwire.readers import read_file
try:
    out = read_file(sys.argv[1])
except ToolwireError as exc:
    result = {"error": type(exc).__name__, "message": str(exc)}
else:
    text = out.value[0].text
    result = {"header": text.split("\\n", 1)[0], "text": text[:2000],
              "parts": [getattr(p, "media_type", "text") for p in out.value[1:]]}
try:
    from toolwire.readers import isolation
    isolation.shutdown()  # reaps the read worker, so its peak counts below
except ImportError:
    pass
with open("/proc/self/status") as status:
    own = max(int(line.split()[1]) for line in status if line.startswith("VmHWM"))
own_usage = resource.getrusage(resource.RUSAGE_SELF)
workers = resource.getrusage(resource.RUSAGE_CHILDREN)
result["peak_kb"] = max(own, workers.ru_maxrss)
result["host_kb"] = own
result["cpu"] = sum(u.ru_utime + u.ru_stime for u in (own_usage, workers))
print(json.dumps(result))
"""


@dataclass(frozen=True)
class ChildRead:
    """What the child reported, how it ended, and what it cost."""

    result: dict[str, Any]
    status: int  # exit status, or -signal
    seconds: float
    cpu_seconds: float
    peak_mb: float
    stderr: str
    host_mb: float = float("inf")  # the child's own peak: the host's, without its worker's

    @property
    def message(self) -> str:
        return str(self.result.get("message") or self.result.get("header") or "")


def read_in_child(
    path: Path,
    timeout: float,
    memory_limit: int = MEMORY_LIMIT,
    environment: dict[str, str] | None = None,
) -> ChildRead:
    """Read ``path`` in a fresh interpreter; kill it (status -SIGKILL) at ``timeout``.

    ``environment`` is added to this process's environment for the child."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        started = time.monotonic()
        process = subprocess.Popen(
            [sys.executable, "-c", _CHILD, str(path), str(memory_limit)],
            stdout=out,
            stderr=err,
            env={**os.environ, **(environment or {})},
            start_new_session=True,
        )
        status = _wait(process, started + timeout)
        seconds = time.monotonic() - started
        out.seek(0)
        err.seek(0)
        lines = out.read().decode("utf-8", "replace").strip().splitlines()
        stderr = err.read().decode("utf-8", "replace")
    result = json.loads(lines[-1]) if lines and lines[-1].startswith("{") else {}
    peak_mb = result.pop("peak_kb", float("inf")) / 1024
    host_mb = result.pop("host_kb", float("inf")) / 1024
    cpu_seconds = result.pop("cpu", float("inf"))
    return ChildRead(result, status, seconds, cpu_seconds, peak_mb, stderr, host_mb)


def _wait(process: subprocess.Popen[bytes], deadline: float) -> int:
    """The exit status (-SIGKILL when the child and its read worker were killed at the
    deadline)."""
    try:
        return process.wait(timeout=max(deadline - time.monotonic(), 0))
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        return process.wait()
