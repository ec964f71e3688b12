"""`toolwire sessions list|show ID|render ID --model M|copy SRC DST`: look into a SessionStore."""

from __future__ import annotations

import contextlib
import dataclasses
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from .app import app
from .render import ModelOption, OnUnsupportedOption, cli_message, notice_defaults

sessions = typer.Typer(
    help="Stored conversations: list them, show one, render one for a model, or copy them.",
    no_args_is_help=True,
)
app.add_typer(sessions, name="sessions")

#: Where ``toolwire sessions`` looks when neither --store nor TOOLWIRE_STORE names a store;
#: the docs' SessionStore example (docs/sessions.md) uses the same directory.
DEFAULT_STORE = str(Path(".toolwire"))
Store = Annotated[
    str,
    typer.Option(
        "--store",
        envvar="TOOLWIRE_STORE",
        metavar="DIR|URL",
        help="The SessionStore: a directory or a postgresql:// URL (default .toolwire, "
        "or $TOOLWIRE_STORE).",
        show_default=False,
    ),
]
Blobs = Annotated[
    str | None,
    typer.Option(
        "--blobs",
        envvar="TOOLWIRE_BLOBS",
        metavar="DIR|URL",
        help="Where the store keeps file bytes, e.g. s3://bucket/prefix (default: the store "
        "directory's blobs/, or $TOOLWIRE_BLOBS; required with postgresql://).",
        show_default=False,
    ),
]
AsJson = Annotated[bool, typer.Option("--json", help="Machine-readable JSON output.")]


@sessions.command("list")
def list_sessions(
    store: Store = DEFAULT_STORE, blobs: Blobs = None, as_json: AsJson = False
) -> None:
    """List the sessions in a store: messages, distinct files, their bytes, last update."""
    with _errors():
        infos = open_store(store, blobs).list_sessions()
    if as_json:
        typer.echo(json.dumps([dataclasses.asdict(i) for i in infos], indent=2))
        return
    table = Table("session", "messages", "files", "bytes", "updated")
    for i in infos:
        table.add_row(
            escape(_plain(i.id)), str(i.messages), str(i.files), f"{i.file_bytes:,}", i.updated_at
        )
    Console().print(table)


@sessions.command("show")
def show(
    session_id: str, store: Store = DEFAULT_STORE, blobs: Blobs = None, as_json: AsJson = False
) -> None:
    """Show a session's messages; files by name, media type and blob hash (bytes stay put)."""
    import toolwire as tw

    with _errors():
        messages = open_store(store, blobs).load(session_id)
    if as_json:
        typer.echo(tw.dump_conversation(messages, indent=2))
        return
    table = Table("#", "role", "content")
    for position, message in enumerate(messages):
        table.add_row(str(position), message.role, _summary(json.loads(message.model_dump_json())))
    Console().print(table)


@sessions.command("render")
def render(
    session_id: str,
    model: ModelOption,
    store: Store = DEFAULT_STORE,
    blobs: Blobs = None,
    on_unsupported: OnUnsupportedOption = "error",
    as_json: AsJson = False,
    text_fallbacks: Annotated[bool, typer.Option("--text-fallbacks", hidden=True)] = False,
) -> None:
    """Show the request a model would receive for this session, with a decision per file."""
    # --text-fallbacks: the hidden, deprecated spelling of --on-unsupported text.
    # From its module: once anything imports the submodule toolwire.request, the package
    # attribute `tw.encode` is that module rather than the function.
    from toolwire.request import encode

    with _errors():
        messages = open_store(store, blobs).load(session_id)
        notice_defaults(model)
        policy = "text" if text_fallbacks else on_unsupported
        request = encode(messages, model, on_unsupported=policy)
    decisions = [dataclasses.asdict(d) for d in request.decisions]
    if as_json:
        payload = {"model": model, "decisions": decisions, "kwargs": request.to_json()}
        typer.echo(json.dumps(payload, indent=2))
        return
    console = Console()
    console.print_json(json.dumps(_shorten(request.to_json())))
    console.print(_decision_table(decisions))


def _decision_table(decisions: list[dict[str, Any]]) -> Table:
    table = Table("message", "file", "media type", "mode", "reason")
    for d in decisions:
        row = (d["message_index"], d["identifier"], d["media_type"], d["mode"], d["reason"])
        table.add_row(*(escape(str(cell)) for cell in row))
    return table


@sessions.command("copy")
def copy(
    source: Annotated[str, typer.Argument(metavar="SRC", help="Directory or postgresql:// URL.")],
    target: Annotated[str, typer.Argument(metavar="DST", help="Directory or postgresql:// URL.")],
    blobs: Blobs = None,
    to_blobs: Annotated[
        str | None,
        typer.Option("--to-blobs", metavar="DIR|URL", help="DST's blob location (like --blobs)."),
    ] = None,
    session_ids: Annotated[
        list[str] | None,
        typer.Option("--session", "-s", help="Copy only this session (repeatable)."),
    ] = None,
) -> None:
    """Copy sessions (all by default) from store SRC to store DST, e.g. SQLite to PostgreSQL + S3.

    Blobs are read and verified from SRC, then written to DST (created if new).
    Nothing is copied when DST already holds one of the sessions.
    """

    with (
        _errors(),
        open_store(source, blobs) as src,
        open_store(target, to_blobs, "--to-blobs") as dst,
    ):
        copied = src.copy_to(dst, session_ids or None)
    typer.echo(f"copied {len(copied)} session(s): {', '.join(copied)}")


def open_store(store: str, blobs: str | None, flag: str = "--blobs") -> Any:
    """The store; one named only as a copy's DST (``flag`` --to-blobs) is created if new."""
    import toolwire as tw

    if blobs is None and store.startswith(("postgresql://", "postgres://")):
        raise tw.StoreError(
            f"{store}: a PostgreSQL store keeps file bytes elsewhere; pass {flag} "
            "s3://bucket/prefix (or a directory every worker shares)"
        )
    return tw.SessionStore(store, blobs=blobs, create=flag == "--to-blobs")


@contextlib.contextmanager
def _errors() -> Iterator[None]:
    """ToolwireErrors end the command with their message, not a traceback."""
    from toolwire.errors import ToolwireError

    try:
        yield
    except ToolwireError as exc:
        message = escape(_plain(cli_message(exc)))
        Console(stderr=True).print(f"[red]error:[/red] {message}", markup=True, highlight=False)
        raise typer.Exit(1) from exc


def _summary(data: dict[str, Any]) -> str:
    """One line per part: text (cut), tool calls, files by name, media type and source."""
    content = data.get("content", data.get("text", data.get("output")))
    if isinstance(content, dict):
        content = content.get("value", content.get("reason", content))
    if not isinstance(content, list):
        return escape(_plain(_cut(content if isinstance(content, str) else json.dumps(content))))
    return "\n".join(escape(_plain(_part_line(part))) for part in content)


def _part_line(part: dict[str, Any]) -> str:
    kind = part.get("type")
    if kind == "file":
        source = part["source"]
        where = source.get("sha256") or source.get("url") or source.get("file_id", "")
        return f"[file] {part.get('name') or ''} {part['media_type']} {where[:16]}"
    if kind == "tool_call":
        return _cut(f"[call {part['id']}] {part['name']}({json.dumps(part['arguments'])})")
    if kind == "thinking":
        return _cut(f"[thinking] {part['text']}")
    return _cut(part["text"] if kind == "text" else json.dumps(part.get("value")))


def _plain(text: str) -> str:
    """``text`` with terminal controls (ESC, BEL, CR, bidi overrides…) shown as escapes, so a
    stored or imported session cannot retitle, clear or rewrite the terminal it is shown in."""
    return "".join(
        c if c.isprintable() or c == "\n" else c.encode("unicode_escape").decode() for c in text
    )


def _cut(text: str, limit: int = 120) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _shorten(value: Any) -> Any:
    """Long strings (base64) cut for display; ``--json`` prints them whole."""
    if isinstance(value, str) and len(value) > 200:
        return f"{value[:60]}…({len(value):,} chars)"
    if isinstance(value, dict):
        return {k: _shorten(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_shorten(v) for v in value]
    return value
