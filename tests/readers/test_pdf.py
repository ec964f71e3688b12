"""PDFs (readers/pdf.py): text per page, pagination, page subsets, scans, hostile files."""

from __future__ import annotations

import io
import random

import pypdfium2
import pytest
from reportlab.pdfgen import canvas

from toolwire import headers
from toolwire.errors import InvalidFileError
from toolwire.readers import limits, read_file

from .helpers import copy_example, example, outcome


def _text_pdf(pages: int, encrypt: str | None = None) -> bytes:
    buffer = io.BytesIO()
    pdf = canvas.Canvas(buffer, encrypt=encrypt, invariant=True)
    for number in range(1, pages + 1):
        pdf.drawString(72, 720, f"This is page {number} of the long report.")
        pdf.showPage()
    pdf.save()
    return buffer.getvalue()


def _page_count(data: bytes) -> int:
    document = pypdfium2.PdfDocument(data)
    try:
        return len(document)
    finally:
        document.close()


def test_a_short_pdf_is_read_whole_with_text_per_page_and_the_original_file(tmp_path):
    path = copy_example("report.pdf", tmp_path)
    result = read_file(path)
    text = result.value[0].text
    assert text.splitlines()[0] == (
        "report.pdf: PDF, 3 pages, 35 KB, page 3 has no text layer (rendered as report-p3.png). Pages 1-3 of 3."
    )
    assert "--- Page 1 ---\nQuarterly report" in text
    assert "--- Page 2 ---\nRevenue by region" in text
    assert "--- Page 3 ---\n(no text layer; see the image report-p3.png)" in text
    document = result.value[1]
    assert (document.name, document.media_type) == ("report.pdf", "application/pdf")
    assert document.read() == path.read_bytes()
    assert document.text is not None and "Quarterly report" in document.text


def test_an_image_only_page_is_offered_as_a_rendered_png():
    page = read_file(example("report.pdf")).value[2]
    assert (page.name, page.media_type) == ("report-p3.png", "image/png")
    assert page.text == "Page 3 of report.pdf: no text layer; rendered at 150 dpi."
    width, height = headers.image_size(page.read()) or (0, 0)
    assert width == 1275 and abs(height - 1650) <= 1  # US Letter at 150 dpi (pdfium rounds)


def test_a_long_pdf_is_paged_20_pages_at_a_time(tmp_path):
    path = tmp_path / "long.pdf"
    path.write_bytes(_text_pdf(47))
    result = read_file(path)
    text = result.value[0].text
    assert text.splitlines()[0].endswith("Pages 1-20 of 47. Use page_start=20 to continue.")
    assert "This is page 20 of" in text and "This is page 21 of" not in text
    subset = result.value[1]
    assert subset.name == "long-p1-20.pdf"
    assert _page_count(subset.read()) == 20


def test_page_start_continues_where_the_last_read_stopped(tmp_path):
    path = tmp_path / "long.pdf"
    path.write_bytes(_text_pdf(47))
    middle = read_file(path, page_start=20).value[0].text
    assert "Pages 21-40 of 47. Use page_start=40 to continue." in middle
    last = read_file(path, page_start=40)
    assert "Pages 41-47 of 47." in last.value[0].text
    assert "continue" not in last.value[0].text.splitlines()[0]
    assert "This is page 47 of" in last.value[0].text


def test_a_requested_range_comes_back_as_a_pdf_of_just_those_pages():
    result = read_file(example("report.pdf"), page_start=1, page_end=2)
    assert "Page 2 of 3. Use page_start=2 to continue." in result.value[0].text
    subset = result.value[1]
    assert subset.name == "report-p2.pdf"
    assert _page_count(subset.read()) == 1
    assert "Revenue by region" in (subset.text or "")
    assert len(result.value) == 2  # page 2 has text: no rendered image


def test_one_read_never_covers_more_than_the_page_cap(tmp_path):
    path = tmp_path / "long.pdf"
    path.write_bytes(_text_pdf(limits.PDF_MAX_PAGES_PER_READ + 5))
    text = read_file(path, page_end=10_000).value[0].text
    assert f"Pages 1-{limits.PDF_MAX_PAGES_PER_READ} of" in text


@pytest.mark.parametrize(
    ("page_start", "page_end", "message"),
    [
        (
            3,
            None,
            r"page_start=3 is outside the document \(3 pages\); use a page_start from 0 to 2",
        ),
        (1, 1, "page_end=1 must be greater than page_start=1"),
        (-1, None, "page_start=-1 is not allowed"),
    ],
)
def test_page_arguments_out_of_range_are_explained(page_start, page_end, message):
    with pytest.raises(InvalidFileError, match=message):
        read_file(example("report.pdf"), page_start=page_start, page_end=page_end)


def test_a_password_protected_pdf_says_so(tmp_path):
    path = tmp_path / "locked.pdf"
    path.write_bytes(_text_pdf(2, encrypt="s3cret"))
    error = outcome(lambda: read_file(path))
    assert isinstance(error, InvalidFileError)
    assert "locked.pdf is password-protected" in str(error)


def test_a_truncated_pdf_is_refused(tmp_path):
    data = example("report.pdf").read_bytes()
    path = tmp_path / "cut.pdf"
    path.write_bytes(data[: len(data) // 2])
    error = outcome(lambda: read_file(path))
    assert isinstance(error, InvalidFileError)
    assert "cut.pdf: the PDF is corrupt or truncated" in str(error)


def test_a_pdf_header_followed_by_garbage_is_refused(tmp_path):
    path = tmp_path / "garbage.pdf"
    path.write_bytes(b"%PDF-1.7\n" + random.Random(3).randbytes(5000))
    error = outcome(lambda: read_file(path))
    assert isinstance(error, InvalidFileError)
    assert "garbage.pdf" in str(error)


def test_a_pdf_over_the_size_cap_is_refused_unparsed(tmp_path):
    path = tmp_path / "huge.pdf"
    with path.open("wb") as fh:
        fh.write(b"%PDF-1.7\n")
        fh.truncate(limits.MAX_PDF_BYTES + 1)
    with pytest.raises(InvalidFileError, match="PDFs over 32 MB are not read"):
        read_file(path)


def _scanned_pdf(pages: int) -> bytes:
    """Small pages holding only a picture each: no text layer anywhere."""
    from PIL import Image
    from reportlab.lib.utils import ImageReader

    picture = ImageReader(Image.new("RGB", (40, 40), (90, 90, 90)))
    buffer = io.BytesIO()
    pdf = canvas.Canvas(buffer, pagesize=(144, 144), invariant=True)
    for _ in range(pages):
        pdf.drawImage(picture, 20, 20, 100, 100)
        pdf.showPage()
    pdf.save()
    return buffer.getvalue()


def test_rendered_pages_are_capped_and_the_rest_say_how_to_get_them(tmp_path):
    path = tmp_path / "scan.pdf"
    path.write_bytes(_scanned_pdf(limits.PDF_MAX_RENDERED_PAGES + 2))
    result = read_file(path)
    images = result.value[2:]
    assert [image.name for image in images] == [
        f"scan-p{n}.png" for n in range(1, limits.PDF_MAX_RENDERED_PAGES + 1)
    ]
    text = result.value[0].text
    assert "pages 1, 2, 3" in text and "have no text layer (rendered as images)" in text
    last = limits.PDF_MAX_RENDERED_PAGES + 2
    assert f"--- Page {last} ---\n(no text layer; not rendered" in text
    assert f"read it with page_start={last - 1})" in text
