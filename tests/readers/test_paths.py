"""Root confinement, regular-file checks and capped reads (readers/paths.py)."""

from __future__ import annotations

import os
import pickle
import re
import sys
from pathlib import Path

import pytest

from toolwire.errors import InvalidFileError, PathNotAllowedError, ToolwireError
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


def test_a_symlink_whose_dot_dots_climb_above_the_root_is_refused_even_if_they_come_back(layout):
    (layout / "sub" / "round.txt").symlink_to(Path("..") / ".." / layout.name / "notes.txt")
    with pytest.raises(PathNotAllowedError, match="outside the allowed root"):
        read_file("sub/round.txt", root=layout)


def test_a_chain_of_relative_symlinks_that_stays_inside_the_root_is_followed(layout):
    (layout / "sub" / "deeper").mkdir()
    (layout / "up").symlink_to("sub/deeper", target_is_directory=True)
    (layout / "sub" / "deeper" / "back.txt").symlink_to("../../notes.txt")
    target = paths.resolve("up/back.txt", layout)
    assert target.parts == ("notes.txt",)
    assert paths.read_bytes(target, 100, "test files") == b"inside\n"


def test_a_target_survives_pickling_and_reads_the_same_file(layout):
    target = pickle.loads(pickle.dumps(paths.resolve("sub/../notes.txt", layout)))
    assert paths.read_head(target) == b"inside\n"


def test_a_directory_swapped_for_an_outward_symlink_after_the_check_is_refused(layout):
    (layout / "sub" / "f.txt").write_text("inside\n")
    (layout.parent / "elsewhere").mkdir()
    (layout.parent / "elsewhere" / "f.txt").write_text("outside\n")
    target = paths.resolve("sub/f.txt", layout)
    os.rename(layout / "sub", layout / "old-sub")
    (layout / "sub").symlink_to(layout.parent / "elsewhere", target_is_directory=True)
    with pytest.raises(PathNotAllowedError, match="outside the allowed root"):
        paths.read_bytes(target, 100, "test files")


@posix_only
def test_a_hard_link_under_the_root_is_refused_by_default_and_names_the_option(layout):
    os.link(layout.parent / "secret.txt", layout / "linked.txt")
    with pytest.raises(PathNotAllowedError, match="2 hard links.*allow_hardlinks=True"):
        read_file("linked.txt", root=layout)


@posix_only
def test_allow_hardlinks_reads_a_hard_linked_file_under_the_root(layout):
    os.link(layout.parent / "secret.txt", layout / "linked.txt")
    result = read_file("linked.txt", root=layout, allow_hardlinks=True)
    assert "outside" in result.value[0].text


@posix_only
def test_without_a_root_a_hard_linked_file_is_read(layout):
    os.link(layout.parent / "secret.txt", layout / "linked.txt")
    assert "outside" in read_file(layout / "linked.txt").value[0].text


@pytest.mark.parametrize("argument", ["path", "root"])
def test_a_nul_byte_in_a_path_is_an_error_naming_the_argument(layout, argument):
    given = {"path": "notes.txt", "root": layout, argument: f"{layout}/notes\0.txt"}
    with pytest.raises(InvalidFileError, match=f"read_file: {argument} .* holds a NUL byte"):
        read_file(given["path"], root=given["root"])


@pytest.mark.parametrize(
    ("path", "message"),
    [
        (None, "path must be a str, bytes or os.PathLike, not NoneType"),
        (42, "path must be a str, bytes or os.PathLike, not int"),
        ("", "path is empty"),
        ("\ud800.txt", "cannot be encoded for the file system"),
        ("\udc80.txt", "no such file"),
        ("x" * 5000, "File name too long"),
        ("d/" * 3000 + "f.txt", "no such file|File name too long"),
        ("notes.txt/more", "no such file"),
    ],
    ids=[
        "none",
        "int",
        "empty",
        "lone-surrogate",
        "undecodable-byte",
        "long-name",
        "deep",
        "file-as-dir",
    ],
)
@pytest.mark.parametrize("confined", [True, False], ids=["root", "no-root"])
def test_odd_paths_are_clean_toolwire_errors_not_os_tracebacks(layout, path, message, confined):
    if not confined and isinstance(path, str) and path:
        path = os.path.join(layout, path)
    error = outcome(lambda: read_file(path, root=layout if confined else None))
    assert isinstance(error, ToolwireError), repr(error)
    assert re.search(message, str(error))
    assert len(str(error)) < 1000
    str(error).encode("utf-8")  # printable anywhere: odd characters are escaped


def test_a_bytes_path_is_read_like_its_decoded_form(layout):
    assert "inside" in read_file(b"notes.txt", root=layout).value[0].text


def test_a_missing_root_says_so(tmp_path):
    with pytest.raises(InvalidFileError, match="is not an existing directory"):
        read_file("notes.txt", root=tmp_path / "nowhere")


def test_an_absolute_path_inside_the_root_is_read_through_the_root_as_given(layout, tmp_path):
    (tmp_path / "root-link").symlink_to(layout, target_is_directory=True)
    for root in (layout, tmp_path / "root-link"):
        target = paths.resolve(root / "sub" / ".." / "notes.txt", root)
        assert target.parts == ("notes.txt",)


def test_an_absolute_symlink_naming_the_root_by_its_given_path_is_followed(layout, tmp_path):
    (tmp_path / "root-link").symlink_to(layout, target_is_directory=True)
    (layout / "alias.txt").symlink_to(tmp_path / "root-link" / "sub" / ".." / "notes.txt")
    text = read_file("alias.txt", root=tmp_path / "root-link").value[0].text
    assert "inside" in text


@pytest.mark.skipif(not os.path.isdir("/proc/self/fd"), reason="counts descriptors in /proc")
def test_refused_and_successful_walks_leave_no_descriptor_open(layout):
    (layout / "escape").symlink_to(layout.parent, target_is_directory=True)
    (layout / "sub" / "deep").mkdir()
    os.link(layout.parent / "secret.txt", layout / "sub" / "deep" / "linked.txt")
    before = len(os.listdir("/proc/self/fd"))
    for path in ["sub/deep/linked.txt", "escape/secret.txt", "sub/deep/../../..", "sub/deep"]:
        for _ in range(50):
            with pytest.raises((InvalidFileError, PathNotAllowedError)):
                paths.resolve(path, layout)
    for _ in range(50):
        paths.read_head(paths.resolve("sub/deep/../../notes.txt", layout))
    assert len(os.listdir("/proc/self/fd")) == before
