"""`toolwire inspect FILE… [--json]` and `toolwire --version`, run through typer's CliRunner."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

import toolwire as tw
from toolwire.cli import app

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
FILES = ["photo.png", "report.pdf", "memo.docx", "data.csv", "tone.wav", "formats/video.webm"]


def run(*args: str):
    return CliRunner().invoke(app, list(args))


def test_version_prints_the_package_version():
    result = run("--version")
    assert result.exit_code == 0
    assert result.stdout == f"toolwire {tw.__version__}\n"


@pytest.mark.parametrize(
    "command",
    [[str(Path(sys.executable).with_name("toolwire"))], [sys.executable, "-m", "toolwire"]],
    ids=["console-script", "python-m"],
)
def test_the_installed_entry_points_answer_version_too(command):
    if not Path(command[0]).exists():
        pytest.skip("no console script beside this interpreter (package not installed here)")
    done = subprocess.run([*command, "--version"], capture_output=True, text=True, check=True)
    assert done.stdout == f"toolwire {tw.__version__}\n"


def test_inspect_is_listed_in_the_help_with_its_docstring():
    result = run("--help")
    assert result.exit_code == 0
    assert "inspect" in result.stdout
    assert "media type, kind, identifier, size and text" in result.stdout


def test_inspect_json_reports_what_the_file_api_says_for_each_file():
    paths = [str(EXAMPLES / name) for name in FILES]
    result = run("inspect", "--json", *paths)
    assert result.exit_code == 0, result.stderr
    reports = json.loads(result.stdout)
    assert [r["path"] for r in reports] == paths
    for report, path in zip(reports, paths, strict=True):
        file = tw.File.from_path(path)
        assert report == {
            "path": path,
            "media_type": file.media_type,
            "kind": file.kind,
            "identifier": file.identifier,
            "size": Path(path).stat().st_size,
            "text_fallback": file.text_fallback(),
        }


def test_inspect_json_values_for_the_photo():
    (report,) = json.loads(run("inspect", "--json", str(EXAMPLES / "photo.png")).stdout)
    assert report["media_type"] == "image/png"
    assert report["kind"] == "image"
    assert report["identifier"] == "photo.png"
    assert report["size"] == 251_097
    assert report["text_fallback"] == f"[Image: {report['identifier']}, 640x480, 245 KB]"


def test_inspect_prints_each_files_facts_and_the_first_line_of_its_fallback():
    result = run("inspect", str(EXAMPLES / "data.csv"), str(EXAMPLES / "report.pdf"))
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    csv = tw.File.from_path(EXAMPLES / "data.csv")
    assert lines[:6] == [
        str(EXAMPLES / "data.csv"),
        "  media type text/csv",
        "  kind       document",
        f"  identifier {csv.identifier}",
        "  size       402 bytes",
        f"  fallback   [CSV: {csv.identifier}, 402 B]",  # the CSV text itself is not printed
    ]
    assert lines[6] == str(EXAMPLES / "report.pdf")
    assert lines[11].endswith(", 3 pages, 35 KB]")
    assert len(lines) == 12


def test_inspect_does_not_read_rich_markup_in_paths_or_fallbacks(tmp_path):
    path = tmp_path / "[bold]notes[red].md"
    path.write_text("# [red]title[/red]\n")
    result = run("inspect", str(path))
    assert result.exit_code == 0
    assert str(path) in result.stdout


def test_bad_files_are_one_line_each_on_stderr_and_the_good_ones_are_still_reported(tmp_path):
    empty = tmp_path / "empty.png"
    empty.touch()
    unknown = tmp_path / "dump.bin"
    unknown.write_bytes(bytes(range(256)))
    missing = tmp_path / "missing.pdf"
    args = [
        str(EXAMPLES / "photo.png"),
        str(empty),
        str(unknown),
        str(missing),
        str(EXAMPLES / "notes.md"),
    ]
    result = run("inspect", "--json", *args)
    assert result.exit_code == 1
    assert [r["path"] for r in json.loads(result.stdout)] == [args[0], args[4]]
    assert result.stderr.splitlines() == [
        f"error: {empty} is empty (0 bytes)",
        "error: dump.bin: cannot tell the media type from its bytes; pass media_type=…",
        f"error: {missing}: no such file",
    ]


def test_a_directory_is_reported_as_an_error_in_human_output_too(tmp_path):
    result = run("inspect", str(tmp_path), str(EXAMPLES / "tone.mp3"))
    assert result.exit_code == 1
    assert result.stderr == f"error: {tmp_path} is not a regular file (directory, FIFO or device)\n"
    assert result.stdout.splitlines()[0] == str(EXAMPLES / "tone.mp3")


@pytest.mark.parametrize("args", [["inspect"], []])
def test_inspect_without_files_is_a_usage_error_or_help(args):
    result = run(*args)
    assert result.exit_code == 2
