"""`toolwire read` (cli/read.py): text parts, one line per file, JSON for machines."""

from __future__ import annotations

import base64
import json
from pathlib import Path

from typer.testing import CliRunner

from toolwire.cli import app

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
runner = CliRunner()


def test_read_prints_the_text_then_a_line_per_file():
    result = runner.invoke(app, ["read", str(EXAMPLES / "report.pdf")])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0] == (
        "report.pdf: PDF, 3 pages, 35 KB, page 3 has no text layer (rendered as report-p3.png). Pages 1-3 of 3."
    )
    assert "[file] report.pdf  application/pdf  36,199 bytes" in lines
    assert any(line.startswith("[file] report-p3.png  image/png  ") for line in lines)


def test_page_options_choose_the_pages():
    result = runner.invoke(
        app, ["read", str(EXAMPLES / "report.pdf"), "--page-start", "1", "--page-end", "2"]
    )
    assert result.exit_code == 0, result.output
    assert "Page 2 of 3. Use page_start=2 to continue." in result.output
    assert "[file] report-p2.pdf  application/pdf" in result.output


def test_offset_and_limit_page_text():
    result = runner.invoke(app, ["read", str(EXAMPLES / "data.csv"), "--limit", "2"])
    assert "Rows 1-2 of 10. Use offset=2 to continue." in result.output


def test_json_output_is_the_tool_output_with_base64_shortened():
    result = runner.invoke(app, ["read", str(EXAMPLES / "photo.png"), "--json"])
    assert result.exit_code == 0, result.output
    dumped = json.loads(result.output)
    assert dumped["type"] == "content"
    assert dumped["value"][0] == {"type": "text", "text": "photo.png: PNG image, 640x480, 245 KB."}
    data = dumped["value"][1]["source"]["data"]
    assert data == "<334796 base64 chars>"  # the same shortening as `toolwire render`


def test_json_full_keeps_the_bytes_whole():
    path = EXAMPLES / "photo.png"
    result = runner.invoke(app, ["read", str(path), "--json", "--full"])
    data = json.loads(result.output)["value"][1]["source"]["data"]
    assert base64.urlsafe_b64decode(data) == path.read_bytes()  # pydantic writes URL-safe base64


def test_a_path_outside_root_fails_with_a_message_and_exit_code_1(tmp_path):
    result = runner.invoke(app, ["read", str(EXAMPLES / "notes.md"), "--root", str(tmp_path)])
    assert result.exit_code == 1
    assert "error: " in result.output and "outside the allowed root" in result.output


def test_file_is_a_shell_path_even_with_a_root(monkeypatch):
    monkeypatch.chdir(EXAMPLES.parent)
    result = runner.invoke(app, ["read", "examples/notes.md", "--root", "examples"])
    assert result.exit_code == 0, result.output
    assert result.output.startswith("notes.md: Markdown text")
