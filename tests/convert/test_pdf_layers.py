"""PDF pages whose text layer does not show what the page does (readers/pdftext.py): filled
form fields, text layers of control characters, blank pages. Through read_file and convert.
"""

from __future__ import annotations

import io
from pathlib import Path

from toolwire.content import File, Text
from toolwire.convert import convert
from toolwire.readers import limits
from toolwire.readers.core import read_file

from . import files
from .conftest import TEXT_ONLY, VISION

FORM = Path(__file__).parent / "corpus" / "pypdf-form_acrobatReader.pdf"


def _texts(conversion) -> str:
    return "\n".join(part.text for part in conversion.parts if isinstance(part, Text))


def test_a_filled_form_field_is_in_the_text():
    text = read_file(FORM).value[0].text
    assert "--- Page 1 ---\nfoo\n1\n\nForm fields:\n- foo: Bar" in text
    conversion = convert(File.from_path(FORM), TEXT_ONLY)
    assert conversion is not None and "Form fields:\n- foo: Bar" in _texts(conversion)


def test_a_filled_form_field_is_drawn_in_the_page_image():
    import pypdfium2
    from PIL import Image, ImageChops

    conversion = convert(File.from_path(FORM), VISION)
    assert conversion is not None and conversion.converted_to == "pages"
    (image,) = [part for part in conversion.parts if isinstance(part, File)]
    shown = Image.open(io.BytesIO(image.read())).convert("L")
    bare = pypdfium2.PdfDocument(FORM.read_bytes())  # no form environment: no widgets drawn
    try:
        page = bare[0]
        without_forms = page.render(scale=limits.PDF_RENDER_DPI / 72).to_pil().convert("L")
    finally:
        bare.close()
    assert without_forms.size == shown.size
    left, top, right, bottom = ImageChops.difference(shown, without_forms).getbbox()
    assert right - left < 100 and bottom - top < 40  # the field's value "Bar", and only it


def test_a_text_layer_of_control_characters_is_not_trusted_and_the_page_is_rendered(tmp_path):
    path = tmp_path / "soup.pdf"
    path.write_bytes(files.soup_pdf())
    result = read_file(path)
    text = result.value[0].text
    assert "page 1 has an unreadable text layer (rendered as soup-p1.png)" in text
    assert "(text layer unreadable: 66 of its characters are control" in text
    assert "\x01" not in text and "\x02" not in text
    assert [part.name for part in result.value[1:]] == ["soup.pdf", "soup-p1.png"]


def test_a_conversion_of_an_unreadable_page_says_so_and_sends_its_image():
    data = files.soup_pdf()
    text_only = convert(File.from_bytes(data, name="soup.pdf"), TEXT_ONLY)
    assert text_only is not None
    assert "\x01" not in _texts(text_only)
    assert "text layer unreadable" in _texts(text_only)
    assert "page 1 has an unreadable text layer" in text_only.reason
    vision = convert(File.from_bytes(data, name="soup.pdf"), VISION)
    assert vision is not None and vision.converted_to == "pages"
    assert "read it in its image above" in _texts(vision)


def test_a_blank_page_is_called_blank_not_scanned(tmp_path):
    path = tmp_path / "blank.pdf"
    path.write_bytes(files.blank_pdf())
    result = read_file(path)
    assert "--- Page 1 ---\n(a blank page)" in result.value[0].text
    assert "no text layer" not in result.value[0].text
    assert [part.name for part in result.value[1:]] == ["blank.pdf"]  # not rendered
    conversion = convert(File.from_bytes(files.blank_pdf(), name="blank.pdf"), TEXT_ONLY)
    assert conversion is not None
    assert "page 1 has nothing on it (blank)" in conversion.reason
    assert "scanned" not in conversion.reason


SPARSE = Path(__file__).parent / "corpus" / "markitdown-SPARSE-2024-INV-1234_borderless_table.pdf"


def test_a_borderless_table_keeps_its_empty_cells():
    text = read_file(SPARSE).value[0].text
    table = (
        "Prepared By: Sarah Martinez\n\n"
        "| Product Code | Location | Expected | Actual | Variance | Status |\n"
        "|---|---|---|---|---|---|\n"
        "| SKU-8847 | A-12 | 450 |  |  |  |\n"
        "|  | B-07 |  | 289 | -23 |  |\n"
        "| SKU-9201 |  | 780 | 778 |  | OK |\n"
    )
    assert table in text
    assert "| SKU-4563 | Software | $120.00 | $18,720.00 |  | Critical |" in text
    assert "\n\nVariance Analysis:\nSummary Statistics:" in text


def test_running_text_is_not_taken_for_a_table():
    lines = "\n".join(f"Line {n}: revenue grew in every region this quarter" for n in range(30))
    conversion = convert(File.from_bytes(files.pdf([lines]), name="prose.pdf"), TEXT_ONLY)
    assert conversion is not None and "|" not in _texts(conversion)


def test_a_text_page_mostly_covered_by_a_picture_is_rendered_too(tmp_path):
    path = tmp_path / "figure.pdf"
    path.write_bytes(files.pdf_with_picture(0.5))
    result = read_file(path)
    text = result.value[0].text
    assert "page 1 has pictures over 50% of it (rendered as figure-p1.png)" in text
    assert (
        "Figure 1 shows the quarterly revenue.\n\n(pictures over 50% of it; see the image" in text
    )
    assert [part.name for part in result.value[1:]] == ["figure.pdf", "figure-p1.png"]
    conversion = convert(File.from_bytes(path.read_bytes(), name="figure.pdf"), TEXT_ONLY)
    assert conversion is not None
    assert "(pictures over 50% of it, not shown as an image: the target takes no images)" in (
        _texts(conversion)
    )


def test_a_small_logo_does_not_make_a_text_page_an_image(tmp_path):
    path = tmp_path / "logo.pdf"
    path.write_bytes(files.pdf_with_picture(0.05))
    result = read_file(path)
    assert [part.name for part in result.value[1:]] == ["logo.pdf"]
    assert "pictures over" not in result.value[0].text
