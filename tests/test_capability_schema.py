"""The capability table's one schema: pydantic cells, media-type groups named once, model rows
merged field by field, token families and known models as columns of the table.

tests/capabilities_resolved.json holds what 108 models (the conformance representatives, each
row's patterns, an unknown model per target) resolved to before rows merged field by field,
written by the old loader and the old token-family table. Regenerate it only for a deliberate
change of the table, with ``golden()`` below: ``json.dump(golden(), f, indent=1,
ensure_ascii=False)``.
"""

from __future__ import annotations

import importlib
import json
import subprocess
import sys
import tomllib
from collections.abc import Iterator
from importlib import resources
from pathlib import Path
from typing import Any

import pytest
from pydantic import ValidationError
from typer.testing import CliRunner

from toolwire.capability import Cell, capabilities, is_known, providers, target_spec
from toolwire.capability_schema import CELL_FIELDS, FILE_LIMITS, LIMITS
from toolwire.cli import app
from toolwire.errors import CapabilityError
from toolwire.token_formulas import FAMILIES, family

caps_module = importlib.import_module("toolwire.capability")
GOLDEN = Path(__file__).with_name("capabilities_resolved.json")
PHOTO = str(Path(__file__).resolve().parents[1] / "examples" / "photo.png")


@pytest.fixture(autouse=True)
def fresh_table(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.delenv("TOOLWIRE_CAPABILITIES", raising=False)
    caps_module._table.cache_clear()
    yield
    caps_module._table.cache_clear()


def _cell_line(cell: Cell) -> str:
    limits = ", ".join(f"{k}={getattr(cell, k)}" for k in LIMITS if getattr(cell, k) is not None)
    return " | ".join(
        [
            " ".join(sorted(cell.media_types)),
            cell.tool_result,
            "tool " + ",".join(cell.tool_sources),
            "user " + (",".join(cell.user_sources) or "-"),
            limits or "-",
            cell.evidence,
        ]
    )


def golden(models: list[str]) -> dict[str, Any]:
    """Each distinct cell once, and per model its facts and cells (with the types that map to
    a cell when they are not its media_types)."""
    cells: dict[str, str] = {}
    lines: dict[str, str] = {}
    for model in sorted(models):
        caps = capabilities(model)
        mapped: dict[int, list[str]] = {}
        for media_type, cell in caps.cells.items():
            mapped.setdefault(id(cell), []).append(media_type)
        ids = []
        for cell in {id(c): c for c in caps.cells.values()}.values():
            line = _cell_line(cell)
            cid = next((k for k, v in cells.items() if v == line), f"c{len(cells) + 1}")
            cells[cid] = line
            types = sorted(mapped[id(cell)])
            ids.append(cid if types == sorted(cell.media_types) else f"{cid}:{','.join(types)}")
        facts = (
            f"{caps.wire} extra={caps.extra} followup={caps.followup} "
            f"user_after_tool={caps.user_after_tool} error_status={str(caps.error_status).lower()} "
            f"file_ids={caps.file_ids} signatures={caps.thought_signatures} issuer={caps.issuer} "
            f"tokens={family(model).name} rows={'; '.join(caps.rows) or '-'}"
        )
        ids.sort(key=lambda cid: int(cid.split(":")[0][1:]))
        lines[model] = f"{facts} | {' '.join(ids)}"
    return {"cells": cells, "models": lines}


def _spelt_out(table: dict[str, Any]) -> dict[str, tuple[str, list[str]]]:
    """Model -> (facts, its cells written out): cell ids differ between two goldens."""
    out = {}
    for model, line in table["models"].items():
        facts, _, ids = line.rpartition(" | ")
        cells = [
            table["cells"][cid] + (f" -> {types}" if types else "")
            for cid, _, types in (i.partition(":") for i in ids.split())
        ]
        out[model] = (facts, sorted(cells))
    return out


def test_every_model_resolves_to_the_cells_and_facts_of_the_whole_cell_table() -> None:
    expected = _spelt_out(json.loads(GOLDEN.read_text("utf-8")))
    found = _spelt_out(golden(list(expected)))
    differ = [
        (model, expected[model], found[model])
        for model in expected
        if expected[model] != found[model]
    ]
    assert not differ, differ[:2]


def _package_toml() -> dict[str, Any]:
    text = resources.files("toolwire").joinpath("capabilities.toml").read_text("utf-8")
    return tomllib.loads(text)


def test_the_image_types_are_listed_once_and_every_group_is_used() -> None:
    text = resources.files("toolwire").joinpath("capabilities.toml").read_text("utf-8")
    assert text.count('"image/gif"') == 1
    raw = _package_toml()
    named = {
        name
        for target in raw["targets"].values()
        for cell in [
            *target.get("media", []),
            *(c for r in target.get("models", []) for c in r.get("media", [])),
        ]
        for name in cell["types"]
    }
    assert set(raw["groups"]) <= named


def test_a_row_cell_changes_only_the_fields_it_names() -> None:
    row = {"match": ["claude-*"], "media": [{"types": ["images"], "max_bytes": 1000}]}
    cell = capabilities("anthropic:claude-sonnet-4-5", {"models": [row]}).cell("image/png")
    before = capabilities("anthropic:claude-sonnet-4-5").cell("image/png")
    assert cell is not None and before is not None
    assert cell.max_bytes == 1000
    assert (cell.tool_result, cell.tool_sources, cell.fit_edge, cell.evidence) == (
        before.tool_result,
        before.tool_sources,
        before.fit_edge,
        before.evidence,
    )


def test_a_row_removes_a_limit_with_clear() -> None:
    row = {"match": ["*"], "media": [{"types": ["image/png"], "clear": ["max_pixels", "fit_edge"]}]}
    cell = capabilities("anthropic:claude-sonnet-4-5", {"models": [row]}).cell("image/png")
    assert cell is not None
    assert (cell.max_pixels, cell.fit_edge, cell.max_bytes) == (None, None, 5242880)


def test_clear_names_only_limits() -> None:
    row = {"match": ["*"], "media": [{"types": ["image/png"], "clear": ["evidence"]}]}
    with pytest.raises(CapabilityError, match="clear = 'evidence' is not one of max_bytes"):
        capabilities("anthropic:claude-sonnet-4-5", {"models": [row]})


def test_an_override_target_cell_is_whole_not_merged() -> None:
    caps = capabilities(
        "anthropic:x", {"media": [{"types": ["image/png"], "tool_result": "error"}]}
    )
    cell = caps.cell("image/png")
    assert cell is not None
    assert (cell.user_sources, cell.max_bytes, cell.evidence) == ((), None, "")


def test_a_row_cell_for_a_type_without_a_cell_must_name_its_mode() -> None:
    row = {"label": "mine", "match": ["*"], "media": [{"types": ["image/bmp"], "max_bytes": 9}]}
    with pytest.raises(CapabilityError, match="row mine: image/bmp has no cell to change yet"):
        capabilities("anthropic:x", {"models": [row]})


def test_an_unknown_group_name_is_refused_with_a_close_match() -> None:
    cell = {"types": ["imagse"], "tool_result": "error"}
    with pytest.raises(
        CapabilityError, match="media\\[0\\]: 'imagse' is neither.*Did you mean 'images'"
    ):
        capabilities("anthropic:x", {"media": [cell]})


def test_the_types_of_one_row_cell_share_one_cell_and_so_one_count_limit() -> None:
    caps = capabilities("bedrock:us.anthropic.claude-sonnet-4-5-20250929-v1:0")
    images = {id(caps.cells[t]) for t in ("image/jpeg", "image/png", "image/gif", "image/webp")}
    assert len(images) == 1 and caps.cells["image/png"].max_count == 20


def test_cells_are_frozen_refuse_unknown_fields_and_hash() -> None:
    cell = Cell(media_types=("image/png",), tool_result="native")
    assert hash(cell) == hash(Cell(media_types=("image/png",), tool_result="native"))
    with pytest.raises(ValidationError):
        Cell(media_types=("image/png",), tool_result="native", colour=1)  # type: ignore[call-arg]
    with pytest.raises(ValidationError):
        Cell(media_types=("image/png",), tool_result="native", max_bytes=0)


def test_the_limit_names_come_from_the_cell_fields() -> None:
    assert LIMITS == (
        "max_bytes",
        "max_edge",
        "fit_edge",
        "fit_short_edge",
        "max_pixels",
        "max_count",
    )
    assert LIMITS[:-1] == FILE_LIMITS and set(LIMITS) < set(CELL_FIELDS)
    matrix = (Path(caps_module.__file__).parent / "cli" / "matrix.py").read_text("utf-8")
    imagefit = (Path(caps_module.__file__).parent / "imagefit.py").read_text("utf-8")
    assert "fit_short_edge" not in matrix and "cell.max_bytes, cell.max_edge" not in imagefit


@pytest.mark.parametrize(
    ("model", "known"),
    [
        ("anthropic:claude-sonnet-4-5", True),
        ("anthropic:claude-3-5-haiku-latest", True),
        ("anthropic:claude-nonexistent-9", False),
        ("openai:gpt-4o", True),  # a token-family row names it
        ("openai:gtp-5", False),
        ("google:gemini-2.5-flash", True),
        ("bedrock:us.amazon.nova-pro-v1:0", True),
        ("bedrock:cohere.command-r-v1:0", False),
        ("mistral:mistral-large-latest", True),  # models.dev lists it (issue 35)
    ],
)
def test_is_known_follows_known_models_and_model_rows(model: str, known: bool) -> None:
    assert is_known(model) is known


def test_render_gives_no_unknown_model_notice_for_a_known_claude_model() -> None:
    runner = CliRunner(env={"COLUMNS": "200"})
    known = runner.invoke(
        app, ["render", PHOTO, "--model", "anthropic:claude-sonnet-4-5", "--json"]
    )
    assert (known.exit_code, known.stderr) == (0, "")
    unknown = runner.invoke(app, ["render", PHOTO, "--model", "anthropic:claude-nonexistent-9"])
    assert unknown.stderr.startswith("warning: unknown model anthropic:claude-nonexistent-9:")


def test_every_token_family_the_table_names_has_formulas() -> None:
    for provider in providers():
        target = target_spec(provider)
        for name in [target.token_family, *(row.token_family for row in target.models)]:
            assert name is None or name in FAMILIES, (provider, name)


def test_a_misspelt_token_family_is_refused_with_a_close_match(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "caps.toml"
    path.write_text('[targets.anthropic]\ntoken_family = "antropic"\n', encoding="utf-8")
    monkeypatch.setenv("TOOLWIRE_CAPABILITIES", str(path))
    with pytest.raises(CapabilityError, match="token_family 'antropic'.*Did you mean 'anthropic'"):
        family("anthropic:claude-sonnet-4-5")


def test_the_capability_table_imports_no_provider_and_names_the_registrys_wires() -> None:
    code = "import sys, toolwire.capability; print(any(m.startswith('toolwire.providers') for m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
    # Loading the table imports the registry, but no encoder module.
    code = (
        "import sys, toolwire.capability as c; c.capabilities('anthropic:claude-sonnet-4-5'); "
        "print(sorted(m for m in sys.modules if m.startswith('toolwire.providers.')))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "['toolwire.providers.wire']"
    from toolwire.providers import wire_names

    assert {target_spec(p).wire for p in providers()} <= set(wire_names())


def test_resolving_a_model_again_returns_the_memoised_capabilities() -> None:
    assert capabilities("openai:gpt-5") is capabilities("openai:gpt-5")
