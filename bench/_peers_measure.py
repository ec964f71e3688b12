"""Measurements for bench/peers.py: imports, single encodes, agent loops, bytes on the wire.

Every measurement returns plain numbers; peers.py turns them into tables. Timed regions hold
only the call being measured: inputs are built (or copied) before the clock starts, the
garbage collector is collected before and paused during each repetition, and figures are
medians. Peak memory is tracemalloc's peak during one call, above what was allocated before.
"""

from __future__ import annotations

import base64
import gc
import os
import statistics
import subprocess
import sys
import time
import tracemalloc
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from _peers_data import Blob, Conversation
from _peers_libs import Target, json_size

ENV = {**os.environ, "LITELLM_LOCAL_MODEL_COST_MAP": "True"}


@dataclass
class Cell:
    """One library on one target: median seconds, peak bytes, or why it has no figure."""

    seconds: float | None = None
    peak: int | None = None
    note: str = ""
    extra: dict[str, float] = field(default_factory=dict)


def median_time(run: Callable[[Any], Any], prepare: Callable[[], Any], reps: int) -> float:
    """Median seconds of ``run(prepare())`` over ``reps`` repetitions, only ``run`` timed."""
    times = []
    for _ in range(reps):
        arg = prepare()
        gc.collect()
        gc.disable()
        try:
            start = time.perf_counter()
            run(arg)
            times.append(time.perf_counter() - start)
        finally:
            gc.enable()
    return statistics.median(times)


def peak_bytes(run: Callable[[Any], Any], arg: Any) -> int:
    """tracemalloc's peak during ``run(arg)``, above the memory already in use."""
    gc.collect()
    tracemalloc.start()
    try:
        base = tracemalloc.get_traced_memory()[0]
        tracemalloc.reset_peak()
        result = run(arg)
        peak = tracemalloc.get_traced_memory()[1] - base
        del result
    finally:
        tracemalloc.stop()
    return peak


# --- imports ----------------------------------------------------------------------------------

_IMPORT_PROBE = (
    "import time; start = time.perf_counter(); {stmt}; print(time.perf_counter() - start)"
)


def import_seconds(stmt: str, runs: int) -> float:
    """Median seconds of ``stmt`` (an import) inside fresh interpreters."""
    times = []
    for _ in range(runs):
        out = subprocess.run(
            [sys.executable, "-c", _IMPORT_PROBE.format(stmt=stmt)],
            env=ENV,
            capture_output=True,
            text=True,
            check=True,
        )
        times.append(float(out.stdout.strip().splitlines()[-1]))
    return statistics.median(times)


# --- floor ------------------------------------------------------------------------------------


def floor_seconds(files: list[Blob], reps: int) -> float:
    """Base64 of every file to text, once: what any encoder for a base64 wire must pay."""

    def run(_: Any) -> None:
        for f in files:
            base64.b64encode(f.data).decode("ascii")

    return median_time(run, lambda: None, reps) if files else 0.0


# --- single encodes ---------------------------------------------------------------------------


def native_of(lib: Any, conv: Conversation, target: Target) -> list[Any]:
    return [m for turn in conv.turns for m in lib.build(turn, target)]


def build_seconds(lib: Any, conv: Conversation, target: Target, reps: int) -> float:
    """Median seconds to build ``lib``'s native input for the whole conversation."""
    return median_time(lambda _: native_of(lib, conv, target), lambda: None, reps)


def single(lib: Any, conv: Conversation, target: Target, reps: int, cold: bool = True) -> Cell:
    """One encode of the whole conversation: median time and peak memory.

    toolwire cold: fresh File objects and an empty base64 cache for every repetition (a
    process's first encode); warm: the same objects again (every later encode).
    """
    missing = lib.missing(target)
    if missing:
        return Cell(note=missing)
    native = native_of(lib, conv, target)
    copy_input = getattr(lib, "prepare", None)

    def prepare() -> Any:
        if lib.name == "toolwire" and cold:
            lib.fresh()
            return native_of(lib, conv, target)
        return copy_input(native) if copy_input else native

    def run(messages: Any) -> Any:
        return lib.encode(messages, target)

    try:
        run(prepare())  # warm-up: lazy imports, capability tables, SDK type caches
        if not cold:
            run(native)
        seconds = median_time(run, prepare, reps)
        return Cell(seconds=seconds, peak=peak_bytes(run, prepare()))
    except Exception as exc:  # a peer failing on this input is a result, not a crash
        return Cell(note=f"error: {type(exc).__name__}: {str(exc)[:120]}")


# --- the agent loop ---------------------------------------------------------------------------


def agent_loop(lib: Any, conv: Conversation, target: Target, reps: int) -> Cell:
    """Re-encode the growing history after every turn, as an agent does; total seconds.

    ``seconds``: the encodes only (each turn's native messages built before the clock).
    ``extra['build']``: building each turn's native messages from the file bytes, which the
    agent's own code does once per turn (for LiteLLM that is where base64 happens).
    """
    missing = lib.missing(target)
    if missing:
        return Cell(note=missing)
    totals, builds = [], []
    copy_input = getattr(lib, "prepare", None)  # LiteLLM edits its input in place
    try:
        for _ in range(reps):
            lib.fresh()
            history: list[Any] = []
            encode_s = build_s = 0.0
            for turn in conv.turns:
                start = time.perf_counter()
                history += lib.build(turn, target)
                build_s += time.perf_counter() - start
                messages = copy_input(history) if copy_input else history
                gc.collect()
                gc.disable()
                try:
                    start = time.perf_counter()
                    lib.encode(messages, target)
                    encode_s += time.perf_counter() - start
                finally:
                    gc.enable()
            totals.append(encode_s)
            builds.append(build_s)
    except Exception as exc:
        return Cell(note=f"error: {type(exc).__name__}: {str(exc)[:120]}")
    return Cell(seconds=statistics.median(totals), extra={"build": statistics.median(builds)})


# --- bytes on the wire ------------------------------------------------------------------------


def wire_bytes(lib: Any, conv: Conversation, target: Target) -> Cell:
    """The JSON request body's size for one encode (and that encode's time)."""
    missing = lib.missing(target)
    if missing:
        return Cell(note=missing)
    native = native_of(lib, conv, target)
    if getattr(lib, "prepare", None):
        native = lib.prepare(native)
    try:
        start = time.perf_counter()
        payload = lib.encode(native, target)
        seconds = time.perf_counter() - start
        size = json_size(lib.body(payload, target))
    except Exception as exc:
        return Cell(note=f"error: {type(exc).__name__}: {str(exc)[:120]}")
    return Cell(seconds=seconds, extra={"bytes": float(size)})
