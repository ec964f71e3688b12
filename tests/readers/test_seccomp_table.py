"""The seccomp filter of the read worker for each ABI it knows (readers/sandbox.py): run by a
small classic-BPF interpreter, each program refuses exactly that ABI's socket(2) and
socketcall(2), kills a call made under another architecture, and allows everything else.
Only this machine's program can be loaded here; the others are checked as data, against the
numbers below, copied by hand from the kernel's syscall tables (Linux v6.x)."""

from __future__ import annotations

import struct

import pytest

from toolwire.readers import sandbox

ALLOW, KILL, REFUSE = 0x7FFF0000, 0x80000000, 0x00050000 | 13  # EACCES

#: ABI -> (AUDIT_ARCH_* of linux/audit.h, the calls that make sockets), by table:
EXPECTED = {
    "x86_64-linux-gnu": (0xC000003E, {41}),  # syscall_64.tbl
    "x86_64-linux-gnux32": (0xC000003E, {41, 0x40000000 | 41}),  # syscall_64.tbl, x32 bit
    "i386-linux-gnu": (0x40000003, {359, 102}),  # syscall_32.tbl: socket, socketcall
    "aarch64-linux-gnu": (0xC00000B7, {198}),  # asm-generic/unistd.h
    "riscv64-linux-gnu": (0xC00000F3, {198}),
    "loongarch64-linux-gnu": (0xC0000102, {198}),
    "arm-linux-gnueabihf": (0x40000028, {281}),  # arch/arm/tools/syscall.tbl
    "arm-linux-gnueabi": (0x40000028, {281}),
    "powerpc64le-linux-gnu": (0xC0000015, {326, 102}),  # powerpc syscall.tbl
    "s390x-linux-gnu": (0x80000016, {359, 102}),  # s390 syscall.tbl
}


def run(program: list[tuple[int, int, int, int]], arch: int, number: int) -> int:
    """What the kernel would return for a call ``number`` under ``arch`` (the subset of
    classic BPF the filter uses: load a word of seccomp_data, jump if equal or at least,
    return)."""
    data = struct.pack("<iI", number, arch) + bytes(56)  # nr, arch, ip, args
    accumulator, at = 0, 0
    for _ in range(len(program) + 1):
        code, jt, jf, k = program[at]
        if code == 0x20:  # BPF_LD | BPF_W | BPF_ABS
            (accumulator,) = struct.unpack_from("<I", data, k)
            at += 1
        elif code in (0x15, 0x35):  # BPF_JMP | BPF_JEQ / BPF_JGE, BPF_K
            taken = accumulator == k if code == 0x15 else accumulator >= k
            at += 1 + (jt if taken else jf)
        elif code == 0x06:  # BPF_RET | BPF_K
            return k
        else:
            raise AssertionError(f"unexpected instruction {code:#x}")
        assert 0 <= at < len(program), "a jump out of the program"
    raise AssertionError("no return")


def test_every_abi_the_filter_knows_is_checked_here() -> None:
    assert set(sandbox.SOCKET_CALLS) == set(EXPECTED)


@pytest.mark.parametrize("abi", sorted(EXPECTED))
def test_the_filter_refuses_that_abis_socket_calls_and_nothing_else(abi: str) -> None:
    arch, sockets = EXPECTED[abi]
    calls = sandbox.SOCKET_CALLS[abi]
    assert (calls.arch, set(calls.numbers)) == (arch, sockets)
    program = sandbox.socket_filter(calls)
    assert len(program) < 64 and program[-2:] == [(0x06, 0, 0, ALLOW), (0x06, 0, 0, REFUSE)]
    for number in sockets:
        assert run(program, arch, number) == REFUSE, number
    others = [n for n in (0, 1, 3, 4, 5, 56, 57, 59, 63, 64, 93, 220, 281, 359) if n not in sockets]
    for number in others:  # read, write, openat, clone, execve, exit, …
        assert run(program, arch, number) == ALLOW, number
    for other in {a for a, _ in EXPECTED.values()} - {arch}:
        assert run(program, other, 0) == KILL
    x32 = run(program, arch, 0x40000000 | 1)
    assert x32 == (REFUSE if abi == "x86_64-linux-gnu" else ALLOW)  # x32 calls: x32 only


def test_this_interpreter_has_a_filter() -> None:
    """On the machines the tests run on (x86_64, aarch64), the worker refuses sockets."""
    assert sandbox.abi() in sandbox.SOCKET_CALLS, sandbox.abi()
