"""docs/capabilities.md, written from the package's capabilities.toml (`toolwire matrix --markdown`).

The page is generated so that it cannot drift from the table: tests/test_cli_capability_docs.py
fails when the committed page differs from ``markdown()``. It documents the package file only:
with a ``TOOLWIRE_CAPABILITIES`` override set it refuses, so one table always gives one page.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from ..errors import CapabilityError

if TYPE_CHECKING:
    from ..capability import Capabilities
    from ..capability_schema import Cell, Row

#: The regeneration command, named in the page and in the drift test's failure message.
COMMAND = "toolwire matrix --markdown > docs/capabilities.md"
_MODES = {
    "native": "N native",
    "sibling": "S sibling",
    "fallback": "F fallback",
    "error": "E error",
}
_PLACEMENTS = {
    "merge": "in the same message as the tool results, after them",
    "message": "in a separate user message right after the tool results",
    "turn": "in a separate user message, after a minimal assistant message",
}
_HEADER = """\
# What each provider accepts

<!-- Generated from src/toolwire/capabilities.toml by `{command}`. Do not edit by hand. -->

toolwire decides where every file of a tool result goes from one table,
`src/toolwire/capabilities.toml`. This page shows that table whole. For each target it gives,
per group of media types, the **position** a file takes when a tool returns it and whether a
**user message** can carry it, with the sources each position accepts, the limits toolwire
enforces, and the evidence behind the cell.

Positions in a tool result:

- **N native**: inside the provider's tool-result object.
- **S sibling**: in the same provider message as the tool results, after all of them, labelled.
- **F fallback**: the tool result says `See file <id>.` and a labelled user message after the
  turn carries the file.
- **E error**: no route. `encode` raises `UnsupportedContentError` naming the file, or with
  `on_unsupported="text"` sends its text description instead.

Sources: `bytes` (inline, a path, a stored blob), `url` (http/https), `s3`, `gcs`, `file_id`
(a file uploaded to that provider). Model rows apply in file order on top of a target's
defaults, field by field: a row changes only the fields it names, and for each field the last
matching row wins; each row below is shown applied alone on the defaults. Rows that only pick
the token formulas (`token_family`) are not shown. A model the table does not know
gets its provider's defaults, the safe choice. Change any cell for your own models with
`encode(..., capabilities=...)` or a TOML file named by `TOOLWIRE_CAPABILITIES`.

Every evidence string names a source: a documentation URL, a doc page by its quoted title, an
SDK or botocore type, or a recorded answer of the real API. Where the evidence is unverified the
cell takes the safe route: fallback over native, an error over sending a file the model cannot
read.
"""


def markdown() -> str:
    """The whole page: the header, an overview grid, then every target's cells and model rows."""
    if os.environ.get("TOOLWIRE_CAPABILITIES"):
        raise CapabilityError(
            "the page documents the package's own table, but TOOLWIRE_CAPABILITIES="
            f"{os.environ['TOOLWIRE_CAPABILITIES']} changes it: unset it and run `{COMMAND}` again."
        )
    from ..capability import providers

    parts = [_HEADER.format(command=COMMAND), _overview()]
    parts += [_target(name) for name in providers()]
    return "\n".join(parts)


def _overview() -> str:
    from ..capability import providers, variants
    from .matrix import KINDS, grid_row

    lines = [
        "## Overview",
        "",
        "One representative media type per kind, in a tool result. Each model row is shown "
        "applied alone on top of its target's defaults.",
        "",
        _row(["target", "model row", *KINDS]),
        _row(["---"] * (2 + len(KINDS))),
    ]
    for provider in providers():
        for caps in variants(provider):
            grid = grid_row(caps)
            lines.append(_row([provider, grid["row"] or "(defaults)", *(grid[k] for k in KINDS)]))
    return "\n".join(lines) + "\n"


def _target(name: str) -> str:
    from ..capability import shapes, target_spec, variants

    target, found = target_spec(name), variants(name)
    facts = [
        f"wire `{target.wire}`",
        f"install `toolwire[{target.extra or name}]`",
        f"fallback files go {_PLACEMENTS[target.followup or 'message']}",
        f"error flag on tool results: {'yes' if target.error_status else 'no'}",
    ]
    if target.file_ids:
        facts.append(f"takes file ids uploaded to `{target.file_ids}`")
    parts = [f"## {name}\n", "; ".join(facts) + ".\n", "### Defaults (any model)\n"]
    parts.append(_cells(_distinct(found[0], [t for c in target.media for t in c.types])))  # type: ignore[attr-defined]
    for row, caps in zip([r for r in target.models if shapes(r)], found[1:], strict=True):
        types = [t for c in row.media for t in c.types]  # type: ignore[attr-defined]
        parts += [_row_heading(row), _cells(_distinct(caps, types))]
    return "\n".join(parts)


def _distinct(caps: Capabilities, types: list[str]) -> list[Cell]:
    """The cells of ``types`` in ``caps``, each once, in order."""
    cells: dict[int, Cell] = {}
    for media_type in types:
        cell = caps.cells[media_type]
        cells.setdefault(id(cell), cell)
    return list(cells.values())


def _row_heading(row: Row) -> str:
    label = row.label or ", ".join(row.match)
    patterns = ", ".join(f"`{p}`" for p in row.match)
    since = f", version {row.min_version:g} or later" if row.min_version is not None else ""
    keys = ("followup", "user_after_tool", "error_status", "thought_signatures")
    changed = [f"{k} `{str(getattr(row, k)).lower()}`" for k in keys if getattr(row, k) is not None]
    extra = f" Also sets {', '.join(changed)}." if changed else ""
    return f"### Row: {label}\n\nModels matching {patterns}{since}.{extra}\n"


def _cells(cells: list[Cell]) -> str:
    head = ["media types", "in a tool result", "tool-result sources", "user message sources"]
    lines = [_row([*head, "limits", "evidence"]), _row(["---"] * 6)]
    for cell in cells:
        in_result = cell.tool_result in ("native", "sibling")
        lines.append(
            _row(
                [
                    ", ".join(cell.media_types),
                    _MODES[cell.tool_result],
                    ", ".join(cell.tool_sources) if in_result else "-",
                    ", ".join(cell.user_sources) or "none",
                    _limits(cell),
                    cell.evidence,
                ]
            )
        )
    return "\n".join(lines) + "\n"


def _limits(cell: Cell) -> str:
    found = []
    if cell.max_bytes:
        found.append(f"at most {cell.max_bytes / 1048576:g} MiB")
    if cell.max_edge:
        found.append(f"at most {cell.max_edge} px a side")
    if cell.max_pixels:
        found.append(f"at most {cell.max_pixels:,} px")
    if cell.fit_edge:
        found.append(f"fitted to {cell.fit_edge} px")
    if cell.fit_short_edge:
        found.append(f"short side {cell.fit_short_edge} px")
    if cell.max_count:
        found.append(f"{cell.max_count} per request")
    return "; ".join(found) or "-"


def _row(cells: list[str]) -> str:
    return "| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |"
