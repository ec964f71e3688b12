"""`toolwire matrix [--model M] [--markdown]`: the grid of targets, a provider's rows, one model's
cells, or the whole table as docs/capabilities.md."""

from __future__ import annotations

import importlib
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from toolwire.capability import capabilities, providers, variants
from toolwire.cli import app
from toolwire.cli.capability_docs import COMMAND, markdown

runner = CliRunner(env={"COLUMNS": "250"})
caps_module = importlib.import_module("toolwire.capability")


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


# --- docs/capabilities.md, generated from the table -------------------------------------------

DOCS = Path(__file__).resolve().parents[1] / "docs" / "capabilities.md"


@pytest.fixture
def package_table(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The page documents the package's table: no override file, a fresh cache."""
    monkeypatch.delenv("TOOLWIRE_CAPABILITIES", raising=False)
    caps_module._table.cache_clear()
    yield
    caps_module._table.cache_clear()


@pytest.mark.usefixtures("package_table")
def test_the_committed_capability_page_is_what_the_table_generates() -> None:
    assert DOCS.read_text("utf-8") == markdown(), (
        f"docs/capabilities.md is stale; regenerate it from the repository root: {COMMAND}"
    )


@pytest.mark.usefixtures("package_table")
def test_the_markdown_option_prints_the_page() -> None:
    result = matrix("--markdown")
    assert result.exit_code == 0, result.output
    assert result.stdout == markdown()
    assert result.stdout.startswith("# What each provider accepts\n")


@pytest.mark.usefixtures("package_table")
def test_the_page_shows_every_cell_with_its_evidence_and_every_model_row() -> None:
    page = markdown()
    for provider in providers():
        assert f"\n## {provider}\n" in page
        for caps in variants(provider):
            for cell in caps.cells.values():
                assert cell.evidence.replace("|", "\\|") in page, cell.evidence
            assert all(f"### Row: {row}\n" in page for row in caps.rows)


def section(page: str, heading: str) -> str:
    """From the heading to the next heading of the same level or higher."""
    start = page.index(heading)
    level = len(heading.split(" ", 1)[0])
    stops = [page.find("\n" + "#" * n + " ", start + 1) for n in range(1, level + 1)]
    return page[start : min([s for s in stops if s > 0], default=len(page))]


@pytest.mark.usefixtures("package_table")
def test_the_page_says_cohere_images_are_an_error_except_on_vision_models() -> None:
    page = markdown()
    defaults = section(section(page, "## cohere\n"), "### Defaults")
    vision = section(page, "### Row: Cohere vision models")
    image_row = next(line for line in defaults.splitlines() if line.startswith("| image/jpeg"))
    assert "| E error |" in image_row and "https://docs.cohere.com/docs/image-inputs" in image_row
    assert "| F fallback |" in next(
        line for line in vision.splitlines() if line.startswith("| image/jpeg")
    )


@pytest.mark.usefixtures("package_table")
def test_the_page_shows_limits_in_words_and_escapes_pipes_in_evidence() -> None:
    page = markdown()
    claude = section(page, "### Row: Anthropic Claude on Bedrock")
    assert (
        "at most 3.75 MiB; at most 8000 px a side; at most 1,229,312 px; fitted to 1568 px; "
        "20 per request" in claude
    )
    assert "(format wav\\|mp3)" in page


def test_the_page_refuses_a_table_changed_by_an_override_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    override = tmp_path / "caps.toml"
    override.write_text('[targets.anthropic]\nfollowup = "message"\n')
    monkeypatch.setenv("TOOLWIRE_CAPABILITIES", str(override))
    result = matrix("--markdown")
    assert result.exit_code == 1
    assert "unset it" in result.stderr and COMMAND in result.stderr


ROOT = Path(__file__).resolve().parents[1]


def test_the_readme_and_the_package_point_at_docs_in_the_repository_not_at_shared() -> None:
    readme = (ROOT / "README.md").read_text("utf-8")
    for doc in ("docs/capabilities.md", "docs/design.md"):
        assert f"]({doc})" in readme and (ROOT / doc).is_file(), doc
    package = [p for p in (ROOT / "src" / "toolwire").rglob("*") if p.suffix in (".py", ".toml")]
    for path in [ROOT / "README.md", *package]:
        text = path.read_text("utf-8")
        assert "shared/CAPABILITIES.md" not in text and "shared/DESIGN.md" not in text, path


def test_the_design_page_is_short() -> None:
    assert len((ROOT / "docs" / "design.md").read_text("utf-8").splitlines()) <= 120
