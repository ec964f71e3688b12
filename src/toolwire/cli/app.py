"""The typer application every command module registers itself on."""

from __future__ import annotations

from typing import Annotated

import typer

app = typer.Typer(
    name="toolwire",
    help="Show what a model will actually receive when a tool returns files.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


def _print_version(value: bool) -> None:
    if value:
        from toolwire import __version__

        typer.echo(f"toolwire {__version__}")
        raise typer.Exit()


@app.callback()
def main(
    version: Annotated[
        bool,
        typer.Option(
            "--version", callback=_print_version, is_eager=True, help="Show the version and exit."
        ),
    ] = False,
) -> None:
    """Show what a model will actually receive when a tool returns files."""
