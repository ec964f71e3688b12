"""scripts/dev installs what each command needs (issue 35): the CLI the files extra only, the
tests the dev extra, and the test command builds the docs strictly and runs pytest on parallel
workers.

The script runs for real, from a copy of the repository's scripts/dev and pyproject.toml in a
temporary root, with ``PYTHON`` naming a stand-in interpreter whose venv records every call
instead of installing (nothing is downloaded)."""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]

#: The stand-in for python3: ``-m venv DIR`` makes DIR/bin with recording tools.
PYTHON = """#!/usr/bin/env bash
set -eu
if [ "$1" = "-m" ] && [ "$2" = "venv" ]; then
  mkdir -p "$3/bin"
  for tool in python toolwire ruff mypy mkdocs pytest; do
    cat > "$3/bin/$tool" <<TOOL
#!/usr/bin/env bash
if [ "\\$1" = "-c" ]; then exec {real} "\\$@"; fi
echo "$tool \\$*" >> {log}
TOOL
    chmod +x "$3/bin/$tool"
  done
  exit 0
fi
exec {real} "$@"
"""


def executable(path: Path, text: str) -> None:
    path.write_text(text)
    path.chmod(path.stat().st_mode | stat.S_IXUSR)


@pytest.fixture
def root(tmp_path: Path) -> Path:
    """A copy of the repository's entry point, with a stand-in python3."""
    (tmp_path / "scripts").mkdir()
    shutil.copy2(REPO / "scripts" / "dev", tmp_path / "scripts" / "dev")
    shutil.copy2(REPO / "pyproject.toml", tmp_path / "pyproject.toml")
    log = tmp_path / "calls.log"
    executable(tmp_path / "python3", PYTHON.format(real=sys.executable, log=log))
    return tmp_path


def dev(root: Path, *args: str) -> list[str]:
    """Run scripts/dev; the calls it made to the venv's tools, one line each."""
    env = {**os.environ, "PYTHON": str(root / "python3")}
    done = subprocess.run(
        [str(root / "scripts" / "dev"), *args], env=env, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    log = root / "calls.log"
    calls = log.read_text().splitlines() if log.exists() else []
    log.unlink(missing_ok=True)
    return calls


def installs(calls: list[str]) -> list[str]:
    return [c for c in calls if c.startswith("python -m pip install") and "--upgrade pip" not in c]


def test_the_cli_installs_only_the_files_extra_and_the_tests_the_dev_extra(root: Path) -> None:
    """Issue 35: the first `render` installed the whole dev extra (every SDK, moto, playwright,
    mypy: 56 s). Once installed, a command installs nothing again."""
    calls = dev(root, "toolwire", "render", "x.png")
    assert installs(calls) == ["python -m pip install --quiet -e .[files]"]
    assert calls[-1] == "toolwire render x.png"
    assert installs(dev(root, "toolwire", "--help")) == []
    if shutil.which("chromium") is None or not list(Path("/usr/lib/postgresql").glob("*/bin")):
        pytest.skip("scripts/dev test first checks for chromium and postgresql")
    calls = dev(root, "test", "tests/viewer")
    assert installs(calls) == ["python -m pip install --quiet -e .[dev]"]
    assert installs(dev(root, "toolwire", "--help")) == []  # dev holds files


def test_the_test_command_runs_pytest_on_a_worker_per_cpu_and_passes_its_arguments(
    root: Path,
) -> None:
    if shutil.which("chromium") is None or not list(Path("/usr/lib/postgresql").glob("*/bin")):
        pytest.skip("scripts/dev test first checks for chromium and postgresql")
    calls = dev(root, "test", "-m", "not slow")
    assert [c.split()[0] for c in calls if not c.startswith("python")] == [
        "ruff",
        "ruff",
        "mypy",
        "mkdocs",
        "pytest",
    ]
    [build] = [c for c in calls if c.startswith("mkdocs")]
    assert build.startswith("mkdocs build --strict --quiet --site-dir ")  # a temporary directory
    assert not (root / "site").exists()
    assert calls[-1] == "pytest -n auto -m not slow"  # with arguments: no release check


def test_the_docs_command_installs_the_docs_extra_and_builds_strictly(root: Path) -> None:
    calls = dev(root, "docs")
    assert installs(calls) == ["python -m pip install --quiet -e .[docs]"]
    assert calls[-1].startswith("mkdocs build --strict --quiet --site-dir ")
