"""Capability overrides: the capabilities= argument, the TOOLWIRE_CAPABILITIES file, and the
validation errors both give (what, where, what is allowed, a close match)."""

from __future__ import annotations

import importlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from toolwire.capability import capabilities, providers
from toolwire.errors import CapabilityError, UnknownModelError

caps_module = importlib.import_module("toolwire.capability")


@pytest.fixture(autouse=True)
def fresh_table(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The table (with the environment's file) is cached per process: start and end fresh."""
    monkeypatch.delenv("TOOLWIRE_CAPABILITIES", raising=False)
    caps_module._table.cache_clear()
    yield
    caps_module._table.cache_clear()


def mode_of(model: str, media_type: str) -> str:
    cell = capabilities(model).cell(media_type)
    return "error" if cell is None else cell.tool_result


PNG_ERROR = {"media": [{"types": ["image/png"], "tool_result": "error", "evidence": "mine"}]}


def test_an_override_argument_replaces_a_cell() -> None:
    caps = capabilities("anthropic:claude-sonnet-4-5", PNG_ERROR)
    assert caps.cell("image/png").tool_result == "error"  # type: ignore[union-attr]
    assert caps.cell("image/png").evidence == "mine"  # type: ignore[union-attr]
    assert caps.cell("image/jpeg").tool_result == "native"  # type: ignore[union-attr]
    assert caps.rows == ("override (capabilities= for anthropic)",)


def test_an_override_argument_wins_over_a_matching_package_row() -> None:
    caps = capabilities("google:gemini-3-pro-preview", PNG_ERROR)
    assert caps.cell("image/png").tool_result == "error"  # type: ignore[union-attr]
    assert caps.cell("image/jpeg").tool_result == "native"  # type: ignore[union-attr]


def test_override_fields_win_over_a_matching_package_row() -> None:
    caps = capabilities("bedrock:anthropic.claude-3-haiku-20240307-v1:0", {"error_status": False})
    assert caps.error_status is False
    assert capabilities("bedrock:anthropic.claude-3-haiku-20240307-v1:0").error_status is True
    moved = capabilities("openai:gpt-5", {"followup": "turn", "user_after_tool": "merge"})
    assert (moved.followup, moved.user_after_tool) == ("turn", "merge")


def test_override_rows_apply_only_to_the_models_they_match() -> None:
    vision = {
        "models": [
            {
                "label": "my vision model",
                "match": ["mymodel*"],
                "media": [{"types": ["image/png"], "tool_result": "native", "user_sources": []}],
            }
        ]
    }
    assert mode_of("ollama:qwen3:8b", "image/png") == "error"
    assert capabilities("ollama:mymodel-7b", vision).cell("image/png").tool_result == "native"  # type: ignore[union-attr]
    assert capabilities("ollama:mymodel-7b", vision).rows == ("my vision model",)
    assert capabilities("ollama:other", vision).cell("image/png").tool_result == "error"  # type: ignore[union-attr]


def test_an_override_row_wins_over_the_overrides_own_cells() -> None:
    overrides = {
        "media": [{"types": ["image/png"], "tool_result": "fallback", "user_sources": ["bytes"]}],
        "models": [
            {"match": ["special"], "media": [{"types": ["image/png"], "tool_result": "error"}]}
        ],
    }
    assert capabilities("anthropic:special", overrides).cell("image/png").tool_result == "error"  # type: ignore[union-attr]
    assert capabilities("anthropic:plain", overrides).cell("image/png").tool_result == "fallback"  # type: ignore[union-attr]


def test_an_empty_override_changes_nothing() -> None:
    assert capabilities("openai:gpt-5", {}) == capabilities("openai:gpt-5")


def test_an_override_cannot_invent_a_provider() -> None:
    with pytest.raises(UnknownModelError, match="unknown provider 'acme'"):
        capabilities("acme:model-1", {"wire": "openai_chat"})


def write(tmp_path: Path, text: str) -> str:
    path = tmp_path / "caps.toml"
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_a_toml_file_named_by_the_environment_overrides_the_package(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(
        "TOOLWIRE_CAPABILITIES",
        write(
            tmp_path,
            "[[targets.google.media]]\n"
            'types = ["image/png"]\ntool_result = "error"\nevidence = "site policy"\n',
        ),
    )
    caps = capabilities("google:gemini-3-pro-preview")
    assert caps.cell("image/png").evidence == "site policy"  # type: ignore[union-attr]
    assert caps.cell("image/jpeg").tool_result == "native"  # type: ignore[union-attr]
    assert caps.rows[-1] == f"override (TOOLWIRE_CAPABILITIES={tmp_path / 'caps.toml'})"
    # The argument wins over the environment's file.
    again = capabilities("google:gemini-3-pro-preview", {"media": [{"types": ["image/png"],
                         "tool_result": "native", "evidence": "arg"}]})  # fmt: skip
    assert again.cell("image/png").evidence == "arg"  # type: ignore[union-attr]


def test_the_environment_file_may_add_a_target_with_a_wire(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(
        "TOOLWIRE_CAPABILITIES",
        write(
            tmp_path,
            '[targets.acme]\nwire = "openai_chat"\nfollowup = "turn"\n'
            '[[targets.acme.media]]\ntypes = ["image/png"]\ntool_result = "fallback"\n'
            'user_sources = ["bytes"]\nevidence = "acme docs"\n',
        ),
    )
    caps = capabilities("acme:m1")
    assert (caps.wire, caps.extra, caps.followup, caps.user_after_tool) == (
        "openai_chat",
        "acme",
        "turn",
        "message",
    )
    assert caps.cell("image/png").tool_result == "fallback"  # type: ignore[union-attr]
    assert "acme" in providers()


def test_a_new_target_in_the_environment_file_without_a_wire_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TOOLWIRE_CAPABILITIES", write(tmp_path, "[targets.anthropc]\n"))
    with pytest.raises(CapabilityError, match=r"needs 'wire'.*Did you mean 'anthropic'"):
        capabilities("anthropic:x")


def test_an_unreadable_environment_file_is_a_capability_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TOOLWIRE_CAPABILITIES", str(tmp_path / "missing.toml"))
    with pytest.raises(CapabilityError, match="missing.toml: cannot read"):
        capabilities("anthropic:x")


def test_an_environment_file_that_is_not_toml_is_a_capability_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TOOLWIRE_CAPABILITIES", write(tmp_path, "[targets.anthropic\n"))
    with pytest.raises(CapabilityError, match="invalid TOML"):
        capabilities("anthropic:x")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('title = "x"\n', "unknown key 'title'"),
        ("", "missing 'targets' \\(\\[targets.NAME\\] tables\\)"),
        ('targets = "x"\n', "'targets' must be \\[targets.NAME\\] tables, not 'x'"),
        (
            "[targets.anthropic]\nfolowup = 'merge'\n",
            "unknown key 'folowup'. Did you mean 'followup'",
        ),
        (
            "[[targets.anthropic.media]]\ntypes = ['image/png']\ntool_results = 'error'\n",
            "targets.anthropic media\\[0\\]: unknown key 'tool_results'. Did you mean 'tool_result'",
        ),
    ],
)
def test_environment_file_errors_say_where_and_suggest(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, text: str, message: str
) -> None:
    path = write(tmp_path, text)
    monkeypatch.setenv("TOOLWIRE_CAPABILITIES", path)
    with pytest.raises(CapabilityError, match=message) as info:
        capabilities("anthropic:x")
    assert path in str(info.value)


CELL = {"types": ["image/png"], "tool_result": "native"}


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"folowup": "merge"}, "unknown key 'folowup'. Did you mean 'followup'"),
        ({"followup": "merged"}, "followup = 'merged' is not one of merge, message, turn. Did you mean 'merge'"),
        ({"user_after_tool": "next"}, "user_after_tool = 'next' is not one of"),
        ({"wire": "openai-chat"}, "wire = 'openai-chat' is not one of .*Did you mean 'openai_chat'"),
        ({"wire": 3}, "wire = 3 is not one of anthropic, openai_chat"),
        ({"error_status": "yes"}, "'error_status' must be true or false, not 'yes'"),
        ({"file_ids": ["openai"]}, "'file_ids' must be a provider name"),
        ({"version_pattern": "gemini-("}, "version_pattern is not a regex"),
        ({"version_pattern": "gemini-3"}, "version_pattern needs a group"),
        ({"media": {"types": ["image/png"]}}, "'media' must be an array of tables"),
        ({"media": ["image/png"]}, "media\\[0\\]: expected a table, found str"),
        ({"media": [{"tool_result": "native"}]}, "media\\[0\\]: missing 'types' \\(a non-empty list of media types or group names\\)"),
        ({"media": [{"types": [], "tool_result": "native"}]}, "'types' must be a non-empty list"),
        ({"media": [{"types": "image/png", "tool_result": "native"}]}, "'types' must be a non-empty"),
        ({"media": [{"types": ["image/png"]}]}, "missing 'tool_result' \\(one of native, sibling"),
        ({"media": [{**CELL, "tool_result": "nativ"}]}, "Did you mean 'native'"),
        ({"media": [{**CELL, "user_sources": ["byte"]}]}, "user_sources = 'byte' .*Did you mean 'bytes'"),
        ({"media": [{**CELL, "tool_sources": "bytes"}]}, "'tool_sources' must be a list of sources"),
        ({"media": [{**CELL, "max_bytes": 0}]}, "'max_bytes' must be a positive integer, not 0"),
        ({"media": [{**CELL, "max_edge": "8000"}]}, "'max_edge' must be a positive integer"),
        ({"media": [{**CELL, "fit_edge": True}]}, "'fit_edge' must be a positive integer, not True"),
        ({"media": [{**CELL, "max_pixels": 1.5}]}, "'max_pixels' must be a positive integer"),
        ({"media": [{**CELL, "evidence": 7}]}, "'evidence' must be a string"),
        ({"media": [{**CELL, "evidense": "x"}]}, "Did you mean 'evidence'"),
        ({"models": [{"media": [CELL]}]}, "models\\[0\\]: missing 'match' \\(a non-empty list of glob patterns\\)"),
        ({"models": [{"match": []}]}, "'match' must be a non-empty list of glob patterns"),
        ({"models": [{"match": "gpt-*"}]}, "'match' must be a non-empty list"),
        ({"models": [{"match": ["x"], "min_version": "3"}]}, "'min_version' must be a number"),
        ({"models": [{"match": ["x"], "min_version": True}]}, "'min_version' must be a number"),
        ({"models": [{"match": ["x"], "label": 1}]}, "'label' must be a string"),
        ({"models": [{"match": ["x"], "followup": "later"}]}, "models\\[0\\]: followup = 'later'"),
        ({"models": [{"match": ["x"], "matches": ["y"]}]}, "unknown key 'matches'. Did you mean 'match'"),
        ({"models": [{"match": ["x"], "media": [{"types": ["a/b"], "tool_result": "x"}]}]},
         "models\\[0\\] media\\[0\\]: tool_result = 'x'"),
        ("not a table", "capabilities= for anthropic: expected a table, found str"),
    ],
)  # fmt: skip
def test_override_errors_say_where_what_is_allowed_and_suggest(
    overrides: Any, message: str
) -> None:
    with pytest.raises(CapabilityError, match=message):
        capabilities("anthropic:claude-sonnet-4-5", overrides)


def test_the_package_table_requires_a_wire_for_every_target() -> None:
    with pytest.raises(CapabilityError, match="capabilities.toml targets.x: missing 'wire'"):
        caps_module.load_table("capabilities.toml", {"targets": {"x": {}}})


def test_valid_numeric_and_version_fields_are_accepted() -> None:
    overrides = {
        "version_pattern": r"claude-(\d+)",
        "models": [
            {"match": ["claude-*"], "min_version": 4.5, "error_status": False},
            {"match": ["claude-*"], "min_version": 9},
        ],
        "media": [{**CELL, "max_bytes": 10, "max_edge": 20, "fit_edge": 30, "max_pixels": 40}],
    }
    caps = capabilities("anthropic:claude-5-opus", overrides)
    assert caps.error_status is False
    assert caps.rows == ("override (capabilities= for anthropic)", "claude-*")
    cell = caps.cell("image/png")
    assert cell is not None
    assert (cell.max_bytes, cell.max_edge, cell.fit_edge, cell.max_pixels) == (10, 20, 30, 40)
    assert capabilities("anthropic:claude-4-opus", overrides).error_status is True


def test_overrides_with_keys_of_mixed_types_are_a_capability_error() -> None:
    """Equal overrides give one Capabilities object (kept by their canonical JSON); overrides
    that have none (keys JSON cannot sort) are not kept, and validation says what is wrong."""
    with pytest.raises(CapabilityError):
        capabilities("anthropic:claude-sonnet-4-6", {1: "x", "a": "y"})  # type: ignore[dict-item]
