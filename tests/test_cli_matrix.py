"""`toolwire matrix [--model M]`: the grid of targets, a provider's rows, or one model's cells
(``--markdown``, the whole page, is tested in test_cli_capability_docs.py)."""

from __future__ import annotations

import json
from typing import Any

from typer.testing import CliRunner

from toolwire.capability import capabilities, providers
from toolwire.cli import app

runner = CliRunner(env={"COLUMNS": "250"})


def matrix(*args: str) -> Any:
    return runner.invoke(app, ["matrix", *args])


def as_json(*args: str) -> Any:
    result = matrix(*args, "--json")
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def letters(row: dict[str, Any]) -> str:
    return " ".join(row[kind] for kind in ("image", "PDF", "text", "audio", "video"))


def test_the_grid_has_every_target_and_every_model_row() -> None:
    rows = as_json()
    assert sorted({r["target"] for r in rows}) == providers()
    grid = {(r["target"], r["row"]): letters(r) for r in rows}
    assert grid[("anthropic", None)] == "N N N E E"
    assert grid[("openai-chat", "OpenAI audio models")] == "F F F F E"
    assert grid[("google", None)] == "F F F F F"
    assert grid[("google", "Gemini >= 3 (function_response.parts)")] == "N N N F F"
    assert grid[("bedrock", "Amazon Nova")] == "N S S E S"
    assert grid[("bedrock", None)] == "F F F E E"
    assert grid[("ollama", "Ollama vision models")] == "N E F E E"
    assert grid[("groq", None)] == "F E F E E"


def test_every_grid_cell_carries_its_evidence() -> None:
    for row in as_json():
        assert set(row["evidence"]) == {"image", "PDF", "text", "audio", "video"}
        assert all(row["evidence"].values()), row


def test_a_provider_shows_only_its_rows() -> None:
    rows = as_json("--model", "bedrock")
    assert [r["row"] for r in rows] == [
        None,
        "Anthropic Claude on Bedrock",
        "Claude 3.5 Haiku on Bedrock (text only)",
        "Amazon Nova",
        "Amazon Nova Micro (text only)",
        "Meta Llama on Bedrock",
        "Meta Llama vision models on Bedrock",
        "Mistral and Pixtral on Bedrock",
    ]
    assert rows[1]["evidence"]["PDF"].startswith("recorded 200 for a PDF inside the toolResult")


def test_a_model_shows_each_media_type_with_sources_limits_and_evidence() -> None:
    rows = as_json("--model", "google:gemini-3-pro-preview")
    by_type = {r["media_type"]: r for r in rows}
    assert set(by_type) == set(capabilities("google:gemini-3-pro-preview").cells)
    png = by_type["image/png"]
    assert png["tool_result"] == "native"
    assert png["tool_sources"] == ["bytes"]
    assert png["user_sources"] == ["bytes", "file_id"]
    assert png["limits"] == {"max_bytes": 104857600, "fit_edge": 3072}
    assert png["evidence"].startswith("google-genai 3.4 FunctionResponse.parts")
    assert png["rows"] == ["Gemini >= 3 (function_response.parts)"]
    markdown = by_type["text/markdown"]
    assert (markdown["tool_result"], markdown["tool_sources"], markdown["limits"]) == (
        "fallback",
        [],
        {},
    )
    assert [r["media_type"].split("/")[0] for r in rows][:5] == ["image"] * 5  # images first


def test_the_human_grid_uses_the_letters() -> None:
    result = matrix()
    assert result.exit_code == 0, result.output
    nova = next(line for line in result.stdout.splitlines() if "Amazon Nova" in line)
    assert [cell.strip() for cell in nova.split("│")[3:8]] == ["N", "S", "S", "E", "S"]
    assert "Evidence" not in result.stdout


def test_the_human_provider_table_adds_the_evidence() -> None:
    result = matrix("--model", "ollama")
    assert result.exit_code == 0, result.output
    assert "Evidence" in result.stdout
    assert "ollama 0.6.3 Message.images on role=tool messages" in result.stdout


def test_the_human_model_table_names_the_rows_applied() -> None:
    result = matrix("--model", "bedrock:eu.amazon.nova-lite-v1:0")
    assert result.exit_code == 0, result.output
    assert "Model rows applied: Amazon Nova" in result.stdout
    video = next(line for line in result.stdout.splitlines() if "video/mp4" in line)
    assert "sibling" in video and "max_bytes=26214400" in video
    plain = matrix("--model", "anthropic:claude-future")
    assert "Model rows applied: none (the provider defaults)" in plain.stdout


def test_unknown_providers_are_errors_with_suggestions() -> None:
    for model in ("antropic", "antropic:claude"):
        result = matrix("--model", model)
        assert result.exit_code == 1
        assert "Did you mean 'anthropic'" in result.stderr
