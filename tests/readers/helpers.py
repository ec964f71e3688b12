"""Helpers for the reader tests: the example files, and running a read under a deadline.

Hostile files must fail fast, never hang: ``outcome`` runs a read in a daemon thread and
fails the test if it has not finished within a generous deadline (a hang, not a slow run).
"""

from __future__ import annotations

import shutil
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
DEADLINE_SECONDS = 60.0


def example(name: str) -> Path:
    """The path of an example file, skipping the test while it has not been generated yet."""
    path = EXAMPLES / name
    if not path.exists():
        pytest.skip(f"examples/{name} has not been generated yet")
    return path


def copy_example(name: str, directory: Path, as_name: str | None = None) -> Path:
    """A copy of an example file in ``directory`` (under another name if given)."""
    target = directory / (as_name or Path(name).name)
    shutil.copyfile(example(name), target)
    return target


def outcome(call: Callable[[], Any]) -> Any:
    """What ``call`` returned or raised, failing the test if it is still running at the deadline."""
    result: dict[str, Any] = {}

    def run() -> None:
        try:
            result["value"] = call()
        except BaseException as exc:  # handed back to the test, which asserts on it
            result["value"] = exc

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(DEADLINE_SECONDS)
    assert not thread.is_alive(), f"the read did not finish within {DEADLINE_SECONDS} s (it hangs)"
    return result["value"]


def need_cairosvg() -> None:
    """Skip unless CairoSVG imports (it raises OSError, not ImportError, without libcairo)."""
    try:
        import cairosvg  # noqa: F401
    except (ImportError, OSError) as exc:
        pytest.skip(f"cairosvg is not usable here: {exc}")
