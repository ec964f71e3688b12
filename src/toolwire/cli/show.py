"""`toolwire show SESSION_ID|CONV.json --model M [--model M2] [--follow]`: the terminal view of
what each model receives (``toolwire.tui.SessionApp``, the ``tui`` extra)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any, Literal

import typer

from .app import app
from .render import TrustOption, clean_errors, load, notice_defaults
from .sessions import DEFAULT_STORE, Blobs, open_store
from .view import ViewOnUnsupported

#: ``--images``: how pictures are drawn (``toolwire.tui.widgets.Images`` less "off").
Drawing = Literal["auto", "kitty", "sixel", "halfblock"]


@app.command()
def show(
    source: Annotated[
        str,
        typer.Argument(
            metavar="SESSION_ID|CONV.json",
            help="A session of the store, or a conversation JSON file (a path that exists).",
        ),
    ],
    models: Annotated[
        list[str],
        typer.Option("--model", "-m", help="provider:model-id; repeat to compare (key t)."),
    ],
    store: Annotated[
        str | None,
        typer.Option(
            "--store",
            envvar="TOOLWIRE_STORE",
            metavar="DIR|URL",
            help="The SessionStore holding SESSION_ID: a directory or a postgresql:// URL "
            "(default .toolwire, or $TOOLWIRE_STORE).",
            show_default=False,
        ),
    ] = None,
    blobs: Blobs = None,
    follow: Annotated[
        bool, typer.Option("--follow", "-f", help="Show new messages as they are stored.")
    ] = False,
    no_images: Annotated[
        bool, typer.Option("--no-images", help="Describe images and pages instead of drawing.")
    ] = False,
    images: Annotated[
        Drawing,
        typer.Option(
            "--images",
            help="How to draw pictures: the terminal's graphics protocol if it has one (auto), "
            "Kitty's or Sixel whatever it says (e.g. through tmux), or half blocks.",
        ),
    ] = "auto",
    on_unsupported: ViewOnUnsupported = "text",
    trust: TrustOption = [],  # noqa: B006 (typer reads the default; it is never changed)
) -> None:
    """Browse a conversation or a stored session as each MODEL receives it, in the terminal:
    messages, files with their decisions, thinking, tokens and bytes per turn (q quits)."""
    with clean_errors():
        drawing = "off" if no_images else images
        shown = _app(source, models, store, blobs, follow, drawing, on_unsupported, trust)
    shown.run()


def _app(
    source: str,
    models: list[str],
    store: str | None,
    blobs: str | None,
    follow: bool,
    images: Literal["auto", "kitty", "sixel", "halfblock", "off"],
    on_unsupported: Literal["error", "convert", "text"],
    trust: list[str],
) -> Any:
    """The app for SOURCE: a conversation file (a path ending .json, without --store) or a
    session of the store; everything that can fail fails here, before the screen opens."""
    from ..errors import MissingDependencyError, ToolwireError

    try:
        from ..tui import Conversation, SessionApp, StoredSession
    except ImportError as exc:
        raise MissingDependencyError(
            f"toolwire show needs the tui extra ({exc.name} is missing): "
            "pip install 'toolwire[tui]'"
        ) from exc
    path = Path(source)
    if store is None and path.suffix == ".json":
        if follow:
            raise ToolwireError("--follow reads a session store: pass a session id and --store")
        if not path.is_file():
            raise ToolwireError(f"{source}: no such conversation file")
        feed: Any = Conversation(load(path, trust), path.name)
    else:
        feed = StoredSession(open_store(store or DEFAULT_STORE, blobs), source)
    for model in models:
        notice_defaults(model)
    return SessionApp(feed, models, images=images, follow=follow, on_unsupported=on_unsupported)
