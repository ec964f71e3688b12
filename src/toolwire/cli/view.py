"""`toolwire view CONVERSATION.json --model M [--model M2 …] -o view.html`: see what each model
sees, as one self-contained HTML page (``tw.view``)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any, Literal

import typer

from .app import app
from .render import TrustOption, clean_errors, load, notice_defaults
from .sessions import Blobs, open_store

#: The view shows what it can: files no route carries appear as their text fallback.
ViewOnUnsupported = Annotated[
    Literal["error", "convert", "text"],
    typer.Option(
        "--on-unsupported",
        help="Files no route carries: text (show their text fallback), convert (show what they "
        "are converted to), or error (exit 1).",
    ),
]


@app.command()
def view(
    source: Annotated[
        str, typer.Argument(help="A conversation JSON file, or with --store a session id.")
    ],
    models: Annotated[
        list[str], typer.Option("--model", "-m", help="provider:model-id; repeat to compare.")
    ],
    output: Annotated[
        Path | None,
        typer.Option("--output", "-o", help="Write the page here (default: standard output)."),
    ] = None,
    store: Annotated[
        str | None,
        typer.Option(
            "--store",
            metavar="DIR|URL",
            help="Read SOURCE as a session of this store: a directory or a postgresql:// URL.",
        ),
    ] = None,
    blobs: Blobs = None,
    on_unsupported: ViewOnUnsupported = "text",
    trust: TrustOption = [],  # noqa: B006 (typer reads the default; it is never changed)
) -> None:
    """Write one self-contained HTML page showing a conversation (or a stored session) as each
    MODEL receives it: messages, files as sent, decisions, tokens and bytes per turn."""
    with clean_errors():
        if store is not None:
            with open_store(store, blobs) as sessions:
                messages = sessions.load(source)
        else:
            messages = load(Path(source), trust)
        write_view(messages, models, on_unsupported, output)


def write_view(
    messages: list[Any],
    models: list[str],
    on_unsupported: Literal["error", "convert", "text"],
    output: Path | None,
) -> None:
    """The page for ``models`` on standard output, or in OUTPUT (which stderr then names)."""
    import toolwire as tw

    from ..errors import ToolwireError

    for model in models:
        notice_defaults(model)
    page = tw.view(messages, models, on_unsupported=on_unsupported)
    if output is None:
        typer.echo(page, nl=False)
        return
    try:
        output.write_text(page, encoding="utf-8")
    except OSError as exc:
        raise ToolwireError(f"{output}: cannot write the page ({exc.strerror})") from exc
    typer.echo(f"wrote {output} ({len(page.encode()):,} bytes)", err=True)
