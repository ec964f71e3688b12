"""Where a File's bytes live: inline bytes, a local path, a URL, a provider file id, or a blob.

Sources are the only place that reads bytes. Reading happens on demand and at most once per
source object; the sha256 of a path is pinned at its first read, so a file that changes on
disk afterwards raises FileChangedError instead of being sent with different content.
"""

from __future__ import annotations

import errno
import hashlib
import os
import stat
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Literal
from urllib.parse import urlsplit

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, field_serializer

from .errors import FetchError, FileChangedError, InvalidFileError, StoreError

#: Files larger than this are refused when read from disk (a tool result is not a backup).
MAX_FILE_BYTES = 512 * 1024 * 1024


class _Source(BaseModel):
    model_config = ConfigDict(frozen=True, ser_json_bytes="base64", val_json_bytes="base64")

    @property
    def is_local(self) -> bool:
        """True when the bytes can be read here without network or a provider."""
        return False

    def read(self) -> bytes:
        """The file's bytes; only local sources can be read."""
        raise FetchError(f"{self.describe()} has no local bytes; it must be fetched or referenced")

    def sha256(self) -> str:
        """Hex sha256 of the bytes (local sources) or of the reference (URL, file id)."""
        raise NotImplementedError

    def known_sha256(self) -> str | None:
        """The hash when it costs nothing now (taken before, or pinned at a read): else None."""
        return self.sha256()

    def describe(self) -> str:
        raise NotImplementedError


class BytesSource(_Source):
    """Bytes held in memory (serialised as base64 in JSON)."""

    type: Literal["bytes"] = "bytes"
    data: bytes = Field(repr=False)
    _digest: str | None = PrivateAttr(default=None)

    @property
    def is_local(self) -> bool:
        return True

    def read(self) -> bytes:
        return self.data

    def sha256(self) -> str:
        # Through the private dict: pydantic's __getattr__ for ``self._digest`` costs ~7 µs, and
        # the planner asks for every file's digest on every encode (plan.mark_repeats).
        private = self.__pydantic_private__
        assert private is not None  # a model with private attributes always has the dict
        digest: str | None = private["_digest"]
        if digest is None:
            digest = private["_digest"] = hashlib.sha256(self.data).hexdigest()
        return digest

    def known_sha256(self) -> str | None:
        private = self.__pydantic_private__
        assert private is not None
        digest: str | None = private["_digest"]
        return digest

    def describe(self) -> str:
        return f"{len(self.data)} inline bytes"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, BytesSource) and self.data == other.data

    def __hash__(self) -> int:
        return hash(self.sha256())


class PathSource(_Source):
    """A file on the local disk, read lazily; its hash is pinned at the first read."""

    type: Literal["path"] = "path"
    path: str
    sha256_pinned: str | None = Field(default=None, alias="sha256")
    _data: bytes | None = PrivateAttr(default=None)
    _pinned: str | None = PrivateAttr(default=None)

    model_config = ConfigDict(populate_by_name=True, serialize_by_alias=True)

    @field_serializer("sha256_pinned")
    def _serialise_pin(self, value: str | None) -> str | None:
        return value or self._pinned

    @property
    def is_local(self) -> bool:
        return True

    def read(self) -> bytes:
        if self._data is not None:
            return self._data
        data = _read_regular_file(Path(self.path))
        digest = hashlib.sha256(data).hexdigest()
        expected = self.sha256_pinned or self._pinned
        if expected is not None and digest != expected:
            raise FileChangedError(
                f"{self.path} changed on disk after it was first read "
                f"(sha256 {expected[:12]}… is now {digest[:12]}…); "
                "re-create the File to send the new content"
            )
        self._pinned = digest
        self._data = data
        return data

    def read_head(self, size: int = 8192) -> bytes:
        """The first bytes of the file, for sniffing, without pinning or caching the content."""
        if self._data is not None:
            return self._data[:size]
        path = Path(self.path)
        fd, _ = _open_regular(path)
        try:
            return _read_path(fd, size, path)
        finally:
            os.close(fd)

    def sha256(self) -> str:
        if self._pinned is None:
            self.read()
        assert self._pinned is not None
        return self._pinned

    def describe(self) -> str:
        return self.path

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, PathSource)
            and self.path == other.path
            and (self.sha256_pinned or self._pinned) == (other.sha256_pinned or other._pinned)
        )

    def __hash__(self) -> int:
        return hash(self.path)


class UrlSource(_Source):
    """A URL (http(s), s3:// or gs://) that the provider or a fetcher resolves."""

    type: Literal["url"] = "url"
    url: str

    @property
    def scheme(self) -> str:
        """'url' for http(s), 's3' for s3://, 'gcs' for gs:// — the vocabulary of capabilities."""
        scheme = urlsplit(self.url).scheme.lower()
        return {"http": "url", "https": "url", "s3": "s3", "gs": "gcs"}.get(scheme, scheme)

    def sha256(self) -> str:
        return hashlib.sha256(self.url.encode("utf-8", "surrogatepass")).hexdigest()

    def describe(self) -> str:
        return self.url


class ProviderFileSource(_Source):
    """A file already uploaded to one provider, referenced by that provider's file id."""

    type: Literal["provider_file"] = "provider_file"
    provider: str
    file_id: str

    def sha256(self) -> str:
        return hashlib.sha256(self.file_id.encode("utf-8", "surrogatepass")).hexdigest()

    def describe(self) -> str:
        return f"{self.provider} file {self.file_id}"


class BlobError(StoreError, InvalidFileError):
    """A store's blob is missing, corrupt, not a regular file, or not the size recorded.

    Both a StoreError (the store is damaged) and an InvalidFileError (the file cannot be read).
    """


class BlobSource(_Source):
    """Bytes kept in a content-addressed BlobStore directory, verified against the hash on read.

    The blob is opened without following links and must be a regular file of ``size`` bytes
    (the size its store recorded; at most MAX_FILE_BYTES when unknown): a symlink, FIFO or
    device under a blob's name is refused, never followed or waited on.
    """

    type: Literal["blob"] = "blob"
    digest: str = Field(alias="sha256", pattern=r"^[0-9a-f]{64}$")
    root: str
    size: int | None = Field(default=None, gt=0, exclude_if=lambda size: size is None)
    _data: bytes | None = PrivateAttr(default=None)
    # Set by SessionStore.load(verify=False) on object-storage blobs: fetches them on first read.
    _fetch: Callable[[], bytes] | None = PrivateAttr(default=None)

    model_config = ConfigDict(populate_by_name=True, serialize_by_alias=True)

    @property
    def is_local(self) -> bool:
        return True

    def read(self) -> bytes:
        if self._data is None:
            fetch = self._fetch
            data = fetch() if fetch else _read_blob(Path(self.root), self.digest, self.size)
            if hashlib.sha256(data).hexdigest() != self.digest:
                raise BlobError(
                    f"blob {self.digest[:12]}… in {self.root} is corrupt (its bytes no longer "
                    "match its sha256)"
                )
            self._data = data
        return self._data

    def sha256(self) -> str:
        return self.digest

    def describe(self) -> str:
        return f"blob {self.digest[:12]}…"

    def __eq__(self, other: object) -> bool:
        # The cached bytes are not part of the value: a read blob equals its reloaded copy.
        return (
            isinstance(other, BlobSource)
            and self.digest == other.digest
            and self.root == other.root
        )

    def __hash__(self) -> int:
        return hash(self.digest)


Source = Annotated[
    BytesSource | PathSource | UrlSource | ProviderFileSource | BlobSource,
    Field(discriminator="type"),
]


def _check_regular(path: Path) -> None:
    """Refuse directories, FIFOs and devices before opening them (opening a FIFO blocks)."""
    import stat

    try:
        mode = path.stat().st_mode
    except FileNotFoundError as exc:
        raise InvalidFileError(f"{path}: no such file") from exc
    except OSError as exc:
        raise InvalidFileError(f"{path}: cannot stat ({exc.strerror})") from exc
    if not stat.S_ISREG(mode):
        raise InvalidFileError(f"{path} is not a regular file (directory, FIFO or device)")


def _read_regular_file(path: Path) -> bytes:
    fd, info = _open_regular(path)
    try:
        if info.st_size > MAX_FILE_BYTES:
            raise InvalidFileError(
                f"{path} is {info.st_size} bytes; files over {MAX_FILE_BYTES} are refused"
            )
        data = _read_path(fd, MAX_FILE_BYTES + 1, path)
    finally:
        os.close(fd)
    if len(data) > MAX_FILE_BYTES:
        raise InvalidFileError(f"{path} grew past {MAX_FILE_BYTES} bytes while being read")
    return data


#: A path is opened without waiting on a FIFO swapped in after the check (links are followed:
#: the caller named the path), then checked again through the descriptor.
_PATH_FLAGS = (
    os.O_RDONLY
    | getattr(os, "O_NONBLOCK", 0)
    | getattr(os, "O_CLOEXEC", 0)
    | getattr(os, "O_BINARY", 0)
)


def _read_path(fd: int, limit: int, path: Path) -> bytes:
    """At most ``limit`` bytes from the descriptor (which stays open)."""
    try:
        with os.fdopen(os.dup(fd), "rb") as fh:
            return fh.read(limit)
    except OSError as exc:
        raise InvalidFileError(f"{path}: cannot read ({exc.strerror})") from exc


def _open_regular(path: Path) -> tuple[int, os.stat_result]:
    """A descriptor of the regular file ``path`` names, and its fstat."""
    _check_regular(path)  # devices are never opened
    try:
        fd = os.open(path, _PATH_FLAGS)
    except OSError as exc:
        raise InvalidFileError(f"{path}: cannot read ({exc.strerror})") from exc
    info = os.fstat(fd)
    if not stat.S_ISREG(info.st_mode):
        os.close(fd)
        raise InvalidFileError(f"{path} is not a regular file (directory, FIFO or device)")
    return fd, info


#: Blobs are opened without following a final symlink, and without waiting on a FIFO.
_BLOB_FLAGS = (
    os.O_RDONLY
    | getattr(os, "O_NOFOLLOW", 0)
    | getattr(os, "O_NONBLOCK", 0)
    | getattr(os, "O_CLOEXEC", 0)
    | getattr(os, "O_BINARY", 0)
)
_SHARD_FLAGS = os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_NOFOLLOW", 0)


def _read_blob(root: Path, digest: str, size: int | None) -> bytes:
    """The bytes of ``root/<digest[:2]>/<digest>``: a regular file (no link followed) of
    exactly ``size`` bytes, or of at most MAX_FILE_BYTES when the size is unknown."""
    name = f"blob {digest[:12]}… in {root}"
    fd = _open_blob(root, digest, name)
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise BlobError(f"{name} is not a regular file (a FIFO, device or directory)")
        limit = MAX_FILE_BYTES if size is None else size
        if info.st_size > limit or (size is not None and info.st_size != size):
            expected = f"{size} bytes" if size is not None else f"at most {MAX_FILE_BYTES} bytes"
            raise BlobError(f"{name} is {info.st_size} bytes; the store recorded {expected}")
        data = _read_up_to(fd, limit + 1, name)
    finally:
        os.close(fd)
    if len(data) > limit or (size is not None and len(data) != size):
        raise BlobError(f"{name} changed size while being read ({len(data)} bytes)")
    return data


def _open_blob(root: Path, digest: str, name: str) -> int:
    """A descriptor of the blob, opened through a shard directory that is not a link."""
    try:
        if os.open not in os.supports_dir_fd:  # Windows: no O_NOFOLLOW, no dir_fd
            return os.open(root / digest[:2] / digest, _BLOB_FLAGS)
        shard = os.open(root / digest[:2], _SHARD_FLAGS)
        try:
            return os.open(digest, _BLOB_FLAGS, dir_fd=shard)
        finally:
            os.close(shard)
    except FileNotFoundError as exc:
        raise BlobError(f"blob {digest[:12]}… is missing from {root}") from exc
    except OSError as exc:
        if exc.errno in (errno.ELOOP, errno.ENOTDIR, errno.EMLINK):
            raise BlobError(
                f"{name} is a symbolic link (or under one); a store holds its blobs as "
                "regular files and never follows links"
            ) from exc
        raise BlobError(f"{name} cannot be read ({exc.strerror})") from exc


def _read_up_to(fd: int, limit: int, name: str) -> bytes:
    chunks: list[bytes] = []
    got = 0
    try:
        while got < limit:
            chunk = os.read(fd, min(limit - got, 1 << 20))
            if not chunk:
                break
            chunks.append(chunk)
            got += len(chunk)
    except OSError as exc:
        raise BlobError(f"{name} cannot be read ({exc.strerror})") from exc
    return b"".join(chunks)
