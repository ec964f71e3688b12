"""The typer application every command module registers itself on."""

from __future__ import annotations

import typer

app = typer.Typer(
    name="toolwire",
    help="Show what a model will actually receive when a tool returns files.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
