"""Parse untrusted files in a reused worker process, under a memory and a time limit.

Checks inside one process cannot bound what a native decoder does with a crafted file: a 3 KB
PDF can make pdfium allocate 12 GB and abort, a progressive JPEG can decode for minutes. So
read_file reads the file itself and hands the bytes (a picklable ``Job``) to a worker process
(``worker.serve``), which runs the reader and sends the ContentOutput back. The worker is a
fresh interpreter (``python -c``; unlike multiprocessing's spawn and forkserver it never
re-imports the caller's ``__main__``, and it is no fork of a threaded parent), started on the
first read and reused by the next ones while they succeed: a worker whose file failed is
replaced, so a file that got hold of a decoder cannot see the next file. It limits its own address space (``RLIMIT_AS``; POSIX
only: elsewhere, and where RLIMIT_AS is not enforced such as macOS, only the time limit
applies), and it is killed when one file takes longer than the time limit.

A file that exhausts the memory, outlasts the time or crashes the worker (SIGABRT, SIGSEGV,
the OOM killer) raises ResourceLimitError naming the file, the limit and how to raise it; the
caller's process never dies, hangs or balloons. ToolwireErrors raised by a reader reach the
caller as the same class and message. Up to ``workers`` reads run at once, one per worker;
a read waits at most ``queue_seconds`` for one to be free, then is refused.
Each job carries the caps of ``limits`` as the caller has them.

Change the limits with :func:`configure` or, before the first read, with the environment:
``TOOLWIRE_READ_MEMORY_MB`` (0: no memory limit), ``TOOLWIRE_READ_SECONDS``,
``TOOLWIRE_READ_WORKERS``, ``TOOLWIRE_READ_QUEUE_SECONDS``; ``TOOLWIRE_READ_ISOLATION=0`` parses in the calling process (for
debugging; no limits then). The defaults are in ``limits``. The caller unpickles only
toolwire's output models and errors, so even a worker taken over by an exploited decoder
cannot make it run code.
"""

from __future__ import annotations

import atexit
import io
import os
import pickle
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from ..errors import InvalidFileError, ResourceLimitError, ToolwireError
from ..messages import ContentOutput
from . import limits
from .common import AnyJob, Job, label, parse
from .worker import Worker

_OFF = frozenset({"0", "false", "no", "off"})


@dataclass(frozen=True)
class Settings:
    """How read_file parses files: in worker processes under these limits, or in-process.

    ``memory_bytes`` is each worker's address-space limit (0: none), ``seconds`` the
    wall-clock limit per file, ``workers`` how many reads may run at once, ``queue_seconds``
    the longest a read waits for a free worker.
    """

    enabled: bool = True
    memory_bytes: int = limits.READ_MEMORY_BYTES
    seconds: float = limits.READ_SECONDS
    workers: int = limits.READ_WORKERS
    queue_seconds: float = limits.READ_QUEUE_SECONDS


_lock = threading.Lock()
_settings: Settings | None = None
_pool: _Pool | None = None
_exit_registered = False


def settings() -> Settings:
    """The settings in force: those given to :func:`configure`, else the environment's."""
    global _settings
    with _lock:
        if _settings is None:
            _settings = _checked(_from_environment(), "the environment")
        return _settings


def configure(
    *,
    enabled: bool | None = None,
    memory_bytes: int | None = None,
    seconds: float | None = None,
    workers: int | None = None,
    queue_seconds: float | None = None,
) -> Settings:
    """Change how files are parsed; arguments left out keep their value. Returns the settings.

    >>> configure(memory_bytes=4 * 1024**3, seconds=120)  # doctest: +SKIP

    Running workers are replaced when the memory limit or the worker count changes; a new
    time limit applies from the next read.
    """
    given: dict[str, Any] = {"enabled": enabled, "memory_bytes": memory_bytes}
    given.update(seconds=seconds, workers=workers, queue_seconds=queue_seconds)
    current = settings()
    new = _checked(replace(current, **{k: v for k, v in given.items() if v is not None}), "")
    global _settings
    with _lock:
        _settings = new
    if (new.memory_bytes, new.workers) != (current.memory_bytes, current.workers):
        shutdown()
    return new


def shutdown() -> None:
    """Stop the workers; the next read starts a new one. Runs at interpreter exit."""
    global _pool
    with _lock:
        pool, _pool = _pool, None
    if pool is not None:
        pool.close(kill_busy=False)


def run(reader: Callable[[AnyJob], ContentOutput], job: AnyJob) -> ContentOutput:
    """``reader(job)`` in a worker under the limits (in this process when isolation is off).

    ``reader`` must be a module-level function (it is sent by name), ``job`` a Job or a
    picklable subclass; conversions of untrusted bytes run through here too.
    """
    current = settings()
    if not current.enabled:
        return parse(reader, job)
    return _current_pool(current).run(reader, job, current)


class _Pool:
    """Up to ``settings.workers`` workers; each serves one read at a time."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.pid = os.getpid()
        self._ready = threading.Condition()
        self._idle: list[Worker] = []
        self._busy: set[Worker] = set()
        self._starting = 0
        self._closed = False

    def run(
        self, reader: Callable[..., ContentOutput], job: Job, current: Settings
    ) -> ContentOutput:
        request = pickle.dumps((reader, job, _caps()), pickle.HIGHEST_PROTOCOL)
        worker = self._acquire(job, current)
        healthy = False
        try:
            reply = worker.call(request, current.seconds)
            if reply is None:
                raise _stopped(worker, job, current)
            output = _outcome(reply, job, current)
            healthy = not worker.expired
        finally:  # a worker whose file failed is replaced: one file cannot see the next
            self._release(worker, healthy)
        return output

    def _acquire(self, job: Job, current: Settings) -> Worker:
        deadline = time.monotonic() + current.queue_seconds
        with self._ready:
            while not self._idle and len(self._busy) + self._starting >= self.settings.workers:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise WorkersBusyError(
                        f"{job.name} was not read: all {self.settings.workers} read workers "
                        f"stayed busy with other files for {current.queue_seconds:g} s. Read "
                        "fewer files at once, or raise the wait with TOOLWIRE_READ_QUEUE_SECONDS "
                        "or toolwire.readers.isolation.configure(queue_seconds=...)"
                    )
                self._ready.wait(left)
            if self._idle:
                worker = self._idle.pop()
                self._busy.add(worker)
                return worker
            self._starting += 1
        try:
            worker = Worker(self.settings.memory_bytes)
        finally:
            with self._ready:
                self._starting -= 1
                self._ready.notify()
        with self._ready:
            self._busy.add(worker)
        return worker

    def _release(self, worker: Worker, healthy: bool) -> None:
        with self._ready:
            self._busy.discard(worker)
            keep = healthy and not self._closed
            if keep:
                self._idle.append(worker)
            self._ready.notify()
        if not keep:
            worker.close(kill=not healthy)

    def close(self, *, kill_busy: bool) -> None:
        with self._ready:
            self._closed = True
            idle, self._idle = self._idle, []
            busy = list(self._busy) if kill_busy else []
        for worker in idle:
            worker.close()
        for worker in busy:
            worker.process.kill()  # its reader thread sees the end and reaps it


def _caps() -> dict[str, object]:
    """Every cap in ``limits`` as this process has it, for the worker to use too."""
    return {name: value for name, value in vars(limits).items() if name.isupper()}


def _current_pool(current: Settings) -> _Pool:
    global _pool, _exit_registered
    with _lock:
        if _pool is None or _pool.pid != os.getpid():  # a forked child starts its own
            if not _exit_registered:
                atexit.register(_at_exit)
                _exit_registered = True
            _pool = _Pool(current)
        return _pool


def _at_exit() -> None:
    global _pool
    with _lock:
        pool, _pool = _pool, None
    if pool is not None and pool.pid == os.getpid():
        pool.close(kill_busy=True)


def _stopped(worker: Worker, job: Job, current: Settings) -> ResourceLimitError:
    """The error for a worker that was killed for its time, or died, while parsing ``job``."""
    what = f"{job.name} could not be read as {label(job.media_type)}"
    if worker.expired:
        worker.close(kill=True)
        return ResourceLimitError(
            f"{what}: parsing it took longer than the time limit of {current.seconds:g} s per "
            "file, so the read worker was stopped (a crafted file can keep a decoder busy for "
            "minutes). If the file is genuine, raise the limit with TOOLWIRE_READ_SECONDS or "
            "toolwire.readers.isolation.configure(seconds=...)"
        )
    ended = worker.how_it_ended()
    if current.memory_bytes == 0:
        return ResourceLimitError(
            f"{what}: its parser crashed the read worker ({ended}); the file is probably "
            "crafted to crash its decoder"
        )
    return ResourceLimitError(f"{what}: {_over_memory(current, f'the worker was {ended}')}")


def _over_memory(current: Settings, how: str) -> str:
    megabytes = current.memory_bytes // limits.MB
    return (
        f"its parser crashed or ran out of the read worker's memory limit of {megabytes} MB "
        f"({how}), as a decompression bomb or a crafted file does. If the file is genuine, "
        f"raise the limit with TOOLWIRE_READ_MEMORY_MB (e.g. {2 * megabytes}) or "
        "toolwire.readers.isolation.configure(memory_bytes=...)"
    )


def _outcome(reply: bytes, job: Job, current: Settings) -> ContentOutput:
    """The output a reply carries, or the error it carries raised."""
    try:
        kind, value, cause = _Replies(io.BytesIO(reply)).load()
    except Exception as exc:  # a reply that is not one the worker sends: never trust it
        raise InvalidFileError(
            f"{job.name}: the read worker sent an invalid reply ({exc})"
        ) from exc
    if kind == "ok" and isinstance(value, ContentOutput):
        return _validated(value, job)
    if kind == "error" and isinstance(value, ToolwireError):
        raise value from (WorkerTraceback(f"in the read worker:\n{cause}") if cause else None)
    if kind == "memory":
        what = f"{job.name} could not be read as {label(job.media_type)}"
        raise ResourceLimitError(f"{what}: {_over_memory(current, 'MemoryError')}")
    raise InvalidFileError(f"{job.name}: the read worker sent an invalid reply ({kind!r})")


def _validated(value: ContentOutput, job: Job) -> ContentOutput:
    """The output validated: unpickling restores a model's fields without validating them.
    (Cheap: the bytes are not copied, only their head is sniffed.)"""
    try:
        return ContentOutput.model_validate(value.model_dump(warnings=False))
    except Exception as exc:  # a field of the wrong type or shape: never trust it
        raise InvalidFileError(
            f"{job.name}: the read worker sent an invalid reply ({type(exc).__name__})"
        ) from exc


class _Replies(pickle.Unpickler):
    """Unpickles only what a worker sends: toolwire's output models and its errors."""

    _ALLOWED = frozenset(
        {
            ("toolwire.messages", "ContentOutput"),
            ("toolwire.content", "Text"),
            ("toolwire.content", "File"),
            ("toolwire.sources", "BytesSource"),
        }
    )

    def find_class(self, module: str, name: str) -> Any:
        if (module, name) in self._ALLOWED:
            return super().find_class(module, name)
        if module == "toolwire.errors":
            found = super().find_class(module, name)
            if isinstance(found, type) and issubclass(found, ToolwireError):
                return found
        raise pickle.UnpicklingError(f"{module}.{name} is not something a read worker sends")


class WorkersBusyError(ResourceLimitError):
    """No read worker was free in time: about this process's load, not the file's bytes (so
    nothing that remembers failures by content keeps it)."""


class WorkerTraceback(Exception):
    """The traceback of what went wrong in the worker: the ``__cause__`` of its errors."""


def _from_environment() -> Settings:
    env = os.environ
    default = Settings()
    return Settings(
        enabled=env.get("TOOLWIRE_READ_ISOLATION", "1").strip().lower() not in _OFF,
        memory_bytes=_number("TOOLWIRE_READ_MEMORY_MB", default.memory_bytes // limits.MB)
        * limits.MB,
        seconds=float(_number("TOOLWIRE_READ_SECONDS", default.seconds)),
        workers=int(_number("TOOLWIRE_READ_WORKERS", default.workers)),
        queue_seconds=float(_number("TOOLWIRE_READ_QUEUE_SECONDS", default.queue_seconds)),
    )


def _number(variable: str, default: float) -> Any:
    text = os.environ.get(variable, "").strip()
    if not text:
        return default
    try:
        return int(text) if isinstance(default, int) else float(text)
    except ValueError:
        raise ToolwireError(
            f"{variable}={text!r} is not a number; set it to e.g. {default:g} or unset it"
        ) from None


def _checked(new: Settings, where: str) -> Settings:
    source = f" (from {where})" if where else ""
    for field, value, least in (
        ("memory_bytes", new.memory_bytes, 0),
        ("seconds", new.seconds, 0.001),
        ("workers", new.workers, 1),
        ("queue_seconds", new.queue_seconds, 0.0),
    ):
        kind = int if field == "workers" else int | float
        if isinstance(value, bool) or not isinstance(value, kind) or value < least:
            raise ToolwireError(
                f"read isolation: {field}={value!r}{source} is not allowed; it must be a "
                f"number >= {least:g} (memory_bytes 0 means no memory limit)"
            )
    return new
