"""BlobStore: a directory of file bytes, each stored once under its sha256.

Layout: ``root/<first 2 hex>/<sha256>`` (what ``sources.BlobSource`` reads), plus
``root/tmp/`` for writes in flight. A blob is written to a temp file, fsynced, renamed into
place and its directory fsynced, so a reader (or a process killed mid-write) never sees half a
blob under a final name. Blobs are immutable: the same bytes always land in the same file.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
import stat
import tempfile
from collections.abc import Iterable, Iterator
from pathlib import Path

from ..errors import InvalidFileError, StoreError
from ..sources import BlobSource

_DIGEST = re.compile(r"[0-9a-f]{64}")
_SHARD = re.compile(r"[0-9a-f]{2}")
_TMP = "tmp"


class BlobStore:
    """Content-addressed file bytes, written atomically and verified against the hash on read.

    SessionStore keeps one in its ``blobs/`` directory; on its own it is a plain dedup cache::

        blobs = BlobStore("store/blobs")
        digest = blobs.put(pdf_bytes)  # the same bytes always give the same digest and file
        assert blobs.get(digest) == pdf_bytes
    """

    def __init__(self, root: str | Path) -> None:
        self.root = Path(root).absolute()
        try:
            (self.root / _TMP).mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise StoreError(f"cannot create the blob directory {self.root}: {exc}") from exc

    def path(self, digest: str) -> Path:
        """Where the blob with this sha256 lives (whether or not it exists)."""
        if not _DIGEST.fullmatch(digest):
            raise StoreError(f"{digest!r} is not a sha256 (64 lower-case hex characters)")
        return self.root / digest[:2] / digest

    def has(self, digest: str) -> bool:
        """True when a regular file holds this sha256 (not a link; its bytes are not checked)."""
        try:
            return stat.S_ISREG(self.path(digest).lstat().st_mode)
        except OSError:
            return False

    def put(self, data: bytes) -> str:
        """Store ``data`` (once) and return its sha256.

        A copy already under that name is kept only if its bytes hash to it: a short or
        damaged one (a flipped bit keeps the size) is replaced atomically, so putting the
        bytes again repairs the blob instead of leaving every later read to fail.
        """
        digest = hashlib.sha256(data).hexdigest()
        path = self.path(digest)
        if _holds(self.root, digest, len(data)):
            _fsync_dir(path.parent)  # another writer's rename may not be durable yet
            return digest
        self._write(path, data)
        return digest

    def get(self, digest: str) -> bytes:
        """The blob's bytes; InvalidFileError when it is missing or no longer matches its hash."""
        return self.source(digest).read()

    def source(self, digest: str) -> BlobSource:
        """A File source that reads (and verifies) this blob."""
        self.path(digest)  # validates the digest
        return BlobSource(sha256=digest, root=str(self.root))

    def digests(self) -> Iterator[str]:
        """The sha256 of every blob present."""
        for shard in self.root.iterdir():
            if not (_SHARD.fullmatch(shard.name) and _is_plain_dir(shard)):
                continue
            for entry in shard.iterdir():
                if _DIGEST.fullmatch(entry.name) and entry.name.startswith(shard.name):
                    yield entry.name

    def size(self) -> int:
        """Total bytes of all blobs present (regular files only: a link is not a blob)."""
        sizes = (self.path(d).lstat() for d in self.digests())
        return sum(s.st_size for s in sizes if stat.S_ISREG(s.st_mode))

    def sweep(self, keep: Iterable[str]) -> int:
        """Remove every blob not in ``keep`` and the temp files of dead writers; return the count.

        Only call it while no writer can commit a reference to a blob outside ``keep``
        (SessionStore holds its write lock).
        """
        keep = set(keep)
        removed = 0
        for digest in list(self.digests()):
            if digest not in keep:
                with contextlib.suppress(FileNotFoundError):
                    self.path(digest).unlink()
                    removed += 1
        for temp in (self.root / _TMP).iterdir():
            if not _writer_alive(temp.name):
                with contextlib.suppress(FileNotFoundError):
                    temp.unlink()
        return removed

    def remove(self, digests: Iterable[str]) -> int:
        """Delete these blobs (those present); return how many there were.

        Like ``sweep``, only while no writer can commit a reference to one of them.
        """
        removed = 0
        for digest in digests:
            with contextlib.suppress(FileNotFoundError):
                self.path(digest).unlink()
                removed += 1
        return removed

    def _write(self, path: Path, data: bytes) -> None:
        tmp_dir = self.root / _TMP
        try:
            fd, temp = tempfile.mkstemp(prefix=f"{os.getpid()}.", dir=tmp_dir)
            try:
                with os.fdopen(fd, "wb") as fh:
                    fh.write(data)
                    fh.flush()
                    os.fsync(fh.fileno())
                _make_shard(path.parent)
                os.replace(temp, path)
            except BaseException:
                with contextlib.suppress(FileNotFoundError):
                    os.unlink(temp)
                raise
            _fsync_dir(path.parent)
        except OSError as exc:
            raise StoreError(f"cannot write blob {path.name[:12]}… to {self.root}: {exc}") from exc


def _holds(root: Path, digest: str, size: int) -> bool:
    """True when the blob is a regular file of exactly the ``size`` bytes whose sha256 is
    ``digest`` (read as BlobSource reads: no link followed, no FIFO waited on)."""
    try:
        BlobSource(sha256=digest, root=str(root), size=size).read()
    except InvalidFileError:  # missing, a link, damaged: the atomic rename replaces it
        return False
    return True


def _make_shard(shard: Path) -> None:
    """Create the shard directory; a link (or file) in its place is removed, not written through.

    Writers in several processes may race here: whoever creates the directory first wins and
    the others use it.
    """
    for _ in range(8):
        if _is_plain_dir(shard):
            return
        try:
            shard.mkdir()
            return
        except FileExistsError:  # made by another writer meanwhile, or a link or file is there
            if not _is_plain_dir(shard):
                with contextlib.suppress(FileNotFoundError, IsADirectoryError):
                    shard.unlink()
    raise OSError(f"{shard} could not be made a directory (something keeps replacing it)")


def _is_plain_dir(path: Path) -> bool:
    """A directory that is not a symlink to one (a swept shard must be inside the store)."""
    try:
        return stat.S_ISDIR(path.lstat().st_mode)
    except OSError:
        return False


def _fsync_dir(path: Path) -> None:
    """Make a rename durable: fsync the directory that holds the new name (POSIX)."""
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return  # platforms without directory handles (Windows) make renames durable themselves
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _writer_alive(temp_name: str) -> bool:
    """Temp files are named ``<pid>.<random>``: alive while that process exists."""
    pid_text = temp_name.split(".", 1)[0]
    if not pid_text.isdigit():
        return False
    pid = int(pid_text)
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True  # exists, owned by someone else
    return True
