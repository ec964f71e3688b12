"""The benchmarks import their shared helpers (bench/_timing.py, bench/_peers_*.py) as
top-level modules, as they do when run as scripts from the repository root."""

from __future__ import annotations

import sys
from pathlib import Path

BENCH = str(Path(__file__).resolve().parents[2] / "bench")
if BENCH not in sys.path:
    sys.path.insert(0, BENCH)
