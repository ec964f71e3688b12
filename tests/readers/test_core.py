"""read_file's identification and dispatch (readers/core.py)."""

from __future__ import annotations

import os
import random

import pytest

import toolwire as tw
from toolwire.errors import InvalidFileError, ToolwireError
from toolwire.mediatypes import DOCX
from toolwire.messages import ContentOutput
from toolwire.readers import limits

from .helpers import copy_example, example, outcome


@pytest.mark.parametrize(
    ("name", "label", "media_types"),
    [
        ("photo.png", "PNG image", ["image/png"]),
        ("report.pdf", "PDF", ["application/pdf", "image/png"]),
        ("memo.docx", "Word document (DOCX)", [DOCX]),
        ("data.csv", "CSV table", ["text/csv"]),
        ("notes.md", "Markdown text", []),
        ("tone.wav", "WAV audio", ["audio/wav"]),
        ("clip.mp4", "MP4 video", ["video/mp4"]),
        ("formats/data.json", "JSON text", []),
        ("formats/page.html", "HTML text", []),
    ],
)
def test_each_medium_goes_to_its_reader_and_starts_with_a_text_header(name, label, media_types):
    result = tw.read_file(example(name))
    assert isinstance(result, ContentOutput)
    first, *files = result.value
    assert first.text.startswith(f"{example(name).name}: {label}")
    assert [file.media_type for file in files] == media_types


def test_read_file_is_served_by_the_package_and_the_public_api():
    from toolwire import readers

    assert tw.read_file is readers.read_file
    assert tw.read_file_tool is readers.read_file_tool


def test_a_pdf_named_png_is_read_as_a_pdf_and_the_header_says_so(tmp_path):
    path = copy_example("report.pdf", tmp_path, as_name="photo.png")
    result = tw.read_file(path)
    assert result.value[0].text.startswith("photo.png: PDF (despite its .png extension), 3 pages")
    assert result.value[1].media_type == "application/pdf"


def test_a_docx_named_xlsx_is_read_as_a_docx(tmp_path):
    path = copy_example("memo.docx", tmp_path, as_name="numbers.xlsx")
    text = tw.read_file(path).value[0].text
    assert text.startswith("numbers.xlsx: Word document (DOCX) (despite its .xlsx extension)")


def test_text_named_pdf_is_read_as_text_with_a_note(tmp_path):
    path = tmp_path / "report.pdf"
    path.write_text("Just a plain note, not a PDF.\n")
    text = tw.read_file(path).value[0].text
    assert text.startswith("report.pdf: text (despite its .pdf extension), UTF-8")


def test_a_file_without_extension_is_read_by_its_content(tmp_path):
    path = copy_example("photo.png", tmp_path, as_name="upload")
    assert tw.read_file(path).value[0].text.startswith("upload: PNG image, 640x480")


def test_matching_families_raise_no_false_alarm(tmp_path):
    path = copy_example("formats/audio.m4a", tmp_path, as_name="voice.mp4")
    assert "despite" not in tw.read_file(path).value[0].text


def test_random_bytes_are_refused_whatever_their_name(tmp_path):
    path = tmp_path / "photo.png"
    path.write_bytes(random.Random(9).randbytes(5000).replace(b"\x00", b"\x01") + b"\x00")
    error = outcome(lambda: tw.read_file(path))
    assert isinstance(error, InvalidFileError)
    assert "photo.png: its bytes match no format read_file reads" in str(error)


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({"offset": -1}, "offset=-1 is not allowed; it must be an integer >= 0"),
        ({"limit": 0}, "limit=0 is not allowed; it must be an integer >= 1 or None"),
        ({"page_end": "3"}, "page_end='3' is not allowed"),
        ({"page_start": True}, "page_start=True is not allowed"),
    ],
)
def test_bad_read_arguments_are_explained(arguments, message):
    with pytest.raises(InvalidFileError, match=message):
        tw.read_file(example("notes.md"), **arguments)


def test_a_parser_failure_on_hostile_input_is_wrapped_as_invalid_file(tmp_path):
    # A zip naming itself a PowerPoint deck, with a broken package inside: python-pptx fails
    # with its own exception, which must reach the caller as an InvalidFileError.
    import zipfile

    path = tmp_path / "deck.pptx"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("[Content_Types].xml", "<not-types/>")
        archive.writestr("ppt/presentation.xml", "<p/>")
    error = outcome(lambda: tw.read_file(path))
    assert isinstance(error, InvalidFileError)
    assert isinstance(error.__cause__, Exception)
    assert not isinstance(error.__cause__, ToolwireError)
    assert "deck.pptx could not be read as PowerPoint presentation (PPTX)" in str(error)


@pytest.mark.skipif(not os.path.isdir("/proc/self/fd"), reason="needs /proc")
def test_reading_leaves_no_file_descriptor_open():
    tw.read_file(example("notes.md"))  # the read worker's two pipes stay open: it is reused
    before = set(os.listdir("/proc/self/fd"))
    for name in ("report.pdf", "memo.docx", "sheet.xlsx", "photo.png", "tone.wav", "data.csv"):
        tw.read_file(example(name))
    assert set(os.listdir("/proc/self/fd")) <= before


def test_the_caller_reads_the_bytes_within_the_readers_cap_before_any_parsing(monkeypatch):
    # The cap is applied where the file is opened (this process), not in the read worker.
    monkeypatch.setattr(limits, "MAX_PDF_BYTES", 1000)
    with pytest.raises(InvalidFileError, match=r"report\.pdf is .* PDFs over 1000 B are not read"):
        tw.read_file(example("report.pdf"))


def test_a_text_file_over_its_cap_is_handed_over_cut_at_the_cap(tmp_path, monkeypatch):
    monkeypatch.setattr(limits, "MAX_TEXT_BYTES", 12)
    path = tmp_path / "long.txt"
    path.write_text("first line\nsecond line\nthird line\n")
    text = tw.read_file(path).value[0].text
    assert "only the first 12 B are read" in text
    assert text.endswith("first line")
