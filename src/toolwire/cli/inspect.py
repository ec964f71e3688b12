"""`toolwire inspect FILE…`: what toolwire sees in each file before any model is involved."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.text import Text

from .app import app


@app.command("inspect")
def inspect_files(
    paths: Annotated[list[Path], typer.Argument(metavar="FILE", help="Files to inspect.")],
    as_json: Annotated[bool, typer.Option("--json", help="Machine-readable JSON output.")] = False,
) -> None:
    """Show each file's media type, kind, identifier, size and text fallback.

    Unreadable files are reported on stderr and make the exit code 1; the others are shown.
    """
    import toolwire as tw

    reports, failed = [], False
    for path in paths:
        try:
            reports.append(_describe(tw.File.from_path(path), path))
        except tw.ToolwireError as exc:
            failed = True
            typer.echo(f"error: {' '.join(str(exc).split())}", err=True)
    if as_json:
        typer.echo(json.dumps(reports, indent=2, ensure_ascii=False))
    else:
        _print(reports)
    if failed:
        raise typer.Exit(1)


def _describe(file: Any, path: Path) -> dict[str, Any]:
    return {
        "path": str(path),
        "media_type": file.media_type,
        "kind": file.kind,
        "identifier": file.identifier,
        "size": len(file.read()),
        "text_fallback": file.text_fallback(),
    }


def _print(reports: list[dict[str, Any]]) -> None:
    console = Console(soft_wrap=True, highlight=False)
    for report in reports:
        console.print(Text(report["path"], style="bold"))
        for label, key in (
            ("media type", "media_type"),
            ("kind", "kind"),
            ("identifier", "identifier"),
        ):
            console.print(Text.assemble(f"  {label:<11}", (report[key], "cyan")))
        console.print(Text(f"  {'size':<11}{report['size']:,} bytes"))
        console.print(Text(f"  {'fallback':<11}{report['text_fallback'].splitlines()[0]}"))
