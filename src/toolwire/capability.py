"""What a target model accepts, per media type: loaded from capabilities.toml, matched, merged.

The table is data (see the vocabulary at the top of capabilities.toml); its schema is
capability_schema.py. This module loads it, picks the rows that match a model id, merges them
field by field, and applies user overrides (the ``capabilities=`` argument of ``encode`` or a
TOML file named by TOOLWIRE_CAPABILITIES, both in the same shape as the package file).

>>> caps = capabilities("google:gemini-3-pro-preview")
>>> caps.cell("image/png").tool_result
'native'
"""

from __future__ import annotations

import contextlib
import difflib
import fnmatch
import json
import os
import re
import tomllib
import warnings
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from functools import cache, cached_property
from importlib import resources
from typing import Any, Literal

from .capability_schema import (
    BUDGET_FIELDS,
    CELL_DEFAULTS,
    CELL_FIELDS,
    LIMITS,
    MODES,
    PLACEMENTS,
    SOURCES,
    Budgets,
    Cache,
    Cell,
    CellSpec,
    Citations,
    Layout,
    ReasoningReplay,
    Row,
    Table,
    Target,
    load_table,
    one_of_wires,
    validate,
    whole_cell,
)
from .errors import CapabilityError, ToolwireWarning, UnknownModelError, suggest

__all__ = [
    "MODES", "PLACEMENTS", "SOURCES", "Capabilities", "Cell", "CellSpec", "Known", "capabilities",
    "is_known", "unknown_model_message", "load_table", "providers", "shapes", "split_model", "target_spec", "variants", "with_cell",
]  # fmt: skip

#: The sources that can name a model, most trusted first.
Known = Literal["table", "models.dev"]

_CELL_FIELDS = tuple(CELL_FIELDS)
_CELL_DEFAULTS = CELL_DEFAULTS
_LAYOUT = tuple(Layout.model_fields)


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
    #: Labels of the model rows that changed this model's cells or layout, in order.
    rows: tuple[str, ...]
    cells: dict[str, Cell] = field(repr=False)
    #: "required" where the model rejects a replayed function call without a thought signature
    #: (Gemini >= 3); encoders then send the provider's documented placeholder.
    thought_signatures: str = "optional"
    #: Who can verify this model's signed thinking: decoded Thinking records it, and encoders
    #: replay thinking only to the same issuer (Bedrock: per model family, not per provider).
    issuer: str = ""
    #: The family of token formulas (token_formulas.FAMILIES); None: the conservative one.
    token_family: str | None = None
    #: Which source names this model: "table" (its target's known_models or a model row of
    #: capabilities.toml), "models.dev" (the bundled dataset: model_facts), or None (nobody:
    #: it gets its provider's defaults, and a ToolwireWarning says so once).
    known: Known | None = None
    #: Per-request limits (request bytes, images, PDF pages, documents): plan/budgets.py.
    budgets: Budgets = Budgets()
    #: The prompt cache's marks and billing (None: no cache facts, no marks, no discount).
    cache: Cache | None = None
    #: PDFs go with document citations enabled, and why (Claude on Bedrock reads them as
    #: pages, text and images, only then); None: as they are.
    pdf_citations: Citations | None = None
    #: The rules its tools' schemas are repaired to (tools.rules.RULES; issue 31).
    tool_schema: str = "json-schema"
    #: Where the model's reasoning goes back on the chat wire (DeepSeek's thinking mode:
    #: ``reasoning_content`` on the messages that made tool calls); None: it does not.
    reasoning_replay: ReasoningReplay | None = None
    #: The chat server takes a message's text as a list of parts; else the texts are joined.
    text_parts: bool = False

    @cached_property
    def has_count_limits(self) -> bool:
        """Whether any cell limits its files per request (most targets: none)."""
        return any(c.max_count for c in self.cells.values())

    @cached_property
    def counted_cells(self) -> tuple[Cell, ...]:
        """The cells that limit their files per request (``max_count``), each once."""
        return tuple({id(c): c for c in self.cells.values() if c.max_count}.values())

    @cached_property
    def counted_order(self) -> dict[int, int]:
        """id(cell) -> its place in ``counted_cells`` (plan.tally counts each one's files)."""
        return {id(c): i for i, c in enumerate(self.counted_cells)}

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


def capabilities(model: str, overrides: Mapping[str, object] | None = None) -> Capabilities:
    """The capabilities of ``model`` ('provider:model-id'), with optional overrides applied.

    ``overrides`` has the shape of one target in capabilities.toml (target fields, ``media``
    cells, ``models`` rows); its cells win over the package's and the environment's.

    A model neither the table nor models.dev names gets its provider's defaults and, once per
    process, a ToolwireWarning naming the closest known ids (unless ``overrides`` say what it
    reads).
    """
    found = _capabilities(model, overrides)
    if found.known is None and not overrides and model not in _warned:
        _warned.add(model)
        warnings.warn(unknown_model_message(found), ToolwireWarning, stacklevel=2)
    return found


def _capabilities(model: str, overrides: Mapping[str, object] | None) -> Capabilities:
    """``capabilities`` without the warning (``is_known`` asks; it does not encode).

    One object per model and overrides (equal overrides: the same object), so the plans,
    measures and spellings kept for a target serve every request for it: an agent that
    passes the same ``capabilities=`` on each turn re-plans only what is new."""
    table = _table()
    key = (model, _overrides_key(overrides))
    known = _resolved.get(key) if key[1] is not None else None
    if known is not None and known[0] is table:
        return known[1]
    provider, model_id = split_model(model)
    target = _target(provider, model)
    if overrides:
        where = f"capabilities= for {provider}"
        extra = validate(where, overrides, Target, _package().groups)
        found = _resolve(provider, model_id, _merge_target(target, extra, where))
    else:
        found = _resolve(provider, model_id, target)
    if key[1] is None:  # overrides with no canonical form: not kept
        return found
    if len(_resolved) >= RESOLVED_LIMIT:
        with contextlib.suppress(StopIteration, KeyError, RuntimeError):  # another thread's
            del _resolved[next(iter(_resolved))]  # the oldest
    _resolved[key] = (table, found)
    return found


def _overrides_key(overrides: Mapping[str, object] | None) -> str | None:
    """The overrides as canonical JSON ("" for none): equal overrides, equal keys; None
    where they have no canonical form (keys of mixed types: validation then says what is
    wrong)."""
    if not overrides:
        return ""
    try:
        return json.dumps(overrides, sort_keys=True, default=repr, ensure_ascii=False)
    except (TypeError, ValueError):
        return None


#: Models already warned about in this process: one warning each, not one per encode.
_warned: set[str] = set()


def unknown_model_message(caps: Capabilities) -> str:
    """What to tell the user about a model nobody names: whose defaults it gets, the closest
    ids that are known, and how to say what it reads instead."""
    from .model_facts import known_ids

    close = difflib.get_close_matches(caps.model, known_ids(caps.provider), n=3, cutoff=0.6)
    hint = f" Did you mean {' or '.join(close)}?" if close else ""
    return (
        f"unknown model {caps.provider}:{caps.model}: neither toolwire's capability table nor "
        f"models.dev {_dataset_version()} names it, so it gets the {caps.provider} defaults "
        f"(images {_mode(caps, 'image/png')}, PDF {_mode(caps, 'application/pdf')}, "
        f"audio {_mode(caps, 'audio/wav')}; `toolwire matrix --model {caps.provider}` shows "
        f"them; pass capabilities= to say what it reads).{hint}"
    )


def _mode(caps: Capabilities, media_type: str) -> str:
    cell = caps.cell(media_type)
    return cell.tool_result if cell else "error"


def _dataset_version() -> str:
    from .model_facts import dataset_version

    return dataset_version()


#: (model, overrides as ``_overrides_key``) -> (the table it was resolved from, its
#: capabilities): an agent encodes for the same model every turn, and resolving walks every
#: row of the target. Checked against the table object so that reloading the table (a new
#: TOOLWIRE_CAPABILITIES) never serves a stale answer. At most ``RESOLVED_LIMIT``, the oldest
#: out first.
_resolved: dict[tuple[str, str | None], tuple[dict[str, Target], Capabilities]] = {}
RESOLVED_LIMIT = 1024


def is_known(model: str) -> bool:
    """Whether the table (a glob of its target's ``known_models``, a model row) or models.dev
    names ``model`` (else it gets its provider's defaults, as a misspelt id would). A question,
    not an encode: it gives no warning."""
    return _capabilities(model, None).known is not None


def providers() -> list[str]:
    """Every provider name the table knows."""
    return sorted(_table())


def variants(provider: str) -> list[Capabilities]:
    """The provider's safe defaults, then each model row that changes cells or layout, applied
    alone on top of them.

    For tables of a whole target (``toolwire matrix``): a row's patterns and ``min_version``
    are not evaluated; its ``model`` is its patterns and its ``rows`` its label.
    """
    target = _target(provider, provider)
    found = [_resolve(provider, "*", target.model_copy(update={"models": ()}))]
    for row in target.models:
        if shapes(row):
            alone = row.model_copy(update={"match": ("*",), "min_version": None})
            one = target.model_copy(update={"models": (alone,)})
            found.append(_resolve(provider, ", ".join(row.match), one))
    return found


def target_spec(provider: str) -> Target:
    """The validated table entry of one target (media-type groups expanded), for the docs."""
    return _target(provider, provider)


def _target(provider: str, model: str) -> Target:
    table = _table()
    if provider not in table:
        raise UnknownModelError(
            f"unknown provider {provider!r} in {model!r}.{suggest(provider, table)} "
            f"Known providers: {', '.join(sorted(table))}."
        )
    return table[provider]


def _resolve(provider: str, model_id: str, target: Target) -> Capabilities:
    cells = _defaults(provider, target)
    layout = {k: getattr(target, k) for k in _LAYOUT}
    applied, named = [], _names(target.known_models, model_id)
    budgets = target.model_dump(include=set(BUDGET_FIELDS), exclude_none=True)
    version = _version(target.version_pattern, model_id)
    by_rows: set[str] = set()
    for row in target.models:
        if not _row_matches(row, model_id, version):
            continue
        named = named or row.match != ("*",)
        if shapes(row):
            applied.append(row.label or ", ".join(row.match))
        for spec in row.media:
            _apply(cells, spec, f"targets.{provider} row {row.label or ', '.join(row.match)}")
            by_rows.update(_types(spec))
        layout.update({k: v for k in _LAYOUT if (v := getattr(row, k)) is not None})
        budgets.update(row.model_dump(include=set(BUDGET_FIELDS), exclude_none=True))
    _withdraw_unreadable(cells, f"{provider}:{model_id}", by_rows)
    return Capabilities(
        provider=provider,
        model=model_id,
        wire=str(target.wire),
        extra=target.extra or provider,
        followup=layout["followup"] or "message",
        user_after_tool=layout["user_after_tool"] or "message",
        error_status=bool(layout["error_status"]),
        file_ids=target.file_ids,
        rows=tuple(applied),
        cells=cells,
        thought_signatures=layout["thought_signatures"] or "optional",
        issuer=(layout["thinking_issuer"] or provider).replace("{model}", model_id),
        token_family=layout["token_family"],
        known=_known(provider, model_id, named),
        budgets=Budgets(**budgets),
        cache=layout["cache"],
        pdf_citations=layout["pdf_citations"],
        tool_schema=layout["tool_schema"] or "json-schema",
        reasoning_replay=layout["reasoning_replay"],
        text_parts=bool(layout["text_parts"]),
    )


def _known(provider: str, model_id: str, named: bool) -> Known | None:
    """Which source names the model: the table first, then the dataset (model_facts)."""
    from .model_facts import DATASET_PROVIDERS, facts

    if named:
        return "table"
    if model_id == "*" or provider not in DATASET_PROVIDERS:
        return None  # a whole target's defaults (``variants``), or a target the dataset lacks
    return "models.dev" if facts(f"{provider}:{model_id}") is not None else None


def _defaults(provider: str, target: Target) -> dict[str, Cell]:
    """A copy of the target's own cells, built once per target object."""
    known = _default_cells.get(provider)
    if known is None or known[0] is not target:
        cells: dict[str, Cell] = {}
        for spec in target.media:
            _apply(cells, spec, f"targets.{provider}")
        known = _default_cells[provider] = (target, cells)
    return dict(known[1])


#: provider -> (the target object, its own cells): every model of a target starts from them.
_default_cells: dict[str, tuple[Target, dict[str, Cell]]] = {}


def _withdraw_unreadable(cells: dict[str, Cell], model: str, by_rows: set[str]) -> None:
    """Withdraw (make "error") each granted cell of a media type the model cannot read, per
    the models.dev dataset (model_facts.lacks_input), unless a model row set that type: the
    table wins over the dataset. Text-only models get no media (issue 13)."""
    from .model_facts import DATASET_PROVIDERS, lacks_input, required_modality

    if model.endswith(":*") or model.partition(":")[0] not in DATASET_PROVIDERS:
        return  # a whole target's defaults (``variants``), or a target the dataset lacks
    withdrawn: dict[tuple[int, str], Cell] = {}
    for media_type, cell in cells.items():
        needed = required_modality(media_type)
        if needed is None or media_type in by_rows or not _grants(cell):
            continue
        found = lacks_input(model, media_type)
        if found is None:
            continue
        key = (id(cell), needed)
        if key not in withdrawn:
            withdrawn[key] = replace(
                cell,
                tool_result="error",
                tool_sources=(),
                user_sources=(),
                evidence=f"{model} cannot read {needed} input: {found.evidence}",
                **_NO_LIMITS,
            )
        cells[media_type] = withdrawn[key]


_NO_LIMITS: dict[str, Any] = dict.fromkeys(LIMITS)


def _types(spec: Any) -> tuple[str, ...]:
    return tuple(spec.types)


def _grants(cell: Cell) -> bool:
    return cell.tool_result != "error" or bool(cell.user_sources)


def shapes(row: Row) -> bool:
    """Whether a model row changes cells or layout (a row that only names a token family,
    cache facts or its tools' schema rules does not)."""
    return bool(row.media) or any(
        getattr(row, k) is not None for k in _LAYOUT if k not in _NOT_SHAPING
    )


#: Row facts that change neither cells nor the layout of messages.
_NOT_SHAPING = ("token_family", "cache", "tool_schema", "reasoning_replay", "text_parts")


def _apply(cells: dict[str, Cell], spec: Any, where: str) -> None:
    """Merge one TOML cell over the cells its types have: only the fields it names (and those
    it clears) change; its types that end with the same fields share one Cell."""
    changes = _changes(spec)
    bases: dict[int, tuple[Cell | None, list[str]]] = {}
    for media_type in spec.types:
        base = cells.get(media_type)
        bases.setdefault(id(base), (base, []))[1].append(media_type)
    merged: dict[tuple[Any, ...], list[str]] = {}
    for base, types in bases.values():
        values = {**(_values(base) if base else _CELL_DEFAULTS), **changes}
        if "tool_result" not in values:
            raise CapabilityError(
                f"{where}: {types[0]} has no cell to change yet: name its tool_result "
                f"(one of {', '.join(MODES)})"
            )
        merged.setdefault(tuple(values[k] for k in _CELL_FIELDS), []).extend(types)
    for values_key, types in merged.items():
        ordered = tuple(t for t in spec.types if t in types)
        cell = Cell(ordered, **dict(zip(_CELL_FIELDS, values_key, strict=True)))
        cells.update(dict.fromkeys(ordered, cell))


@cache
def _changes(spec: Any) -> dict[str, Any]:
    """The fields a TOML cell names, and None for the limits it clears."""
    changes = {k: v for k in _CELL_FIELDS if (v := getattr(spec, k)) is not None}
    return {**changes, **dict.fromkeys(spec.clear)}


def _values(cell: Cell) -> dict[str, Any]:
    return {k: getattr(cell, k) for k in _CELL_FIELDS}


def _names(patterns: tuple[str, ...], model_id: str) -> bool:
    lowered = model_id.lower()
    return any(_glob_matches(lowered, pattern.lower()) for pattern in patterns)


def _glob_matches(model_id: str, pattern: str) -> bool:
    """fnmatch, except that a glob ending in a letter or digit then ``*`` names a family: the
    name itself or the name, a separator and anything ("gpt-5*" matches gpt-5, gpt-5-mini,
    gpt-5.1 and gpt-5@x, not gpt-5o; "gemma3*" matches gemma3:4b, not gemma3n)."""
    if len(pattern) > 1 and pattern.endswith("*") and pattern[-2].isalnum():
        name = pattern[:-1]
        return fnmatch.fnmatchcase(model_id, name) or fnmatch.fnmatchcase(
            model_id, name + _SEPARATORS + "*"
        )
    return fnmatch.fnmatchcase(model_id, pattern)


#: What may follow a family's name in a model id (a glob character class).
_SEPARATORS = "[-.:@/_]"


def _row_matches(row: Row, model_id: str, version: float | None) -> bool:
    if not _names(row.match, model_id):
        return False
    return row.min_version is None or (version is not None and version >= row.min_version)


def _version(pattern: str | None, model_id: str) -> float | None:
    if not pattern:
        return None
    found = re.search(pattern, model_id.lower())
    return float(found.group(1)) if found else None


def with_cell(caps: Capabilities, media_type: str, **changes: Any) -> Capabilities:
    """A copy of ``caps`` with one media type's cell changed (for tests and tools)."""
    cell = caps.cells.get(media_type) or Cell(media_types=(media_type,), tool_result="error")
    return replace(caps, cells={**caps.cells, media_type: replace(cell, **changes)})


# --- loading ---------------------------------------------------------------------------------


@cache
def _package() -> Table:
    text = resources.files("toolwire").joinpath("capabilities.toml").read_text("utf-8")
    return load_table("capabilities.toml", tomllib.loads(text))


@cache
def _table() -> dict[str, Target]:
    table = dict(_package().targets)
    path = os.environ.get("TOOLWIRE_CAPABILITIES")
    if path:
        for name, target in _load_override_file(path).targets.items():
            if name in table:
                table[name] = _merge_target(table[name], target, f"TOOLWIRE_CAPABILITIES={path}")
            elif target.wire is None:
                raise CapabilityError(
                    f"TOOLWIRE_CAPABILITIES={path} targets.{name}: a new target needs 'wire' "
                    f"({one_of_wires()}); known targets: {', '.join(sorted(table))}."
                    f"{suggest(name, table)}"
                )
            else:
                table[name] = target
    return table


def _load_override_file(path: str) -> Table:
    try:
        with open(path, "rb") as fh:
            data = tomllib.load(fh)
    except OSError as exc:
        raise CapabilityError(f"TOOLWIRE_CAPABILITIES={path}: cannot read ({exc})") from exc
    except tomllib.TOMLDecodeError as exc:
        raise CapabilityError(f"TOOLWIRE_CAPABILITIES={path}: invalid TOML ({exc})") from exc
    return load_table(f"TOOLWIRE_CAPABILITIES={path}", data, _package().groups)


def _merge_target(base: Target, extra: Target, label: str) -> Target:
    """Override fields replace; the override's cells (whole cells, as a target's are) and its
    layout fields become a row matching every model, placed after the package's rows (last
    match wins), followed by the override's own rows.

    Without that row, a package row matching the model (Gemini >= 3, Claude on Bedrock) would
    be applied after the override's cells and silently undo them.
    """
    fields = {k: getattr(extra, k) for k in extra.model_fields_set - {"media", "models"}}
    layout = {k: v for k in (*_LAYOUT, *BUDGET_FIELDS) if (v := getattr(extra, k)) is not None}
    rows = list(base.models)
    if extra.media or layout:
        whole = tuple(whole_cell(spec) for spec in extra.media)
        rows.append(Row(label=f"override ({label})", match=("*",), media=whole, **layout))
    rows.extend(extra.models)
    return base.model_copy(update={**fields, "models": tuple(rows)})
