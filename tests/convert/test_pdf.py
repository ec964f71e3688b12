"""PDF conversion (convert/pdf.py): page images labelled and fitted, the text layer, budgets."""

from __future__ import annotations

import dataclasses
import io
import sys
from collections.abc import Iterator

import pytest
from PIL import Image

from toolwire.content import File, Text
from toolwire.convert import Conversion, Target, convert
from toolwire.errors import InvalidFileError, ResourceLimitError
from toolwire.readers import isolation

from . import files
from .conftest import TEXT_ONLY, VISION

pytest.importorskip("pypdfium2")
MB = 1024 * 1024


@pytest.fixture(scope="module")
def report() -> File:
    pages = ["Revenue grew eleven percent\nin the northern region", None, "Costs fell in March"]
    return File.from_bytes(files.pdf(pages), name="report.pdf")


def texts(conversion: Conversion) -> list[str]:
    return [part.text for part in conversion.parts if isinstance(part, Text)]


def images(conversion: Conversion) -> list[File]:
    return [part for part in conversion.parts if isinstance(part, File)]


def test_a_pdf_for_an_image_target_becomes_labelled_page_images_then_its_text_layer(report):
    conversion = convert(report, VISION)
    assert conversion is not None and conversion.converted_to == "pages"
    labels = [t for t in texts(conversion) if t.startswith("Page ")]
    assert labels == ["Page 1 of 3", "Page 2 of 3", "Page 3 of 3"]
    pngs = images(conversion)
    assert [p.name for p in pngs] == ["report-p1.png", "report-p2.png", "report-p3.png"]
    assert all(p.media_type == "image/png" for p in pngs)
    for part, after in zip(conversion.parts, conversion.parts[1:], strict=False):
        if isinstance(after, File):  # every image directly follows its label
            assert isinstance(part, Text) and part.text.startswith("Page ")
    layer = texts(conversion)[-1]
    assert "Revenue grew eleven percent" in layer and "Costs fell in March" in layer
    assert "--- Page 3 ---" in layer
    assert "rendered pages 1-3 of 3 as PNG" in conversion.reason


def test_a_scanned_page_says_it_has_no_text_layer_for_image_and_text_targets(report):
    for target, where in ((VISION, "read it in its image above"), (TEXT_ONLY, "takes no images")):
        conversion = convert(report, target)
        assert conversion is not None
        layer = texts(conversion)[-1]
        page2 = layer.split("--- Page 2 ---\n", 1)[1].split("\n")[0]
        assert "no text layer: a scanned page" in page2 and where in page2
        assert "page 2 has no text layer (scanned)" in conversion.reason


def test_a_pdf_for_a_text_only_target_is_its_text_layer_page_by_page(report):
    conversion = convert(report, TEXT_ONLY)
    assert conversion is not None and conversion.converted_to == "text"
    assert images(conversion) == []
    whole = "\n".join(texts(conversion))
    assert whole.startswith("report.pdf: PDF, 3 pages")
    assert (
        whole.index("--- Page 1 ---") < whole.index("Revenue grew") < whole.index("--- Page 3 ---")
    )
    assert conversion.reason.startswith("extracted the text layer of 3 pages")


def test_pages_beyond_the_budget_are_not_rendered_and_their_text_follows_with_a_note():
    pdf = File.from_bytes(files.pdf([f"Words of page {n}" for n in range(1, 6)]), name="long.pdf")
    conversion = convert(pdf, VISION, pages=2)
    assert conversion is not None
    assert [p.name for p in images(conversion)] == ["long-p1.png", "long-p2.png"]
    assert "pages 3-5 are not shown as images (page budget 2)" in texts(conversion)[0]
    assert "Words of page 5" in texts(conversion)[-1]
    assert "pages 3-5 as text only (page budget 2)" in conversion.reason


def test_the_page_budget_never_exceeds_the_targets_image_budget(report):
    conversion = convert(report, dataclasses.replace(VISION, max_images=1), pages=20)
    assert conversion is not None and len(images(conversion)) == 1


def test_an_image_budget_of_zero_gives_the_text_layer(report):
    conversion = convert(report, dataclasses.replace(VISION, max_images=0))
    assert conversion is not None and conversion.converted_to == "text"
    assert images(conversion) == []


def test_a_target_taking_only_jpeg_gets_jpeg_pages(report):
    conversion = convert(report, Target(frozenset({"image/jpeg"}), 5))
    assert conversion is not None
    assert {p.media_type for p in images(conversion)} == {"image/jpeg"}
    assert images(conversion)[0].name == "report-p1.jpg"


def test_rendered_pages_are_fitted_by_the_targets_fit(report):
    def fit(file: File) -> File:
        image = Image.open(io.BytesIO(file.read()))
        image.thumbnail((200, 200))
        buffer = io.BytesIO()
        image.save(buffer, "PNG")
        return File.from_bytes(buffer.getvalue(), "image/png", file.name)

    conversion = convert(report, dataclasses.replace(VISION, fit=fit))
    assert conversion is not None
    sizes = [Image.open(io.BytesIO(p.read())).size for p in images(conversion)]
    assert sizes and all(max(size) == 200 for size in sizes)


def test_a_corrupt_pdf_raises_invalid_file_error_naming_it():
    broken = File.from_bytes(b"%PDF-1.7\n" + b"\x00garbage" * 50, "application/pdf", "bad.pdf")
    with pytest.raises(InvalidFileError, match="bad.pdf"):
        convert(broken, VISION)


@pytest.fixture
def small_worker() -> Iterator[None]:
    saved = isolation.settings()
    isolation.configure(enabled=True, memory_bytes=512 * MB)  # even under ISOLATION=0
    yield
    isolation.configure(**dataclasses.asdict(saved))


@pytest.mark.skipif(sys.platform != "linux", reason="RLIMIT_AS is enforced on Linux")
def test_a_pdf_bomb_stops_the_worker_at_its_memory_limit_not_the_caller(small_worker):
    bomb = File.from_bytes(files.pdf_bomb(), "application/pdf", "bomb.pdf")
    with pytest.raises(ResourceLimitError, match="bomb.pdf could not be read as PDF"):
        convert(bomb, VISION)


def test_text_past_the_character_cap_is_left_out_once_the_budgets_pages_are_rendered(
    monkeypatch,
):
    from toolwire.readers import limits

    monkeypatch.setattr(limits, "MAX_TEXT_CHARS", 30)  # the worker gets the caller's caps
    pdf = File.from_bytes(files.pdf([f"Words of page {n}" for n in range(1, 6)]), name="long.pdf")
    conversion = convert(pdf, VISION, pages=1)
    assert conversion is not None
    layer = texts(conversion)[-1]
    assert "Words of page 2" in layer and "Words of page 3" not in layer
    assert layer.endswith("(pages 3-5 left out: the text layer is over 30 characters)")


def test_pages_past_the_drawing_object_budget_are_left_out(monkeypatch):
    from toolwire.readers import pdf as pdf_reader

    saved = isolation.settings()
    isolation.configure(enabled=False)  # the budget is a module constant, not a sent cap
    monkeypatch.setattr(pdf_reader, "MAX_PDF_OBJECTS_PER_READ", 5)
    pdf = File.from_bytes(files.pdf(["a\nb", "c\nd", "e\nf"]), name="busy.pdf")
    try:
        conversion = convert(pdf, TEXT_ONLY)
    finally:
        isolation.configure(**dataclasses.asdict(saved))
    assert conversion is not None
    assert texts(conversion)[-1].endswith(
        "(pages 2-3 left out: they draw more than 5 objects, the most one conversion reads)"
    )


def test_a_pdf_whose_stream_inflates_past_read_files_limit_is_refused_unrendered():
    bomb = File.from_bytes(files.pdf_inflating_stream(300), "application/pdf", "zip.pdf")
    with pytest.raises(InvalidFileError, match="zip.pdf: a stream at byte .* inflates to more"):
        convert(bomb, VISION)


def test_pages_without_colour_are_greyscale_pngs_and_coloured_pages_keep_their_colour():
    from reportlab.lib.pagesizes import letter
    from reportlab.pdfgen import canvas

    buffer = io.BytesIO()
    sheet = canvas.Canvas(buffer, pagesize=letter, invariant=True)
    sheet.drawString(72, 720, "Black text only")
    sheet.showPage()
    sheet.setFillColorRGB(1, 0, 0)
    sheet.rect(72, 72, 200, 200, fill=1)
    sheet.showPage()
    sheet.save()
    conversion = convert(File.from_bytes(buffer.getvalue(), name="mixed.pdf"), VISION)
    assert conversion is not None
    modes = [Image.open(io.BytesIO(p.read())).mode for p in images(conversion)]
    assert modes == ["L", "RGB"]
