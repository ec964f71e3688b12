"""Import cost of toolwire, measured in fresh interpreters against a baseline from the same run.

Each run starts a new interpreter and times, inside it, ``import toolwire`` and then the first
use of ``toolwire.File`` (which builds the pydantic models). The baseline is ``import pydantic``
— the one dependency the core model needs — timed the same way.

    .venv/bin/python bench/imports.py [--runs 15] [--python PATH]

Prints medians in milliseconds (the budget for ``import toolwire`` is 100 ms); asserts nothing.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys

TOOLWIRE = """
import json, time
t0 = time.perf_counter()
import toolwire
t1 = time.perf_counter()
toolwire.File
t2 = time.perf_counter()
print(json.dumps({"import": t1 - t0, "first_use": t2 - t1, "total": t2 - t0}))
"""

BASELINE = """
import json, time
t0 = time.perf_counter()
import pydantic
t1 = time.perf_counter()
print(json.dumps({"import": t1 - t0}))
"""


def measure(python: str, script: str, runs: int) -> dict[str, float]:
    """Median seconds per key over ``runs`` fresh interpreters (after one warm-up run that
    writes bytecode caches)."""
    samples: dict[str, list[float]] = {}
    for n in range(runs + 1):
        done = subprocess.run([python, "-c", script], capture_output=True, text=True, check=True)
        if n == 0:
            continue
        for key, seconds in json.loads(done.stdout).items():
            samples.setdefault(key, []).append(seconds)
    return {key: statistics.median(values) for key, values in samples.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15, help="fresh interpreters per figure")
    parser.add_argument("--python", default=sys.executable, help="interpreter to measure")
    args = parser.parse_args()

    toolwire = measure(args.python, TOOLWIRE, args.runs)
    baseline = measure(args.python, BASELINE, args.runs)
    imported, first_use = toolwire["import"] * 1000, toolwire["first_use"] * 1000
    total, pydantic = toolwire["total"] * 1000, baseline["import"] * 1000
    print(f"median of {args.runs} fresh interpreters ({args.python})")
    print(f"  import toolwire                     {imported:7.1f} ms  (budget 100 ms)")
    print(f"  then first use of toolwire.File     {first_use:7.1f} ms")
    print(f"  import toolwire; toolwire.File      {total:7.1f} ms")
    print(f"  baseline: import pydantic           {pydantic:7.1f} ms")
    print(f"  ratio import toolwire / pydantic    {imported / pydantic:7.2f}")
    print(f"  ratio toolwire.File / pydantic      {total / pydantic:7.2f}")


if __name__ == "__main__":
    main()
