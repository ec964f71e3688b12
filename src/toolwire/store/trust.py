"""What a session store trusts: its own blobs, remote URLs and provider file ids — no paths.

A row read back from SQLite and an export handed to ``import_`` are data from outside this
process; either may have been written by someone else. So a File coming out of either may
only be:

- a blob of *this* store: the digest must be a sha256 (64 lower-case hex characters), any
  root the data names is ignored and replaced by the store's own ``blobs/``, and a row's blob
  must be one the store recorded for that message (with the size recorded, which the read
  enforces);
- a URL with a scheme toolwire knows (http, https, s3, gs) — never ``file:`` or ``data:``;
- a provider file id;
- inline bytes, in an export only (that is how ``export`` writes files); an export's blob
  reference is refused, since it could name another session's file held by this store.

A local path is refused, never read: it names a file on the machine that loads the data,
which the writer of a row or an export cannot have meant to share. Anything malformed (not
JSON, nested too deeply, the wrong shape, an unknown export version, an export over the size
cap) is a StoreError naming the session, never a TypeError, KeyError or RecursionError.
"""

from __future__ import annotations

import json
import re
from collections.abc import Collection, Mapping
from typing import Any
from urllib.parse import urlsplit

from pydantic import ValidationError

from ..content import File
from ..errors import StoreError, ToolwireError
from ..foreign import check, shown
from ..messages import conversation
from ..sources import BlobSource, BytesSource, ProviderFileSource, UrlSource
from . import codec

EXPORT_FORMAT = "toolwire.session"
#: The export versions this code reads; ``export`` writes the last one.
EXPORT_VERSIONS = (1,)
#: Exports larger than this (JSON text, or inline file bytes) are refused by ``import_``.
MAX_IMPORT_BYTES = 256 * 1024 * 1024
#: JSON values (containers, strings, numbers, literals) an export or a stored row may hold.
#: Parsed, each costs the process 50-250 bytes (``[]`` costs 80 times its 3 bytes of text), so
#: the count, not the text's size, bounds the memory a load takes: about 250 MB at most.
MAX_JSON_VALUES = 1_000_000
#: A stored row (one message, files by reference) larger than this is refused by ``load``.
MAX_ROW_BYTES = 64 * 1024 * 1024
URL_SCHEMES = frozenset({"http", "https", "s3", "gs"})
#: What ``load_json`` turns into a StoreError: bad JSON, deep nesting, a non-text body.
_MALFORMED = (ValueError, RecursionError, TypeError)


def load_json(text: Any, what: str, max_values: int = MAX_JSON_VALUES) -> Any:
    """``text`` parsed as JSON; StoreError naming ``what`` when it is not, is too deep, or
    holds more than ``max_values`` values (counted before anything is parsed: ``values``)."""
    if not isinstance(text, str | bytes | bytearray):
        raise StoreError(f"{what} is not JSON text (it is {type(text).__name__})")
    found = values(text, max_values)
    if found > max_values:
        raise StoreError(
            f"{what} holds more than {max_values:,} JSON values ({found:,} counted); parsed, it "
            f"would take far more memory than its {len(text):,} bytes of text, so it is refused "
            "(pass max_values=… to load a larger one)"
        )
    try:
        return json.loads(text)
    except _MALFORMED as exc:
        raise StoreError(f"{what} is not JSON data toolwire can read: {reason(exc)}") from exc


def values(text: str | bytes | bytearray, limit: int) -> int:
    """How many values the JSON ``text`` holds, at most: one per ``[``, ``{`` and ``,``
    outside its strings, and one more. Counted in C (``count`` and one regular expression),
    never by walking the text in Python, and the strings are left out only where the quick
    count over the whole text (base64 holds no such character) passes ``limit``."""
    if not isinstance(text, str) and json.detect_encoding(text) != "utf-8":
        text = bytes(text).decode(json.detect_encoding(text), "replace")  # as json.loads reads it
    if isinstance(text, str):
        quick = _structure(text, "[", "{", ",")
        return quick if quick <= limit else _structure(_STRINGS_STR.sub('""', text), "[", "{", ",")
    raw = bytes(text)
    quick = _structure(raw, b"[", b"{", b",")
    return quick if quick <= limit else _structure(_STRINGS.sub(b'""', raw), b"[", b"{", b",")


def _structure(text: Any, *marks: Any) -> int:
    """One more than the number of ``marks`` in ``text``: its values, at most."""
    return sum(int(text.count(mark)) for mark in marks) + 1


#: A JSON string, or an unterminated one to the end: possessive, so a match never gives back
#: what it took, and always matching, so no quote is tried again (linear in the text).
_STRINGS = re.compile(rb'"[^"\\]*+(?:\\.[^"\\]*+)*+(?:"|\Z)')
_STRINGS_STR = re.compile(r'"[^"\\]*+(?:\\.[^"\\]*+)*+(?:"|\Z)')


def export_document(data: Any, max_bytes: int, max_values: int = MAX_JSON_VALUES) -> dict[str, Any]:
    """The export's top-level object, checked for size, values, format and version."""
    if isinstance(data, str | bytes | bytearray):
        if len(data) > max_bytes:
            raise StoreError(
                f"the session export is {len(data)} bytes; imports over {max_bytes} bytes are "
                "refused (pass max_bytes=… to import a larger one)"
            )
        data = load_json(data, "the session export", max_values)
    if not isinstance(data, dict) or data.get("format") != EXPORT_FORMAT:
        raise StoreError(f'not a toolwire session export (expected "format": "{EXPORT_FORMAT}")')
    version = data.get("version")
    if type(version) is not int or version not in EXPORT_VERSIONS:
        known = ", ".join(str(v) for v in EXPORT_VERSIONS)
        raise StoreError(
            f"the session export has format version {version!r}; this toolwire knows "
            f"version(s) {known}. Import it with the toolwire that exported it, or upgrade"
        )
    return data


def export_messages(
    doc: dict[str, Any], session_id: str, blob_root: str, max_bytes: int
) -> list[Any]:
    """The export's messages, each File confined to what an import may carry."""
    where = f"the export of session {session_id!r}"
    items = doc.get("messages")
    if not isinstance(items, list):
        raise StoreError(f"{where} has no list of messages")
    try:
        messages = conversation(items)
    except (*_MALFORMED, ToolwireError) as exc:
        raise StoreError(f"{where} is invalid: {reason(exc)}") from exc
    confined = [
        confine(m, f"{where}, message {k}", blob_root, None) for k, m in enumerate(messages)
    ]
    inline = sum(_inline_size(f) for m in confined for f in codec.files_of(m))
    if inline > max_bytes:
        raise StoreError(
            f"{where} carries {inline} bytes of files; imports over {max_bytes} bytes are "
            "refused (pass max_bytes=… to import a larger one)"
        )
    return confined


def confine(message: Any, where: str, blob_root: str, sizes: Mapping[str, int] | None) -> Any:
    """``message`` with every blob re-rooted in ``blob_root``; StoreError for a File whose
    source a store does not trust.

    ``sizes`` are the blobs recorded for a stored row (digest → size): a row may reference
    only those, and inline bytes are refused. ``None`` (an import) admits inline bytes and no
    blob reference: ``export`` inlines every file, and a digest in an export could otherwise
    name another session's file that this store happens to hold (knowing its sha256 would be
    enough to copy it).
    """

    def check(file: File) -> File:
        source = file.source
        if isinstance(source, BlobSource):
            blob = _blob(source.digest, f"{where}, file {codec.label(file)}", blob_root, sizes)
            return file.model_copy(update={"source": blob})
        if isinstance(source, UrlSource) and urlsplit(source.url).scheme.lower() in URL_SCHEMES:
            return file
        if isinstance(source, ProviderFileSource) or (
            isinstance(source, BytesSource) and sizes is None
        ):
            return file
        raise StoreError(
            f"{where}, file {codec.label(file)}: a {source.type} source "
            f"({shown(file)}) is refused; {_ALLOWED}"
        )

    return codec.replace_files(message, check)


_ALLOWED = (
    "a stored or imported File may only be a blob of this store, an http(s), s3 or gs URL, "
    "or a provider file id (an export may also inline its bytes), never a local path"
)


def _blob(digest: str, where: str, blob_root: str, sizes: Mapping[str, int] | None) -> BlobSource:
    if sizes is None:
        raise StoreError(
            f"{where}: a blob reference ({digest[:12]}…) is refused in an import; an export "
            "carries its files' bytes inline (export the session again with toolwire)"
        )
    size = sizes.get(digest)
    if size is None:
        raise StoreError(
            f"{where}: blob {digest[:12]}… is not recorded for this "
            "message in the store's blobs table; the row was altered outside toolwire"
        )
    return BlobSource(sha256=digest, root=blob_root, size=size)


def _inline_size(file: File) -> int:
    return len(file.source.data) if isinstance(file.source, BytesSource) else 0


def reason(exc: BaseException) -> str:
    """A short account of why data was refused (the first validation error, not all)."""
    if isinstance(exc, RecursionError):
        return "it is nested too deeply"
    if isinstance(exc, ValidationError) and exc.errors():
        first = exc.errors()[0]
        where = ".".join(str(part) for part in first["loc"])
        return f"{where}: {first['msg']}" if where else first["msg"]
    text = str(exc)
    return text if len(text) <= 300 else text[:300] + "…"


def foreign(messages: list[Any], where: str, trusted: Collection[str] = ()) -> list[Any]:
    """``messages`` as they are when ``foreign.check`` (the one rule for data from elsewhere)
    admits them; else its error as a StoreError."""
    try:
        check(messages, where, trusted)
    except ToolwireError as exc:
        raise StoreError(str(exc)) from exc
    return messages
