"""ObjectBlobs: content-addressed file bytes in object storage (S3 and compatibles, GCS).

Layout as a BlobStore directory: ``<url>/<first 2 hex>/<sha256>``. Object stores are reached
through obstore (Rust ``object_store``): a synchronous API (toolwire has no async code),
conditional puts (``If-None-Match``) on S3 and GCS, S3, GCS and Azure from one package with
no boto3/aiohttp stack, credentials and endpoint from the standard settings
(``AWS_ENDPOINT_URL``, ``AWS_ACCESS_KEY_ID``, ``AWS_SECRET_ACCESS_KEY``, ``AWS_REGION`` /
``AWS_DEFAULT_REGION``; ``GOOGLE_APPLICATION_CREDENTIALS``) or explicit ``options``
(obstore's config keys, e.g. ``{"endpoint": …, "region": …}``).

A blob is created with a conditional put, so an object under a blob's key is never replaced
by different bytes; if one is already there, it is kept when it hashes to its key and
replaced (by the right bytes) only when it does not. Each read checks the recorded size
before downloading and the sha256 after.
"""

from __future__ import annotations

import hashlib
import os
import re
from collections.abc import Iterable, Iterator, Mapping
from typing import Any
from urllib.parse import urlsplit

from ..errors import MissingDependencyError, StoreError
from ..sources import BlobError

_DIGEST = re.compile(r"[0-9a-f]{64}")
_KEY = re.compile(r"(?:.*/)?([0-9a-f]{2})/([0-9a-f]{64})")
#: URL schemes that name object storage (a plain path or file:// is a BlobStore directory).
SCHEMES = frozenset({"s3", "s3a", "gs", "az", "azure", "abfs", "abfss", "memory"})


class ObjectBlobs:
    """Blobs under an object-storage URL such as ``s3://bucket/prefix``."""

    def __init__(self, url: str, options: Mapping[str, Any] | None = None) -> None:
        self.root = url.rstrip("/")
        obstore, store_module = _import()
        self._obstore = obstore
        from obstore import exceptions

        self._exceptions = exceptions
        config = dict(options or {})
        client = {"allow_http": True} if _plain_http(url, config) else {}
        try:
            self._store = store_module.from_url(url, config=config or None, client_options=client)
        except (exceptions.BaseError, ValueError) as exc:
            raise StoreError(f"cannot open the blob store {url}: {_short(exc)}") from exc
        self._check_reachable()

    def _check_reachable(self) -> None:
        """List one key, so a missing bucket or an unreachable endpoint is an error when the
        store opens, not at the first append (an empty prefix is a new store: fine). Credentials
        that may read and write objects but not list them (no s3:ListBucket; only ``gc`` needs
        it) answer AccessDenied: the bucket is there, so the store opens."""
        try:
            next(iter(self._obstore.list(self._store, chunk_size=1)), None)
        except (self._exceptions.BaseError, OSError) as exc:
            if "<Code>AccessDenied</Code>" in str(exc):
                return
            hint = (
                " (create the bucket, or check its name and AWS_ENDPOINT_URL)"
                if "NoSuchBucket" in str(exc) or isinstance(exc, FileNotFoundError)
                else ""
            )
            raise StoreError(
                f"cannot open the blob store {self.root}: {_short(exc)}{hint}"
            ) from exc

    def put(self, data: bytes) -> str:
        """Store ``data`` under its sha256 (once) and return the digest."""
        digest = hashlib.sha256(data).hexdigest()
        key = _key(digest)
        try:
            self._obstore.put(self._store, key, data, mode="create")
        except self._exceptions.AlreadyExistsError:
            if not self._holds(key, digest, data):
                self._call("replace a damaged", key, self._obstore.put, self._store, key, data)
        except (self._exceptions.BaseError, OSError) as exc:
            raise StoreError(
                f"cannot write blob {digest[:12]}… to {self.root}: {_short(exc)}"
            ) from exc
        return digest

    def has(self, digest: str) -> bool:
        """True when an object exists under the blob's key (its bytes are not checked)."""
        try:
            self._obstore.head(self._store, _key(digest))
        except FileNotFoundError:
            return False
        except (self._exceptions.BaseError, OSError) as exc:
            raise StoreError(
                f"cannot look up blob {digest[:12]}… in {self.root}: {_short(exc)}"
            ) from exc
        return True

    def fetch(self, digest: str, size: int | None, limit: int) -> bytes:
        """The blob's bytes, checked: BlobError when missing, not ``size`` bytes, or damaged."""
        key = _key(digest)
        try:
            result = self._obstore.get(self._store, key)
            found = int(result.meta["size"])
            if (size is not None and found != size) or found > limit:
                expected = f"{size}" if size is not None else f"at most {limit}"
                raise BlobError(
                    f"blob {digest} in {self.root} is {found} bytes, not the {expected} "
                    "recorded; it was altered outside toolwire"
                )
            data = bytes(result.bytes())
        except FileNotFoundError as exc:
            raise BlobError(f"blob {digest} is missing from {self.root}") from exc
        except (self._exceptions.BaseError, OSError) as exc:
            raise StoreError(
                f"cannot read blob {digest[:12]}… from {self.root}: {_short(exc)}"
            ) from exc
        if hashlib.sha256(data).hexdigest() != digest:
            raise BlobError(
                f"blob {digest} in {self.root} is corrupt (its bytes no longer match its sha256)"
            )
        return data

    def get(self, digest: str) -> bytes:
        """The blob's bytes (checked against the hash)."""
        return self.fetch(digest, None, 1 << 62)

    def digests(self) -> Iterator[str]:
        """The sha256 of every blob present."""
        for batch in self._call("list", "", self._obstore.list, self._store):
            for meta in batch:
                match = _KEY.fullmatch(meta["path"])
                if match and match[2].startswith(match[1]):
                    yield match[2]

    def size(self) -> int:
        """Total bytes of all blobs present."""
        total = 0
        for batch in self._call("list", "", self._obstore.list, self._store):
            total += sum(int(m["size"]) for m in batch if _KEY.fullmatch(m["path"]))
        return total

    def sweep(self, keep: Iterable[str]) -> int:
        """Delete every blob not in ``keep``; return the count. Call it only while no append
        can commit a reference (SessionStore's rows hold the collection lock)."""
        keep = set(keep)
        gone = [d for d in self.digests() if d not in keep]
        for digest in gone:
            self._call("delete", _key(digest), self._obstore.delete, self._store, _key(digest))
        return len(gone)

    def remove(self, digests: Iterable[str]) -> int:
        """Delete these blobs (those present); return how many there were."""
        removed = 0
        for digest in digests:
            if self.has(digest):
                self._call("delete", _key(digest), self._obstore.delete, self._store, _key(digest))
                removed += 1
        return removed

    def _holds(self, key: str, digest: str, data: bytes) -> bool:
        """True when the object under ``key`` is ``data``. A HEAD suffices when its ETag is the
        MD5 of ``data`` (S3's single-part ETag, computed by the server); otherwise the object
        is downloaded and hashed. Reads check the sha256 whatever this decides."""
        meta = self._call("look up", key, self._obstore.head, self._store, key)
        if int(meta["size"]) != len(data):
            return False
        etag = str(meta.get("e_tag") or "").strip('"')
        if etag == hashlib.md5(data, usedforsecurity=False).hexdigest():
            return True
        try:
            self.fetch(digest, len(data), len(data))
        except BlobError:
            return False
        return True

    def _call(self, what: str, key: str, function: Any, *args: Any) -> Any:
        try:
            return function(*args)
        except (self._exceptions.BaseError, OSError) as exc:
            raise StoreError(
                f"cannot {what} {key or 'blobs'} in {self.root}: {_short(exc)}"
            ) from exc

    def __repr__(self) -> str:
        return f"ObjectBlobs({self.root!r})"


def is_object_url(location: str) -> bool:
    """True for a URL naming object storage (s3://, gs://, …), not a directory."""
    return urlsplit(location).scheme.lower() in SCHEMES


def _short(exc: BaseException) -> str:
    """obstore's messages carry the whole request, response and a debug dump: keep the first
    line without the response body, then the cause it buries (the S3 error code and message,
    or the operating system's "Connection refused")."""
    text = str(exc).strip()
    line = text.splitlines()[0].split(": <?xml", 1)[0] if text else type(exc).__name__
    code, message = _XML_CODE.search(text), _XML_MESSAGE.search(text)
    os_error = _OS_ERROR.search(text)
    if code:
        line += f" ({code[1]}{': ' + message[1] if message else ''})"
    elif os_error:
        line += f" ({os_error[1]})"
    return line if len(line) <= 400 else line[:400] + "…"


_XML_CODE = re.compile(r"<Code>([^<]{1,100})</Code>")
_XML_MESSAGE = re.compile(r"<Message>([^<]{1,200})</Message>")
_OS_ERROR = re.compile(r'Os \{[^}]*?message: "([^"]{1,200})"')


def _key(digest: str) -> str:
    if not _DIGEST.fullmatch(digest):
        raise StoreError(f"{digest!r} is not a sha256 (64 lower-case hex characters)")
    return f"{digest[:2]}/{digest}"


def _plain_http(url: str, config: Mapping[str, Any]) -> bool:
    """An S3 endpoint given as http:// (a local emulator or gateway) must be allowed."""
    if not url.lower().startswith(("s3://", "s3a://")):
        return False
    endpoint = (
        config.get("endpoint")
        or config.get("aws_endpoint")
        or os.environ.get("AWS_ENDPOINT_URL_S3")
        or os.environ.get("AWS_ENDPOINT_URL")
        or ""
    )
    return str(endpoint).lower().startswith("http://")


def _import() -> tuple[Any, Any]:
    try:
        import obstore
        import obstore.store
    except ImportError as exc:
        raise MissingDependencyError(
            "an object-storage blob store (s3://, gs://) needs obstore: "
            "pip install 'toolwire[objects]'"
        ) from exc
    return obstore, obstore.store
