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
from functools import cache, cached_property
from importlib import resources
from typing import Any

from .errors import CapabilityError, UnknownModelError, suggest
from .providers import WIRES

MODES = ("native", "sibling", "fallback", "error")
SOURCES = ("bytes", "url", "s3", "gcs", "file_id")
PLACEMENTS = ("merge", "message", "turn")
SIGNATURES = ("optional", "required")

_TARGET_KEYS = {
    "wire", "extra", "followup", "user_after_tool", "error_status", "file_ids",
    "version_pattern", "thought_signatures", "thinking_issuer", "media", "models",
}  # fmt: skip
_ROW_KEYS = {
    "label", "match", "min_version", "media", "followup", "user_after_tool", "error_status",
    "thought_signatures", "thinking_issuer",
}  # fmt: skip
_CELL_KEYS = {
    "types", "tool_result", "tool_sources", "user_sources", "max_bytes", "max_edge",
    "fit_edge", "fit_short_edge", "max_pixels", "max_count", "evidence",
}  # fmt: skip
# The type each field must have, and how to say it in an error.
_FIELD_TYPES: dict[str, tuple[type | tuple[type, ...], str]] = {
    "wire": (str, "a wire name"),
    "extra": (str, "a pip extra name"),
    "file_ids": (str, "a provider name"),
    "version_pattern": (str, "a regular expression"),
    "label": (str, "a string"),
    "thinking_issuer": (str, "a string"),
    "evidence": (str, "a string"),
    "error_status": (bool, "true or false"),
    "min_version": ((int, float), "a number"),
    "media": (list, "an array of tables ([[...media]])"),
    "models": (list, "an array of tables ([[...models]])"),
    "tool_sources": (list, "a list of sources"),
    "user_sources": (list, "a list of sources"),
}


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
    fit_short_edge: int | None = None  # OpenAI tile models scale the short side to 768 px
    max_pixels: int | None = None
    #: Most files of this cell's types in one request (Bedrock: 20 images, 5 documents).
    max_count: int | None = None
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
    #: "required" where the model rejects a replayed function call without a thought signature
    #: (Gemini >= 3); encoders then send the provider's documented placeholder.
    thought_signatures: str = "optional"
    #: Who can verify this model's signed thinking: decoded Thinking records it, and encoders
    #: replay thinking only to the same issuer (Bedrock: per model family, not per provider).
    issuer: str = ""

    @cached_property
    def has_count_limits(self) -> bool:
        """Whether any cell limits its files per request (most targets: none)."""
        return any(c.max_count for c in self.cells.values())

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
    if not overrides:
        table = _table()
        known = _resolved.get(model)
        if known is not None and known[0] is table:
            return known[1]
    provider, model_id = split_model(model)
    target = _target(provider, model)
    if overrides:
        where = f"capabilities= for {provider}"
        target = _merge_target(target, _validate_target(where, overrides), where)
        return _resolve(provider, model_id, target)
    found = _resolve(provider, model_id, target)
    _resolved[model] = (table, found)
    return found


#: model -> (the table it was resolved from, its capabilities): an agent encodes for the same
#: model every turn, and resolving walks every row of the target. Keyed by the table object so
#: that reloading the table (a new TOOLWIRE_CAPABILITIES) never serves a stale answer.
_resolved: dict[str, tuple[dict[str, Any], Capabilities]] = {}


def providers() -> list[str]:
    """Every provider name the table knows."""
    return sorted(_table())


def variants(provider: str) -> list[Capabilities]:
    """The provider's safe defaults, then each of its model rows applied alone on top of them.

    For tables of a whole target (``toolwire matrix``): a row's patterns and ``min_version``
    are not evaluated; its ``model`` is its patterns and its ``rows`` its label.
    """
    target = _target(provider, provider)
    found = [_resolve(provider, "*", {**target, "models": []})]
    for row in target.get("models", []):
        alone = {**row, "match": ["*"], "min_version": None}
        found.append(_resolve(provider, ", ".join(row["match"]), {**target, "models": [alone]}))
    return found


def _target(provider: str, model: str) -> dict[str, Any]:
    table = _table()
    if provider not in table:
        raise UnknownModelError(
            f"unknown provider {provider!r} in {model!r}.{suggest(provider, table)} "
            f"Known providers: {', '.join(sorted(table))}."
        )
    return table[provider]


def _resolve(provider: str, model_id: str, target: dict[str, Any]) -> Capabilities:
    cells = _cells(target.get("media", []))
    keys = ("followup", "user_after_tool", "error_status", "thought_signatures", "thinking_issuer")
    fields = {k: target.get(k) for k in keys}
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
        thought_signatures=fields["thought_signatures"] or "optional",
        issuer=(fields["thinking_issuer"] or provider).replace("{model}", model_id),
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
            fit_short_edge=raw.get("fit_short_edge"),
            max_pixels=raw.get("max_pixels"),
            max_count=raw.get("max_count"),
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
            if name in table:
                table[name] = _merge_target(table[name], target, f"TOOLWIRE_CAPABILITIES={path}")
            elif "wire" not in target:
                raise CapabilityError(
                    f"TOOLWIRE_CAPABILITIES={path} targets.{name}: a new target needs 'wire' "
                    f"(one of {', '.join(WIRES)}); known targets: {', '.join(sorted(table))}."
                    f"{suggest(name, table)}"
                )
            else:
                table[name] = target
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


def _merge_target(base: dict[str, Any], extra: dict[str, Any], label: str) -> dict[str, Any]:
    """Override fields replace; the override's cells become a row matching every model, placed
    after the package's rows (last match wins), followed by the override's own rows.

    Without that row, a package row matching the model (Gemini >= 3, Claude on Bedrock) would
    be applied after the override's cells and silently undo them.
    """
    merged = {**base, **{k: v for k, v in extra.items() if k not in ("media", "models")}}
    catch_all = {k: extra[k] for k in _ROW_KEYS & extra.keys() if k != "label"}
    if catch_all:
        catch_all.update(label=f"override ({label})", match=["*"])
    merged["models"] = [*base.get("models", []), *([catch_all] if catch_all else [])]
    merged["models"].extend(extra.get("models", []))
    return merged


def _validate_table(where: str, data: dict[str, Any], partial: bool = False) -> dict[str, Any]:
    targets = data.get("targets")
    unknown = sorted(set(data) - {"targets"})
    if unknown or not isinstance(targets, dict):
        found = f"found {', '.join(unknown)}" if unknown else "found none"
        raise CapabilityError(f"{where}: expected only [targets.NAME] tables, {found}")
    return {
        name: _validate_target(f"{where} targets.{name}", t, partial) for name, t in targets.items()
    }


def _validate_target(where: str, target: Any, partial: bool = True) -> dict[str, Any]:
    _check_keys(where, target, _TARGET_KEYS)
    if not partial and "wire" not in target:
        raise CapabilityError(f"{where}: missing 'wire'")
    _check_choice(where, "wire", target.get("wire"), tuple(WIRES))
    pattern = target.get("version_pattern")
    if pattern is not None:
        try:
            groups = re.compile(pattern).groups
        except re.error as exc:
            raise CapabilityError(f"{where}: version_pattern is not a regex ({exc})") from exc
        if groups < 1:
            raise CapabilityError(f"{where}: version_pattern needs a group around the version")
    for key in ("followup", "user_after_tool"):
        _check_choice(where, key, target.get(key), PLACEMENTS)
    _check_choice(where, "thought_signatures", target.get("thought_signatures"), SIGNATURES)
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
    _check_choice(where, "thought_signatures", row.get("thought_signatures"), SIGNATURES)
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
    for key in ("max_bytes", "max_edge", "fit_edge", "fit_short_edge", "max_pixels", "max_count"):
        value = cell.get(key)
        if value is not None and (type(value) is not int or value <= 0):
            raise CapabilityError(f"{where}: '{key}' must be a positive integer, not {value!r}")


def _check_keys(where: str, value: Any, allowed: set[str]) -> None:
    if not isinstance(value, dict):
        raise CapabilityError(f"{where}: expected a table, found {type(value).__name__}")
    for key, item in value.items():
        if key not in allowed:
            raise CapabilityError(f"{where}: unknown key {key!r}.{suggest(key, allowed)}")
        if key in _FIELD_TYPES:
            _check_type(where, key, item)


def _check_type(where: str, key: str, value: Any) -> None:
    expected, wording = _FIELD_TYPES[key]
    if not isinstance(value, expected) or (isinstance(value, bool) and expected is not bool):
        raise CapabilityError(f"{where}: '{key}' must be {wording}, not {value!r}")


def _check_choice(where: str, key: str, value: Any, choices: tuple[str, ...]) -> None:
    if value is not None and value not in choices:
        raise CapabilityError(
            f"{where}: {key} = {value!r} is not one of {', '.join(choices)}.{suggest(str(value), choices)}"
        )
