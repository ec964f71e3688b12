"""`toolwire read FILE`: what read_file gives a model for one file."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer

from .app import app
from .render import shorten


@app.command()
def read(
    file: Annotated[Path, typer.Argument(help="The file to read.")],
    page_start: Annotated[int, typer.Option(help="PDFs: first page, from 0.")] = 0,
    page_end: Annotated[int | None, typer.Option(help="PDFs: page to stop before.")] = None,
    offset: Annotated[int, typer.Option(help="Text and tables: first line or row, from 0.")] = 0,
    limit: Annotated[int | None, typer.Option(help="Text and tables: lines or rows.")] = None,
    root: Annotated[Path | None, typer.Option(help="Refuse files outside this directory.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the ToolOutput as JSON.")] = False,
    full: Annotated[bool, typer.Option(help="With --json: keep file bytes whole.")] = False,
) -> None:
    """Read FILE as the read_file tool would: the text parts, then one line per file."""
    import toolwire as tw

    try:  # FILE is a shell path: relative to the working directory, not to --root
        result = tw.read_file(
            file.absolute(),
            root=root,
            page_start=page_start,
            page_end=page_end,
            offset=offset,
            limit=limit,
        )
    except tw.ToolwireError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(1) from exc
    if as_json:
        dumped = result.model_dump(mode="json")
        typer.echo(json.dumps(dumped if full else shorten(dumped), indent=2, ensure_ascii=False))
        return
    _print(result)


def _print(result: Any) -> None:
    """Text parts as they are, then a line per File: identifier, media type, size."""
    from rich.console import Console

    import toolwire as tw

    console = Console(highlight=False, soft_wrap=True)
    for part in result.value:
        if isinstance(part, tw.File):
            line = f"[file] {part.identifier}  {part.media_type}  {len(part.read()):,} bytes"
            console.print(line, style="bold cyan", markup=False)
        elif isinstance(part, tw.Text):
            console.print(part.text, markup=False)
