"""Model names that help (issue 35, item 1): rows name exact ids and documented families, every
id models.dev lists is known with its facts, and an id nobody names warns once with the
closest known ids."""

from __future__ import annotations

import re
import warnings
from pathlib import Path

import pytest
from typer.testing import CliRunner

import toolwire as tw
from toolwire.capability import is_known
from toolwire.cli import app
from toolwire.model_facts import DATASET_PROVIDERS, facts, known_ids

ROOT = Path(__file__).resolve().parents[1]
PHOTO = str(ROOT / "examples" / "photo.png")
TARGETS = "|".join(sorted(DATASET_PROVIDERS, key=len, reverse=True))
NAMED = re.compile(rf"`(?:tw\.)?(?:[a-z_]+\()?['\"]?((?:{TARGETS}):[A-Za-z0-9./:@_-]+)")


@pytest.mark.parametrize(
    "model",
    [
        "google:gemini-2.5-flsh",  # matched the loose "*gemini-*" row
        "openai:gpt-5o",  # matched "gpt-5*"
        "google:gemini-25-flash",  # read as version 25: the "Gemini >= 3" row
        "anthropic:claude-sonet-4-5",
        "openai-chat:gpt-5o",
        "openrouter:anthropic/claude-sonet-4.5",  # matched "anthropic/*"
    ],
)
def test_a_misspelt_model_matches_no_row_and_is_not_known(model: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", tw.ToolwireWarning)
        caps = tw.capabilities(model)
    assert (caps.known, caps.rows) == (None, ())
    assert caps.token_family in (None, "anthropic")  # no row's family; Anthropic's is the target's
    assert caps.thought_signatures == "optional"
    assert not is_known(model)


@pytest.mark.parametrize(
    ("model", "family"),
    [
        ("openai:gpt-5", "openai gpt-5"),
        ("openai:gpt-5.1", "openai gpt-5"),
        ("openai:gpt-5-2025-08-07", "openai gpt-5"),
        ("openai:gpt-4o-mini", "openai gpt-4o-mini"),
        ("google:gemini-2.5-flash", "gemini <= 2.5"),
        ("google:gemini-2.5-flash-lite", "gemini <= 2.5"),
        ("google:gemini-3-pro-preview", "gemini 3"),
        ("google:gemini-flash-latest", "gemini <= 2.5"),
        ("google-vertex:publishers/google/models/gemini-3-pro-preview", "gemini 3"),
        ("openrouter:anthropic/claude-sonnet-4.5", "anthropic"),
        ("openrouter:google/gemini-3-pro-preview", "gemini 3"),
    ],
)
def test_documented_families_keep_their_rows(model: str, family: str) -> None:
    caps = tw.capabilities(model)
    assert (caps.known, caps.token_family) == ("table", family)


@pytest.mark.parametrize(
    ("model", "vision"),
    [
        ("ollama:gemma3:4b", True),
        ("ollama:gemma3", True),
        ("ollama:hf.co/unsloth/gemma3:12b", True),
        ("ollama:gemma3n:e4b", False),  # not the gemma3 family ("gemma3*" once matched it)
        ("ollama:mistral-small3.2:24b", True),
        ("bedrock:us.meta.llama3-2-11b-instruct-v1:0", False),  # a tool result: fallback
    ],
)
def test_a_family_glob_takes_the_name_and_a_separator_only(model: str, vision: bool) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", tw.ToolwireWarning)
        cell = tw.capabilities(model).cell("image/png")
    assert cell is not None and (cell.tool_result == "native") is vision


@pytest.mark.usefixtures("fresh_model_warnings")
def test_an_unknown_model_warns_once_per_process_with_the_closest_known_ids() -> None:
    with pytest.warns(tw.ToolwireWarning) as caught:
        tw.capabilities("anthropic:claude-sonet-4-5")
        tw.capabilities("anthropic:claude-sonet-4-5")
        tw.estimate_tokens([tw.User(content="hi")], "anthropic:claude-sonet-4-5")
    assert len(caught) == 1
    message = str(caught[0].message)
    assert message.startswith("unknown model anthropic:claude-sonet-4-5: neither toolwire's")
    assert "gets the anthropic defaults (images native, PDF native, audio error;" in message
    assert message.endswith(
        "Did you mean claude-sonnet-4-5 or claude-sonnet-4-6 or claude-sonnet-4-0?"
    )


@pytest.mark.usefixtures("fresh_model_warnings")
def test_the_warning_is_a_warnings_category_callers_can_make_an_error() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error", tw.ToolwireWarning)
        with pytest.raises(tw.ToolwireWarning, match="Did you mean gpt-5 or gpt-4o"):
            tw.encode([tw.User(content="hi")], "openai:gpt-5o")
    assert issubclass(tw.ToolwireWarning, UserWarning)


@pytest.mark.usefixtures("fresh_model_warnings")
def test_is_known_asks_without_warning_and_leaves_the_warning_to_the_encode() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error", tw.ToolwireWarning)
        assert not is_known("openai:gpt-5o")
    with pytest.warns(tw.ToolwireWarning, match="unknown model openai:gpt-5o"):
        tw.encode([tw.User(content="hi")], "openai:gpt-5o")


@pytest.mark.usefixtures("fresh_model_warnings")
def test_a_known_model_does_not_warn() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error", tw.ToolwireWarning)
        for model in ("anthropic:claude-sonnet-4-5", "mistral:mistral-large-latest"):
            tw.encode([tw.User(content="hi")], model)


@pytest.mark.parametrize(
    ("model", "known"),
    [
        ("anthropic:claude-sonnet-4-5", "table"),
        ("openai-chat:gpt-5-mini", "table"),
        ("mistral:mistral-large-latest", "models.dev"),
        ("groq:meta-llama/llama-4-scout-17b-16e-instruct", "models.dev"),
        ("cohere:command-r-plus", "models.dev"),  # dataset: command-r-plus-08-2024
        ("xai:grok-4", "models.dev"),  # the dataset's supplement
        ("openai-compatible:qwen3", "models.dev"),  # its family across the dataset
    ],
)
def test_known_says_which_source_answered(model: str, known: str) -> None:
    assert tw.capabilities(model).known == known


def _named_in_docs() -> set[str]:
    found: set[str] = set()
    for path in [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]:
        found.update(NAMED.findall(path.read_text("utf-8")))
    return found


def test_every_model_the_readme_and_docs_name_is_known() -> None:
    named = _named_in_docs()
    assert "groq:meta-llama/llama-4-scout-17b-16e-instruct" in named
    assert "openai-compatible:qwen3" in named
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", tw.ToolwireWarning)
        unknown = sorted(m for m in named if not is_known(m))
    assert unknown == []


@pytest.mark.parametrize("target", sorted(t for t, ids in DATASET_PROVIDERS.items() if ids))
def test_every_id_models_dev_lists_for_a_target_is_known_with_its_facts(target: str) -> None:
    ids = known_ids(target)
    assert ids
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", tw.ToolwireWarning)
        unknown = [i for i in ids if tw.capabilities(f"{target}:{i}").known is None]
    assert unknown == []
    assert all(facts(f"{target}:{i}") is not None for i in ids)


def test_an_openai_compatible_model_takes_its_familys_inputs_from_models_dev() -> None:
    qwen3 = tw.capabilities("openai-compatible:qwen3")
    image = qwen3.cell("image/png")
    assert image is not None and image.tool_result == "error"
    assert "family 'qwen3'" in image.evidence and "models.dev" in image.evidence
    vision = tw.capabilities("openai-compatible:Qwen/Qwen3-VL-8B-Instruct").cell("image/png")
    assert vision is not None and vision.tool_result == "fallback"
    ollama = tw.capabilities("ollama:qwen3:8b")
    assert ollama.known == "models.dev"


@pytest.mark.usefixtures("fresh_model_warnings")
def test_an_unknown_server_model_gets_the_stated_default_overridable_per_call() -> None:
    with pytest.warns(
        tw.ToolwireWarning, match="gets the openai-compatible defaults \\(images fallback"
    ):
        caps = tw.capabilities("openai-compatible:my-finetune")
    image = caps.cell("image/png")
    assert image is not None and image.tool_result == "fallback"
    text_only = {"media": [{"types": ["images"], "tool_result": "error", "evidence": "my server"}]}
    with warnings.catch_warnings():
        warnings.simplefilter("error", tw.ToolwireWarning)  # the caller said what it reads
        again = tw.capabilities("openai-compatible:my-other-finetune", text_only)
    cell = again.cell("image/png")
    assert cell is not None and cell.tool_result == "error"


def test_the_cli_prints_the_warning_with_the_closest_ids_and_still_renders() -> None:
    result = CliRunner(env={"COLUMNS": "200"}).invoke(
        app, ["render", PHOTO, "--model", "anthropic:claude-sonet-4-5", "--json"]
    )
    assert result.exit_code == 0, result.output
    assert result.stderr.startswith("warning: unknown model anthropic:claude-sonet-4-5: ")
    assert "Did you mean claude-sonnet-4-5" in result.stderr
    assert "notice:" not in result.stderr and result.stderr.count("\n") == 1


@pytest.mark.usefixtures("fresh_model_warnings")
@pytest.mark.parametrize(
    ("model", "stated"),
    [
        ("ollama:my-finetune:7b", "gets the ollama defaults (images error, PDF error"),
        ("cohere:command-z", "gets the cohere defaults (images error, PDF error"),
    ],
)
def test_an_unknown_ollama_or_cohere_model_is_told_it_gets_text_only(
    model: str, stated: str
) -> None:
    with pytest.warns(tw.ToolwireWarning, match=re.escape(stated)):
        tw.capabilities(model)
