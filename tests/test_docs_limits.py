"""docs/limits.md parses into one table per target, ready to become capabilities.toml data."""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

import pytest

from toolwire.model_facts import DATASET_PROVIDERS

DOC = Path(__file__).resolve().parents[1] / "docs" / "limits.md"
COLUMNS = ["limit", "value", "applies to", "source", "confidence"]
FIELDS = {
    "max_request_bytes",
    "max_url_request_bytes",
    "max_images_per_request",
    "max_image_bytes",
    "max_image_bytes_per_request",
    "max_image_edge",
    "max_image_pixels",
    "many_images_edge",
    "max_pdf_pages_per_request",
    "max_pdf_bytes",
    "max_documents_per_request",
    "max_document_bytes",
}
CONFIDENCE = {"documented", "single source", "from error messages", "measured", "not found"}
ENFORCE = "← enforce"
# A figure's source: a URL, an issue or PR (owner/repo#N), or an SDK/service model.
CITATION = re.compile(r"https?://|[\w.-]+/[\w.-]+#\d+|botocore ")


@dataclass(frozen=True)
class Limit:
    """One row of docs/limits.md, its value parsed."""

    target: str
    field: str
    value: int | dict[str, int] | None  # None: "none" or "not documented"
    applies_to: str
    source: str
    confidence: str
    is_info: bool
    is_enforced: bool


def parse_value(text: str) -> int | dict[str, int] | None:
    """Leading integer; `key=N, key=N` pairs; or None for 'none' / 'not documented'."""
    if text.startswith(("none", "not documented")):
        return None
    pairs = re.match(r"((?:\w+=\d+,\s*)*\w+=\d+)", text)
    if pairs:
        return {k: int(v) for k, v in re.findall(r"(\w+)=(\d+)", pairs.group(1))}
    number = re.match(r"\d+", text)
    if number is None:
        raise ValueError(f"no value in {text!r}")
    return int(number.group())


def parse_row(target: str, cells: list[str]) -> Limit:
    limit, value, applies_to, source, confidence = cells
    field = re.match(r"`(\w+)`", limit)
    if field is None:
        raise ValueError(f"{target}: limit without a `field` name: {limit!r}")
    return Limit(
        target=target,
        field=field.group(1),
        value=parse_value(value),
        applies_to=applies_to,
        source=source,
        confidence=confidence,
        is_info="(info" in value,
        is_enforced=value.endswith(ENFORCE),
    )


def cells_of(line: str) -> list[str]:
    return [cell.strip() for cell in line.strip().strip("|").split("|")]


def parse(text: str) -> dict[str, list[Limit]]:
    """Every `## target` section's table, as Limit rows, by target."""
    tables: dict[str, list[Limit]] = {}
    target = None
    for line in text.splitlines():
        heading = re.match(r"## (\S+)$", line)
        if heading:
            target = heading.group(1)
        elif target and line.startswith("|"):
            cells = cells_of(line)
            if cells == COLUMNS or set(line) <= set("|-"):
                continue
            if len(cells) != len(COLUMNS):
                raise ValueError(f"{target}: {len(cells)} cells in {line!r}")
            tables.setdefault(target, []).append(parse_row(target, cells))
    return tables


@pytest.fixture(scope="module")
def tables() -> dict[str, list[Limit]]:
    return parse(DOC.read_text(encoding="utf-8"))


def every_row(tables: dict[str, list[Limit]]) -> list[Limit]:
    return [row for rows in tables.values() for row in rows]


def test_every_target_has_a_table_and_nothing_else_does(tables):
    assert set(tables) == set(DATASET_PROVIDERS)


def test_every_table_has_the_five_columns_in_order():
    headers = [
        cells_of(line) for line in DOC.read_text().splitlines() if line.startswith("| limit")
    ]
    assert len(headers) == len(DATASET_PROVIDERS)
    assert all(header == COLUMNS for header in headers)


def test_every_row_names_a_field_of_the_proposed_vocabulary(tables):
    assert {row.field for row in every_row(tables)} <= FIELDS


def test_every_row_has_a_known_confidence(tables):
    assert {row.confidence for row in every_row(tables)} <= CONFIDENCE


def test_every_figure_cites_a_url_an_issue_or_an_sdk(tables):
    figures = [row for row in every_row(tables) if row.value is not None]
    assert figures
    assert [row for row in figures if not CITATION.search(row.source)] == []


def test_one_figure_to_enforce_per_limit_and_models(tables):
    active: dict[tuple[str, str, str], list[Limit]] = defaultdict(list)
    for row in every_row(tables):
        if not row.is_info:
            active[(row.target, row.field, row.applies_to)].append(row)
    crowded = {key: rows for key, rows in active.items() if len(rows) > 1}
    assert crowded == {}


def test_an_enforced_figure_is_shown_beside_the_figure_it_wins_over(tables):
    for row in every_row(tables):
        if row.is_enforced:
            others = [o for o in tables[row.target] if o.field == row.field and o.is_info]
            assert others, f"{row.target} {row.field} is marked {ENFORCE} against nothing"


@pytest.mark.parametrize(
    ("target", "field", "value"),
    [
        ("anthropic", "max_request_bytes", 32_000_000),
        ("anthropic", "many_images_edge", {"count": 20, "max_edge": 2000}),
        ("google", "max_request_bytes", 100_000_000),
        ("groq", "max_request_bytes", 4_000_000),
        ("groq", "max_images_per_request", 5),
        ("mistral", "max_images_per_request", 8),
        ("cohere", "max_images_per_request", 20),
        ("bedrock", "max_documents_per_request", 5),
        ("bedrock", "max_image_bytes", 3_750_000),
    ],
)
def test_the_figures_issue_14_names_come_out_of_the_parser(tables, target, field, value):
    enforced = [r for r in tables[target] if r.field == field and not r.is_info]
    assert value in [row.value for row in enforced]


def test_the_parser_rejects_a_row_without_a_field_name():
    text = "## anthropic\n| limit | value | applies to | source | confidence |\n|---|---|---|---|---|\n"
    text += "| request body | 32000000 | all | https://x | documented |\n"
    with pytest.raises(ValueError, match="without a `field` name"):
        parse(text)


def test_the_parser_rejects_a_value_that_is_not_a_number():
    with pytest.raises(ValueError, match="no value"):
        parse_value("about 32 MB")
