"""`toolwire show` in a real pseudo-terminal: it draws, takes keys and quits with q, also in a
terminal that reports no size (textual-image's terminal query divides by its columns)."""

from __future__ import annotations

import fcntl
import os
import pty
import select
import struct
import sys
import termios
import time
from pathlib import Path

import pytest

import toolwire as tw

from .screens import ANTHROPIC, session

SRC = Path(__file__).resolve().parents[2] / "src"


def run_in_pty(args: list[str], columns: int, keys: bytes) -> tuple[int, bytes]:
    """Run ``toolwire ARGS`` on a new pty of ``columns`` x 30, type ``keys`` once it has drawn
    its first turn, then wait for it to exit: (exit code, everything it wrote)."""
    pid, fd = pty.fork()
    if pid == 0:  # the child: a terminal of the given size, then toolwire
        fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", 30, columns, 0, 0))
        os.environ.update(PYTHONPATH=str(SRC), TERM="xterm-256color")
        os.execv(sys.executable, [sys.executable, "-m", "toolwire", *args])
    out, typed, deadline = b"", False, time.monotonic() + 60
    while time.monotonic() < deadline:
        ready, _, _ = select.select([fd], [], [], 0.2)
        if ready:
            try:
                out += os.read(fd, 65536)
            except OSError:  # the child closed the terminal: it has exited
                break
        if not typed and b"turn 1" in out:
            os.write(fd, keys)
            typed = True
    _, status = os.waitpid(pid, 0)
    os.close(fd)
    return os.waitstatus_to_exitcode(status), out


@pytest.mark.skipif(sys.platform != "linux", reason="a Linux pseudo-terminal")
@pytest.mark.parametrize("columns", [100, 0])
def test_it_draws_in_a_terminal_and_q_quits(tmp_path: Path, columns: int) -> None:
    path = tmp_path / "history.json"
    path.write_text(tw.dump_conversation(session()))
    args = ["show", str(path), "-m", ANTHROPIC, "--trust", "paths"]
    code, out = run_in_pty(args, columns, b"tq")
    assert b"Traceback" not in out, out.decode(errors="replace")[-2000:]
    assert code == 0 and b"turn 1" in out
