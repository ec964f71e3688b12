"""Office documents (readers/office.py): Markdown out, original kept, zip bombs refused."""

from __future__ import annotations

import io
import re
import zipfile

import pytest

from toolwire.errors import InvalidFileError
from toolwire.mediatypes import DOCX, PPTX, XLSX
from toolwire.readers import limits, read_file

from .helpers import copy_example, example, outcome


def _zip_with_zeros(base: bytes, member: str, megabytes: int) -> bytes:
    """The office file ``base`` with one more member holding ``megabytes`` MB of zeros."""
    buffer = io.BytesIO()
    with (
        zipfile.ZipFile(io.BytesIO(base)) as source,
        zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED, compresslevel=1) as bomb,
    ):
        for info in source.infolist():
            bomb.writestr(info, source.read(info))
        with bomb.open(member, "w", force_zip64=True) as fh:
            zeros = bytes(1 << 20)
            for _ in range(megabytes):
                fh.write(zeros)
    return buffer.getvalue()


def test_a_docx_becomes_markdown_with_headings_lists_and_tables(tmp_path):
    path = copy_example("memo.docx", tmp_path)
    result = read_file(path)
    text = result.value[0].text
    assert text.startswith("memo.docx: Word document (DOCX), 36 KB. Lines 1-")
    assert "# Team memo\n\nThis memo summarises" in text
    assert "## Action items" in text
    assert "- Alice: finish the importer\n- Bob: update the docs\n- Carol" in text
    assert "| Owner | Task | Due |\n|---|---|---|\n| Alice | Importer | Jan 26 |" in text


def test_the_original_office_file_is_kept_with_its_markdown_as_text(tmp_path):
    path = copy_example("memo.docx", tmp_path)
    original = read_file(path).value[1]
    assert (original.name, original.media_type) == ("memo.docx", DOCX)
    assert original.read() == path.read_bytes()
    assert original.text is not None and original.text.startswith("# Team memo")


def test_a_pptx_gives_slide_titles_text_and_notes():
    result = read_file(example("deck.pptx"))
    text = result.value[0].text
    assert text.startswith("deck.pptx: PowerPoint presentation (PPTX), 2 slides")
    assert "## Slide 1: Project update\n\nImporter is 80% done\nDocs rewrite started" in text
    assert "Notes: Open with the good news, then ask for questions." in text
    assert "## Slide 2: Next steps" in text
    assert result.value[1].media_type == PPTX


def test_an_xlsx_sheet_becomes_a_markdown_table():
    result = read_file(example("sheet.xlsx"))
    text = result.value[0].text
    assert text.startswith("sheet.xlsx: Excel workbook (XLSX), 1 sheet, 5.2 KB. Rows 1-10 of 10.")
    assert "## Sheet: Sales" in text
    assert "| Date | Region | Product | Units | Unit price | Total |" in text
    assert "| 2024-01-02 | North | Widget | 41 | 4.5 | 184.5 |" in text
    assert result.value[1].media_type == XLSX


def test_xlsx_rows_are_paged_with_offset_and_limit():
    text = read_file(example("sheet.xlsx"), offset=2, limit=3).value[0].text
    assert "Rows 3-5 of 10. Use offset=5 to continue." in text
    assert "| Date | Region |" in text  # the header row is repeated on every page
    assert "2024-01-02" not in text


def test_docx_markdown_is_paged_by_lines(tmp_path):
    text = read_file(example("memo.docx"), limit=3).value[0].text
    assert "Lines 1-3 of" in text and "Use offset=3 to continue." in text
    assert "Action items" not in text


def test_a_zip_bomb_posing_as_a_docx_is_refused_before_python_docx_opens_it(tmp_path):
    path = tmp_path / "bomb.docx"
    megabytes = limits.MAX_UNZIPPED_BYTES // limits.MB + 20
    path.write_bytes(
        _zip_with_zeros(example("memo.docx").read_bytes(), "word/media/x.bin", megabytes)
    )
    assert path.stat().st_size < 5 * limits.MB
    error = outcome(lambda: read_file(path))
    assert isinstance(error, InvalidFileError)
    assert re.search(r"bomb.docx would unpack to 27\d MB", str(error))
    assert "zip bombs" in str(error)


@pytest.mark.parametrize("example_name", ["deck.pptx", "sheet.xlsx"])
def test_a_highly_compressed_member_is_refused_as_a_zip_bomb(tmp_path, example_name):
    suffix = example_name.rsplit(".", 1)[1]
    path = tmp_path / f"bomb.{suffix}"
    path.write_bytes(_zip_with_zeros(example(example_name).read_bytes(), "docProps/pad.xml", 30))
    error = outcome(lambda: read_file(path))
    assert isinstance(error, InvalidFileError)
    assert "'docProps/pad.xml' is compressed" in str(error)
    assert "refused as a zip bomb" in str(error)


def test_a_truncated_docx_is_refused(tmp_path):
    data = example("memo.docx").read_bytes()
    path = tmp_path / "cut.docx"
    path.write_bytes(data[: len(data) // 2])
    error = outcome(lambda: read_file(path))
    assert isinstance(error, InvalidFileError)
    assert "cut.docx" in str(error)


def test_a_zip_that_is_not_an_office_document_is_refused(tmp_path):
    path = tmp_path / "archive.zip"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("readme.txt", "hello")
    with pytest.raises(InvalidFileError, match="archive.zip is a zip archive, which read_file"):
        read_file(path)


def test_a_docx_without_its_document_part_is_an_invalid_file_not_a_crash(tmp_path):
    path = tmp_path / "hollow.docx"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("[Content_Types].xml", "<Types/>")
        archive.writestr("word/styles.xml", "<styles/>")
    error = outcome(lambda: read_file(path))
    assert isinstance(error, InvalidFileError)
    assert "hollow.docx" in str(error)


def test_a_legacy_or_encrypted_office_file_gets_a_specific_message(tmp_path):
    path = tmp_path / "old.doc"
    path.write_bytes(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + bytes(600))
    with pytest.raises(InvalidFileError, match="legacy Office .* or password-protected"):
        read_file(path)
