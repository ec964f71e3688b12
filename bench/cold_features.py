"""What each of toolwire's features costs a cold encode on the raw-byte wires (Gemini,
Bedrock), and the ratio to pydantic-ai's mapping with all of them held off: about the work of
that mapping, which spells each message in the provider's shape and does nothing else (a
route and a Decision per file remain).

    .venv-bench/bin/python bench/cold_features.py [--runs 31] [--convs abc]

Issue 12 asks cold encodes on these wires to cost at most 1.5× pydantic-ai's mapping. Without
files toolwire meets it; with files the plan also decides, measures and holds each file to
the target's limits, work the mapping does not do. This prints, per conversation and target,
the ratio as users get it, the ratio with every feature below held off (the plan-then-spell
design alone), and what holding off each feature alone saves.

A feature is held off by replacing the function that does it with one that does nothing
(``FEATURES``), for the timed calls only. The encode then does less than a user gets: these
figures say where the time goes and are not a way to run toolwire. The ratios are
``_peers_measure.single``'s, as in peers.py and bench/cold_ratio.py (fresh File objects and an
empty memo per repetition, ``gc.collect()`` before each call, peers loaded). A feature's saving
is timed in pairs, with and without it (``saving``): this VM's drift moves a ratio by up to
0.1 between runs, more than most features' share.
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import importlib
import os
import statistics
import time
import types
from collections.abc import Callable, Iterator
from typing import Any
from unittest import mock

import _peers_data as data
import _peers_measure as measure
from _peers_libs import TARGETS, PydanticAI, Toolwire

import toolwire as tw
import toolwire.memo
import toolwire.plan
import toolwire.plan.ids
import toolwire.plan.layout
import toolwire.plan.tally
import toolwire.request
from toolwire.memo import MEMO
from toolwire.request import encode

RAW_BYTE_TARGETS = ("gemini-3", "bedrock-claude")


class _Same(dict[str, str]):
    """Every id and name as given (the ids pass held off)."""

    def __missing__(self, key: str) -> str:
        return key

    __call__ = __missing__


class _Names:
    call_id = _Same()
    name = _Same()


def _off(target: Any, attribute: str, stand_in: Any) -> Callable[[], Any]:
    return lambda: mock.patch.object(target, attribute, stand_in)


#: What each feature is, and how it is held off.
FEATURES: dict[str, list[Callable[[], Any]]] = {
    "budgets' tally (each message and file measured)": [
        _off(toolwire.plan.tally.Tally, "text", lambda self, chars, plain, message: None),
        _off(toolwire.plan.tally.Tally, "file", lambda self, file, sent, cell: None),
    ],
    "tool-call arguments measured": [
        _off(toolwire.plan.layout, "call_sizes", lambda call: (0, 0, True)),
    ],
    "image limits (each header read)": [
        _off(toolwire.request, "fit_image", lambda file, cell: (file, None)),
    ],
    "wire rules (Bedrock's roles, blanks, documents)": [
        _off(toolwire.plan, "wire_rules", lambda steps, wire: steps),
    ],
    "plan kept for the next turn": [
        _off(toolwire.memo.LastPlans, "remember", lambda self, *args, **kwargs: None),
    ],
    "repeated files named": [
        _off(toolwire.plan, "mark_repeats", lambda decisions, sources: tuple(decisions)),
    ],
    "ids and names per wire rule": [
        _off(toolwire.plan.ids.ToolNames, "of", classmethod(lambda cls, steps, wire: _Names)),
    ],
}


@contextlib.contextmanager
def held_off(names: list[str]) -> Iterator[None]:
    """The features ``names`` held off (``FEATURES``' stand-ins) inside the block."""
    with contextlib.ExitStack() as stack:
        for name in names:
            for patch in FEATURES[name]:
                stack.enter_context(patch())
        yield


def cold_seconds(lib: Any, conv: Any, target: Any, runs: int, off: list[str]) -> float:
    """``lib``'s cold encode of ``conv`` (``_peers_measure.single``), ``off`` held off."""
    with held_off(off):
        cell = measure.single(lib, conv, target, runs)
    if cell.seconds is None:
        raise SystemExit(f"{lib.name} on {target.label}: {cell.note}")
    return cell.seconds


def saving(lib: Any, conv: Any, target: Any, runs: int, name: str) -> float:
    """Median seconds holding ``name`` off saves a cold encode, timed in pairs (one encode
    with it and one without per repetition, which goes first alternating): a feature's share
    is smaller than the drift between two separate runs."""
    saved = []
    for run in range(runs):
        pair = []
        for off in ([], [name]) if run % 2 == 0 else ([name], []):
            lib.fresh()
            messages = measure.native_of(lib, conv, target)
            with held_off(off):
                gc.collect()
                gc.disable()
                try:
                    start = time.perf_counter()
                    lib.encode(messages, target)
                    pair.append((bool(off), time.perf_counter() - start))
                finally:
                    gc.enable()
        with_it, without = (seconds for _, seconds in sorted(pair))
        saved.append(with_it - without)
    return statistics.median(saved)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=31)
    parser.add_argument("--convs", default="abc", help="which of (a), (b), (c): e.g. bc")
    args = parser.parse_args()
    os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
    importlib.import_module("litellm")  # as in peers.py: the heavy process
    api = types.SimpleNamespace(tw=tw, encode=encode, clear=MEMO.clear)
    libs = [Toolwire(api), PydanticAI()]
    convs = {"a": data.text_only, "b": data.agent_session, "c": data.parallel_tools}
    targets = [t for t in TARGETS if t.key in RAW_BYTE_TARGETS]
    every = list(FEATURES)
    print("toolwire's cold encode over pydantic-ai's, as users get it and with every feature")
    print("held off; then what holding each feature off alone saves, in µs and as a share of")
    print("pydantic-ai's time (the ratio it takes off).\n")
    print("| conversation | target | as users get it | all held off | " + " | ".join(every) + " |")
    print("|---" * (4 + len(every)) + "|")
    for key in args.convs:
        conv = convs[key]()
        for target in targets:
            ours, theirs = (cold_seconds(lib, conv, target, args.runs, []) for lib in libs)
            floor = cold_seconds(libs[0], conv, target, args.runs, every)
            cells = [f"{ours / theirs:.2f}×", f"{floor / theirs:.2f}×"]
            for name in every:
                saved = saving(libs[0], conv, target, args.runs, name)
                cells.append(f"{saved * 1e6:.0f} µs ({saved / theirs:.2f})")
            print(f"| ({key}) | {target.label} | " + " | ".join(cells) + " |", flush=True)


if __name__ == "__main__":
    main()
