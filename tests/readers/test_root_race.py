"""read_file under a root against a live attacker swapping a directory and a symlink.

A thread exchanges ``root/d`` (a directory holding ``f.txt``) with ``root/swap`` (a symlink
to a directory outside the root holding its own ``f.txt``) with renameat2(RENAME_EXCHANGE),
atomically and as fast as it can, while the test reads ``d/f.txt`` over and over. A check
that resolves one path and an open that follows another leaks the outside file now and then;
the component-by-component walk never may.
"""

from __future__ import annotations

import ctypes
import os
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from toolwire.errors import ToolwireError
from toolwire.readers import read_file

_AT_FDCWD = -100
_RENAME_EXCHANGE = 2
TRIES = 20000
SECONDS = 4.0
SECRET = "SECRET-OUTSIDE-THE-ROOT"


def _exchange() -> Callable[[Path, Path], None]:
    """renameat2(RENAME_EXCHANGE) through libc; the test fails (not skips) without it."""
    if not sys.platform.startswith("linux"):
        pytest.fail(f"the race test needs Linux renameat2; this is {sys.platform}")
    libc = ctypes.CDLL(None, use_errno=True)
    renameat2 = getattr(libc, "renameat2", None)
    if renameat2 is None:
        pytest.fail("libc has no renameat2 (glibc >= 2.28 needed) to run the swap attack")
    renameat2.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p]
    renameat2.argtypes.append(ctypes.c_uint)

    def exchange(a: Path, b: Path) -> None:
        if renameat2(_AT_FDCWD, os.fsencode(a), _AT_FDCWD, os.fsencode(b), _RENAME_EXCHANGE):
            err = ctypes.get_errno()
            pytest.fail(f"renameat2(RENAME_EXCHANGE) failed: {os.strerror(err)} ({err})")

    return exchange


def race(tmp_path: Path, read: Callable[[str, Path], str]) -> tuple[int, int, int]:
    """Read ``d/f.txt`` under the root while a thread swaps ``d`` and an outward symlink.

    Returns (reads that saw the outside file, reads that saw the inside one, swaps done).
    """
    root, outside = tmp_path / "root", tmp_path / "outside"
    (root / "d").mkdir(parents=True)
    outside.mkdir()
    (root / "d" / "f.txt").write_text("inside the root\n")
    (outside / "f.txt").write_text(SECRET + "\n")
    (root / "swap").symlink_to(outside, target_is_directory=True)
    exchange = _exchange()
    exchange(root / "d", root / "swap")  # fails the test here if the syscall is missing
    stop, swaps = threading.Event(), [1]

    def attacker() -> None:
        while not stop.is_set():
            exchange(root / "d", root / "swap")
            swaps[0] += 1

    leaks = clean = 0
    thread = threading.Thread(target=attacker, daemon=True)
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-5)  # let the attacker run between the reader's steps
    thread.start()
    try:
        deadline = time.monotonic() + SECONDS
        for _ in range(TRIES):
            if time.monotonic() > deadline:
                break
            try:
                text = read("d/f.txt", root)
            except ToolwireError:
                continue  # refusing a read while the tree changes is fine
            leaks += SECRET in text
            clean += "inside the root" in text
    finally:
        stop.set()
        thread.join()
        sys.setswitchinterval(interval)
    return leaks, clean, swaps[0]


def _read_file(path: str, root: Path) -> str:
    return read_file(path, root=root).value[0].text


def test_swapping_a_directory_for_an_outward_symlink_never_leaks_the_outside_file(tmp_path):
    leaks, clean, swaps = race(tmp_path, _read_file)
    assert swaps > 100, f"the attacker only swapped {swaps} times; the race did not run"
    assert clean > 0, "no read succeeded at all while the tree was being swapped"
    assert leaks == 0, f"{leaks} reads returned the file outside the root"
