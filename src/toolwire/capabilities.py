"""What a target model accepts, per media type: loaded from capabilities.toml, matched, merged.

The table is data (see the vocabulary at the top of capabilities.toml); this module only
loads it, validates it, picks the rows that match a model id, and applies user overrides
(the ``capabilities=`` argument of ``encode`` or a TOML file named by TOOLWIRE_CAPABILITIES,
both in the same shape as the package file).

>>> caps = capabilities("google:gemini-3-pro-preview")
>>> caps.cell("image/png").tool_result
'native'
"""

from __future__ import annotations

import fnmatch
import os
import re
import tomllib
from dataclasses import dataclass, field, replace
from functools import cache
from importlib import resources
from typing import Any

from .errors import CapabilityError, UnknownModelError, suggest

MODES = ("native", "sibling", "fallback", "error")
SOURCES = ("bytes", "url", "s3", "gcs", "file_id")
PLACEMENTS = ("merge", "message", "turn")

_TARGET_KEYS = {
    "wire", "extra", "followup", "user_after_tool", "error_status", "file_ids",
    "version_pattern", "media", "models",
}  # fmt: skip
_ROW_KEYS = {
    "label",
    "match",
    "min_version",
    "media",
    "followup",
    "user_after_tool",
    "error_status",
}
_CELL_KEYS = {
    "types", "tool_result", "tool_sources", "user_sources", "max_bytes", "max_edge",
    "fit_edge", "max_pixels", "evidence",
}  # fmt: skip


@dataclass(frozen=True)
class Cell:
    """What a target does with one group of media types."""

    media_types: tuple[str, ...]
    tool_result: str
    tool_sources: tuple[str, ...] = ("bytes",)
    user_sources: tuple[str, ...] = ()
    max_bytes: int | None = None
    max_edge: int | None = None
    fit_edge: int | None = None
    max_pixels: int | None = None
    evidence: str = ""

    @property
    def accepts_in_user_message(self) -> bool:
        return bool(self.user_sources)


@dataclass(frozen=True)
class Capabilities:
    """Everything the planner needs to know about one model: layout facts and per-type cells."""

    provider: str
    model: str
    wire: str
    extra: str
    followup: str
    user_after_tool: str
    error_status: bool
    file_ids: str | None
    rows: tuple[str, ...]
    cells: dict[str, Cell] = field(repr=False)

    def cell(self, media_type: str) -> Cell | None:
        """The cell for this media type, or None when the table does not know it."""
        return self.cells.get(media_type)

    def accepted(self) -> str:
        """A one-line summary for error messages: what goes where."""
        native = sorted(t for t, c in self.cells.items() if c.tool_result in ("native", "sibling"))
        user = sorted(
            t for t, c in self.cells.items() if c.tool_result != "error" and t not in native
        )
        parts = []
        if native:
            parts.append("in tool results " + ", ".join(native))
        if user:
            parts.append("in a follow-up user message " + ", ".join(user))
        return "; ".join(parts) or "text only"


def split_model(model: str) -> tuple[str, str]:
    """'provider:model-id' → (provider, model-id); the model id may itself contain ':'."""
    provider, sep, model_id = model.partition(":")
    if not sep or not provider or not model_id:
        raise UnknownModelError(
            f"{model!r} is not of the form 'provider:model-id' "
            f"(providers: {', '.join(sorted(_table()))})"
        )
    return provider, model_id


def capabilities(model: str, overrides: dict[str, Any] | None = None) -> Capabilities:
    """The capabilities of ``model`` ('provider:model-id'), with optional overrides applied.

    ``overrides`` has the shape of one target in capabilities.toml (target fields, ``media``
    cells, ``models`` rows); its cells win over the package's and the environment's.
    """
    provider, model_id = split_model(model)
    table = _table()
    if provider not in table:
        raise UnknownModelError(
            f"unknown provider {provider!r} in {model!r}.{suggest(provider, table)} "
            f"Known providers: {', '.join(sorted(table))}."
        )
    target = table[provider]
    if overrides:
        target = _merge_target(target, _validate_target(f"capabilities= for {provider}", overrides))
    return _resolve(provider, model_id, target)


def providers() -> list[str]:
    """Every provider name the table knows."""
    return sorted(_table())


def _resolve(provider: str, model_id: str, target: dict[str, Any]) -> Capabilities:
    cells = _cells(target.get("media", []))
    fields = {k: target.get(k) for k in ("followup", "user_after_tool", "error_status")}
    applied = []
    version = _version(target.get("version_pattern"), model_id)
    for row in target.get("models", []):
        if not _row_matches(row, model_id, version):
            continue
        applied.append(row.get("label") or ", ".join(row["match"]))
        cells.update(_cells(row.get("media", [])))
        fields.update({k: row[k] for k in fields if k in row})
    return Capabilities(
        provider=provider,
        model=model_id,
        wire=target["wire"],
        extra=target.get("extra", provider),
        followup=fields["followup"] or "message",
        user_after_tool=fields["user_after_tool"] or "message",
        error_status=bool(fields["error_status"]),
        file_ids=target.get("file_ids"),
        rows=tuple(applied),
        cells=cells,
    )


def _row_matches(row: dict[str, Any], model_id: str, version: float | None) -> bool:
    lowered = model_id.lower()
    if not any(fnmatch.fnmatchcase(lowered, pattern.lower()) for pattern in row["match"]):
        return False
    minimum = row.get("min_version")
    return minimum is None or (version is not None and version >= minimum)


def _version(pattern: str | None, model_id: str) -> float | None:
    if not pattern:
        return None
    found = re.search(pattern, model_id.lower())
    return float(found.group(1)) if found else None


def _cells(raw_cells: list[dict[str, Any]]) -> dict[str, Cell]:
    cells: dict[str, Cell] = {}
    for raw in raw_cells:
        types = tuple(raw["types"])
        cell = Cell(
            media_types=types,
            tool_result=raw["tool_result"],
            tool_sources=tuple(raw.get("tool_sources", ("bytes",))),
            user_sources=tuple(raw.get("user_sources", ())),
            max_bytes=raw.get("max_bytes"),
            max_edge=raw.get("max_edge"),
            fit_edge=raw.get("fit_edge"),
            max_pixels=raw.get("max_pixels"),
            evidence=raw.get("evidence", ""),
        )
        cells.update(dict.fromkeys(types, cell))
    return cells


def with_cell(caps: Capabilities, media_type: str, **changes: Any) -> Capabilities:
    """A copy of ``caps`` with one media type's cell changed (for tests and tools)."""
    cell = caps.cells.get(media_type) or Cell(media_types=(media_type,), tool_result="error")
    return replace(caps, cells={**caps.cells, media_type: replace(cell, **changes)})


# --- loading and validation ------------------------------------------------------------------


@cache
def _table() -> dict[str, dict[str, Any]]:
    text = resources.files("toolwire").joinpath("capabilities.toml").read_text("utf-8")
    table = _validate_table("capabilities.toml", tomllib.loads(text))
    path = os.environ.get("TOOLWIRE_CAPABILITIES")
    if path:
        for name, target in _load_override_file(path).items():
            table[name] = _merge_target(table.get(name, {}), target) if name in table else target
    return table


def _load_override_file(path: str) -> dict[str, dict[str, Any]]:
    try:
        with open(path, "rb") as fh:
            data = tomllib.load(fh)
    except OSError as exc:
        raise CapabilityError(f"TOOLWIRE_CAPABILITIES={path}: cannot read ({exc})") from exc
    except tomllib.TOMLDecodeError as exc:
        raise CapabilityError(f"TOOLWIRE_CAPABILITIES={path}: invalid TOML ({exc})") from exc
    return _validate_table(path, data, partial=True)


def _merge_target(base: dict[str, Any], extra: dict[str, Any]) -> dict[str, Any]:
    """Override fields replace, cells and rows append (so they win: last match wins)."""
    merged = {**base, **{k: v for k, v in extra.items() if k not in ("media", "models")}}
    merged["media"] = [*base.get("media", []), *extra.get("media", [])]
    merged["models"] = [*base.get("models", []), *extra.get("models", [])]
    return merged


def _validate_table(where: str, data: dict[str, Any], partial: bool = False) -> dict[str, Any]:
    targets = data.get("targets")
    unknown = set(data) - {"targets"}
    if unknown or not isinstance(targets, dict):
        raise CapabilityError(
            f"{where}: expected only a [targets.NAME] table, found {sorted(unknown)}"
        )
    return {
        name: _validate_target(f"{where} targets.{name}", t, partial) for name, t in targets.items()
    }


def _validate_target(where: str, target: Any, partial: bool = True) -> dict[str, Any]:
    _check_keys(where, target, _TARGET_KEYS)
    if not partial and "wire" not in target:
        raise CapabilityError(f"{where}: missing 'wire'")
    for key in ("followup", "user_after_tool"):
        _check_choice(where, key, target.get(key), PLACEMENTS)
    for i, cell in enumerate(target.get("media", [])):
        _validate_cell(f"{where} media[{i}]", cell)
    for i, row in enumerate(target.get("models", [])):
        _validate_row(f"{where} models[{i}]", row)
    return dict(target)


def _validate_row(where: str, row: Any) -> None:
    _check_keys(where, row, _ROW_KEYS)
    match = row.get("match")
    if not isinstance(match, list) or not match or not all(isinstance(m, str) for m in match):
        raise CapabilityError(f"{where}: 'match' must be a non-empty list of glob patterns")
    for key in ("followup", "user_after_tool"):
        _check_choice(where, key, row.get(key), PLACEMENTS)
    for i, cell in enumerate(row.get("media", [])):
        _validate_cell(f"{where} media[{i}]", cell)


def _validate_cell(where: str, cell: Any) -> None:
    _check_keys(where, cell, _CELL_KEYS)
    types = cell.get("types")
    if not isinstance(types, list) or not types or not all(isinstance(t, str) for t in types):
        raise CapabilityError(f"{where}: 'types' must be a non-empty list of media types")
    if "tool_result" not in cell:
        raise CapabilityError(f"{where}: missing 'tool_result' (one of {', '.join(MODES)})")
    _check_choice(where, "tool_result", cell["tool_result"], MODES)
    for key in ("tool_sources", "user_sources"):
        for source in cell.get(key, []):
            _check_choice(where, key, source, SOURCES)
    for key in ("max_bytes", "max_edge", "fit_edge", "max_pixels"):
        value = cell.get(key)
        if value is not None and (not isinstance(value, int) or value <= 0):
            raise CapabilityError(f"{where}: '{key}' must be a positive integer, not {value!r}")


def _check_keys(where: str, value: Any, allowed: set[str]) -> None:
    if not isinstance(value, dict):
        raise CapabilityError(f"{where}: expected a table, found {type(value).__name__}")
    for key in value:
        if key not in allowed:
            raise CapabilityError(f"{where}: unknown key {key!r}.{suggest(key, allowed)}")


def _check_choice(where: str, key: str, value: Any, choices: tuple[str, ...]) -> None:
    if value is not None and value not in choices:
        raise CapabilityError(
            f"{where}: {key} = {value!r} is not one of {', '.join(choices)}.{suggest(str(value), choices)}"
        )
