"""`toolwire render FILE… --model M`: the request a model would get if a tool returned files.

With FILEs the conversation is fixed (a user asks, the assistant calls ``read_files``, the
tool returns the files), so what varies is only what the target does with each file. With
``--conversation FILE.json`` a stored conversation (a JSON list of messages, as
``tw.dump_conversation`` writes it) is rendered instead.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import asdict
from pathlib import Path
from typing import Annotated, Any, Literal

import typer

from .app import app

#: Base64 (or data-URL) strings longer than this are shortened unless --full.
SHORTEN_OVER = 80
#: The decisions table: header -> key of each decision row.
COLUMNS = {
    "file": "identifier",
    "media type": "media_type",
    "mode": "mode",
    "tokens": "tokens",
    "reason": "reason",
    "notes": "notes",
}
_BASE64 = re.compile(r"(data:[\w.+/-]+;base64,)?([A-Za-z0-9+/_-]+={0,2})")  # std or url-safe


@app.command()
def render(
    model: Annotated[str, typer.Option("--model", "-m", help="provider:model-id")],
    files: Annotated[
        list[Path] | None, typer.Argument(help="Files the tool returns.", show_default=False)
    ] = None,
    conversation_file: Annotated[
        Path | None,
        typer.Option("--conversation", help="A stored conversation (JSON list of messages)."),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON for machines.")] = False,
    full: Annotated[bool, typer.Option("--full", help="Do not shorten base64.")] = False,
    on_unsupported: Annotated[
        Literal["error", "text"], typer.Option(help="What to do with files no route carries.")
    ] = "error",
) -> None:
    """Show the request MODEL would get if a tool returned FILES (or for a stored
    --conversation), and each file's decision."""
    with clean_errors():
        report = _report(messages_from(files, conversation_file), model, on_unsupported, full)
    if as_json:
        typer.echo(json.dumps(report, indent=2, ensure_ascii=False))
    else:
        _print(report["kwargs"], report["decisions"], report["estimated_tokens"])


def messages_from(files: list[Path] | None, conversation_file: Path | None) -> list[Any]:
    """The conversation FILEs make, or the stored --conversation; exactly one must be given
    (else exit code 2, as for any other usage error)."""
    if bool(files) == (conversation_file is not None):
        typer.echo("give either FILE… or --conversation FILE.json", err=True)
        raise typer.Exit(2)
    return load(conversation_file) if conversation_file else conversation(files or [])


@contextmanager
def clean_errors() -> Iterator[None]:
    """End the command on a ToolwireError with its message and exit code 1: the message
    says what to do, a traceback would only bury it."""
    from ..errors import ToolwireError

    try:
        yield
    except ToolwireError as exc:
        typer.echo(str(exc), err=True)
        raise typer.Exit(1) from exc


def _report(
    messages: list[Any], model: str, on_unsupported: Literal["error", "text"], full: bool
) -> dict[str, Any]:
    """The request MODEL gets, each file's decision with its estimated tokens, and the total."""
    from ..request import encode
    from ..tokens import estimate_tokens

    request = encode(messages, model, on_unsupported=on_unsupported)
    estimate = estimate_tokens(messages, model)
    tokens = estimate.for_decisions(request.decisions)
    decisions = [{**asdict(d), "tokens": t} for d, t in zip(request.decisions, tokens, strict=True)]
    kwargs = request.to_json()
    return {
        "model": model,
        "kwargs": kwargs if full else shorten(kwargs),
        "decisions": decisions,
        "estimated_tokens": estimate.total,
    }


def load(path: Path) -> list[Any]:
    """A stored conversation; unreadable or invalid JSON is a ToolwireError naming the file."""
    from pydantic import ValidationError

    from ..errors import ToolwireError
    from ..messages import load_conversation

    try:
        return load_conversation(path.read_bytes())
    except OSError as exc:
        raise ToolwireError(f"{path}: cannot read ({exc.strerror})") from exc
    except ValidationError as exc:
        raise ToolwireError(
            f"{path}: not a toolwire conversation ({exc.error_count()} errors):\n{exc}"
        ) from exc


def conversation(paths: list[Path]) -> list[Any]:
    """User "Please use the tool." → one ``read_files`` call → its result: the files, in order."""
    from ..content import File, ToolCall
    from ..messages import Assistant, ToolResult, User

    files = [File.from_path(path, name=path.name) for path in paths]
    call = ToolCall(id="call_1", name="read_files", arguments={"paths": [str(p) for p in paths]})
    return [
        User("Please use the tool."),
        Assistant([call]),
        ToolResult.of(call.id, call.name, files),
    ]


def shorten(value: Any) -> Any:
    """A copy of JSON data with long base64 strings replaced by ``<1234 base64 chars>``."""
    if isinstance(value, dict):
        return {key: shorten(item) for key, item in value.items()}
    if isinstance(value, list):
        return [shorten(item) for item in value]
    if isinstance(value, str) and len(value) > SHORTEN_OVER:
        found = _BASE64.fullmatch(value)
        if found:
            return f"{found.group(1) or ''}<{len(found.group(2))} base64 chars>"
    return value


def _print(kwargs: dict[str, Any], decisions: list[dict[str, Any]], total: int) -> None:
    from rich.console import Console
    from rich.table import Table

    console = Console()
    console.print_json(data=kwargs)
    table = Table(*COLUMNS, title=f"Decisions (request ≈ {total:,} tokens, estimated)")
    for decision in decisions:
        table.add_row(*(_cell(decision[field]) for field in COLUMNS.values()))
    console.print(table)


def _cell(value: Any) -> str:
    return "; ".join(map(str, value)) if isinstance(value, list | tuple) else str(value)
