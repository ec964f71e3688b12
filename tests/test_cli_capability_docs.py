"""docs/capabilities.md is generated from capabilities.toml (`toolwire matrix --markdown`) and
cannot drift; the README and the package point at the repository's docs, never at shared/."""

from __future__ import annotations

import importlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from toolwire.capability import providers, variants
from toolwire.cli import app
from toolwire.cli.capability_docs import COMMAND, markdown

runner = CliRunner(env={"COLUMNS": "250"})
caps_module = importlib.import_module("toolwire.capability")


def matrix(*args: str) -> Any:
    return runner.invoke(app, ["matrix", *args])


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
