"""`toolwire tokens FILE… --model M`: per-file estimates for the conversation `render` shows."""

from __future__ import annotations

import inspect
import json
from pathlib import Path

from typer.testing import CliRunner

from toolwire.cli import app
from toolwire.cli import tokens as tokens_module
from toolwire.cli.render import conversation
from toolwire.messages import System, dump_conversation
from toolwire.tokens import estimate_tokens

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
runner = CliRunner()
PATHS = [EXAMPLES / "photo.png", EXAMPLES / "report.pdf", EXAMPLES / "tone.wav"]


def test_json_output_is_the_estimate_of_the_render_conversation():
    result = runner.invoke(app, ["tokens", *map(str, PATHS), "--model", "openai:gpt-4o", "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    expected = estimate_tokens(conversation(PATHS), "openai:gpt-4o")
    assert report["total"] == expected.total
    assert [(f["identifier"], f["mode"], f["tokens"]) for f in report["files"]] == [
        ("photo.png", "native", 85 + 170 * 2),
        ("report.pdf", "native", expected.files[1].tokens),
        ("tone.wav", "text", expected.files[2].tokens),
    ]


def test_table_lists_each_file_with_its_formula_and_the_total():
    result = runner.invoke(app, ["tokens", str(PATHS[0]), "--model", "google:gemini-2.5-flash"])
    assert result.exit_code == 0, result.output
    assert "photo.png" in result.output
    assert "gemini tiles" in result.output
    total = estimate_tokens(conversation(PATHS[:1]), "google:gemini-2.5-flash").total
    assert f"{total:,}" in result.output.split("total")[-1]


def test_a_stored_conversation_is_estimated_message_by_message(tmp_path):
    messages = [System("Be brief."), *conversation(PATHS[:1])]
    path = tmp_path / "chat.json"
    path.write_text(dump_conversation(messages))
    args = [
        "tokens",
        "--conversation",
        str(path),
        "--model",
        "anthropic:claude-sonnet-4-5",
        "--json",
        "--trust",
        "paths",
    ]
    report = json.loads(runner.invoke(app, args).stdout)
    expected = estimate_tokens(messages, "anthropic:claude-sonnet-4-5")
    assert (report["per_message"], report["total"]) == (expected.per_message, expected.total)
    assert report["files"][0]["message_index"] == 3


def test_files_and_a_conversation_together_are_refused():
    result = runner.invoke(
        app, ["tokens", str(PATHS[0]), "--conversation", "x.json", "-m", "openai:gpt-4o"]
    )
    assert result.exit_code == 2
    assert "either FILE" in result.output


def test_detail_low_is_passed_to_the_openai_formula():
    args = ["tokens", str(PATHS[0]), "--model", "openai:gpt-4o", "--detail", "low", "--json"]
    report = json.loads(runner.invoke(app, args).stdout)
    assert report["files"][0]["tokens"] == 85


def test_an_unknown_model_ends_with_the_error_message_and_exit_code_1():
    result = runner.invoke(app, ["tokens", str(PATHS[0]), "--model", "antropic:claude"])
    assert result.exit_code == 1
    assert "Did you mean 'anthropic'?" in result.output


def test_the_tokens_command_stays_within_the_30_lines_style_md_allows():
    lines, _ = inspect.getsourcelines(tokens_module.tokens)
    assert len(lines) <= 30
