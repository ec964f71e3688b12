"""bench/read.py: the benchmark still runs (and says what it skipped) without pypdf, and
prints what isolation costs per read."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench" / "read.py"


def bench_read():
    spec = importlib.util.spec_from_file_location("bench_read", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_without_pypdf_the_pdf_benchmark_skips_its_baseline_and_carries_on(monkeypatch, capsys):
    pytest.importorskip("reportlab")
    pytest.importorskip("pypdfium2")
    monkeypatch.setitem(sys.modules, "pypdf", None)  # makes `import pypdf` raise ImportError
    bench_read().bench_pdf(1)
    out = capsys.readouterr().out
    assert "baseline skipped: pypdf is not installed" in out
    assert "pip install -r bench/requirements.txt" in out
    assert "pypdfium2" in out and "toolwire read_file" in out
    assert "ratio pypdfium2/pypdf" not in out


@pytest.mark.slow
def test_the_isolation_benchmark_prints_each_file_isolated_and_in_process_and_restores(capsys):
    pytest.importorskip("pypdfium2")
    from toolwire.readers import isolation

    before = isolation.settings()
    bench_read().bench_isolation(1)
    out = capsys.readouterr().out
    lines = [line for line in out.splitlines() if "ms isolated" in line]
    names = [line.split()[0] for line in lines]
    assert names == ["photo.png", "report.pdf", "memo.docx", "40mb.wav"]
    assert all("ms in-process" in line and "ratio" in line for line in lines)
    assert "first read, starting the worker:" in out
    assert isolation.settings() == before
