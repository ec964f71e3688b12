"""Which file read_file may open, and opening it without being tricked.

Under a root (``read_file(root=…)``, ``read_file_tool``), whatever else changes the tree:

- **The root is enforced per component, never following links out.** The path is walked
  from a descriptor of the root, each directory opened relative to its parent's descriptor
  with ``O_NOFOLLOW | O_DIRECTORY``: what is checked is what is opened, so swapping a
  directory for a symlink mid-read cannot lead the walk out. Symlinks are resolved here
  (``readlink`` relative to their directory) and followed only while they stay inside the
  root: an absolute target must name the root, ``..`` never climbs above it, 40 links at
  most. A link pointing out is refused with PathNotAllowedError.
- **Only regular files**, checked with ``lstat`` before opening (a FIFO would block) and with
  ``fstat`` after. **Hard links are refused by default**: a file with more than one name
  (``st_nlink > 1``) may have its other names anywhere; ``allow_hardlinks=True`` reads it.
- **Every read lands on the checked file**: ``read_bytes`` walks again from the root (a Target
  holds no descriptor, so it pickles) and accepts only the same root and the same file
  (device and inode).

Without a root any regular file the process can read is allowed: the path is resolved, opened
with ``O_NOFOLLOW``, and must be the file that was checked. A path must be a ``str``, bytes or
``os.PathLike``, non-empty, without NUL bytes and encodable for the file system; anything
else is an InvalidFileError naming the argument, never an OSError.
"""

from __future__ import annotations

import errno
import os
import stat
from dataclasses import dataclass
from pathlib import Path, PurePath

from ..errors import InvalidFileError, PathNotAllowedError, ToolwireError
from ..headers import human_size

_FLAGS = os.O_RDONLY | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0)
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_FILE_FLAGS = _FLAGS | _NOFOLLOW | getattr(os, "O_NONBLOCK", 0)  # never wait on a FIFO
# Directories are only searched: O_PATH (Linux) needs no read permission on them.
_ROOT_FLAGS = _FLAGS | getattr(os, "O_PATH", 0) | getattr(os, "O_DIRECTORY", 0)
_DIR_FLAGS = _ROOT_FLAGS | _NOFOLLOW
_MAX_LINKS = 40  # as Linux's MAXSYMLINKS
_LINK_ERRNOS = {errno.ELOOP, errno.ENOTDIR, errno.EMLINK}  # O_NOFOLLOW met a link (BSD: EMLINK)
_CAN_WALK = {os.open, os.stat, os.readlink} <= os.supports_dir_fd

_NOT_REGULAR = {
    stat.S_IFDIR: "a directory",
    stat.S_IFIFO: "a FIFO (named pipe)",
    stat.S_IFCHR: "a character device",
    stat.S_IFBLK: "a block device",
    stat.S_IFSOCK: "a socket",
}


@dataclass(frozen=True)
class Target:
    """A regular, non-empty file that may be read: ``parts`` is its link-free path under root."""

    path: Path
    name: str
    size: int
    device: int
    inode: int
    root: Path | None = None
    root_id: tuple[int, int] = (0, 0)
    parts: tuple[str, ...] = ()
    allow_hardlinks: bool = False


@dataclass(frozen=True)
class _Root:
    """The root as resolved and as given (absolute), for symlink targets naming it."""

    path: Path
    given: Path


def resolve(
    path: str | os.PathLike[str],
    root: str | os.PathLike[str] | None,
    *,
    allow_hardlinks: bool = False,
) -> Target:
    """The file ``path`` names, checked: inside ``root`` (when given), regular, not empty.

    A relative path is taken relative to ``root`` when one is given, else to the working
    directory. Raises PathNotAllowedError for paths outside the root, for directories,
    FIFOs, devices and sockets, and (under a root, unless ``allow_hardlinks``) for files with
    more than one hard link; InvalidFileError for missing or empty files and malformed paths.
    """
    given = _argument(path, "path")
    if root is None:
        return _resolve_unconfined(given)
    where = _root(_argument(root, "root"))
    label = _shown(str(given))
    parts = _root_relative(given, where, label)
    root_fd, root_id = _open_root(where)
    try:
        fd, names = _Walk(root_fd, where, label).run(parts)
    finally:
        os.close(root_fd)
    try:
        info = _check_file(label, os.fstat(fd), where.path, allow_hardlinks)
    finally:
        os.close(fd)
    resolved = where.path.joinpath(*names)
    return Target(
        resolved, _display_name(given), info.st_size, info.st_dev, info.st_ino,
        where.path, root_id, names, allow_hardlinks,
    )  # fmt: skip


def read_bytes(target: Target, limit: int, what: str, *, truncate: bool = False) -> bytes:
    """The file's bytes, at most ``limit`` of them.

    A file larger than ``limit`` is refused (naming ``what`` kind of file the cap is for),
    unless ``truncate`` is set, in which case its first ``limit`` bytes are returned.
    """
    fd = _reopen(target)
    try:
        info = os.fstat(fd)
        _check_file(target.name, info, target.root, target.allow_hardlinks)
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


class _Walk:
    """Opens a path under a root descriptor one component at a time, resolving links itself."""

    def __init__(self, root_fd: int, where: _Root, label: str) -> None:
        self.root_fd = root_fd
        self.where = where
        self.label = label
        self.dirs: list[int] = []  # descriptors of the directories below the root, in order
        self.names: list[str] = []
        self.links = 0

    def run(self, parts: list[str]) -> tuple[int, tuple[str, ...]]:
        """The open descriptor of the regular file ``parts`` names, and its link-free parts."""
        pending = list(reversed(parts))
        try:
            while pending:
                name = pending.pop()
                if name == "..":
                    self._up()
                elif name not in ("", "."):
                    fd = self._step(name, pending)
                    if fd is not None:
                        return fd, (*self.names, name)
        finally:
            self._close()
        raise PathNotAllowedError(f"{self.label} is a directory; only regular files can be read")

    def _up(self) -> None:
        if not self.names:
            raise _outside(self.label, self.where.path)
        os.close(self.dirs.pop())
        self.names.pop()

    def _step(self, name: str, pending: list[str]) -> int | None:
        """Open ``name``: a file (returned) if last, else a directory entered; a link expanded."""
        here = self.dirs[-1] if self.dirs else self.root_fd
        opened = (_open_dir if pending else _open_file)(here, name, self.label)
        if isinstance(opened, int):
            if not pending:
                return opened
            self.dirs.append(opened)
            self.names.append(name)
            return None
        self.links += 1
        if self.links > _MAX_LINKS:
            raise InvalidFileError(
                f"{self.label}: more than {_MAX_LINKS} symlinks to follow (a symlink loop?)"
            )
        pending.extend(reversed(self._link_parts(opened)))
        return None

    def _link_parts(self, link: str) -> list[str]:
        """The parts a symlink's target adds; an absolute one starts again from the root."""
        target = PurePath(link)
        if target.is_absolute():
            self._close()
        return _root_relative(target, self.where, self.label)

    def _close(self) -> None:
        for fd in self.dirs:
            os.close(fd)
        self.dirs.clear()
        self.names.clear()


def _open_dir(here: int, name: str, label: str) -> int | str:
    """A directory's descriptor, or the target of the symlink found instead."""
    try:
        return os.open(name, _DIR_FLAGS, dir_fd=here)
    except OSError as exc:
        if exc.errno not in _LINK_ERRNOS:
            raise _open_error(label, exc) from exc
        code = exc.errno
    link = _readlink(here, name)
    if link is not None:
        return link
    if code == errno.ENOTDIR:
        raise InvalidFileError(f"{label}: no such file ({_shown(name)} is not a directory)")
    raise _changed(label)  # a symlink when opened, not one when read: swapped meanwhile


def _open_file(here: int, name: str, label: str) -> int | str:
    """A regular file's descriptor (checked by type before opening), or a symlink's target."""
    try:
        info = os.stat(name, dir_fd=here, follow_symlinks=False)
    except OSError as exc:
        raise _open_error(label, exc) from exc
    if stat.S_ISLNK(info.st_mode):
        link = _readlink(here, name)
        if link is None:
            raise _changed(label)
        return link
    _require_regular(label, info.st_mode)
    try:
        fd = os.open(name, _FILE_FLAGS, dir_fd=here)
    except OSError as exc:
        raise _open_error(label, exc) from exc
    opened = os.fstat(fd)
    if (opened.st_dev, opened.st_ino) != (info.st_dev, info.st_ino):
        os.close(fd)
        raise _changed(label)
    return fd


def _readlink(here: int, name: str) -> str | None:
    try:
        return os.readlink(name, dir_fd=here)
    except OSError:  # EINVAL: not (or no longer) a symlink; the caller says what it is
        return None


def _changed(label: str) -> PathNotAllowedError:
    return PathNotAllowedError(f"{label} changed while it was being opened; read it again")


def _open_error(label: str, exc: OSError) -> ToolwireError:
    if exc.errno in (errno.ENOENT, errno.ENOTDIR):
        return InvalidFileError(f"{label}: no such file")
    if exc.errno == errno.ELOOP:  # the last component became a symlink after its lstat
        return _changed(label)
    if exc.errno == errno.EACCES:
        return PathNotAllowedError(f"{label}: permission denied; the process may not read it")
    return InvalidFileError(f"{label}: cannot open ({exc.strerror})")


def _reopen(target: Target) -> int:
    """A new descriptor for the target: walked again from its root, or opened by path."""
    if target.root is None:
        try:
            return os.open(target.path, _FILE_FLAGS)
        except OSError as exc:
            raise _open_error(target.name, exc) from exc
    where = _Root(target.root, target.root)
    root_fd, root_id = _open_root(where)
    try:
        if root_id != target.root_id:
            raise PathNotAllowedError(f"the root {target.root} was replaced; read it again")
        return _Walk(root_fd, where, target.name).run(list(target.parts))[0]
    finally:
        os.close(root_fd)


def _argument(value: object, argument: str) -> Path:
    """``value`` as a Path, or an InvalidFileError saying what is wrong with it."""
    try:
        text = os.fspath(value)  # type: ignore[call-overload]
    except TypeError:
        text = None
    text = os.fsdecode(text) if isinstance(text, bytes) else text
    if not isinstance(text, str):
        raise InvalidFileError(
            f"read_file: {argument} must be a str, bytes or os.PathLike, not {type(value).__name__}"
        )
    if not text:
        raise InvalidFileError(f"read_file: {argument} is empty; pass the file's path")
    if "\0" in text:
        raise InvalidFileError(
            f"read_file: {argument} {_shown(text)} holds a NUL byte, which no file name "
            "can hold; pass the path without it"
        )
    try:
        os.fsencode(text)
    except UnicodeEncodeError as exc:
        raise InvalidFileError(
            f"read_file: {argument} {_shown(text)} cannot be encoded for the file system "
            f"({exc.reason}); pass a valid path"
        ) from exc
    return Path(text)


def _root(given: Path) -> _Root:
    if not _CAN_WALK:
        raise PathNotAllowedError("read_file: root= needs dir_fd calls this platform lacks")
    absolute = Path(os.path.abspath(given))
    try:
        return _Root(absolute.resolve(), absolute)
    except (OSError, RuntimeError) as exc:  # RuntimeError: a symlink loop (Python < 3.13)
        raise InvalidFileError(f"root {_shown(str(given))}: cannot resolve ({exc})") from exc


def _open_root(where: _Root) -> tuple[int, tuple[int, int]]:
    try:
        fd = os.open(where.path, _ROOT_FLAGS)
    except OSError as exc:
        shown = _shown(str(where.given))
        if exc.errno in (errno.ENOENT, errno.ENOTDIR):
            raise InvalidFileError(f"root {shown} is not an existing directory") from exc
        raise InvalidFileError(f"root {shown}: cannot open ({exc.strerror})") from exc
    info = os.fstat(fd)
    return fd, (info.st_dev, info.st_ino)


def _root_relative(path: PurePath, where: _Root, label: str) -> list[str]:
    """The parts to walk: a relative path's own, an absolute one's after the root it names."""
    if not path.is_absolute():
        return list(path.parts)
    for base in (where.path, where.given):
        if path.parts[: len(base.parts)] == base.parts:
            return list(path.parts[len(base.parts) :])
    raise _outside(label, where.path)


def _resolve_unconfined(given: Path) -> Target:
    label = _shown(str(given))
    try:
        resolved = given.resolve()
        info = resolved.stat()
    except OSError as exc:
        raise _open_error(label, exc) from exc
    except RuntimeError as exc:  # a symlink loop (Python < 3.13)
        raise InvalidFileError(f"{label}: cannot resolve the path ({exc})") from exc
    _check_file(label, info, None, False)
    return Target(resolved, _display_name(given), info.st_size, info.st_dev, info.st_ino)


def _check_file(
    label: str, info: os.stat_result, root: Path | None, allow_hardlinks: bool
) -> os.stat_result:
    _require_regular(label, info.st_mode)
    if info.st_size == 0:
        raise InvalidFileError(f"{label} is empty (0 bytes); there is nothing to read")
    if root is not None and info.st_nlink > 1 and not allow_hardlinks:
        raise PathNotAllowedError(
            f"{label} has {info.st_nlink} hard links; under a root only files with one name "
            f"are read, since another name may lie outside {root}. Pass allow_hardlinks=True "
            "(read_file, or read_file_tool.bind) if hard links under the root are trusted"
        )
    return info


def _require_regular(label: str, mode: int) -> None:
    if stat.S_ISREG(mode):
        return
    what = _NOT_REGULAR.get(stat.S_IFMT(mode), "not a regular file")
    raise PathNotAllowedError(f"{label} is {what}; only regular files can be read")


def _outside(label: str, base: Path) -> PathNotAllowedError:
    return PathNotAllowedError(
        f"{label} is outside the allowed root {base} (after resolving '..' and symlinks); "
        f"only files under {base} can be read"
    )


def _shown(text: str) -> str:
    """A path as it can be printed: escaped if it holds odd characters, shortened if long."""
    shown = text if text.isprintable() else repr(text)
    return shown if len(shown) <= 200 else f"{shown[:120]}…{shown[-60:]}"


def _display_name(given: Path) -> str:
    """The file's name for headers, with bytes that are not UTF-8 shown as U+FFFD."""
    return os.fsencode(given.name).decode("utf-8", "replace")
