"""Root confinement, regular-file checks and capped reads (readers/paths.py)."""

from __future__ import annotations

import os
import sys

import pytest

from toolwire.errors import InvalidFileError, PathNotAllowedError
from toolwire.readers import paths, read_file

from .helpers import outcome

posix_only = pytest.mark.skipif(sys.platform == "win32", reason="POSIX file types")


@pytest.fixture
def layout(tmp_path):
    """root/ with notes.txt and a sub/ folder, and a secret.txt next to root/."""
    root = tmp_path / "root"
    (root / "sub").mkdir(parents=True)
    (root / "notes.txt").write_text("inside\n")
    (tmp_path / "secret.txt").write_text("outside\n")
    return root


def test_a_relative_path_is_taken_relative_to_the_root(layout):
    target = paths.resolve("sub/../notes.txt", layout)
    assert target.path == (layout / "notes.txt").resolve()
    assert target.name == "notes.txt"
    assert target.size == len("inside\n")


def test_dot_dot_climbing_out_of_the_root_is_refused(layout):
    with pytest.raises(PathNotAllowedError, match="outside the allowed root"):
        read_file("../secret.txt", root=layout)


def test_an_absolute_path_outside_the_root_is_refused(layout):
    with pytest.raises(PathNotAllowedError, match="outside the allowed root"):
        read_file(layout.parent / "secret.txt", root=layout)


def test_a_symlink_inside_the_root_pointing_out_is_refused(layout):
    (layout / "link.txt").symlink_to(layout.parent / "secret.txt")
    with pytest.raises(PathNotAllowedError, match="outside the allowed root"):
        read_file("link.txt", root=layout)


def test_a_symlinked_directory_pointing_out_is_refused(layout):
    (layout / "escape").symlink_to(layout.parent, target_is_directory=True)
    with pytest.raises(PathNotAllowedError, match="outside the allowed root"):
        read_file("escape/secret.txt", root=layout)


def test_a_symlink_that_stays_inside_the_root_is_followed(layout):
    (layout / "sub" / "alias.txt").symlink_to(layout / "notes.txt")
    result = read_file("sub/alias.txt", root=layout)
    assert "inside" in result.value[0].text


def test_a_root_that_is_itself_a_symlink_still_confines(layout, tmp_path):
    (tmp_path / "root-link").symlink_to(layout, target_is_directory=True)
    assert "inside" in read_file("notes.txt", root=tmp_path / "root-link").value[0].text
    with pytest.raises(PathNotAllowedError):
        read_file("../secret.txt", root=tmp_path / "root-link")


def test_a_symlink_loop_is_an_error_not_a_hang(layout):
    (layout / "a").symlink_to(layout / "b")
    (layout / "b").symlink_to(layout / "a")
    error = outcome(lambda: read_file("a", root=layout))
    assert isinstance(error, InvalidFileError | PathNotAllowedError)


@posix_only
def test_a_fifo_is_refused_without_blocking(layout):
    os.mkfifo(layout / "pipe")
    error = outcome(lambda: read_file("pipe", root=layout))
    assert isinstance(error, PathNotAllowedError)
    assert "FIFO" in str(error)


@posix_only
def test_a_character_device_is_refused():
    error = outcome(lambda: read_file("/dev/null"))
    assert isinstance(error, PathNotAllowedError)
    assert "character device" in str(error)


def test_a_directory_is_refused(layout):
    with pytest.raises(PathNotAllowedError, match="sub is a directory"):
        read_file("sub", root=layout)


def test_a_missing_file_says_so(layout):
    with pytest.raises(InvalidFileError, match="no such file"):
        read_file("missing.txt", root=layout)


def test_an_empty_file_is_refused(layout):
    (layout / "empty.pdf").write_bytes(b"")
    with pytest.raises(InvalidFileError, match=r"empty \(0 bytes\)"):
        read_file("empty.pdf", root=layout)


def test_a_file_over_the_cap_is_refused_and_the_message_names_the_cap(layout):
    target = paths.resolve("notes.txt", layout)
    with pytest.raises(InvalidFileError, match="over 4 B are not read"):
        paths.read_bytes(target, 4, "test files")


def test_truncate_returns_the_first_bytes_of_a_large_file(layout):
    target = paths.resolve("notes.txt", layout)
    assert paths.read_bytes(target, 4, "test files", truncate=True) == b"insi"


def test_a_file_replaced_after_the_check_is_refused(layout):
    target = paths.resolve("notes.txt", layout)
    replacement = layout / "other.txt"
    replacement.write_text("swapped in\n")
    os.replace(replacement, layout / "notes.txt")
    with pytest.raises(PathNotAllowedError, match="replaced between the check and the read"):
        paths.read_bytes(target, 1000, "test files")
