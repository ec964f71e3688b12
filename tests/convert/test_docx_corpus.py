"""Word documents from other projects' test suites read as Word shows them (readers/docx.py).

The files and their sources are listed in corpus/README.md.
"""

from __future__ import annotations

from pathlib import Path

from .test_office import text_of

CORPUS = Path(__file__).parent / "corpus"


def body(name: str) -> str:
    """The Markdown of a corpus file after the header line."""
    text = text_of((CORPUS / name).read_bytes(), name)
    return text.split("\n\n", 1)[1]


def test_a_bulleted_list_keeps_its_markers():
    assert body("mammoth-simple-list.docx") == "- Apple\n- Banana"


def test_a_multilevel_list_keeps_its_numbers_and_nesting():
    lines = body("docxfix-legal-list.docx").split("\n")
    markers = [line.strip().split(" ", 1)[0] for line in lines]
    assert markers == ["1.", "1.1.", "2.", "2.1.", "2.1.1."]
    indents = [len(line) - len(line.lstrip()) for line in lines]
    assert indents == [0, 4, 0, 4, 8]
    assert lines[0].startswith("1. Lorem ipsum dolor sit amet")


def test_headings_numbered_by_their_styles_keep_their_numbers():
    text = body("docxfix-styled-numbering.docx")
    assert "# 1 One" in text and "## 1.1 Two" in text
    assert "### (a) Three." in text and "#### (i) Four." in text


def test_footnotes_keep_their_marks_and_text():
    text = body("mammoth-footnotes.docx")
    assert text == "Ouch[^1].[^2]\n\n[^1]: A tachyon walks into a bar.\n[^2]: Fin."


def test_endnotes_are_numbered_as_word_shows_them():
    text = body("mammoth-endnotes.docx")
    assert text == "Ouch[^i].[^ii]\n\n[^i]: A tachyon walks into a bar.\n[^ii]: Fin."


def test_a_link_inside_a_footnote_keeps_its_target():
    assert "[^1]: [Example](http://www.example.com)" in body("mammoth-footnote-hyperlink.docx")


def test_comments_are_kept_with_their_author():
    text = body("mammoth-comments.docx")
    assert text.startswith("Ouch[^c1].[^c2]\n\n")
    assert "[^c1]: Comment by Michael Williamson: A tachyon walks into a bar." in text


def test_markitdowns_comment_expectations_are_met():
    text = body("markitdown-test_with_comment.docx")
    for expected in (
        "314b0a30-5b04-470b-b9f7-eed2c2bec74a",
        "49e168b7-d2ae-407f-a055-2167576f39a1",
        "## d666f1f7-46cb-42bd-9a39-9a39cf2a509f",
        "# Abstract",
        "# Introduction",
        "AutoGen: Enabling Next-Gen LLM Applications via Multi-Agent Conversation",
        "This is a test comment. 12df-321a",
        "Yet another comment in the doc. 55yiyi-asd09",
    ):
        assert expected in text


def test_hyperlinks_keep_their_targets():
    text = body("python-docx-par-hyperlinks.docx")
    assert "One [awesome hyperlink](http://yahoo.com/)." in text
    assert "the [second one](http://python.org/), and the [third](http://yahoo.com/)." in text


def test_a_link_keeps_its_fragment_and_a_bookmark_link_reads_as_text():
    text = body("python-docx-par-hlink-frags.docx")
    assert "Five with link to [http://foo.com#introduction](http://foo.com/#intro)." in text
    assert "Two with link to bookmark." in text
    assert "Three with link to <https://foo.com>." in text


def test_a_text_box_is_read():
    assert body("mammoth-text-box.docx") == "Datum plane"


def test_a_picture_only_document_does_not_convert_to_nothing():
    assert body("mammoth-tiny-picture.docx") == "[Picture]"


def test_a_picture_is_described_by_its_alt_text():
    text = body("markitdown-rlink.docx")
    expected = "[Picture: A red and blue square AI-generated content may be incorrect.]"
    assert text == "Testing Linked Images\n\n" + expected


def test_equations_read_as_latex_inline_and_displayed():
    text = body("markitdown-equations.docx")
    assert text.startswith("For $m=1$,\n\n$$")
    assert r"\frac{mλ}{a}" in text and r"2.2\times {10}^{-4}" in text
    assert "The angle is $θ=" in text and "$$\\frac{a}{λ}=\\frac{m}{sin θ}" in text


def test_a_strict_ooxml_document_is_read():
    assert body("mammoth-strict-format.docx") == "Test"


def test_tracked_changes_read_as_accepted():
    text = body("docxfix-mixed-insert-delete.docx")
    assert text.startswith("Lorem dolor sit amet ipsum, consectetuer")


def test_a_table_stays_between_its_paragraphs():
    text = body("mammoth-tables.docx")
    table = "| Top left | Top right |\n|---|---|\n| Bottom left | Bottom right |"
    assert text == f"Above\n\n{table}\n\nBelow"


def test_a_docx_with_malformed_xml_is_refused_by_name():
    import pytest

    from toolwire.content import File
    from toolwire.convert import convert
    from toolwire.errors import InvalidFileError

    from .conftest import TEXT_ONLY
    from .files import rewritten

    cut = rewritten(
        CORPUS / "mammoth-simple-list.docx", "word/document.xml", lambda d: d[: len(d) // 2]
    )
    with pytest.raises(InvalidFileError, match="broken.docx: a part of the document is not"):
        convert(File.from_bytes(cut, name="broken.docx"), TEXT_ONLY)


def test_headers_and_footers_are_read_once_around_the_body():
    text = body("python-docx-hdr-header-footer.docx")
    assert text == (
        "Header: Header for section-1\n\nsection with header\n\n"
        "section without header of its own.\n\nFooter: Footer for section 1"
    )


def test_a_first_page_header_is_kept_beside_the_default_one():
    text = body("python-docx-sct-first-page-hdrftr.docx")
    assert text.startswith(
        "Header: Default (odd, primary) Header\n\nHeader: First Page Header (section 2)\n\n"
        "First page."
    )
    assert text.count("Header:") == 2


def test_a_list_that_starts_at_a_huge_roman_number_reads_in_decimal():
    """A hostile ``<w:start w:val="999999999"/>`` on a roman-numbered level: a million ``m``
    would be built otherwise."""
    import io
    import zipfile

    source = zipfile.ZipFile(CORPUS / "docxfix-legal-list.docx")
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as target:
        for member in source.infolist():
            data = source.read(member)
            if member.filename == "word/numbering.xml":
                data = data.replace(b'w:val="decimal"', b'w:val="lowerRoman"', 1)
                data = data.replace(b'<w:start w:val="1"/>', b'<w:start w:val="999999999"/>', 1)
            target.writestr(member, data)
    text = text_of(buffer.getvalue(), "huge.docx")
    assert "\n\n999999999. Lorem ipsum" in text
