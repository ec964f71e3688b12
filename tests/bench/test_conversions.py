"""bench/conversions.py: every file it names is in the corpus, and toolwire's output meets
every expectation but the one markitdown-style image reference (``![alt]``) it knowingly
writes otherwise (``[Picture: alt]``)."""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parents[2] / "bench" / "conversions.py"


def bench_conversions():
    spec = importlib.util.spec_from_file_location("bench_conversions", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up there
    spec.loader.exec_module(module)  # conftest.py puts bench/ on sys.path for _timing
    return module


def test_every_file_of_the_benchmark_is_in_the_corpus():
    module = bench_conversions()
    for name in module.EXPECTATIONS:
        assert (module.CORPUS / name).is_file(), name


def test_toolwire_meets_the_expectations_but_the_markitdown_style_image_reference():
    module = bench_conversions()
    missed = []
    for name, expectations in module.EXPECTATIONS.items():
        text = module.toolwire_text(module.CORPUS / name)
        missed += [e.pattern for e in expectations if not re.search(e.pattern, text)]
    assert missed == [re.escape("![This phrase of the caption is Human-written.]")]
