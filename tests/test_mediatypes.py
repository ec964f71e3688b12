"""Media types: sniffing every example file, declared types the bytes contradict, aliases, kinds."""

from __future__ import annotations

import io
import math
import struct
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from toolwire.errors import InvalidFileError
from toolwire.mediatypes import (
    DOCX,
    PPTX,
    XLSX,
    check_declared,
    check_head,
    is_document,
    is_textual,
    kind_of,
    normalise,
    sniff,
)

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
# Documentation, the generator, and the agent example's scripts (examples/agent.py).
NOT_EXAMPLES = {"README.md", "make_examples.py", "agent.py", "_agent_providers.py", "mcp_server.py"}

#: Every example file and the media type its bytes (and, for csv/md, its name) declare.
EXPECTED = {
    "clip.mp4": "video/mp4",
    "data.csv": "text/csv",
    "deck.pptx": PPTX,
    "diagram.svg": "image/svg+xml",
    "memo.docx": DOCX,
    "notes.md": "text/markdown",
    "photo.png": "image/png",
    "report.pdf": "application/pdf",
    "rotated.jpg": "image/jpeg",
    "sample.webp": "image/webp",
    "sheet.xlsx": XLSX,
    "tone.mp3": "audio/mpeg",
    "tone.wav": "audio/wav",
    "formats/audio.flac": "audio/flac",
    "formats/audio.m4a": "audio/mp4",
    "formats/audio.ogg": "audio/ogg",
    "formats/data.json": "application/json",
    "formats/image.bmp": "image/bmp",
    "formats/image.gif": "image/gif",
    "formats/image.heic": "image/heic",
    "formats/image.tiff": "image/tiff",
    "formats/page.html": "text/html",
    "formats/plain.txt": "text/plain",
    "formats/video.mov": "video/quicktime",
    "formats/video.webm": "video/webm",
}
#: Text formats that only the file name tells apart from text/plain.
NEEDS_NAME = {"data.csv", "notes.md"}


def example(name: str) -> bytes:
    return (EXAMPLES / name).read_bytes()


def test_every_example_file_has_an_expected_media_type():
    on_disk = {
        p.relative_to(EXAMPLES).as_posix()
        for p in EXAMPLES.rglob("*")
        if p.is_file() and p.name not in NOT_EXAMPLES and "__pycache__" not in p.parts
    }
    assert on_disk == set(EXPECTED)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_sniff_recognises_each_example_from_its_bytes_and_name(name):
    assert sniff(example(name), Path(name).name) == EXPECTED[name]


@pytest.mark.parametrize("name", sorted(set(EXPECTED) - NEEDS_NAME))
def test_sniff_needs_no_file_name_except_for_csv_and_markdown(name):
    assert sniff(example(name)) == EXPECTED[name]


@pytest.mark.parametrize("name", sorted(NEEDS_NAME))
def test_csv_and_markdown_without_a_name_are_plain_text(name):
    assert sniff(example(name)) == "text/plain"


def test_office_type_comes_from_the_zip_parts_not_the_extension():
    assert sniff(example("memo.docx"), "misnamed.xlsx") == DOCX
    assert sniff(example("sheet.xlsx"), "misnamed.pptx") == XLSX


def test_a_zip_head_alone_falls_back_to_the_office_extension():
    head = example("memo.docx")[:64]  # no central directory: the parts are unknown
    assert sniff(head, "memo.docx") == DOCX
    assert sniff(head, "archive.bin") == "application/zip"


@pytest.mark.parametrize(
    ("declared", "name", "found"),
    [
        ("image/png", "report.pdf", "application/pdf"),
        ("application/pdf", "photo.png", "image/png"),
        ("image/jpeg", "sample.webp", "image/webp"),
        ("image/gif", "formats/image.bmp", "image/bmp"),
        ("audio/wav", "tone.mp3", "audio/mpeg"),
        ("video/mp4", "tone.wav", "audio/wav"),
        ("audio/flac", "formats/audio.ogg", "audio/ogg"),
        ("text/plain", "photo.png", "image/png"),
        ("text/csv", "report.pdf", "application/pdf"),
        (DOCX, "sheet.xlsx", XLSX),
        (PPTX, "memo.docx", DOCX),
        ("image/png", "notes.md", "text/markdown"),
    ],
)
def test_a_declared_type_the_bytes_contradict_is_an_error_naming_both(declared, name, found):
    label = Path(name).name
    with pytest.raises(InvalidFileError) as info:
        check_declared(declared, example(name), label)
    message = str(info.value)
    assert label in message
    assert f"declared {declared}" in message
    assert found in message
    assert "fix the media type or the file" in message


def test_a_zip_head_is_not_judged_by_the_name_when_checking_only_the_head():
    head = example("memo.docx")[:8192]
    assert check_head(DOCX, head, "numbers.xlsx") == DOCX
    with pytest.raises(InvalidFileError, match="declared image/png, but the bytes are"):
        check_head("image/png", head, "numbers.xlsx")


def test_bytes_without_the_declared_signature_are_called_corrupt_or_mislabelled():
    with pytest.raises(InvalidFileError, match=r"not image/png \(no image/png signature"):
        check_declared("image/png", bytes(range(256)) * 4, "shot.png")


@pytest.mark.parametrize(
    ("declared", "name", "kept"),
    [
        ("image/jpg", "rotated.jpg", "image/jpeg"),
        ("IMAGE/PNG; charset=binary", "photo.png", "image/png"),
        ("audio/x-wav", "tone.wav", "audio/wav"),
        ("audio/mp3", "tone.mp3", "audio/mpeg"),
        ("audio/x-m4a", "formats/audio.m4a", "audio/mp4"),
        ("video/mp4", "formats/audio.m4a", "video/mp4"),  # same ISO BMFF container family
        ("audio/webm", "formats/video.webm", "audio/webm"),
        ("audio/opus", "formats/audio.ogg", "audio/opus"),
        ("image/heif", "formats/image.heic", "image/heif"),
        ("text/plain", "data.csv", "text/plain"),  # text declared for text: the caller knows
        ("text/markdown", "formats/plain.txt", "text/markdown"),
        ("application/zip", "memo.docx", "application/zip"),
    ],
)
def test_a_declared_type_the_bytes_agree_with_is_kept(declared, name, kept):
    assert check_declared(declared, example(name), Path(name).name) == kept


@pytest.mark.parametrize("declared", [None, "application/octet-stream"])
def test_without_a_useful_declared_type_the_sniffed_one_is_used(declared):
    assert check_declared(declared, example("photo.png"), "photo.png") == "image/png"


def test_bytes_with_no_signature_and_no_declared_type_ask_for_one():
    with pytest.raises(InvalidFileError, match=r"blob\.bin: cannot tell .*pass media_type"):
        check_declared(None, b"\x00\x01\x02\x03" * 64, "blob.bin")


# Real files of formats toolwire has no signature for, made with PyAV (FFmpeg) in memory.
def _tone_frames(av, rate=16000, frames=8, size=1024):
    for k in range(frames):
        samples = (
            int(8000 * math.sin(2 * math.pi * 440 * (k * size + i) / rate)) for i in range(size)
        )
        frame = av.AudioFrame(format="s16", layout="mono", samples=size)
        frame.planes[0].update(struct.pack(f"<{size}h", *samples))
        frame.sample_rate, frame.pts = rate, k * size
        yield frame


def _grey_frames(av, width, height, frames=5):
    for n in range(frames):
        frame = av.VideoFrame(width, height, "yuv420p")
        for plane in frame.planes:
            plane.update(bytes([n * 40]) * plane.buffer_size)
        frame.pts = n
        yield frame


def _encode(container_format: str, codec: str, video: tuple[int, int] | None = None) -> bytes:
    av = pytest.importorskip("av")
    buffer = io.BytesIO()
    with av.open(buffer, "w", format=container_format) as container:
        if video is None:
            stream = container.add_stream(codec, rate=16000)
            stream.layout = "mono"
            frames = list(_tone_frames(av))
        else:
            stream = container.add_stream(codec, rate=25)
            stream.width, stream.height, stream.pix_fmt = *video, "yuv420p"
            frames = list(_grey_frames(av, *video))
        for frame in [*frames, None]:
            container.mux(stream.encode(frame))
    return buffer.getvalue()


@pytest.mark.parametrize(
    ("declared", "container_format", "codec", "video"),
    [
        ("audio/aac", "adts", "aac", None),
        ("audio/aiff", "aiff", "pcm_s16be", None),
        ("video/x-flv", "flv", "flv1", (96, 64)),
        ("video/mpeg", "mpeg", "mpeg1video", (96, 64)),
        ("video/wmv", "asf", "wmv2", (96, 64)),
        ("video/3gpp", "3gp", "mpeg4", (176, 144)),
    ],
)
def test_formats_the_capability_table_lists_can_be_declared_for_real_files(
    declared, container_format, codec, video
):
    data = _encode(container_format, codec, video)
    assert check_declared(declared, data, f"clip.{container_format}") == declared


def test_a_format_without_a_signature_is_still_refused_when_the_bytes_are_another_format():
    with pytest.raises(InvalidFileError, match="declared audio/aac, but the bytes are image/png"):
        check_declared("audio/aac", example("photo.png"), "voice.aac")


@pytest.mark.parametrize(
    ("text", "name", "expected"),
    [
        (b"<!DOCTYPE html><html><body>hi</body></html>", None, "text/html"),
        (b"\xef\xbb\xbf  <html lang='en'></html>", None, "text/html"),
        (
            b'<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg"/>',
            None,
            "image/svg+xml",
        ),
        (b'{"a": [1, 2, {"b": null}]}', None, "application/json"),
        (b"{not json at all", None, "text/plain"),
        (b"a,b\n1,2\n", "table.csv", "text/csv"),
        (b"a\tb\n1\t2\n", "table.tsv", "text/tab-separated-values"),
        (b"# Title\n", "README.MD", "text/markdown"),
        (b"plain words", "notes.unknown", "text/plain"),
        ("caf\u00e9 UTF-16 text".encode("utf-16"), None, "text/plain"),
        # Text that happens to start like a binary signature is still text.
        (b"BMI values of the cohort were measured twice in 2024.", None, "text/plain"),
        (b"ID3 tags hold an MP3's title and artist.", None, "text/plain"),
    ],
)
def test_text_is_told_apart_by_content_first_and_name_second(text, name, expected):
    assert sniff(text, name) == expected


def test_text_that_mentions_a_pdf_header_is_text_not_a_pdf():
    notes = b"# Release notes\n\nExports now write %PDF-1.7 files.\n"
    assert sniff(notes, "notes.md") == "text/markdown"
    assert check_declared("text/markdown", notes, "notes.md") == "text/markdown"


@pytest.mark.parametrize(
    "junk", [b"", b"\x00\x01\x02 binary junk\r\n", b"\xff\xfe\xfd not UTF-8 "], ids=repr
)
def test_a_pdf_header_counts_at_the_start_or_after_binary_junk(junk):
    assert sniff(junk + b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj") == "application/pdf"


def test_utf8_cut_mid_character_at_the_sample_end_is_still_text():
    data = ("x" * 8191 + "\u00e9" + "tail").encode()  # the é straddles byte 8192
    assert sniff(data[: 8192 + 1]) == "text/plain"


def test_hostile_json_nesting_sniffs_as_text_instead_of_crashing():
    assert sniff(b"[" * 100_000) == "text/plain"


@given(st.binary(max_size=2048))
def test_sniff_never_raises_on_arbitrary_bytes(data):
    found = sniff(data)
    assert found is None or "/" in found


@given(
    st.sampled_from(
        [b"\x89PNG\r\n\x1a\n", b"PK\x03\x04", b"RIFF\x00\x00\x00\x00WEBP", b"OggS", b"["]
    ),
    st.binary(max_size=512),
    st.sampled_from([None, "image/png", "text/plain", DOCX, "audio/aac"]),
)
def test_check_declared_fails_only_with_invalid_file_error(signature, tail, declared):
    try:
        result = check_declared(declared, signature + tail, "x")
    except InvalidFileError:
        return
    assert "/" in result


@pytest.mark.parametrize(
    ("raw", "normal"),
    [
        ("image/JPG", "image/jpeg"),
        (" text/x-markdown ; charset=utf-8", "text/markdown"),
        ("audio/vnd.wave", "audio/wav"),
        ("application/x-pdf", "application/pdf"),
        ("video/mp4", "video/mp4"),
    ],
)
def test_normalise_lowercases_strips_parameters_and_maps_aliases(raw, normal):
    assert normalise(raw) == normal


@pytest.mark.parametrize(
    ("media_type", "kind"),
    [
        ("image/png", "image"),
        ("image/svg+xml", "image"),
        ("audio/mpeg", "audio"),
        ("video/quicktime", "video"),
        ("application/pdf", "document"),
        ("text/csv", "document"),
        ("text/markdown", "document"),
        ("text/html", "document"),
        ("application/json", "document"),
        (DOCX, "document"),
        (XLSX, "document"),
        (PPTX, "document"),
    ],
)
def test_kind_follows_the_top_level_type_and_everything_else_is_a_document(media_type, kind):
    assert kind_of(media_type) == kind


def test_textual_and_document_predicates():
    assert all(is_textual(t) for t in ("text/plain", "application/json", "image/svg+xml"))
    assert not any(is_textual(t) for t in ("application/pdf", DOCX, "image/png"))
    assert all(is_document(t) for t in ("text/csv", "application/pdf", DOCX, "application/json"))
    assert not any(is_document(t) for t in ("image/png", "audio/wav", "video/mp4"))
