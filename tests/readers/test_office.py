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


def _laughs(root: str) -> str:
    """A "billion laughs" part: ten levels of ten references, 10^9 "lol"s once expanded."""
    entities = ['<!ENTITY lol0 "lol">'] + [
        f'<!ENTITY lol{n} "{f"&lol{n - 1};" * 10}">' for n in range(1, 10)
    ]
    declarations = "\n".join(entities)
    return f'<?xml version="1.0"?>\n<!DOCTYPE {root} [\n{declarations}\n]>\n'


def _rewritten(base: bytes, member: str, xml: bytes) -> bytes:
    """The office file ``base`` with ``member`` replaced by ``xml``."""
    buffer = io.BytesIO()
    with (
        zipfile.ZipFile(io.BytesIO(base)) as source,
        zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as target,
    ):
        for info in source.infolist():
            target.writestr(info, xml if info.filename == member else source.read(info))
    return buffer.getvalue()


def _new_docx() -> bytes:
    docx = pytest.importorskip("docx")
    buffer = io.BytesIO()
    docx.Document().save(buffer)
    return buffer.getvalue()


def _new_pptx() -> bytes:
    pptx = pytest.importorskip("pptx")
    presentation = pptx.Presentation()
    presentation.slides.add_slide(presentation.slide_layouts[6])
    buffer = io.BytesIO()
    presentation.save(buffer)
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


_W = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"'
_BODY = f"<w:document {_W}><w:body><w:p><w:r><w:t>&lol9;</w:t></w:r></w:p></w:body></w:document>"
_P = 'xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main"'
_SLIDE = f"<p:sld {_P}><p:cSld><p:spTree>&lol9;</p:spTree></p:cSld></p:sld>"


@pytest.mark.parametrize(
    ("suffix", "make", "member", "xml"),
    [
        ("docx", _new_docx, "word/document.xml", _laughs("w:document") + _BODY),
        ("pptx", _new_pptx, "ppt/slides/slide1.xml", _laughs("p:sld") + _SLIDE),
    ],
    ids=["docx", "pptx"],
)
def test_an_xml_entity_bomb_inside_an_office_file_is_refused_at_once(
    tmp_path, suffix, make, member, xml
):
    path = tmp_path / f"laughs.{suffix}"
    path.write_bytes(_rewritten(make(), member, xml.encode()))
    error = outcome(lambda: read_file(path))  # refused before any entity is expanded:
    assert isinstance(error, InvalidFileError)
    assert f"laughs.{suffix}: member {member!r} declares a DTD" in str(error)
    assert "entity bomb" in str(error)


# Ways to slip a DTD past a look at the first bytes: UTF-16 (libxml2 reads it), a prolog of
# comments longer than the bytes looked at, or an encoding in which "<" is not a "<".
@pytest.mark.parametrize(
    ("xml", "refusal"),
    [
        ((_laughs("w:document") + _BODY).encode("utf-16"), "declares a DTD"),
        (
            b"<?xml version='1.0'?>"
            + b"<!-- pad -->" * 1000
            + (_laughs("w:document") + _BODY).encode(),
            "does not begin with an XML element within its first 4.0 KB",
        ),
        (
            b'<?xml version="1.0" encoding="UTF-7"?>+ADw-+ACE-DOCTYPE w:document+AD4-',
            "is XML in 'UTF-7'",
        ),
    ],
    ids=["utf-16", "long-prolog", "utf-7"],
)
def test_a_dtd_hidden_from_a_plain_byte_search_is_refused_too(tmp_path, xml, refusal):
    path = tmp_path / "hidden.docx"
    path.write_bytes(_rewritten(_new_docx(), "word/document.xml", xml))
    with pytest.raises(InvalidFileError, match=f"member 'word/document.xml' {re.escape(refusal)}"):
        read_file(path)


def test_a_dtd_in_a_relationships_part_is_refused(tmp_path):
    path = tmp_path / "rels.docx"
    rels = _laughs("Relationships") + "<Relationships>&lol9;</Relationships>"
    path.write_bytes(_rewritten(_new_docx(), "_rels/.rels", rels.encode()))
    with pytest.raises(InvalidFileError, match=r"rels.docx: member '_rels/.rels' declares a DTD"):
        read_file(path)


def test_utf_16_office_xml_without_a_dtd_is_still_read(tmp_path):
    docx = pytest.importorskip("docx")
    document = docx.Document()
    document.add_paragraph("Written in UTF-16.")
    buffer = io.BytesIO()
    document.save(buffer)
    with zipfile.ZipFile(io.BytesIO(buffer.getvalue())) as archive:
        xml = archive.read("word/document.xml").decode()
    xml = xml.replace('encoding="UTF-8"', 'encoding="UTF-16"')
    path = tmp_path / "wide.docx"
    path.write_bytes(_rewritten(buffer.getvalue(), "word/document.xml", xml.encode("utf-16")))
    assert "Written in UTF-16." in read_file(path).value[0].text
