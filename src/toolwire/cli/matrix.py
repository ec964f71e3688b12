"""`toolwire matrix [--model M] [--markdown]`: the capability table, for every target, a provider,
or a model.

The grid shows what each target does with a file in a tool result — N native, S sibling,
F fallback (a labelled user message), E error (no route) — for one representative media type
per kind; ``--model provider:model-id`` shows every media type for that model, with limits and
the evidence behind each cell.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Annotated, Any

import typer

from .app import app

if TYPE_CHECKING:
    from ..capability import Capabilities

#: Grid columns: kind -> the media type that stands for it.
KINDS = {
    "image": "image/png",
    "PDF": "application/pdf",
    "text": "text/plain",
    "audio": "audio/wav",
    "video": "video/mp4",
}
LETTERS = {"native": "N", "sibling": "S", "fallback": "F", "error": "E"}
_IN_RESULT = ("native", "sibling")  # the modes whose tool_sources matter


@app.command()
def matrix(
    model: Annotated[
        str | None,
        typer.Option("--model", "-m", help="provider:model-id, or a provider for its rows."),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON for machines.")] = False,
    as_markdown: Annotated[
        bool, typer.Option("--markdown", help="Print the whole table as docs/capabilities.md.")
    ] = False,
) -> None:
    """Print what each target does with files in tool results (N native, S sibling, F fallback, E error).

    Without --model: every target and model family. --model PROVIDER: its rows and the evidence.
    --model PROVIDER:MODEL: that model's cells per media type, with sources, limits and evidence.
    --markdown: the package's whole table as Markdown (the repository's docs/capabilities.md).
    """
    from ..capability import capabilities, providers, variants
    from ..errors import ToolwireError

    one_model = bool(model and ":" in model)
    try:
        if as_markdown:
            from .capability_docs import markdown

            return typer.echo(markdown(), nl=False)
        if one_model:
            rows = model_rows(capabilities(str(model)))
        else:
            rows = [grid_row(c) for p in ([model] if model else providers()) for c in variants(p)]
    except ToolwireError as exc:
        typer.echo(str(exc), err=True)
        raise typer.Exit(1) from exc
    if as_json:
        typer.echo(json.dumps(rows, indent=2, ensure_ascii=False))
    elif one_model:
        _print_model(rows)
    else:
        _print_grid(rows, with_evidence=bool(model))


def grid_row(caps: Capabilities) -> dict[str, Any]:
    """One line of the grid: the target (and model row), a letter and evidence per kind."""
    row: dict[str, Any] = {"target": caps.provider, "row": ", ".join(caps.rows) or None}
    evidence = {}
    for kind, media_type in KINDS.items():
        cell = caps.cell(media_type)
        row[kind] = LETTERS[cell.tool_result] if cell else "E"
        evidence[kind] = cell.evidence if cell else f"no cell for {media_type}"
    return {**row, "evidence": evidence}


def model_rows(caps: Capabilities) -> list[dict[str, Any]]:
    """One line per media type the model's table knows, with the rows applied."""
    from ..capability_schema import LIMITS

    return [
        {
            "media_type": media_type,
            "tool_result": cell.tool_result,
            "tool_sources": list(cell.tool_sources) if cell.tool_result in _IN_RESULT else [],
            "user_sources": list(cell.user_sources),
            "limits": {k: getattr(cell, k) for k in LIMITS if getattr(cell, k) is not None},
            "evidence": cell.evidence,
            "rows": list(caps.rows),
        }
        for media_type, cell in sorted(caps.cells.items(), key=lambda item: _order(item[0]))
    ]


def _order(media_type: str) -> tuple[int, str]:
    kinds = ("image", "application", "text", "audio", "video")
    top = media_type.split("/", 1)[0]
    return (kinds.index(top) if top in kinds else len(kinds), media_type)


def _print_model(rows: list[dict[str, Any]]) -> None:
    from rich.console import Console
    from rich.table import Table

    applied = ", ".join(rows[0]["rows"]) if rows else ""
    title = f"Model rows applied: {applied or 'none (the provider defaults)'}"
    headers = ("media type", "tool result", "tool sources", "user sources", "limits", "evidence")
    table = Table(*headers, title=title)
    for r in rows:
        limits = ", ".join(f"{k}={v}" for k, v in r["limits"].items())
        sources = (", ".join(r["tool_sources"]) or "-", ", ".join(r["user_sources"]) or "-")
        table.add_row(r["media_type"], r["tool_result"], *sources, limits, r["evidence"])
    Console().print(table)


def _print_grid(rows: list[dict[str, Any]], with_evidence: bool) -> None:
    from rich.console import Console
    from rich.table import Table

    console = Console()
    table = Table("target", "row", *KINDS, title="N native · S sibling · F fallback · E error")
    evidence = Table("target", "row", "kind", "", "evidence", title="Evidence")
    for r in rows:
        table.add_row(r["target"], r["row"] or "(defaults)", *(r[k] for k in KINDS))
        for kind in KINDS:
            evidence.add_row(
                r["target"], r["row"] or "(defaults)", kind, r[kind], r["evidence"][kind]
            )
    console.print(table)
    if with_evidence:
        console.print(evidence)
