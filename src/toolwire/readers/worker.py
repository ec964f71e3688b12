"""The read worker's side (a child process): receive jobs, parse them, send the outcomes.

Started by ``isolation`` as ``python -c`` with the caller's ``sys.path`` and the memory limit;
it limits its own address space, says it is ready, then serves one job at a time until its
input ends. Frames on the pipes are an 8-byte big-endian length and a pickle.
"""

from __future__ import annotations

import contextlib
import os
import pickle
import signal
import struct
import traceback
from typing import IO

from ..errors import InvalidFileError, ToolwireError
from . import limits
from .common import Job, Reader, unreadable

_HEADER = struct.Struct(">Q")
#: The first frame a worker sends, once it is ready for jobs.
READY = b"ready"


def serve(memory_bytes: int) -> None:
    """The worker's loop (in the child): read a job, parse it, send the reply; until EOF."""
    requests, replies = _protocol_streams()
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the caller's to handle
    _limit_memory(memory_bytes)
    write_frame(replies, READY)
    while (request := read_frame(requests)) is not None:
        reader, job, caps = pickle.loads(request)
        vars(limits).update(caps)
        write_frame(replies, _reply(reader, job))


def _reply(reader: Reader, job: Job) -> bytes:
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
