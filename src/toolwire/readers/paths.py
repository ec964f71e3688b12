"""Which file read_file may open, and opening it without being tricked.

A path is resolved (``..`` and every symlink) before it is compared with the resolved root, so
neither climbing out nor a symlink pointing out escapes. Only regular files are read: the type
is checked with ``stat`` before anything is opened (opening a FIFO for reading blocks until a
writer appears), and again with ``fstat`` on the opened descriptor, which must be the very
file that was checked (same device and inode), so a file swapped in between is refused too.
"""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass
from pathlib import Path

from ..errors import InvalidFileError, PathNotAllowedError
from ..headers import human_size

_OPEN_FLAGS = (
    os.O_RDONLY
    | getattr(os, "O_NOFOLLOW", 0)  # the resolved path's last component must not be a symlink
    | getattr(os, "O_NONBLOCK", 0)  # belt and braces: never wait on a FIFO swapped in
    | getattr(os, "O_BINARY", 0)
)

_NOT_REGULAR = {
    stat.S_IFDIR: "a directory",
    stat.S_IFIFO: "a FIFO (named pipe)",
    stat.S_IFCHR: "a character device",
    stat.S_IFBLK: "a block device",
    stat.S_IFSOCK: "a socket",
}


@dataclass(frozen=True)
class Target:
    """A regular, non-empty file that may be read: its resolved path and identity."""

    path: Path
    name: str
    size: int
    device: int
    inode: int


def resolve(path: str | os.PathLike[str], root: str | os.PathLike[str] | None) -> Target:
    """The file ``path`` names, checked: inside ``root`` (when given), regular, not empty.

    A relative path is taken relative to ``root`` when one is given, else to the working
    directory. Raises PathNotAllowedError for paths outside the root and for directories,
    FIFOs, devices and sockets; InvalidFileError for missing or empty files.
    """
    given = Path(path)
    if root is None:
        resolved = _resolve(given, given)
    else:
        base = _resolve(Path(root), Path(root))
        resolved = _resolve(given if given.is_absolute() else base / given, given)
        if not resolved.is_relative_to(base):
            raise PathNotAllowedError(
                f"{path} is outside the allowed root {base} (after resolving '..' and "
                f"symlinks); only files under {base} can be read"
            )
    try:
        info = resolved.stat()
    except FileNotFoundError as exc:
        raise InvalidFileError(f"{path}: no such file") from exc
    except OSError as exc:
        raise InvalidFileError(f"{path}: cannot stat ({exc.strerror})") from exc
    _require_regular(str(path), info.st_mode)
    if info.st_size == 0:
        raise InvalidFileError(f"{path} is empty (0 bytes); there is nothing to read")
    return Target(resolved, given.name, info.st_size, info.st_dev, info.st_ino)


def read_bytes(target: Target, limit: int, what: str, *, truncate: bool = False) -> bytes:
    """The file's bytes, at most ``limit`` of them.

    A file larger than ``limit`` is refused (naming ``what`` kind of file the cap is for),
    unless ``truncate`` is set, in which case its first ``limit`` bytes are returned.
    """
    try:
        fd = os.open(target.path, _OPEN_FLAGS)
    except OSError as exc:
        raise InvalidFileError(f"{target.name}: cannot open ({exc.strerror})") from exc
    try:
        info = os.fstat(fd)
        _require_regular(target.name, info.st_mode)
        if (info.st_dev, info.st_ino) != (target.device, target.inode):
            raise PathNotAllowedError(
                f"{target.name} was replaced between the check and the read; read it again"
            )
        fh = os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise
    with fh:
        data = fh.read(limit if truncate else limit + 1)
    if len(data) > limit and not truncate:
        raise InvalidFileError(
            f"{target.name} is {human_size(max(info.st_size, len(data)))}; {what} over "
            f"{human_size(limit)} are not read. Pass a smaller file (split or compress it)"
        )
    return data


def read_head(target: Target, size: int = 8192) -> bytes:
    """The first ``size`` bytes, for sniffing the media type."""
    return read_bytes(target, size, "files", truncate=True)


def _resolve(candidate: Path, given: Path) -> Path:
    try:
        return candidate.resolve()
    except (OSError, RuntimeError) as exc:  # RuntimeError: a symlink loop (Python < 3.13)
        raise InvalidFileError(f"{given}: cannot resolve the path ({exc})") from exc


def _require_regular(label: str, mode: int) -> None:
    if stat.S_ISREG(mode):
        return
    what = _NOT_REGULAR.get(stat.S_IFMT(mode), "not a regular file")
    raise PathNotAllowedError(f"{label} is {what}; only regular files can be read")
