"""Timing loops the benches share: the median of timed runs after a warm-up.

Imported by bench/convert.py and bench/read.py as a sibling module (``from _timing import …``,
the script's folder is on ``sys.path``), as bench/peers.py imports its ``_peers_*`` helpers.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable


def timed(call: Callable[[], object], repeat: int) -> float:
    """Median wall time of ``repeat`` runs, in seconds (after one warm-up run)."""
    call()
    runs = []
    for _ in range(repeat):
        start = time.perf_counter()
        call()
        runs.append(time.perf_counter() - start)
    return statistics.median(runs)


def _nothing() -> None:
    pass


def alternating(
    first: Callable[[], object],
    second: Callable[[], object],
    repeat: int,
    setups: tuple[Callable[[], object], Callable[[], object]] = (_nothing, _nothing),
) -> tuple[float, float]:
    """Median seconds of each call, runs alternating so both see the same machine load.

    The first round warms up and is not counted. ``setups`` run untimed before each run of the
    matching call (to switch a setting the two calls differ by).
    """
    runs: tuple[list[float], list[float]] = ([], [])
    for number in range(repeat + 1):
        for setup, call, times in ((setups[0], first, runs[0]), (setups[1], second, runs[1])):
            setup()
            start = time.perf_counter()
            call()
            if number:
                times.append(time.perf_counter() - start)
    return statistics.median(runs[0]), statistics.median(runs[1])
