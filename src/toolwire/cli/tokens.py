"""`toolwire tokens FILE… --model M`: what files cost a model when a tool returns them.

The conversation is the one ``toolwire render`` shows (a user asks, the assistant calls
``read_files``, the tool returns the files), or a stored one with ``--conversation
FILE.json``, so the two commands agree.
"""

from __future__ import annotations

import json
from dataclasses import asdict
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Literal

import typer

from .app import app
from .render import ModelOption, TrustOption, clean_errors, messages_from, notice_defaults

if TYPE_CHECKING:
    from rich.table import Table

    from ..tokens import TokenEstimate


@app.command()
def tokens(
    model: ModelOption,
    files: Annotated[list[Path] | None, typer.Argument(help="Files the tool returns.")] = None,
    conversation_file: Annotated[
        Path | None, typer.Option("--conversation", help="A stored conversation (JSON).")
    ] = None,
    detail: Annotated[
        Literal["auto", "low", "high"], typer.Option(help="OpenAI image detail: auto, low or high.")
    ] = "auto",
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON for machines.")] = False,
    trust: TrustOption = [],  # noqa: B006 (typer reads the default; it is never changed)
) -> None:
    """Estimate the input tokens MODEL spends on FILES returned by a tool (or on a stored
    --conversation), file by file."""
    from rich.console import Console

    from ..tokens import estimate_tokens

    with clean_errors():
        messages = messages_from(files, conversation_file, trust)
        notice_defaults(model)
        estimate = estimate_tokens(messages, model, detail=detail)
    if as_json:
        typer.echo(json.dumps(asdict(estimate), indent=2, ensure_ascii=False))
    else:
        Console().print(_table(estimate))


def _table(estimate: TokenEstimate) -> Table:
    """One row per file (message, formula and working), then the request's total."""
    from rich.table import Table

    table = Table(
        "#", "file", "kind", "mode", "tokens", "formula", "working", title=estimate.family
    )
    for f in estimate.files:
        row = (str(f.message_index), f.identifier, f.kind, f.mode, f"{f.tokens:,}", f.formula)
        table.add_row(*row, f.working)
    table.add_section()
    table.add_row("", "total", "", "", f"{estimate.total:,}", "files and messages", "")
    return table
