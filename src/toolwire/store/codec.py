"""How a message is kept in the database: its neutral JSON, with file bytes moved to blobs.

A File whose bytes are local (inline, a path, a blob) is stored as
``{"type": "blob", "sha256": …}`` — no absolute root, so a store directory can be moved —
and its bytes go to the BlobStore. URL and provider-file sources are stored as they are.
Loading puts the store's blob root back, so every loaded File reads (and verifies) its blob;
``trust`` decides which sources a loaded row may hold.

Files sit in exactly two places of a message: a user message's content tuple and a
``content`` tool output's value tuple. The walks below visit only those, so a Json value
that happens to look like a file is never touched.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from pydantic import TypeAdapter, ValidationError

from ..content import File
from ..errors import StoreError, ToolwireError
from ..foreign import files_of as files_of  # the one walk and label, the store's too
from ..foreign import label as label
from ..messages import ContentOutput, TaggedMessage, ToolResult, User
from ..sources import BlobSource, BytesSource

_message: TypeAdapter[Any] = TypeAdapter(TaggedMessage)
_DIGEST = re.compile(r"[0-9a-f]{64}")


@dataclass(frozen=True)
class Stored:
    """One message ready for its row: role, JSON body, and the blobs it references."""

    role: str
    body: str
    blobs: dict[str, bytes] = field(default_factory=dict)


def validate(message: Any, where: str) -> Any:
    """A message object from a message or its JSON dict; StoreError for anything else."""
    try:
        return _message.validate_python(message)
    except ValidationError as exc:
        raise StoreError(
            f"{where}: cannot store {type(message).__name__}; pass a System, User, Assistant "
            f"or ToolResult (or its JSON dict): {exc.errors()[0]['msg']}"
        ) from exc


def to_stored(message: Any, blob_root: str, where: str) -> Stored:
    """The row for ``message``: local file bytes read once and referenced by sha256."""
    pending: dict[str, bytes] = {}

    def keep(file: File) -> File:
        if not file.source.is_local:
            return file
        data = read(file, where)
        digest = hashlib.sha256(data).hexdigest()
        pending[digest] = data
        return file.model_copy(update={"source": BlobSource(sha256=digest, root=blob_root)})

    kept = replace_files(message, keep)
    try:
        data = _message.dump_python(kept, mode="json")
        for item in file_dicts(data):
            if item["source"]["type"] == "blob":
                del item["source"]["root"]
        body = dumps(data, separators=(",", ":"))
    except (ValueError, RecursionError) as exc:  # e.g. a Json value nested too deeply
        raise StoreError(f"{where} cannot be stored as JSON: {exc}") from exc
    _loadable(body, where)
    return Stored(role=data["role"], body=body, blobs=pending)


def _loadable(body: str, where: str) -> None:
    """A row ``load`` could not read back is refused here, as it is written (store.trust's
    limits: a row's bytes, its JSON values)."""
    from .trust import MAX_JSON_VALUES, MAX_ROW_BYTES, values

    size = len(body.encode("utf-8", "surrogatepass"))
    if size > MAX_ROW_BYTES:
        raise StoreError(
            f"{where} is {size:,} bytes as a stored row, over the {MAX_ROW_BYTES:,} a stored "
            "message may take (so load could not read it back); return a large output as a "
            "File, which is stored apart"
        )
    found = values(body, MAX_JSON_VALUES)
    if found > MAX_JSON_VALUES:
        raise StoreError(
            f"{where} holds {found:,} JSON values, over the {MAX_JSON_VALUES:,} a stored message "
            "may hold (so load could not read it back); return a large table as a File (CSV)"
        )


def as_data(message: Any) -> Any:
    """A message as the JSON data ``dump_conversation`` writes for it."""
    return _message.dump_python(message, mode="json")


def dumps(data: Any, **options: Any) -> str:
    """``data`` as JSON text that encodes as UTF-8: non-ASCII kept as is, unless it holds a
    lone surrogate (valid JSON as ``\\ud800``, e.g. in a decoded reply), then escaped."""
    text = json.dumps(data, ensure_ascii=False, **options)
    if not text.isascii():
        try:
            text.encode("utf-8")
        except UnicodeEncodeError:
            return json.dumps(data, ensure_ascii=True, **options)
    return text


def from_stored(data: Any, blob_root: str) -> Any:
    """The message a row's parsed JSON holds, its blob sources pointing at ``blob_root``.

    Only the shape is checked here; ``trust.confine`` decides which sources may stay.
    """
    if not isinstance(data, dict):
        raise StoreError(f"its body is a JSON {type(data).__name__}, not a message object")
    for item in file_dicts(data):
        source = item.get("source")
        if isinstance(source, dict) and source.get("type") == "blob":
            digest = source.get("sha256")
            if not (isinstance(digest, str) and _DIGEST.fullmatch(digest)):
                raise StoreError(
                    f"file {item.get('name') or '(unnamed)'!s:.200}: blob digest {digest!r:.80} "
                    "is not a sha256 (64 lower-case hex characters)"
                )
            source["root"] = blob_root
    return _message.validate_python(data)


def portable(message: Any) -> Any:
    """``message`` with every blob's bytes inlined (BytesSource), for self-contained JSON."""

    def inline(file: File) -> File:
        if not isinstance(file.source, BlobSource):
            return file
        return file.model_copy(update={"source": BytesSource(data=file.read())})

    return replace_files(message, inline)


def read(file: File, where: str) -> bytes:
    """The file's bytes; a failure names ``where`` and the file."""
    try:
        return file.read()
    except ToolwireError as exc:
        raise type(exc)(f"{where}, file {label(file)}: {exc}") from exc


def replace_files(message: Any, swap: Callable[[File], File]) -> Any:
    """A copy of ``message`` with each File replaced by ``swap(file)`` (others unchanged)."""
    if isinstance(message, User) and not isinstance(message.content, str):
        parts = tuple(swap(p) if isinstance(p, File) else p for p in message.content)
        return message.model_copy(update={"content": parts})
    if isinstance(message, ToolResult) and isinstance(message.output, ContentOutput):
        value = tuple(swap(p) if isinstance(p, File) else p for p in message.output.value)
        output = message.output.model_copy(update={"value": value})
        return message.model_copy(update={"output": output})
    return message


def file_dicts(data: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """The file part dicts of a message's JSON data (same two places as ``replace_files``)."""
    items: Any = None
    if data.get("role") == "user":
        items = data.get("content")
    elif data.get("role") == "tool":
        output = data.get("output")
        if isinstance(output, dict) and output.get("type") == "content":
            items = output.get("value")
    if isinstance(items, list):
        yield from (i for i in items if isinstance(i, dict) and i.get("type") == "file")
