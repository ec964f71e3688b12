"""Confine a read worker (Linux Landlock, seccomp): it reads the code it runs, nothing else.

A decoder taken over by a crafted file runs inside the worker (``worker.serve``), under its
memory and time limits. Confined, it also cannot open the user's files (``/etc/passwd``, the
home directory, the project it was called from), write or delete any file, run a program,
or make a socket of any kind (a seccomp filter refuses socket(2); Landlock refuses TCP too):
the worker gets its bytes and sends its reply on pipes it holds already, and needs nothing
more.

What stays readable (shared libraries are mapped from there; no program can be run): the
directories on the caller's ``sys.path`` (the code a job's reader is imported from), the
interpreter's own prefixes,
``/usr``, ``/lib``, ``/lib64``, and of ``/etc`` only ``ld.so.cache``, ``fonts``,
``mime.types`` and ``localtime`` (libraries, fonts, file types, the time zone), then
``/proc/self``, ``/dev/null`` and ``/dev/urandom``.

Landlock is in Linux since 5.13 (TCP rules since 6.7, ABI 4; abstract Unix sockets and
signals scoped since 6.12, ABI 6); each right the running kernel knows is applied, and
``confine`` says what it could not. ``PR_SET_NO_NEW_PRIVS`` is set first, as Landlock
requires: no program the worker might start could gain privileges either. Elsewhere (macOS,
Windows, an older kernel, a container that forbids it) the worker runs unconfined, with its
memory and time limits only: ``confine`` returns the reason, and the README says so.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import sys
from collections.abc import Iterable

# linux/landlock.h
_CREATE_RULESET, _ADD_RULE, _RESTRICT_SELF = 444, 445, 446  # one number on every architecture
_VERSION = 1  # LANDLOCK_CREATE_RULESET_VERSION
_PATH_BENEATH = 1  # LANDLOCK_RULE_PATH_BENEATH
_READ_FILE, _READ_DIR = 1 << 2, 1 << 3
#: Every filesystem right per ABI version: handled, so denied unless a rule allows it.
_FS_RIGHTS = {1: (1 << 13) - 1, 2: (1 << 14) - 1, 3: (1 << 15) - 1, 5: (1 << 16) - 1}
_NET_RIGHTS = (1 << 0) | (1 << 1)  # BIND_TCP, CONNECT_TCP (ABI 4)
_SCOPES = (1 << 0) | (1 << 1)  # ABSTRACT_UNIX_SOCKET, SIGNAL (ABI 6)
_NO_NEW_PRIVS = 38  # PR_SET_NO_NEW_PRIVS

#: Paths read (and libraries mapped) by the interpreter and the decoders, besides sys.path.
SYSTEM_PATHS = (
    "/usr", "/lib", "/lib64", "/etc/ld.so.cache", "/etc/fonts", "/etc/mime.types",
    "/etc/localtime", "/proc/self", "/dev/null", "/dev/urandom",
)  # fmt: skip


class _RulesetAttr(ctypes.Structure):
    _fields_ = (
        ("handled_access_fs", ctypes.c_uint64),
        ("handled_access_net", ctypes.c_uint64),
        ("scoped", ctypes.c_uint64),
    )


class _PathBeneathAttr(ctypes.Structure):
    _pack_ = 1
    _fields_ = (("allowed_access", ctypes.c_uint64), ("parent_fd", ctypes.c_int32))


def preload() -> None:
    """Import, before confining, what finds its native library by running a program or
    writing a temporary file (cairocffi asks ``ctypes.util.find_library``, which runs
    ``ldconfig`` or ``gcc``): confined, it could do neither."""
    with contextlib.suppress(ImportError, OSError):  # not installed: read as text (svg.py)
        import cairosvg  # noqa: F401


def abi_version() -> int:
    """The Landlock ABI version the kernel offers (0: none, or not Linux)."""
    if not sys.platform.startswith("linux"):
        return 0
    libc = ctypes.CDLL(None, use_errno=True)
    version = libc.syscall(_CREATE_RULESET, None, 0, _VERSION)
    return max(int(version), 0)


def readable_paths() -> list[str]:
    """The paths a confined worker may read: the code on ``sys.path``, the interpreter's
    prefixes, and ``SYSTEM_PATHS`` (those that exist; never the filesystem's root)."""
    found = [*sys.path, sys.prefix, sys.base_prefix, sys.exec_prefix, *SYSTEM_PATHS]
    paths = []
    for path in dict.fromkeys(os.path.abspath(p) for p in found if p):
        if path != os.path.sep and os.path.exists(path):
            paths.append(path)
    return paths


def confine(paths: Iterable[str] | None = None) -> str | None:
    """Confine this process for good: read only beneath ``paths`` (default:
    ``readable_paths()``), no writes, no programs run, no TCP (Landlock), no new socket of any
    kind (seccomp). None when done, else why not."""
    version = abi_version()
    if version < 1:
        return "Landlock is not available (Linux 5.13 or later, with Landlock enabled)"
    libc = ctypes.CDLL(None, use_errno=True)
    fs = _FS_RIGHTS[max(v for v in _FS_RIGHTS if v <= version)]
    attr = _RulesetAttr(fs, _NET_RIGHTS if version >= 4 else 0, _SCOPES if version >= 6 else 0)
    size = 8 if version < 4 else 16 if version < 6 else 24
    ruleset = libc.syscall(_CREATE_RULESET, ctypes.byref(attr), size, 0)
    if ruleset < 0:
        return f"Landlock refused the ruleset ({os.strerror(ctypes.get_errno())})"
    try:
        for path in readable_paths() if paths is None else paths:
            _allow_reading(libc, ruleset, path)
        if libc.prctl(_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
            return f"PR_SET_NO_NEW_PRIVS was refused ({os.strerror(ctypes.get_errno())})"
        if libc.syscall(_RESTRICT_SELF, ruleset, 0) != 0:
            return f"Landlock refused to confine ({os.strerror(ctypes.get_errno())})"
    finally:
        os.close(ruleset)
    return _no_sockets(libc)


# linux/filter.h, linux/seccomp.h, linux/audit.h
_LOAD, _JUMP_EQUAL, _JUMP_AT_LEAST, _RETURN = 0x20, 0x15, 0x35, 0x06  # BPF_LD|W|ABS, BPF_JMP|…
_ALLOW, _KILL, _REFUSE = 0x7FFF0000, 0x80000000, 0x00050000 | 13  # SECCOMP_RET_*; EACCES
_SET_SECCOMP, _MODE_FILTER = 22, 2  # PR_SET_SECCOMP, SECCOMP_MODE_FILTER
#: Per machine: its audit architecture, and the number of socket(2).
_SOCKET = {"x86_64": (0xC000003E, 41), "aarch64": (0xC00000B7, 198)}


class _Instruction(ctypes.Structure):
    _fields_ = (
        ("code", ctypes.c_uint16),
        ("jt", ctypes.c_uint8),
        ("jf", ctypes.c_uint8),
        ("k", ctypes.c_uint32),
    )


class _Program(ctypes.Structure):
    _fields_ = (("len", ctypes.c_uint16), ("filter", ctypes.POINTER(_Instruction)))


def _no_sockets(libc: ctypes.CDLL) -> str | None:
    """A seccomp filter refusing socket(2) (EACCES), so no socket of any family (UDP, Unix)
    is made: the worker's pipes are all it talks through. A call made for another
    architecture's numbering kills the worker (it cannot be a way around the filter)."""
    import platform

    found = _SOCKET.get(platform.machine())
    if found is None:
        return f"no seccomp filter for {platform.machine()}: sockets are not refused"
    arch, socket_call = found
    code = [
        (_LOAD, 0, 0, 4),  # seccomp_data.arch
        (_JUMP_EQUAL, 1, 0, arch),
        (_RETURN, 0, 0, _KILL),
        (_LOAD, 0, 0, 0),  # seccomp_data.nr
        (_JUMP_AT_LEAST, 2, 0, 0x40000000),  # x32 numbering (x86_64): refused too
        (_JUMP_EQUAL, 1, 0, socket_call),
        (_RETURN, 0, 0, _ALLOW),
        (_RETURN, 0, 0, _REFUSE),
    ]
    program = (_Instruction * len(code))(*(_Instruction(*step) for step in code))
    prog = _Program(len(code), program)
    if libc.prctl(_SET_SECCOMP, _MODE_FILTER, ctypes.byref(prog), 0, 0) != 0:
        return f"the seccomp filter was refused ({os.strerror(ctypes.get_errno())})"
    return None


def _allow_reading(libc: ctypes.CDLL, ruleset: int, path: str) -> None:
    """Let the process read (and so map, as the loader does a library) what is beneath
    ``path``, never run it; a path that cannot be opened is left out (it stays unreadable)."""
    try:
        fd = os.open(path, os.O_PATH | os.O_CLOEXEC)
    except OSError:
        return
    try:
        rights = _READ_FILE | (_READ_DIR if os.path.isdir(path) else 0)
        rule = _PathBeneathAttr(rights, fd)
        libc.syscall(_ADD_RULE, ruleset, _PATH_BENEATH, ctypes.byref(rule), 0)
    finally:
        os.close(fd)
