"""Confine a read worker (Linux Landlock, seccomp, a network namespace): it reads the code it
runs, nothing else.

A decoder taken over by a crafted file runs inside the worker (``worker.serve``), under its
memory and time limits. Confined, it also cannot open the user's files (``/etc/passwd``, the
home directory, the project or script it was called from, the working directory), write or
delete any file, run a program, or make a socket of any kind (a seccomp filter refuses
socket(2); Landlock refuses TCP too), and it keeps no capability (run as root, it could
otherwise load a kernel module): the worker gets its bytes and sends its reply on pipes it
holds already, and needs nothing more. Where unprivileged user namespaces are allowed it
also leaves the host's network first (``isolate_network``: its own user and network
namespace, with only a loopback device that is down), a second wall that does not depend on
Landlock's ABI or on the seccomp table knowing the machine.

What stays readable (``readable_paths``; shared libraries are mapped from there, no program
can be run): what the worker imports — the interpreter's installation (its prefixes, the
standard library), the site-packages directories and the directories their ``.pth`` files
add (editable installs), and toolwire's own package directory — then the system's
libraries and data (``/usr/lib*``, ``/usr/share``, ``/usr/local/lib``, ``/lib*``), of
``/etc`` only ``ld.so.cache``, ``fonts``, ``mime.types`` and ``localtime``, and
``/proc/self``, ``/dev/null``, ``/dev/urandom``. Not the other entries of the caller's
``sys.path``: the script's directory, the working directory ('' or ``-m``'s cwd) and
``PYTHONPATH`` hold the user's files, so a reader imported from there (a test's own) needs
its directory named in ``TOOLWIRE_READ_PATHS`` (``os.pathsep``-separated). A working
directory that lies inside one of the readable ones (a project kept under ``/usr/share``)
is readable with it: Landlock only adds, never carves out.

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
from dataclasses import dataclass

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

#: System paths read (and libraries mapped) by the interpreter and the decoders: libraries,
#: fonts, file types, the time zone. Not all of ``/usr``: ``/usr/src`` and ``/usr/local``
#: hold projects (a container's ``WORKDIR /usr/src/app``).
SYSTEM_PATHS = (
    "/usr/lib", "/usr/lib64", "/usr/lib32", "/usr/libx32", "/usr/share", "/usr/local/lib",
    "/usr/local/lib64", "/usr/local/share", "/lib", "/lib64", "/lib32", "/etc/ld.so.cache",
    "/etc/fonts", "/etc/mime.types", "/etc/localtime", "/proc/self", "/dev/null", "/dev/urandom",
)  # fmt: skip
#: Directories besides those a reader of the caller's own is imported from.
PATHS_VARIABLE = "TOOLWIRE_READ_PATHS"


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


# linux/sched.h
_NEW_USER, _NEW_NET = 0x10000000, 0x40000000  # CLONE_NEWUSER, CLONE_NEWNET


def isolate_network() -> str | None:
    """Leave the host's network: unshare a user namespace (so no privilege is needed) and a
    network namespace, whose only device is a loopback that is down — no address, no route,
    no abstract Unix socket of the host. Called while the worker is single-threaded (the
    kernel requires it) and before ``confine`` (which forbids writing the id maps). The
    worker's user and group are mapped to themselves, so files read as before, and it may
    nest no user namespace of its own (it would hold every capability there; ``confine``
    drops those it holds in this one). None when
    done, else why not (a kernel or container that forbids unprivileged user namespaces:
    ``kernel.unprivileged_userns_clone=0``, ``user.max_user_namespaces=0``, Ubuntu's AppArmor
    restriction, a seccomp profile such as Docker's default)."""
    if not sys.platform.startswith("linux"):
        return "network namespaces are Linux's"
    uid, gid = os.getuid(), os.getgid()
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.unshare(_NEW_USER | _NEW_NET) != 0:
        return f"a network namespace was refused ({os.strerror(ctypes.get_errno())})"
    for name, line in (
        ("self/setgroups", "deny"),
        ("self/uid_map", f"{uid} {uid} 1"),
        ("self/gid_map", f"{gid} {gid} 1"),
        ("sys/user/max_user_namespaces", "0"),  # this namespace's own limit: none nested in it
    ):
        with contextlib.suppress(OSError), open(f"/proc/{name}", "w") as file:
            file.write(line)  # refused: the ids read as nobody, and nothing breaks
    return None


def abi_version() -> int:
    """The Landlock ABI version the kernel offers (0: none, or not Linux)."""
    if not sys.platform.startswith("linux"):
        return 0
    libc = ctypes.CDLL(None, use_errno=True)
    version = libc.syscall(_CREATE_RULESET, None, 0, _VERSION)
    return max(int(version), 0)


def readable_paths() -> list[str]:
    """The paths a confined worker may read (those that exist; never the filesystem's root):
    ``import_paths``, ``TOOLWIRE_READ_PATHS`` and ``SYSTEM_PATHS``."""
    named = os.environ.get(PATHS_VARIABLE, "").split(os.pathsep)
    found = [*import_paths(), *named, *SYSTEM_PATHS]
    paths = []
    for path in dict.fromkeys(os.path.abspath(p) for p in found if p):
        if path != os.path.sep and os.path.exists(path):
            paths.append(path)
    return paths


def import_paths() -> list[str]:
    """Where the worker imports from: the interpreter's installation (prefixes, standard
    library, site-packages, and the directories the site-packages' ``.pth`` files add) and
    toolwire's own package directory — not the other entries of ``sys.path`` (the script's
    directory, the working directory, ``PYTHONPATH``: the user's files)."""
    import site
    import sysconfig

    import toolwire

    prefixes = {sys.prefix, sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix}
    here = os.getcwd()  # a venv made in the project itself (python -m venv .) holds the project
    found = [p for p in map(os.path.abspath, prefixes) if os.path.commonpath([p, here]) != p]
    found += [sysconfig.get_paths()[key] for key in ("stdlib", "platstdlib", "purelib", "platlib")]
    sites = [*site.getsitepackages(), site.getusersitepackages() if site.ENABLE_USER_SITE else ""]
    found += [*sites, *_pth_paths(p for p in sites if p and os.path.isdir(p))]
    found.append(os.path.dirname(os.path.abspath(toolwire.__file__)))
    return [p for p in found if p]


def _pth_paths(sites: Iterable[str]) -> list[str]:
    """The directories the ``.pth`` files of ``sites`` add to ``sys.path``, as ``site`` reads
    them (a line that is not a comment or an ``import`` names a directory, relative to its
    site directory)."""
    found = []
    for directory in sites:
        for name in sorted(os.listdir(directory)):
            if not name.endswith(".pth"):
                continue
            try:
                with open(os.path.join(directory, name), encoding="utf-8") as file:
                    lines = file.read().splitlines()
            except (OSError, UnicodeDecodeError):
                continue
            for line in map(str.rstrip, lines):
                if line and not line.startswith(("#", "import ", "import\t")):
                    found.append(os.path.join(directory, line))
    return found


def confine(paths: Iterable[str] | None = None) -> str | None:
    """Confine this process for good: no capability kept and none gained
    (``PR_SET_NO_NEW_PRIVS``), read only beneath ``paths`` (default: ``readable_paths()``), no
    writes, no programs run, no TCP (Landlock), no new socket of any kind (seccomp). Each wall
    is put up where the kernel offers it, whatever becomes of the other. None when all are up,
    else what is missing."""
    if not sys.platform.startswith("linux"):
        return "Landlock and seccomp are Linux's"
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
        return f"PR_SET_NO_NEW_PRIVS was refused ({os.strerror(ctypes.get_errno())})"
    walls = (_no_capabilities(libc), _landlock(libc, paths), _no_sockets(libc))
    return "; ".join(gap for gap in walls if gap) or None


# linux/capability.h, linux/prctl.h
_CAPABILITY_V3, _DROP_BOUNDING = 0x20080522, 24  # _LINUX_CAPABILITY_VERSION_3, PR_CAPBSET_DROP


class _CapHeader(ctypes.Structure):
    _fields_ = (("version", ctypes.c_uint32), ("pid", ctypes.c_int))


class _CapData(ctypes.Structure):
    _fields_ = (
        ("effective", ctypes.c_uint32),
        ("permitted", ctypes.c_uint32),
        ("inheritable", ctypes.c_uint32),
    )


def _no_capabilities(libc: ctypes.CDLL) -> str | None:
    """Drop every capability, from the bounding set too: a worker run as root (a container's
    default) or holding its own user namespace's (``isolate_network``) keeps none — no kernel
    module loaded, no other user's process signalled, no netfilter table written."""
    for capability in range(64):  # past the last one the kernel knows, the drop fails: done
        if libc.prctl(_DROP_BOUNDING, capability, 0, 0, 0) != 0:
            break
    header, data = _CapHeader(_CAPABILITY_V3, 0), (_CapData * 2)()
    if libc.capset(ctypes.byref(header), data) != 0:
        return f"its capabilities could not be dropped ({os.strerror(ctypes.get_errno())})"
    return None


def _landlock(libc: ctypes.CDLL, paths: Iterable[str] | None) -> str | None:
    """The Landlock ruleset applied (``confine``); None when done, else why not."""
    version = abi_version()
    if version < 1:
        return "Landlock is not available (Linux 5.13 or later, with Landlock enabled)"
    fs = _FS_RIGHTS[max(v for v in _FS_RIGHTS if v <= version)]
    attr = _RulesetAttr(fs, _NET_RIGHTS if version >= 4 else 0, _SCOPES if version >= 6 else 0)
    size = 8 if version < 4 else 16 if version < 6 else 24
    ruleset = libc.syscall(_CREATE_RULESET, ctypes.byref(attr), size, 0)
    if ruleset < 0:
        return f"Landlock refused the ruleset ({os.strerror(ctypes.get_errno())})"
    try:
        for path in readable_paths() if paths is None else paths:
            _allow_reading(libc, ruleset, path)
        if libc.syscall(_RESTRICT_SELF, ruleset, 0) != 0:
            return f"Landlock refused to confine ({os.strerror(ctypes.get_errno())})"
    finally:
        os.close(ruleset)
    return None


# linux/filter.h, linux/seccomp.h, linux/audit.h
_LOAD, _JUMP_EQUAL, _JUMP_AT_LEAST, _RETURN = 0x20, 0x15, 0x35, 0x06  # BPF_LD|W|ABS, BPF_JMP|…
_ALLOW, _KILL, _REFUSE = 0x7FFF0000, 0x80000000, 0x00050000 | 13  # SECCOMP_RET_*; EACCES
_SET_SECCOMP, _MODE_FILTER = 22, 2  # PR_SET_SECCOMP, SECCOMP_MODE_FILTER
_X32 = 0x40000000  # __X32_SYSCALL_BIT: x32 calls are x86_64's audit arch with this bit set


@dataclass(frozen=True)
class SocketCalls:
    """How one ABI makes a socket: its audit architecture (``AUDIT_ARCH_*``, linux/audit.h:
    the ELF machine, ``0x80000000`` for 64-bit, ``0x40000000`` for little-endian) and the
    numbers of socket(2) and of socketcall(2) (the older multiplexer, which also makes
    sockets), from the kernel's syscall tables named beside each; ``refuse_from``: a number
    from which every call is refused (x32's on x86_64)."""

    arch: int
    numbers: tuple[int, ...]
    refuse_from: int | None = None


#: By the interpreter's ABI (``sys.implementation._multiarch``, Debian's multiarch triplet: the
#: ABI the worker's own calls use, which a 32-bit userland on a 64-bit kernel shares with
#: none of ``uname -m``). Numbers from Linux's tables (v6.x; stable once assigned):
SOCKET_CALLS = {
    # arch/x86/entry/syscalls/syscall_64.tbl: 41 common socket; x32 numbers refused
    "x86_64-linux-gnu": SocketCalls(0xC000003E, (41,), refuse_from=_X32),
    # same table ("common": x86_64 and x32 share it); an x32 process may make either call
    "x86_64-linux-gnux32": SocketCalls(0xC000003E, (41, _X32 | 41)),
    # arch/x86/entry/syscalls/syscall_32.tbl: 102 i386 socketcall, 359 i386 socket
    "i386-linux-gnu": SocketCalls(0x40000003, (359, 102)),
    # include/uapi/asm-generic/unistd.h: __NR_socket 198 (no socketcall)
    "aarch64-linux-gnu": SocketCalls(0xC00000B7, (198,)),
    "riscv64-linux-gnu": SocketCalls(0xC00000F3, (198,)),
    "loongarch64-linux-gnu": SocketCalls(0xC0000102, (198,)),
    # arch/arm/tools/syscall.tbl: 281 common socket (socketcall 102 is OABI's only, and the
    # kernel offers seccomp filters only without OABI_COMPAT: arch/arm/Kconfig)
    "arm-linux-gnueabihf": SocketCalls(0x40000028, (281,)),
    "arm-linux-gnueabi": SocketCalls(0x40000028, (281,)),
    # arch/powerpc/kernel/syscalls/syscall.tbl: 102 common socketcall, 326 common socket
    "powerpc64le-linux-gnu": SocketCalls(0xC0000015, (326, 102)),
    # arch/s390/kernel/syscalls/syscall.tbl: 102 common socketcall, 359 common socket
    "s390x-linux-gnu": SocketCalls(0x80000016, (359, 102)),
}
#: Left out, so sockets are refused by Landlock (TCP) and the network namespace only: MIPS,
#: whose seccomp arch follows the task's ABI, not the call's (arch/mips/include/asm/syscall.h),
#: while an n64 process may also make o32 and n32 calls under other numbers; and big-endian or
#: 32-bit PowerPC, SPARC, m68k, SuperH, Alpha, HPPA (Debian ports) — not verified here.


def abi() -> str | None:
    """The interpreter's ABI as a multiarch triplet (``x86_64-linux-gnu``), None if unknown."""
    import sysconfig

    found = getattr(sys.implementation, "_multiarch", None) or sysconfig.get_config_var("MULTIARCH")
    return found if isinstance(found, str) and found else None


def socket_filter(calls: SocketCalls) -> list[tuple[int, int, int, int]]:
    """The seccomp program (classic BPF: code, jump if true, jump if false, operand) that
    refuses ``calls``' numbers with EACCES, kills the process for a call of another
    architecture (it cannot be a way around the filter), and allows everything else."""
    refused = list(calls.numbers)
    code: list[tuple[int, int, int, int]] = [
        (_LOAD, 0, 0, 4),  # seccomp_data.arch
        (_JUMP_EQUAL, 1, 0, calls.arch),
        (_RETURN, 0, 0, _KILL),
        (_LOAD, 0, 0, 0),  # seccomp_data.nr
    ]
    checks = len(refused) + (calls.refuse_from is not None)
    if calls.refuse_from is not None:
        code.append((_JUMP_AT_LEAST, checks, 0, calls.refuse_from))
    for k, number in enumerate(refused):
        code.append((_JUMP_EQUAL, len(refused) - k, 0, number))  # to the refusal
    return [*code, (_RETURN, 0, 0, _ALLOW), (_RETURN, 0, 0, _REFUSE)]


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
    """A seccomp filter refusing socket(2) and socketcall(2) (EACCES), so no socket of any
    family (UDP, Unix) is made: the worker's pipes are all it talks through."""
    found = abi()
    calls = SOCKET_CALLS.get(found or "")
    if calls is None:
        return f"no seccomp filter for the {found or 'unknown'} ABI: sockets are not refused"
    code = socket_filter(calls)
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
