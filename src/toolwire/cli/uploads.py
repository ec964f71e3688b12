"""`toolwire sessions upload ID --model M`: upload a stored session's files once, with progress."""

from __future__ import annotations

import dataclasses
import json
import threading
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import (
    BarColumn,
    DownloadColumn,
    Progress,
    TaskID,
    TextColumn,
    TransferSpeedColumn,
)
from rich.table import Table

from ..uploads import DEFAULT_MIN_BYTES
from .render import ModelOption
from .sessions import DEFAULT_STORE, AsJson, Blobs, Store, _errors, _plain, open_store, sessions


class UploadBars:
    """A rich progress bar per file, fed by ``Uploads.sync``'s ``progress`` callback (which
    is called from worker threads: rich's Progress is thread-safe, the task map is locked)."""

    def __init__(self, console: Console) -> None:
        self.progress = Progress(
            TextColumn("{task.description}"),
            BarColumn(),
            DownloadColumn(),
            TransferSpeedColumn(),
            console=console,
        )
        self._tasks: dict[str, TaskID] = {}
        self._lock = threading.Lock()

    def __call__(self, identifier: str, done: int, total: int) -> None:
        with self._lock:
            task = self._tasks.get(identifier)
            if task is None:
                task = self.progress.add_task(escape(_plain(identifier)), total=total)
                self._tasks[identifier] = task
        self.progress.update(task, completed=done, total=total)

    def __enter__(self) -> UploadBars:
        self.progress.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.progress.stop()


@sessions.command("upload")
def upload(
    session_id: str,
    model: ModelOption,
    store: Store = DEFAULT_STORE,
    blobs: Blobs = None,
    min_bytes: Annotated[
        int, typer.Option("--min-bytes", help="Files smaller than this stay inline.")
    ] = DEFAULT_MIN_BYTES,
    as_json: AsJson = False,
) -> None:
    """Upload a session's files to the model's Files API once; print their file ids.

    The provider's official SDK client is built from the environment (ANTHROPIC_API_KEY and
    ANTHROPIC_BASE_URL, OPENAI_API_KEY and OPENAI_BASE_URL, GEMINI_API_KEY and
    GOOGLE_GEMINI_BASE_URL, MISTRAL_API_KEY, XAI_API_KEY). Ids are cached in the store, so
    a second run uploads nothing that is still fresh there. A bar per file shows progress.
    """
    import toolwire as tw

    from .clients import client_for

    console = Console(stderr=True)
    with _errors(), open_store(store, blobs) as opened:
        messages, client = opened.load(session_id), client_for(model)
        with UploadBars(console) as bars:
            found = tw.Uploads(store=opened).sync(
                messages, model, client, min_bytes=min_bytes, progress=bars
            )
    if as_json:
        typer.echo(json.dumps([dataclasses.asdict(o) for o in found], indent=2))
        return
    Console().print(_outcomes(found) if found else "nothing to upload for this model")


def _outcomes(found: list[Any]) -> Table:
    table = Table("file", "file id", "bytes", "")
    for o in found:
        done = "uploaded" if o.uploaded else "cached"
        name, file_id = escape(_plain(o.identifier)), escape(_plain(o.file_id))
        table.add_row(name, file_id, f"{o.size:,}", done)
    return table
