"""bench/cache.py: the benchmark runs a short session on every model and prints the billed
input tokens with and without cache=True, and the ratio, without asserting any figure."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parents[2] / "bench" / "cache.py"


def test_the_cache_benchmark_prints_both_runs_and_the_ratio_for_every_model(capsys, monkeypatch):
    spec = importlib.util.spec_from_file_location("bench_cache", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    monkeypatch.setattr(sys, "argv", ["cache.py", "--turns", "3"])
    module.main()
    out = capsys.readouterr().out
    assert "3-turn session" in out
    for model in module.MODELS:
        assert model in out
    assert out.count("fewer input-token equivalents") == len(module.MODELS)
    assert out.count("  False ") == out.count("  True ") == len(module.MODELS)
