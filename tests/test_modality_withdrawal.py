"""Text-only models get no media: capability cells the dataset says a model cannot read are
withdrawn, unless a model row of the table sets that media type (issue 13)."""

from __future__ import annotations

import pytest

from toolwire.capability import capabilities

TEXT_ONLY = [
    "bedrock:us.amazon.nova-micro-v1:0",
    "bedrock:anthropic.claude-3-5-haiku-20241022-v1:0",
    "bedrock:meta.llama3-3-70b-instruct-v1:0",
    "bedrock:us.meta.llama3-1-8b-instruct-v1:0",
    "groq:llama-3.3-70b-versatile",
    "openai-chat:gpt-3.5-turbo",
    "openai:o3-mini",
    "mistral:codestral-latest",
]


@pytest.mark.parametrize("model", TEXT_ONLY)
def test_the_text_only_models_of_the_issue_are_sent_no_images(model: str) -> None:
    cell = capabilities(model).cell("image/png")
    assert cell is not None
    assert (cell.tool_result, cell.user_sources) == ("error", ())
    assert cell.evidence


def test_a_withdrawn_cell_cites_the_dataset_entry() -> None:
    cell = capabilities("groq:llama-3.3-70b-versatile").cell("image/jpeg")
    assert cell is not None and cell.max_count is None
    assert cell.evidence.startswith("groq:llama-3.3-70b-versatile cannot read image input")
    assert "models.dev" in cell.evidence and "groq/llama-3.3-70b-versatile" in cell.evidence


def test_a_vision_model_keeps_its_image_cells() -> None:
    cell = capabilities("groq:meta-llama/llama-4-scout-17b-16e-instruct").cell("image/png")
    assert cell is not None and cell.tool_result != "error"


def test_a_model_row_of_the_table_wins_over_the_dataset() -> None:
    row = {"match": ["llama-3.3*"], "media": [{"types": ["images"], "tool_result": "fallback",
           "user_sources": ["bytes"], "evidence": "recorded: a test row"}]}  # fmt: skip
    cell = capabilities("groq:llama-3.3-70b-versatile", {"models": [row]}).cell("image/png")
    assert cell is not None
    assert (cell.tool_result, cell.evidence) == ("fallback", "recorded: a test row")


def test_text_stays_with_a_text_only_model() -> None:
    cell = capabilities("openai:o3-mini").cell("text/plain")
    assert cell is not None and cell.tool_result != "error"
