"""One read worker process: its loop (in the child) and its handle (in the caller).

``Worker`` starts ``python -c`` with the caller's ``sys.path`` and the memory limit; in the
child, :func:`serve` limits its own address space, says it is ready, then serves one job at a
time until its input ends: unpickle the reader and the Job, run it, pickle the outcome. Frames
on the pipes are an 8-byte big-endian length and a pickle. What to do with an outcome, and
when to start or stop workers, is ``isolation``'s business.
"""

from __future__ import annotations

import contextlib
import json
import os
import pickle
import signal
import struct
import subprocess
import sys
import threading
import traceback
from collections.abc import Callable
from typing import IO

try:
    import fcntl
except ImportError:  # not POSIX
    fcntl = None  # type: ignore[assignment]

from ..errors import InvalidFileError, ToolwireError
from ..messages import ContentOutput
from . import limits
from .common import Job, unreadable

_HEADER = struct.Struct(">Q")
#: The largest reply a worker may send (outputs are bounded by the readers' caps).
_MAX_REPLY = 1024 * limits.MB
_BOOT = (
    "import json, sys; sys.path[:] = json.loads(sys.argv[1]); "
    "from toolwire.readers.worker import serve; serve(int(sys.argv[2]))"
)
#: The pipes' buffer size asked for (Linux caps it at /proc/sys/fs/pipe-max-size, 1 MB).
_PIPE_BYTES = 1024 * 1024
#: How long a new worker may take to start (a fresh interpreter importing toolwire).
_START_SECONDS = 60.0
#: The first frame a worker sends, once it is ready for jobs.
READY = b"ready"


def serve(memory_bytes: int) -> None:
    """The worker's loop (in the child): read a job, parse it, send the reply; until EOF."""
    os.environ["TOOLWIRE_READ_ISOLATION"] = "0"  # a read inside the worker runs right here
    requests, replies = _protocol_streams()
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the caller's to handle
    _limit_memory(memory_bytes)
    if os.environ.get("TOOLWIRE_READ_SANDBOX", "1").lower() not in ("0", "false", "no", "off"):
        from .sandbox import confine, isolate_network, preload

        shared = isolate_network()  # first: while single-threaded, before Landlock
        if shared is not None:
            os.environ["TOOLWIRE_READ_SHARED_NETWORK"] = shared
        preload()
        unconfined = confine()  # Landlock and seccomp: read only the code it runs (sandbox)
        if unconfined is not None:
            os.environ["TOOLWIRE_READ_UNCONFINED"] = unconfined
    write_frame(replies, READY)
    while (request := read_frame(requests)) is not None:
        try:
            reader, job, caps = pickle.loads(request)
        except Exception as exc:  # a reader it cannot import (the sandbox reads only some)
            write_frame(replies, pickle.dumps(("error", _unloadable(exc), "")))
            continue
        vars(limits).update(caps)
        write_frame(replies, _reply(reader, job))


def _unloadable(exc: Exception) -> ToolwireError:
    """The error for a request whose reader the worker cannot import."""
    return ToolwireError(
        f"the read worker could not load its reader ({type(exc).__name__}: {exc}). Confined, "
        "it imports only from the interpreter, site-packages and toolwire's own directory "
        "(readers.sandbox); name the directory a reader of your own comes from in "
        "TOOLWIRE_READ_PATHS"
    )


class Worker:
    """A running worker, seen from the caller: its process and pipes (``call`` sends a
    request and waits for the reply, under a deadline)."""

    def __init__(self, memory_bytes: int) -> None:
        command = [sys.executable, "-c", _BOOT, json.dumps(sys.path), str(memory_bytes)]
        try:
            self.process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        except OSError as exc:
            raise ToolwireError(
                f"read_file could not start its worker process ({exc}); set "
                "TOOLWIRE_READ_ISOLATION=0 to parse files in this process instead"
            ) from exc
        _widen(self.process.stdin, self.process.stdout)
        self.expired = False
        if self.call(None, _START_SECONDS) != READY:
            raise ToolwireError(
                f"read_file's worker process did not start ({self.how_it_ended()}; its error "
                "is on stderr); set TOOLWIRE_READ_ISOLATION=0 to parse files in this process"
            )

    def call(self, request: bytes | None, seconds: float) -> bytes | None:
        """The reply to ``request`` (None: the next frame), or None when the worker died or
        was killed for taking longer than ``seconds``."""
        timer = threading.Timer(seconds, self._expire)
        timer.daemon = True
        timer.start()
        try:
            assert self.process.stdin is not None and self.process.stdout is not None
            if request is not None:
                write_frame(self.process.stdin, request)
            return read_frame(self.process.stdout, _MAX_REPLY)
        except (OSError, ValueError):  # a broken pipe, or a reply that makes no sense
            return None
        finally:
            timer.cancel()

    def _expire(self) -> None:
        self.expired = True
        self.process.kill()

    def how_it_ended(self) -> str:
        """'killed by SIGABRT' or 'exit status 1', once the process has ended."""
        self.close(kill=True)
        code = self.process.returncode
        if code is not None and code < 0:
            try:
                return f"killed by {signal.Signals(-code).name}"
            except ValueError:
                return f"killed by signal {-code}"
        return f"exit status {code}"

    def close(self, *, kill: bool = False) -> None:
        """End the process (at once with ``kill``, else by closing its input) and reap it."""
        process = self.process
        if kill:
            process.kill()
        for stream in (process.stdin, process.stdout):
            if stream is not None:
                with contextlib.suppress(OSError):  # a broken pipe: the process is gone
                    stream.close()
        try:
            process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def _widen(*pipes: IO[bytes] | None) -> None:
    """Grow the pipes' kernel buffers (Linux) so large files cross in few context switches."""
    setsize = getattr(fcntl, "F_SETPIPE_SZ", None) if fcntl else None
    for pipe in pipes:
        if setsize is not None and pipe is not None:
            with contextlib.suppress(OSError):
                fcntl.fcntl(pipe.fileno(), setsize, _PIPE_BYTES)


def _reply(reader: Callable[[Job], ContentOutput], job: Job) -> bytes:
    """The pickled outcome of ``reader(job)`` (in the worker): a kind, a value, a cause."""
    outcome: tuple[str, object, str]
    try:
        outcome = ("ok", reader(job), "")
    except MemoryError:
        outcome = ("memory", None, "")
    except ToolwireError as exc:
        cause = exc.__cause__
        kind = "memory" if isinstance(cause, MemoryError) else "error"
        outcome = (kind, exc, _traceback(cause) if cause else "")
    except Exception as exc:
        outcome = ("error", unreadable(job, exc), _traceback(exc))
    try:
        return pickle.dumps(outcome, pickle.HIGHEST_PROTOCOL)
    except MemoryError:
        return pickle.dumps(("memory", None, ""))
    except Exception as exc:  # an error class that does not pickle: keep its message
        return pickle.dumps(("error", InvalidFileError(f"{outcome[1]} ({exc})"), ""))


def _traceback(exc: BaseException) -> str:
    return "".join(traceback.format_exception(exc)).rstrip()


def _protocol_streams() -> tuple[IO[bytes], IO[bytes]]:
    """The request and reply pipes (stdin and stdout as the worker started); anything a
    library prints afterwards goes to stderr, so it cannot corrupt a reply."""
    requests = os.fdopen(os.dup(0), "rb")
    replies = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.close(null)
    return requests, replies


def _limit_memory(memory_bytes: int) -> None:
    try:
        import resource
    except ImportError:  # not POSIX: only the time limit applies
        return
    if memory_bytes <= 0:
        return
    _, hard = resource.getrlimit(resource.RLIMIT_AS)
    soft = memory_bytes if hard == resource.RLIM_INFINITY else min(memory_bytes, hard)
    with contextlib.suppress(ValueError, OSError):  # refused: only the time limit applies
        resource.setrlimit(resource.RLIMIT_AS, (soft, hard))


def write_frame(stream: IO[bytes], payload: bytes) -> None:
    """Send one frame: its length, then its bytes."""
    stream.write(_HEADER.pack(len(payload)))
    stream.write(payload)
    stream.flush()


def read_frame(stream: IO[bytes], most: int | None = None) -> bytes | None:
    """The next frame, or None at the end of the stream (or a frame cut short)."""
    header = stream.read(_HEADER.size)
    if len(header) < _HEADER.size:
        return None
    (size,) = _HEADER.unpack(header)
    if most is not None and size > most:
        raise ValueError(f"a reply of {size} bytes is over the {most}-byte limit")
    payload = stream.read(size)
    return payload if len(payload) == size else None
