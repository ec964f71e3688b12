"""Cold encodes on the raw-byte wires against pydantic-ai's mapping: the figure issue 12's goal
reads ("at most 1.5×"), without the rest of bench/peers.py (a minute instead of fourteen).

    .venv-bench/bin/python bench/cold_ratio.py [--runs 31] [--convs abc] [--split] [--paired]

Each cell is ``_peers_measure.single``, as in peers.py: fresh File objects and an empty memo
for every repetition, ``gc.collect()`` before each timed call, in a process holding
pydantic-ai and LiteLLM. ``--split`` also times each encode right after a small encode of the
same shapes warmed its code (not its data), to tell the work from the cold penalty on top.

``--paired`` times the two libraries in pairs instead, one call of each per repetition (which
goes first alternates), and prints the median of the pairs' ratios. This VM's load drifts
within a run, and timing all of one library's calls and then all of the other's reads the
drift as a difference between them (two such runs of (c), minutes apart, gave 1.70× and 1.57×
on Gemini, 1.64× and 1.47× on Bedrock); in pairs it cancels. But pairs are also colder: the
other library's call between two of toolwire's leaves less of toolwire's code in the shared
cache, and on 11-26 the pairs read 0.05–0.15 higher than peers.py's method on every
conversation. So the goal is read with the default, and ``--paired`` compares two commits.

To compare two commits, put the other one's ``src`` first on ``PYTHONPATH`` (a git worktree:
``git worktree add /tmp/old REV``) and run both alternately; pydantic-ai's own time moves by up
to 15% between runs, so read the ratios, measured in the same process (``--paired`` for the
steadier comparison of two commits).
"""

from __future__ import annotations

import argparse
import gc
import importlib
import os
import statistics
import time
import types
from typing import Any

import _peers_data as data
import _peers_measure as measure
from _peers_libs import TARGETS, PydanticAI, Toolwire

import toolwire as tw
from toolwire.memo import MEMO
from toolwire.request import encode

RAW_BYTE_TARGETS = ("gemini-3", "bedrock-claude")


def paired(libs: list[Any], conv: Any, target: Any, runs: int) -> tuple[float, float, float]:
    """Median seconds of each library's cold encode of ``conv``, and the median of the ratios
    of the pairs timed together (toolwire first in every other pair)."""
    native = [measure.native_of(lib, conv, target) for lib in libs]

    def prepare(i: int) -> Any:  # as single(): fresh File objects for toolwire only
        if libs[i].name != "toolwire":
            return native[i]
        libs[i].fresh()
        return measure.native_of(libs[i], conv, target)

    for i, lib in enumerate(libs):  # warm-up: lazy imports, capability tables, SDK type caches
        lib.encode(prepare(i), target)
    times: list[list[float]] = [[] for _ in libs]
    for run in range(runs):
        order = range(len(libs)) if run % 2 == 0 else reversed(range(len(libs)))
        for i in order:
            lib = libs[i]
            messages = prepare(i)
            gc.collect()
            gc.disable()
            try:
                start = time.perf_counter()
                lib.encode(messages, target)
                times[i].append(time.perf_counter() - start)
            finally:
                gc.enable()
    ratios = [ours / theirs for ours, theirs in zip(*times, strict=True)]
    ours, theirs = (statistics.median(t) for t in times)
    return ours, theirs, statistics.median(ratios)


def warmed_first(lib: Any, conv: Any, small: Any, target: Any, runs: int) -> float:
    """Median seconds of one encode of ``conv`` right after one of ``small`` (its code warm)."""
    times = []
    for _ in range(runs):
        lib.fresh()
        messages = [m for turn in conv.turns for m in lib.build(turn, target)]
        warm = [m for turn in small.turns for m in lib.build(turn, target)]
        gc.collect()
        lib.encode(warm, target)
        lib.fresh()
        gc.disable()
        try:
            start = time.perf_counter()
            lib.encode(messages, target)
            times.append(time.perf_counter() - start)
        finally:
            gc.enable()
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=31)
    parser.add_argument("--convs", default="abc", help="which of (a), (b), (c): e.g. bc")
    parser.add_argument("--split", action="store_true", help="also time with the code warmed")
    parser.add_argument("--paired", action="store_true", help="time the libraries in pairs")
    args = parser.parse_args()
    # Loaded as in peers.py: the heavy process whose gc.collect() leaves the caches cold.
    os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
    importlib.import_module("litellm")
    api = types.SimpleNamespace(tw=tw, encode=encode, clear=MEMO.clear)
    libs = [Toolwire(api), PydanticAI()]
    convs = {"a": data.text_only, "b": data.agent_session, "c": data.parallel_tools}
    small = data.agent_session(turns=4, images=2, pdfs=1)
    targets = [t for t in TARGETS if t.key in RAW_BYTE_TARGETS]
    for key in args.convs:
        conv = convs[key]()
        for target in targets:
            missing = next(filter(None, (lib.missing(target) for lib in libs)), None)
            if missing:
                print(f"({key}) {target.label}: {missing}")
                continue
            if args.paired:
                ours, theirs, ratio = paired(libs, conv, target, args.runs)
            else:
                cells = [measure.single(lib, conv, target, args.runs) for lib in libs]
                if cells[0].seconds is None or cells[1].seconds is None:
                    print(f"({key}) {target.label}: {cells[0].note or cells[1].note}")
                    continue
                ours, theirs = cells[0].seconds, cells[1].seconds
                ratio = ours / theirs
            line = (
                f"({key}) {target.label:15s} toolwire {ours * 1e3:6.3f} ms  "
                f"pydantic-ai {theirs * 1e3:6.3f} ms  ratio {ratio:4.2f}×"
            )
            if args.split:
                warm = [warmed_first(lib, conv, small, target, args.runs) for lib in libs]
                line += f"  (code warmed: {warm[0] * 1e6:,.0f} / {warm[1] * 1e6:,.0f} µs)"
            print(line, flush=True)


if __name__ == "__main__":
    main()
