"""bench/convert.py: the benchmark runs and prints each conversion against its baseline,
cold and memoised, without asserting any timing."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench" / "convert.py"


def bench_convert():
    spec = importlib.util.spec_from_file_location("bench_convert", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_pdf_benchmark_prints_per_page_costs_as_ratios_to_pypdfium2_alone(capsys):
    pytest.importorskip("reportlab")
    pytest.importorskip("pypdfium2")
    bench_convert().bench_pdf(1)
    out = capsys.readouterr().out
    assert "pypdfium2 alone (baseline)" in out and "ms/page" in out
    assert "toolwire convert, cold" in out and "toolwire convert, memoised" in out
    assert out.count("ratio") == 2


def test_the_video_benchmark_prints_per_frame_costs_as_ratios_to_pyav_alone(capsys):
    pytest.importorskip("av")
    bench_convert().bench_video(1)
    out = capsys.readouterr().out
    assert "PyAV alone (baseline)" in out and "ms/frame" in out
    assert "toolwire convert, cold" in out and "µs/call" in out
