"""`toolwire render FILE… --model M`: the request a model would get if a tool returned files.

With FILEs the conversation is fixed (a user asks, the assistant calls ``read_files``, the
tool returns the files), so what varies is only what the target does with each file. With
``--conversation FILE.json`` a stored conversation (a JSON list of messages, as
``tw.dump_conversation`` writes it) is rendered instead.
"""

from __future__ import annotations

import json
import os
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
HTML_HELP = "Write the HTML view of what MODEL sees (as `toolwire view`) to PATH instead."
#: The target of every command that encodes for one model.
ModelOption = Annotated[str, typer.Option("--model", "-m", help="provider:model-id")]
#: One spelling of the text-fallback switch for every command that encodes.
OnUnsupportedOption = Annotated[
    Literal["error", "convert", "text"],
    typer.Option(
        "--on-unsupported",
        help="Files no route carries: error (exit 1), convert (to page images, text, frames "
        "or PNG/JPEG the model reads), or text (send their description).",
    ),
]
TrustOption = Annotated[
    list[str],
    typer.Option(
        "--trust",
        help="Sources a conversation file may carry, read with your own access: paths (local "
        "files), cloud (s3:// and gs:// objects), file-ids (provider file ids). Repeat for "
        "several; without it such a file is refused.",
    ),
]
_BASE64 = re.compile(r"(data:[\w.+/-]+;base64,)?([A-Za-z0-9+/_-]+={0,2})")  # std or url-safe


@app.command()
def render(
    model: ModelOption,
    files: Annotated[
        list[Path] | None, typer.Argument(help="Files the tool returns.", show_default=False)
    ] = None,
    conversation_file: Annotated[
        Path | None,
        typer.Option("--conversation", help="A stored conversation (JSON list of messages)."),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON for machines.")] = False,
    full: Annotated[bool, typer.Option("--full", help="Do not shorten base64.")] = False,
    on_unsupported: OnUnsupportedOption = "error",
    html: Annotated[Path | None, typer.Option("--html", metavar="PATH", help=HTML_HELP)] = None,
    trust: TrustOption = [],  # noqa: B006 (typer reads the default; it is never changed)
) -> None:
    """Show the request MODEL would get if a tool returned FILES (or for a stored
    --conversation), and each file's decision."""
    with clean_errors():
        messages = messages_from(files, conversation_file, trust)
        if html is not None:
            return _html(messages, model, on_unsupported, html)
        notice_defaults(model)
        report = _report(messages, model, on_unsupported, full)
    if as_json:
        typer.echo(json.dumps(report, indent=2, ensure_ascii=False))
    else:
        _print(report["kwargs"], report["decisions"], report["estimated_tokens"], report)


def _html(
    messages: list[Any], model: str, on_unsupported: Literal["error", "convert", "text"], html: Path
) -> None:
    """``--html``: the view of what MODEL sees."""
    from .view import write_view

    write_view(messages, [model], on_unsupported, html)


def messages_from(
    files: list[Path] | None, conversation_file: Path | None, trust: list[str] | None = None
) -> list[Any]:
    """The conversation FILEs make, or the stored --conversation (its sources held to
    ``trust``); exactly one must be given (else exit code 2, as for any other usage error)."""
    if bool(files) == (conversation_file is not None):
        typer.echo("give either FILE… or --conversation FILE.json", err=True)
        raise typer.Exit(2)
    if conversation_file:
        return load(conversation_file, trust or [])
    return conversation(files or [])


@contextmanager
def clean_errors() -> Iterator[None]:
    """End the command on a ToolwireError with its message and exit code 1: the message
    says what to do, a traceback would only bury it."""
    from ..errors import ToolwireError

    try:
        yield
    except ToolwireError as exc:
        typer.echo(cli_message(exc), err=True)
        raise typer.Exit(1) from exc


def cli_message(exc: Exception) -> str:
    """The error's message in the command line's words: its flags, not Python keywords."""
    from ..errors import UnsupportedContentError

    if isinstance(exc, UnsupportedContentError):
        option = "--on-unsupported text"
        return str(UnsupportedContentError(exc.model, exc.files, exc.accepted, option=option))
    return str(exc)


def notice_defaults(model: str) -> None:
    """Say on stderr, as one ``warning:`` line, when neither the capability table nor
    models.dev names MODEL: it then gets its provider's defaults, as a misspelt id would, and
    the line names the closest known ids. The library's ToolwireWarning is not shown twice."""
    import warnings

    from ..capability import capabilities, unknown_model_message
    from ..errors import ToolwireWarning

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ToolwireWarning)
        caps = capabilities(model)
    if caps.known is None:
        typer.echo(f"warning: {unknown_model_message(caps)}", err=True)


def model_known(model: str) -> dict[str, Any]:
    """For --json: which source names MODEL ("table", "models.dev" or null) and the warnings
    a reader of stderr would have seen (the unknown-model one, with the closest ids)."""
    from ..capability import capabilities, unknown_model_message

    caps = capabilities(model)  # resolved (and warned about) by notice_defaults already
    warned = [] if caps.known else [unknown_model_message(caps)]
    return {"known": caps.known, "warnings": warned}


def _report(
    messages: list[Any], model: str, on_unsupported: Literal["error", "convert", "text"], full: bool
) -> dict[str, Any]:
    """The request MODEL gets, each file's decision with its estimated tokens, and the total."""
    from ..request import encode
    from ..tokens import estimate_tokens

    request = encode(messages, model, on_unsupported=on_unsupported)
    priced: Literal["convert", "text"] = "convert" if on_unsupported == "convert" else "text"
    estimate = estimate_tokens(messages, model, on_unsupported=priced)
    tokens = estimate.for_decisions(request.decisions)
    decisions = [{**asdict(d), "tokens": t} for d, t in zip(request.decisions, tokens, strict=True)]
    kwargs = request.to_json()
    return {
        "model": model,
        **model_known(model),
        "kwargs": kwargs if full else shorten(kwargs),
        "decisions": decisions,
        "estimated_tokens": estimate.total,
        "wire_bytes": request.wire_bytes,
        "budgets_bound": request.budgets_bound,
    }


def load(path: Path, trust: list[str] | None = None) -> list[Any]:
    """A stored conversation; unreadable or invalid JSON is a ToolwireError naming the file.
    It is data from elsewhere: a file whose source is a local path, a cloud object or a
    provider file id is refused unless ``trust`` names that kind (``foreign.check``)."""
    from pydantic import ValidationError

    from ..errors import ToolwireError
    from ..foreign import check
    from ..messages import conversation, first_problem
    from ..store.trust import MAX_JSON_VALUES, values

    try:
        data = path.read_bytes()
        if values(data, MAX_JSON_VALUES) > MAX_JSON_VALUES:  # counted before it is parsed
            raise ToolwireError(
                f"{path}: holds more than {MAX_JSON_VALUES:,} JSON values; parsed, it would take "
                "far more memory than its text, so it is refused"
            )
        messages = conversation(data)
        check(messages, str(path), trust or [])
        return messages
    except OSError as exc:
        raise ToolwireError(f"{path}: cannot read ({exc.strerror})") from exc
    except ValidationError as exc:
        raise ToolwireError(f"{path}: {first_problem(exc, data)}") from exc


def conversation(paths: list[Path]) -> list[Any]:
    """User "Please use the tool." → one ``read_files`` call → its result: the files, in order."""
    from ..content import File, ToolCall
    from ..messages import Assistant, ToolResult, User

    files = [File.from_path(path) for path in paths]
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


#: The width of render's table when its output goes to a file or a pipe (no terminal to fit;
#: COLUMNS, where set, still wins).
PIPED_WIDTH = 200


def _print(
    kwargs: dict[str, Any], decisions: list[dict[str, Any]], total: int, report: dict[str, Any]
) -> None:
    from rich.console import Console
    from rich.table import Table

    console = Console()
    if not console.is_terminal and "COLUMNS" not in os.environ:
        console = Console(width=PIPED_WIDTH)  # piped to a file: a wide table, not 80 columns
    console.print_json(data=kwargs)
    title = f"Decisions (request ≈ {total:,} tokens, estimated; {report['wire_bytes']:,} bytes"
    bound = report["budgets_bound"]
    budgets = "; ".join(f"{k} bound: {n} file(s) left out" for k, n in bound.items())
    table = Table(*COLUMNS, title=f"{title} as sent{'; ' + budgets if budgets else ''})")
    for decision in decisions:
        table.add_row(*(_cell(decision[field]) for field in COLUMNS.values()))
    console.print(table)


def _cell(value: Any) -> str:
    return "; ".join(map(str, value)) if isinstance(value, list | tuple) else str(value)
