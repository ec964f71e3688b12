"""`toolwire tokens FILE… --model M`: what files cost a model when a tool returns them.

The conversation is the one ``toolwire render`` shows (a user asks, the assistant calls
``read_files``, the tool returns the files), so the two commands agree.
"""

from __future__ import annotations

import json
from dataclasses import asdict
from pathlib import Path
from typing import Annotated

import typer

from .app import app
from .render import conversation


@app.command()
def tokens(
    files: Annotated[list[Path], typer.Argument(help="Files the tool returns.")],
    model: Annotated[str, typer.Option("--model", "-m", help="provider:model-id")],
    detail: Annotated[str, typer.Option(help="OpenAI image detail: auto, low or high.")] = "auto",
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON for machines.")] = False,
) -> None:
    """Estimate the input tokens MODEL spends on FILES returned by a tool, file by file."""
    from rich.console import Console
    from rich.table import Table

    from ..errors import ToolwireError
    from ..tokens import estimate_tokens

    try:
        estimate = estimate_tokens(conversation(files), model, detail=detail)
    except ToolwireError as exc:
        typer.echo(str(exc), err=True)
        raise typer.Exit(1) from exc
    if as_json:
        typer.echo(json.dumps(asdict(estimate), indent=2, ensure_ascii=False))
        return
    table = Table("file", "kind", "mode", "tokens", "formula", "working", title=estimate.family)
    for f in estimate.files:
        table.add_row(f.identifier, f.kind, f.mode, f"{f.tokens:,}", f.formula, f.working)
    table.add_row("total", "", "", f"{estimate.total:,}", "with the messages around the files", "")
    Console().print(table)
