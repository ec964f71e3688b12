"""The capability table: its overview grid, evidence sources, model matching, variants, summaries."""

from __future__ import annotations

import importlib
import re
import subprocess
import sys
import tomllib
from collections.abc import Iterator
from importlib import resources
from typing import Any

import pytest

from toolwire.capability import (
    Capabilities,
    capabilities,
    providers,
    split_model,
    variants,
    with_cell,
)
from toolwire.errors import UnknownModelError

# --- the overview grid of docs/capabilities.md, one representative model per row -------------
# One representative model per row of the table; the letters are the table's, column by column.

KIND_TYPES = {
    "image": ("image/png", "image/jpeg"),
    "pdf": ("application/pdf",),
    "text": ("text/plain",),
    "audio": ("audio/wav", "audio/mpeg"),
    "video": ("video/mp4",),
}
GRID = [
    # model                                                   image pdf text audio video
    ("anthropic:claude-sonnet-4-5",                            "N N N E E"),
    ("openai:gpt-5",                                           "N N N E E"),
    ("openai-chat:gpt-5-mini",                                 "F F F E E"),
    ("openai-chat:gpt-4o-audio-preview",                       "F F F F E"),
    ("google:gemini-3-pro-preview",                            "N N N F F"),
    ("google:gemini-2.5-flash",                                "F F F F F"),
    ("google-vertex:gemini-3-pro",                             "N N N F F"),
    ("bedrock:anthropic.claude-sonnet-4-5-20250929-v1:0",      "N F F E E"),
    ("bedrock:amazon.nova-pro-v1:0",                           "N S S E S"),
    ("bedrock:us.amazon.nova-micro-v1:0",                      "E E E E E"),
    ("bedrock:meta.llama3-2-90b-instruct-v1:0",                "F F F E E"),
    ("bedrock:meta.llama3-1-70b-instruct-v1:0",                "E F F E E"),
    ("bedrock:mistral.mistral-large-2407-v1:0",                "F N N E E"),
    ("bedrock:us.mistral.pixtral-large-2502-v1:0",             "F N N E E"),
    ("bedrock:cohere.command-r-plus-v1:0",                     "F F F E E"),
    ("groq:meta-llama/llama-4-scout-17b-16e-instruct",         "F E F E E"),
    ("mistral:mistral-large-latest",                           "F F F E E"),
    ("xai:grok-4",                                             "F F F E E"),
    ("openrouter:openai/gpt-5",                                "F F F E E"),
    # models.dev: inputs audio, text only, so its image and PDF cells are withdrawn
    ("openrouter:openai/gpt-4o-audio-preview",                 "E E F F E"),
    ("ollama:llava:13b",                                       "N E F E E"),
    ("ollama:qwen3:8b",                                        "E E F E E"),
    ("cohere:command-a-vision-07-2025",                        "F E N E E"),
    ("cohere:command-r-plus-08-2024",                          "E E N E E"),
    # models.dev: the llama-3.1-8b family reads text only, so no images (issue 35)
    ("openai-compatible:meta-llama/Llama-3.1-8B-Instruct",     "E E F E E"),
    ("openai-compatible:Qwen/Qwen3-VL-8B-Instruct",            "F E F E E"),
]  # fmt: skip
MODES = {"N": "native", "S": "sibling", "F": "fallback", "E": "error"}
# The module itself (``toolwire.capability`` as an attribute may be the function or the module).
caps_module = importlib.import_module("toolwire.capability")


@pytest.fixture(autouse=True)
def fresh_table(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The table is cached per process: start and end every test with a fresh one."""
    monkeypatch.delenv("TOOLWIRE_CAPABILITIES", raising=False)
    caps_module._table.cache_clear()
    yield
    caps_module._table.cache_clear()


def mode_of(model: str, media_type: str) -> str:
    cell = capabilities(model).cell(media_type)
    return "error" if cell is None else cell.tool_result


def grid_cases() -> Iterator[Any]:
    for model, letters in GRID:
        for kind, letter in zip(KIND_TYPES, letters.split(), strict=True):
            for media_type in KIND_TYPES[kind]:
                yield pytest.param(model, media_type, MODES[letter], id=f"{model}-{media_type}")


@pytest.mark.parametrize(("model", "media_type", "expected"), list(grid_cases()))
def test_each_cell_of_the_overview_grid_holds_for_a_representative_model(
    model: str, media_type: str, expected: str
) -> None:
    assert mode_of(model, media_type) == expected


def test_the_grid_covers_all_thirteen_targets_of_the_table() -> None:
    assert sorted({model.split(":", 1)[0] for model, _ in GRID}) == providers()
    assert len(providers()) == 13


@pytest.mark.parametrize(
    ("model", "letter"),
    [
        ("anthropic:claude-sonnet-4-5", "N"),
        ("openai:gpt-5", "N"),
        ("openai-chat:gpt-5-mini", "F"),
        ("bedrock:amazon.nova-lite-v1:0", "S"),
        ("bedrock:anthropic.claude-3-5-haiku-20241022-v1:0", "F"),
        ("mistral:mistral-small-latest", "F"),
        ("cohere:command-a-vision-07-2025", "N"),
        ("groq:llama-3.3-70b-versatile", "F"),
    ],
)
def test_every_text_document_type_is_treated_like_plain_text(model: str, letter: str) -> None:
    for media_type in ("text/plain", "text/markdown", "text/csv", "text/html"):
        assert mode_of(model, media_type) == MODES[letter], media_type


@pytest.mark.parametrize("target", ["google", "google-vertex"])
def test_gemini_3_takes_only_plain_text_natively_and_other_text_as_fallback(target: str) -> None:
    model = f"{target}:gemini-3-pro-preview"
    assert mode_of(model, "text/plain") == "native"
    for media_type in ("text/markdown", "text/csv", "text/html"):
        assert mode_of(model, media_type) == "fallback", media_type


def test_gemini_3_sends_heic_images_as_fallback_and_webp_natively() -> None:
    assert mode_of("google:gemini-3-pro-preview", "image/heic") == "fallback"
    assert mode_of("google:gemini-3-pro-preview", "image/webp") == "native"


def test_anthropic_takes_every_image_type_it_lists_natively() -> None:
    for media_type in ("image/jpeg", "image/png", "image/gif", "image/webp"):
        assert mode_of("anthropic:claude-sonnet-4-5", media_type) == "native"


def test_openai_responses_takes_office_documents_natively() -> None:
    for ext in ("wordprocessingml.document", "spreadsheetml.sheet", "presentationml.presentation"):
        media_type = f"application/vnd.openxmlformats-officedocument.{ext}"
        assert mode_of("openai:gpt-5", media_type) == "native"


def test_xai_takes_pdfs_only_as_its_own_file_ids() -> None:
    cell = capabilities("xai:grok-4").cell("application/pdf")
    assert cell is not None and cell.user_sources == ("file_id",)
    assert capabilities("xai:grok-4").file_ids == "xai"


def test_vertex_gemini_3_takes_gcs_and_https_sources_in_tool_results_but_the_api_does_not() -> None:
    vertex = capabilities("google-vertex:gemini-3-pro").cell("image/png")
    api = capabilities("google:gemini-3-pro").cell("image/png")
    assert vertex is not None and set(vertex.tool_sources) == {"bytes", "gcs", "url"}
    assert api is not None and api.tool_sources == ("bytes",)


@pytest.mark.parametrize(
    ("model", "followup", "user_after_tool", "error_status"),
    [
        ("anthropic:claude-sonnet-4-5", "merge", "merge", True),
        ("openai:gpt-5", "message", "message", False),
        ("google:gemini-3-pro-preview", "message", "message", False),
        ("bedrock:us.anthropic.claude-sonnet-4-5-20250929-v1:0", "turn", "merge", True),
        ("bedrock:amazon.nova-pro-v1:0", "turn", "merge", True),
        ("bedrock:meta.llama3-2-90b-instruct-v1:0", "turn", "merge", False),
        ("mistral:mistral-large-latest", "turn", "turn", False),
    ],
)
def test_layout_facts_follow_the_wire_rules(
    model: str, followup: str, user_after_tool: str, error_status: bool
) -> None:
    caps = capabilities(model)
    assert (caps.followup, caps.user_after_tool, caps.error_status) == (
        followup,
        user_after_tool,
        error_status,
    )


def every_cell() -> Iterator[Any]:
    """Every cell of the package's table once: the targets' cells, then their model rows'."""
    text = resources.files("toolwire").joinpath("capabilities.toml").read_text("utf-8")
    for provider, target in tomllib.loads(text)["targets"].items():
        rows = [("(defaults)", target)]
        rows += [
            (row.get("label", ", ".join(row["match"])), row) for row in target.get("models", [])
        ]
        for label, row in rows:
            for cell in row.get("media", []):
                yield pytest.param(cell["evidence"], id=f"{provider} {label} {cell['types'][0]}")


# The rule stated in the header of capabilities.toml: evidence names at least one source.
SOURCE_KINDS = {
    "a documentation URL": r"https://[\w.-]+\.[a-z]{2,}/\S*",
    "a doc page by its quoted title": r'\bdocs? "[^"]+"',
    "an SDK or service-model type": (
        r"\b(anthropic|openai|google-genai|botocore|groq|mistralai|cohere|ollama)\b"
        r"[^;]*?\b([A-Z][a-z0-9]+[A-Z]\w*|[A-Z]\w*\.[a-z_]+)"
    ),
    "a recorded API answer": r"\brecorded\b[^;]*?(\b[1-5]\d\d\b|'[^']+')",
}


@pytest.mark.parametrize("evidence", list(every_cell()))
def test_every_evidence_string_names_its_source(evidence: str) -> None:
    found = [kind for kind, pattern in SOURCE_KINDS.items() if re.search(pattern, evidence)]
    assert found, f"names no source ({', '.join(SOURCE_KINDS)}): {evidence!r}"


@pytest.mark.parametrize("evidence", list(every_cell()))
def test_no_evidence_string_points_outside_the_package_or_at_another_target(
    evidence: str,
) -> None:
    elsewhere = r"CAPABILITIES\.md|DESIGN\.md|\bshared/|\bas (" + "|".join(providers()) + r")\b"
    assert not re.search(elsewhere, evidence), evidence


@pytest.mark.parametrize(
    ("evidence", "ok"),
    [
        ("anthropic SDK ToolResultBlockParam.content accepts ImageBlockParam", True),
        ("botocore ToolResultContentBlock.image", True),
        ("https://docs.cohere.com/docs/image-inputs", True),
        ('Gemini docs "Video understanding": file_data in a user Content', True),
        ("recorded 400 on gpt-5-mini", True),
        ("recorded: 'This model doesn't support the video content block'", True),
        ("as openai-chat: text inlined in the user message", False),
        ("ollama: text inlined in the user message content", False),
        ("groq SDK 1.7: no file content part", False),
        ("recorded: image in its own user turn", False),
    ],
)
def test_the_source_rule_tells_a_named_source_from_a_restated_behaviour(
    evidence: str, ok: bool
) -> None:
    assert any(re.search(p, evidence) for p in SOURCE_KINDS.values()) is ok


def test_variants_list_the_defaults_then_each_model_row_alone() -> None:
    found = variants("bedrock")
    assert [c.rows for c in found] == [
        (),
        ("Anthropic Claude on Bedrock",),
        ("Claude 3.5 Haiku on Bedrock (text only)",),
        ("Amazon Nova",),
        ("Amazon Nova Micro (text only)",),
        ("Meta Llama on Bedrock",),
        ("Meta Llama vision models on Bedrock",),
        ("Mistral and Pixtral on Bedrock",),
    ]
    assert found[3].model == "*amazon.nova*"
    assert found[3].cell("video/mp4").tool_result == "sibling"  # type: ignore[union-attr]
    # A min_version row is shown too, although no model id is evaluated.
    assert variants("google")[1].cell("image/png").tool_result == "native"  # type: ignore[union-attr]


def test_variants_of_an_unknown_provider_raise() -> None:
    with pytest.raises(UnknownModelError, match="anthropic"):
        variants("antropic")


# --- model matching -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "model_id",
    [
        "gemini-3-pro-preview",
        "gemini-3.1-pro",
        "gemini-3.5-flash",
        "gemini-3",
        "gemini-3.1-flash-lite",
        "models/gemini-3-pro-preview",
        "GEMINI-3-PRO",
    ],
)
def test_gemini_version_3_or_later_is_parsed_from_the_id(model_id: str) -> None:
    caps = capabilities(f"google:{model_id}")
    assert caps.rows == ("Gemini >= 3 (function_response.parts)",)
    assert caps.cell("image/png").tool_result == "native"  # type: ignore[union-attr]


@pytest.mark.parametrize(
    "model_id",
    [
        "gemini-2.5-flash",
        "gemini-2.0-flash",
        "gemini-exp-1206",
        "gemini-1.5-pro-002",
        "gemini-2.5-pro-exp-03-25",
        "gemini-flash-latest",
        "learnlm-gemini-3",
    ],
)
def test_gemini_before_3_or_without_a_version_gets_the_safe_fallbacks(model_id: str) -> None:
    caps = capabilities(f"google:{model_id}")
    assert caps.rows == ()
    assert caps.cell("image/png").tool_result == "fallback"  # type: ignore[union-attr]


@pytest.mark.parametrize(
    "model_id",
    [
        "publishers/google/models/gemini-3-pro",
        "projects/p/locations/global/publishers/google/models/gemini-3.1-pro",
        "gemini-3-pro-preview",
    ],
)
def test_vertex_resource_names_are_matched_by_their_gemini_version(model_id: str) -> None:
    assert mode_of(f"google-vertex:{model_id}", "application/pdf") == "native"
    assert mode_of("google-vertex:publishers/google/models/gemini-2.5-pro", "image/png") == (
        "fallback"
    )


@pytest.mark.parametrize(
    ("model_id", "row"),
    [
        ("us.anthropic.claude-sonnet-4-5-20250929-v1:0", "Anthropic Claude on Bedrock"),
        ("global.anthropic.claude-opus-4-1-20250805-v1:0", "Anthropic Claude on Bedrock"),
        (
            "arn:aws:bedrock:us-east-1:123456789012:inference-profile/"
            "us.anthropic.claude-3-7-sonnet-20250219-v1:0",
            "Anthropic Claude on Bedrock",
        ),
        ("eu.amazon.nova-lite-v1:0", "Amazon Nova"),
        ("arn:aws:bedrock:eu-west-1::foundation-model/amazon.nova-pro-v1:0", "Amazon Nova"),
        ("us.meta.llama3-3-70b-instruct-v1:0", "Meta Llama on Bedrock"),
        ("us.mistral.pixtral-large-2502-v1:0", "Mistral and Pixtral on Bedrock"),
        ("US.Anthropic.Claude-3-Haiku-20240307-v1:0", "Anthropic Claude on Bedrock"),
    ],
)
def test_bedrock_families_match_cross_region_ids_and_arns(model_id: str, row: str) -> None:
    assert capabilities(f"bedrock:{model_id}").rows == (row,)


#: A model of every family Bedrock Converse serves (botocore names the families, not the ids).
BEDROCK_FAMILIES = [
    "us.anthropic.claude-sonnet-4-5-20250929-v1:0", "anthropic.claude-3-haiku-20240307-v1:0",
    "amazon.nova-pro-v1:0", "us.amazon.nova-premier-v1:0", "us.amazon.nova-micro-v1:0",
    "meta.llama3-1-8b-instruct-v1:0",
    "us.meta.llama3-2-90b-instruct-v1:0", "us.meta.llama4-maverick-17b-instruct-v1:0",
    "mistral.mistral-large-2407-v1:0", "us.mistral.pixtral-large-2502-v1:0",
    "cohere.command-r-plus-v1:0", "us.deepseek.r1-v1:0", "qwen.qwen3-32b-v1:0",
    "us.writer.palmyra-x5-v1:0", "ai21.jamba-1-5-large-v1:0", "openai.gpt-oss-120b-1:0",
]  # fmt: skip


def test_botocore_still_names_only_nova_and_claude_3_and_4_for_images_in_a_tool_result() -> None:
    """If this fails, botocore changed the rule: re-check the Bedrock rows against it."""
    import botocore.session

    model = botocore.session.get_session().get_service_model("bedrock-runtime")
    note = model.shape_for("ToolResultContentBlock").members["image"].documentation
    assert "only supported by Amazon Nova and Anthropic Claude 3 and 4 models" in note


@pytest.mark.parametrize("model_id", BEDROCK_FAMILIES)
def test_bedrock_puts_images_inside_a_tool_result_only_for_nova_and_claude(model_id: str) -> None:
    in_result = mode_of(f"bedrock:{model_id}", "image/png") == "native"
    seeing_nova = "amazon.nova" in model_id and "nova-micro" not in model_id  # Micro: text only
    assert in_result == (seeing_nova or "anthropic.claude" in model_id)


def test_every_bedrock_row_with_images_in_tool_results_is_a_nova_or_claude_row() -> None:
    families = ("amazon.nova", "anthropic.claude")
    for caps in variants("bedrock"):  # a row's model is its patterns, joined by ", "
        if caps.cell("image/png").tool_result == "native":  # type: ignore[union-attr]
            patterns = caps.model.split(", ")
            assert caps.rows and all(any(f in p for f in families) for p in patterns), caps.rows


@pytest.mark.parametrize(
    ("model_id", "image"),
    [
        ("us.meta.llama3-2-11b-instruct-v1:0", "fallback"),
        ("us.meta.llama3-2-90b-instruct-v1:0", "fallback"),
        ("meta.llama4-scout-17b-instruct-v1:0", "fallback"),
        ("meta.llama3-1-405b-instruct-v1:0", "error"),
        ("meta.llama3-2-3b-instruct-v1:0", "error"),
        ("us.meta.llama3-3-70b-instruct-v1:0", "error"),
    ],
)
def test_llama_on_bedrock_gets_images_and_documents_in_a_separate_user_turn_or_not_at_all(
    model_id: str, image: str
) -> None:
    caps = capabilities(f"bedrock:{model_id}")
    assert caps.cell("image/png").tool_result == image  # type: ignore[union-attr]
    for media_type in ("application/pdf", "text/plain", "text/csv"):
        cell = caps.cell(media_type)
        assert cell is not None and cell.tool_result == "fallback", media_type
        assert cell.user_sources == ("bytes", "s3")


def test_a_bedrock_arn_without_a_family_gets_the_safe_defaults() -> None:
    arn = "arn:aws:bedrock:us-east-1:123456789012:application-inference-profile/a1b2c3"
    caps = capabilities(f"bedrock:{arn}")
    assert caps.rows == ()
    assert caps.model == arn
    assert caps.cell("image/png").tool_result == "fallback"  # type: ignore[union-attr]
    assert caps.error_status is False


@pytest.mark.parametrize(
    "model_id",
    [
        "llava:13b",
        "llava",
        "bakllava",
        "llama3.2-vision:11b",
        "gemma3:27b",
        "qwen2.5vl:7b",
        "qwen3-vl:8b",
        "minicpm-v",
        "moondream:latest",
        "mistral-small3.1:24b",
        "mistral-small3.2",
        "mistral-small3.3:24b",  # the table: mistral-small3.1 and later
        "library/llava:7b",
        "library/llama3.2-vision",
        "hf.co/someone/moondream2:latest",
        "library/minicpm-v:8b",
        "gemma3:4b",
    ],
)
def test_ollama_vision_models_take_images_in_tool_messages(model_id: str) -> None:
    assert mode_of(f"ollama:{model_id}", "image/png") == "native"


@pytest.mark.parametrize(
    "model_id",
    [
        "llama3.1:8b",
        "qwen3:8b",
        "mistral-small:22b",
        "mistral-small3:24b",
        "phi4",
        "gemma3:1b",  # gemma3's 270m and 1b sizes are text-only
        "library/gemma3:270m",
    ],
)
def test_other_ollama_models_refuse_images(model_id: str) -> None:
    assert mode_of(f"ollama:{model_id}", "image/png") == "error"


@pytest.mark.parametrize(
    "model_id",
    ["gpt-4o-audio-preview", "gpt-4o-audio-preview-2024-12-17", "gpt-4o-mini-audio-preview",
     "gpt-audio", "gpt-audio-mini-2025-10-06"],
)  # fmt: skip
def test_openai_audio_models_take_wav_and_mp3_but_no_other_audio(model_id: str) -> None:
    model = f"openai-chat:{model_id}"
    assert mode_of(model, "audio/wav") == "fallback"
    assert mode_of(model, "audio/mpeg") == "fallback"
    assert mode_of(model, "audio/ogg") == "error"
    assert mode_of(f"openai:{model_id}", "audio/wav") == "error"  # no audio in Responses


@pytest.mark.parametrize("model_id", ["gpt-4o", "gpt-5-mini", "gpt-4o-mini", "o4-mini"])
def test_openai_chat_models_without_audio_refuse_audio(model_id: str) -> None:
    assert mode_of(f"openai-chat:{model_id}", "audio/wav") == "error"


def test_the_last_matching_row_wins_for_each_media_type() -> None:
    overrides = {
        "models": [
            {
                "match": ["gpt-4o-audio*"],
                "media": [{"types": ["audio/wav"], "tool_result": "error"}],
            }
        ]
    }
    caps = capabilities("openai-chat:gpt-4o-audio-preview", overrides)
    assert caps.rows == ("OpenAI audio models", "gpt-4o-audio*")
    assert caps.cell("audio/wav").tool_result == "error"  # type: ignore[union-attr]
    assert caps.cell("audio/mpeg").tool_result == "fallback"  # type: ignore[union-attr]


def test_unknown_models_of_a_known_provider_get_the_providers_defaults() -> None:
    caps = capabilities("anthropic:claude-future-9")
    assert caps.rows == ()
    assert caps.provider == "anthropic" and caps.model == "claude-future-9"
    assert caps.cell("image/png").tool_result == "native"  # type: ignore[union-attr]
    assert caps.cell("application/x-unknown") is None


def test_a_model_id_may_contain_colons() -> None:
    assert split_model("ollama:llava:13b") == ("ollama", "llava:13b")


@pytest.mark.parametrize(
    ("model", "hint"),
    [
        ("antropic:claude-sonnet-4-5", "Did you mean 'anthropic'"),
        ("gemini:gemini-3-pro", "Known providers: anthropic"),
        ("claude-sonnet-4-5", "provider:model-id"),
        (":claude", "provider:model-id"),
        ("anthropic:", "provider:model-id"),
    ],
)
def test_an_unknown_or_malformed_model_raises_with_what_is_known(model: str, hint: str) -> None:
    with pytest.raises(UnknownModelError, match=hint):
        capabilities(model)


# --- summaries and helpers -------------------------------------------------------------------


def test_accepted_summarises_what_goes_where() -> None:
    anthropic = capabilities("anthropic:claude-sonnet-4-5").accepted()
    assert anthropic.startswith("in tool results ") and "image/png" in anthropic
    assert "follow-up" not in anthropic
    chat = capabilities("openai-chat:gpt-5-mini").accepted()
    assert chat.startswith("in a follow-up user message ") and "application/pdf" in chat
    assert "audio/wav" not in chat
    nova = capabilities("bedrock:amazon.nova-pro-v1:0").accepted()
    assert "in tool results" in nova and "video/mp4" in nova.split(";")[0]
    assert "; in a follow-up user message" not in nova
    bedrock_claude = capabilities("bedrock:anthropic.claude-3-haiku-20240307-v1:0").accepted()
    assert "; in a follow-up user message application/msword" in bedrock_claude


def test_accepted_says_text_only_when_nothing_has_a_route() -> None:
    caps = capabilities("openai-compatible:x")
    nothing = Capabilities(**{**caps.__dict__, "cells": {}})
    assert nothing.accepted() == "text only"


def test_user_messages_accept_a_type_only_when_it_lists_user_sources() -> None:
    caps = capabilities("ollama:qwen3:8b")
    assert caps.cell("text/plain").accepts_in_user_message  # type: ignore[union-attr]
    assert not caps.cell("image/png").accepts_in_user_message  # type: ignore[union-attr]


def test_with_cell_changes_one_type_and_creates_unknown_ones() -> None:
    caps = capabilities("anthropic:claude-sonnet-4-5")
    changed = with_cell(caps, "image/png", tool_result="fallback")
    assert changed.cell("image/png").tool_result == "fallback"  # type: ignore[union-attr]
    assert changed.cell("image/jpeg").tool_result == "native"  # type: ignore[union-attr]
    assert caps.cell("image/png").tool_result == "native"  # type: ignore[union-attr]
    new = with_cell(caps, "model/gltf-binary", user_sources=("bytes",))
    cell = new.cell("model/gltf-binary")
    assert cell is not None and caps.cell("model/gltf-binary") is None
    assert (cell.media_types, cell.tool_result, cell.user_sources) == (
        ("model/gltf-binary",),
        "error",
        ("bytes",),
    )


def test_tw_capabilities_is_the_function_after_its_module_was_imported() -> None:
    import toolwire as tw
    import toolwire.capability  # noqa: F401  (importing the module must not shadow the function)

    assert tw.capabilities("anthropic:claude-sonnet-4-5").provider == "anthropic"


def test_tw_capabilities_returns_the_models_capabilities_in_a_fresh_interpreter() -> None:
    code = (
        "import toolwire as tw\n"
        "c = tw.capabilities('bedrock:us.amazon.nova-pro-v1:0')\n"
        "print(type(c).__name__, c.rows, c.cell('application/pdf').tool_result)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "Capabilities ('Amazon Nova',) sibling"
