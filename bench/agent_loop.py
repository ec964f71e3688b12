"""The agent loop's per-turn cost as the history grows (issue 30), on every wire.

An agent re-encodes its whole history after every model reply. This runs one 400-turn agent
session (a question, then tool turns; every fourth returns a 320x240 JPEG, so 100 images in
all and Bedrock's 20 images a request bind from turn 80 on), encoding after each turn as an
agent does, and reports the median per-turn encode time around turn 40 and turn 400 — for
toolwire's ``encode`` and for pydantic-ai's own message mapping (bench/_peers_libs.py says
exactly what is timed), in the same process. Figures are ratios measured in one run:

- ``flat``: toolwire's per-turn time at turn 400 over turn 40 (the issue asks at most 2×);
- ``vs pydantic-ai``: pydantic-ai's per-turn time at turn 400 over toolwire's (asks ≥ 5×).

    .venv-bench/bin/python bench/agent_loop.py [--turns 400] [--reps 3] [--targets a,b]

(the bench venv: bench/requirements.txt). Without pydantic-ai installed, toolwire alone.
"""

from __future__ import annotations

import argparse
import gc
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))

from _peers_data import SYSTEM, TOOL, Blob, Conversation, Msg, photo, prose  # noqa: E402
from _peers_libs import TARGETS, PydanticAI, Target, Toolwire  # noqa: E402

#: Per-turn times are the median over this many turns ending at the turn named.
WINDOW = 5


def session(turns: int) -> Conversation:
    """A question, then ``turns`` tool turns; every fourth result is a small JPEG."""
    conv = Conversation(f"{turns} agent turns, an image every fourth")
    conv.turns.append([Msg("system", SYSTEM), Msg("user", prose(0, 30))])
    for t in range(1, turns):
        call = (f"call_{t}", TOOL["name"], {"target": f"window {t}"})
        files: tuple[Blob, ...] = ()
        text = json.dumps({"window": t, "title": f"Window {t}", "status": "ok"})
        if t % 4 == 0:
            image = photo(320, 240, 1000 + t, grain=60, quality=85)
            files = (Blob(image, "image/jpeg", f"shot-{t}.jpg"),)
            text = f"Screenshot of window {t}."
        conv.turns.append(
            [
                Msg("assistant", prose(t, 25), calls=(call,)),
                Msg("tool", text, files=files, call_id=call[0]),
            ]
        )
    return conv


def per_turn(lib: Any, conv: Conversation, target: Target, marks: list[int]) -> dict[int, float]:
    """Encode after every turn; the median seconds of the ``WINDOW`` encodes ending at each
    turn of ``marks``."""
    lib.fresh()
    history: list[Any] = []
    times: list[float] = []
    for turn in conv.turns[: max(marks)]:
        history += lib.build(turn, target)
        gc.collect()
        gc.disable()
        try:
            start = time.perf_counter()
            lib.encode(history, target)
            times.append(time.perf_counter() - start)
        finally:
            gc.enable()
    return {mark: statistics.median(times[mark - WINDOW : mark]) for mark in marks}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=400)
    parser.add_argument("--early", type=int, default=40)
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--targets", default=",".join(t.key for t in TARGETS))
    args = parser.parse_args()
    import toolwire as tw
    from toolwire.memo import MEMO

    def encode(messages: list[Any], model: str) -> Any:  # the oldest images beyond a budget: text
        return tw.encode(messages, model, on_unsupported="text")

    api = type("Api", (), {"tw": tw, "encode": staticmethod(encode), "clear": MEMO.clear})
    libs: dict[str, Any] = {"toolwire": Toolwire(api)}
    try:
        libs["pydantic-ai"] = PydanticAI()
    except ImportError:
        print("pydantic-ai is not installed: toolwire alone", file=sys.stderr)
    conv = session(args.turns)
    marks = [args.early, args.turns]
    wanted = set(args.targets.split(","))
    print(f"{conv.label}; per-turn encode, median of {WINDOW} turns, best of {args.reps} runs\n")
    print(
        f"| target | toolwire t{args.early} | toolwire t{args.turns} | flat "
        f"| pydantic-ai t{args.early} | pydantic-ai t{args.turns} | vs pydantic-ai |"
    )
    print("|---|---|---|---|---|---|---|")
    for target in TARGETS:
        if target.key not in wanted:
            continue
        found: dict[str, dict[int, float]] = {}
        for name, lib in libs.items():
            runs = [per_turn(lib, conv, target, marks) for _ in range(args.reps)]
            found[name] = {m: min(run[m] for run in runs) for m in marks}
        ours = found["toolwire"]
        row = [
            target.label,
            f"{ours[marks[0]] * 1e3:.2f} ms",
            f"{ours[marks[1]] * 1e3:.2f} ms",
            f"{ours[marks[1]] / ours[marks[0]]:.2f}×",
        ]
        theirs = found.get("pydantic-ai")
        if theirs is not None:
            row += [
                f"{theirs[marks[0]] * 1e3:.2f} ms",
                f"{theirs[marks[1]] * 1e3:.2f} ms",
                f"{theirs[marks[1]] / ours[marks[1]]:.2f}×",
            ]
        else:
            row += ["–", "–", "–"]
        print("| " + " | ".join(row) + " |", flush=True)


if __name__ == "__main__":
    main()
