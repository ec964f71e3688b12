"""Fixtures every test directory may use."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import settings

from toolwire import capability

# The readers the tests define (misbehaving decoders, sandbox probes) are imported by the read
# worker from here; confined, it reads only what this names besides the installation
# (readers.sandbox), never the working directory or the script's.
os.environ.setdefault("TOOLWIRE_READ_PATHS", str(Path(__file__).parent))

# No property test claims a speed: Hypothesis's default 200 ms wall-clock deadline per example
# only measured how busy the machine was (a pause on a loaded CI runner failed the run as
# DeadlineExceeded or "Unreliable test timings"). Speed claims are made by the tests that name
# them, on CPU time. A test's own @settings still sets anything else it needs.
settings.register_profile("toolwire", deadline=None)
settings.load_profile("toolwire")


@pytest.fixture
def fresh_model_warnings(monkeypatch: pytest.MonkeyPatch) -> None:
    """Forget which unknown models this process has warned about (one ToolwireWarning each)
    and the resolved capabilities, so a test sees the warning whatever ran before it."""
    monkeypatch.setattr(capability, "_warned", set())
    monkeypatch.setattr(capability, "_resolved", {})


@pytest.fixture
def worker_runs(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The names of the files each worker conversion was for (the real worker still runs)."""
    import toolwire.convert as converting

    runs: list[str] = []
    real = converting.run

    def counted(converter: object, job: object) -> object:
        runs.append(job.name)  # type: ignore[attr-defined]
        return real(converter, job)  # type: ignore[arg-type]

    monkeypatch.setattr(converting, "run", counted)
    return runs
