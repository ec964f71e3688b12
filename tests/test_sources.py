"""Sources: lazy path reads with a pinned hash, blobs, URLs, provider files, JSON round trips."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from toolwire import sources
from toolwire.content import File
from toolwire.errors import FileChangedError, InvalidFileError
from toolwire.messages import ToolResult, User, dump_conversation, load_conversation
from toolwire.sources import BlobSource, BytesSource, PathSource, ProviderFileSource, UrlSource

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
PNG = (EXAMPLES / "photo.png").read_bytes()
PDF = (EXAMPLES / "report.pdf").read_bytes()

OPENS_SCRIPT = """
import json, sys
path = sys.argv[1]
opens = []
sys.addaudithook(lambda event, args: event == "open" and str(args[0]) == path and opens.append(1))
import toolwire as tw
counts = []
file = tw.File.from_path(path, media_type="image/png", name="shot.png")
file.media_type, file.kind, file.name, file.model_dump_json()
counts.append(len(opens))
file.read()
counts.append(len(opens))
file.read(), file.identifier, file.text_fallback()
counts.append(len(opens))
print(json.dumps(counts))
"""


def test_from_path_with_a_media_type_opens_nothing_until_read_and_reads_once(tmp_path):
    path = tmp_path / "shot.png"
    path.write_bytes(PNG)
    command = [sys.executable, "-c", OPENS_SCRIPT, str(path)]
    done = subprocess.run(command, capture_output=True, text=True, check=True)
    assert json.loads(done.stdout) == [0, 1, 1]


def test_from_path_with_a_media_type_accepts_a_file_that_does_not_exist_yet(tmp_path):
    path = tmp_path / "later.png"
    file = File.from_path(path, media_type="image/png")
    path.write_bytes(PNG)
    assert file.read() == PNG


def test_a_declared_type_is_checked_against_the_bytes_at_the_first_read(tmp_path):
    path = tmp_path / "fake.png"
    path.write_bytes(PDF)
    file = File.from_path(path, media_type="image/png")  # no read, so no complaint yet
    with pytest.raises(
        InvalidFileError, match="declared image/png, but the bytes are application/pdf"
    ):
        file.read()


def test_a_file_replaced_between_sniffing_and_first_read_is_checked_against_the_sniffed_type(
    tmp_path,
):
    path = tmp_path / "shot"
    path.write_bytes(PNG)
    file = File.from_path(path)  # sniffs the first 8 KB only: nothing is pinned yet
    path.write_bytes(PDF)
    with pytest.raises(
        InvalidFileError, match="declared image/png, but the bytes are application/pdf"
    ):
        file.read()


def test_sniffing_reads_only_the_head_and_pins_nothing(tmp_path):
    path = tmp_path / "shot.png"
    path.write_bytes(PNG)
    file = File.from_path(path)
    assert json.loads(file.model_dump_json())["source"]["sha256"] is None
    file.read()
    assert json.loads(file.model_dump_json())["source"]["sha256"] == hashlib.sha256(PNG).hexdigest()


def test_a_read_file_keeps_its_pinned_bytes_after_the_disk_changes(tmp_path):
    path = tmp_path / "shot.png"
    path.write_bytes(PNG)
    file = File.from_path(path)
    file.read()
    path.write_bytes(PNG[:-10] + b"0123456789")
    assert file.read() == PNG


def test_a_file_reloaded_from_json_detects_a_change_on_disk(tmp_path):
    path = tmp_path / "shot.png"
    path.write_bytes(PNG)
    file = File.from_path(path)
    file.read()
    reloaded = File.model_validate_json(file.model_dump_json())
    assert reloaded == file
    path.write_bytes(PNG[:-10] + b"0123456789")
    with pytest.raises(FileChangedError) as info:
        reloaded.read()
    message = str(info.value)
    assert str(path) in message
    assert hashlib.sha256(PNG).hexdigest()[:12] in message
    assert "changed on disk after it was first read" in message
    assert "re-create the File" in message


def test_a_stored_conversation_detects_a_changed_file_through_every_use(tmp_path):
    path = tmp_path / "report.pdf"
    path.write_bytes(PDF)
    file = File.from_path(path, name="report.pdf")
    file.read()
    stored = dump_conversation([User(["see", file]), ToolResult.of("c1", "read", [file])])
    path.write_bytes(PDF + b"\n% an incremental update\n")
    user, result = load_conversation(stored, trust=("paths",))
    for use in (user.parts[1].read, user.parts[1].text_fallback, result.output.value[0].read):
        with pytest.raises(FileChangedError):
            use()


def test_rewriting_identical_bytes_is_not_a_change(tmp_path):
    path = tmp_path / "shot.png"
    path.write_bytes(PNG)
    file = File.from_path(path)
    file.read()
    reloaded = File.model_validate_json(file.model_dump_json())
    path.write_bytes(PNG)
    os.utime(path, (1, 1))
    assert reloaded.read() == PNG


def test_an_unread_path_reloads_unpinned_and_equal(tmp_path):
    path = tmp_path / "shot.png"
    path.write_bytes(PNG)
    file = File.from_path(path, media_type="image/png")
    reloaded = File.model_validate_json(file.model_dump_json())
    assert reloaded == file
    path.write_bytes(PNG + b"appended")  # before any read: simply the content at first read
    assert reloaded.read() == PNG + b"appended"


def test_a_directory_a_fifo_and_a_missing_path_are_refused(tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    cases = {
        tmp_path: "not a regular file",
        fifo: "not a regular file",
        tmp_path / "gone.png": "no such file",
    }
    for path, reason in cases.items():
        with pytest.raises(InvalidFileError, match=reason):
            File.from_path(path)
        with pytest.raises(InvalidFileError, match=reason):
            File.from_path(path, media_type="image/png").read()


@pytest.mark.skipif(not Path("/proc/self/mem").is_file(), reason="needs Linux /proc")
@pytest.mark.parametrize("media_type", [None, "image/png"])
def test_a_read_error_is_an_invalid_file_error_not_a_raw_os_error(media_type):
    # /proc/self/mem is a regular file whose first bytes cannot be read (EIO).
    with pytest.raises(InvalidFileError, match="/proc/self/mem: cannot read") as info:
        File.from_path("/proc/self/mem", media_type=media_type).read()
    assert isinstance(info.value.__cause__, OSError)


def test_an_empty_file_is_refused_naming_it(tmp_path):
    path = tmp_path / "empty.png"
    path.touch()
    with pytest.raises(InvalidFileError, match=f"{path} is empty"):
        File.from_path(path)


def test_files_over_the_size_limit_are_refused(tmp_path, monkeypatch):
    monkeypatch.setattr(sources, "MAX_FILE_BYTES", 1000)
    path = tmp_path / "big.pdf"
    path.write_bytes(PDF)
    with pytest.raises(InvalidFileError, match=f"{path} is {len(PDF)} bytes; files over 1000"):
        File.from_path(path, media_type="application/pdf").read()


def _blob(root: Path, data: bytes) -> BlobSource:
    digest = hashlib.sha256(data).hexdigest()
    (root / digest[:2]).mkdir(parents=True, exist_ok=True)
    (root / digest[:2] / digest).write_bytes(data)
    return BlobSource(sha256=digest, root=str(root))


def test_a_blob_reads_its_bytes_and_serialises_its_hash_as_sha256(tmp_path):
    source = _blob(tmp_path, PNG)
    assert source.read() == PNG
    assert json.loads(source.model_dump_json()) == {
        "type": "blob",
        "sha256": hashlib.sha256(PNG).hexdigest(),
        "root": str(tmp_path),
    }


def test_a_read_blob_equals_its_reloaded_copy(tmp_path):
    source = _blob(tmp_path, PNG)
    source.read()
    assert BlobSource.model_validate_json(source.model_dump_json()) == source
    assert hash(BlobSource.model_validate_json(source.model_dump_json())) == hash(source)


def test_a_corrupt_or_missing_blob_is_an_error_naming_it(tmp_path):
    source = _blob(tmp_path, PNG)
    digest = source.sha256()
    (tmp_path / digest[:2] / digest).write_bytes(b"tampered")
    with pytest.raises(InvalidFileError, match=f"blob {digest[:12]}… in {tmp_path} is corrupt"):
        BlobSource(sha256=digest, root=str(tmp_path)).read()
    (tmp_path / digest[:2] / digest).unlink()
    with pytest.raises(
        InvalidFileError, match=f"blob {digest[:12]}… is missing from {tmp_path}"
    ) as info:
        BlobSource(sha256=digest, root=str(tmp_path)).read()
    assert isinstance(info.value.__cause__, FileNotFoundError)


@pytest.mark.parametrize(
    ("url", "scheme"),
    [
        ("https://example.com/a.png", "url"),
        ("HTTP://example.com/a.png", "url"),
        ("s3://bucket/a.png", "s3"),
        ("gs://bucket/a.png", "gcs"),
        ("ftp://example.com/a.png", "ftp"),
    ],
)
def test_url_scheme_speaks_the_capability_vocabulary(url, scheme):
    assert UrlSource(url=url).scheme == scheme


def test_only_bytes_paths_and_blobs_are_local(tmp_path):
    local = [BytesSource(data=b"x"), PathSource(path=str(tmp_path / "x")), _blob(tmp_path, b"x")]
    remote = [UrlSource(url="https://x.test/a"), ProviderFileSource(provider="openai", file_id="f")]
    assert all(s.is_local for s in local)
    assert not any(s.is_local for s in remote)


def test_bytes_sources_compare_by_content():
    assert BytesSource(data=b"abc") == BytesSource(data=b"abc")
    assert BytesSource(data=b"abc") != BytesSource(data=b"abd")
    assert BytesSource(data=b"abc").sha256() == hashlib.sha256(b"abc").hexdigest()
    assert BytesSource(data=b"abc").describe() == "3 inline bytes"
