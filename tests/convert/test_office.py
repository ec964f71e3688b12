"""Documents as Markdown (convert/office.py, convert/html.py): DOCX, PPTX, XLSX, CSV, HTML."""

from __future__ import annotations

import pytest

from toolwire.content import File, Text
from toolwire.convert import convert
from toolwire.convert.html import markdown
from toolwire.errors import InvalidFileError

from . import files
from .conftest import TEXT_ONLY, VISION

PAGE = (
    b"<!doctype html><html><head><title>t</title><style>p{color:red}</style></head><body>"
    b"<h1>Launch plan</h1><p>Ship   the <a href='https://example.com/x'>beta</a> soon.</p>"
    b"<ul><li>write docs</li><li>fix bugs</li></ul>"
    b"<table><tr><th>Team</th><th>Owner</th></tr><tr><td>Docs</td><td>Ann</td></tr></table>"
    b"<pre>  keep\n    indent</pre><script>alert('no')</script></body></html>"
)


def text_of(data: bytes, name: str, media_type: str | None = None) -> str:
    conversion = convert(File.from_bytes(data, media_type, name), TEXT_ONLY)
    assert conversion is not None and conversion.converted_to == "text"
    (part,) = conversion.parts
    assert isinstance(part, Text)
    assert conversion.reason.startswith("converted ") and "to Markdown text" in conversion.reason
    return part.text


def test_a_docx_becomes_markdown_with_its_heading_and_table():
    text = text_of(files.docx(), "memo.docx")
    assert text.startswith("memo.docx: Word document (DOCX)")
    assert "# Quarterly memo" in text and "Revenue grew in every region" in text
    assert "| Region | Revenue |\n|---|---|\n| North | 120 |" in text


def test_a_pptx_becomes_markdown_slide_by_slide():
    text = text_of(files.pptx(), "deck.pptx")
    assert "## Slide 1: Roadmap" in text and "Ship conversions in March" in text


def test_an_xlsx_becomes_a_markdown_table_without_padding_columns():
    text = text_of(files.xlsx(), "sales.xlsx")
    assert "## Sheet: Sales" in text
    assert "| Product | Units |\n|---|---|\n| Widget | 42 |\n| Gadget | 7 |" in text


def test_a_csv_becomes_a_markdown_table():
    text = text_of(b"city,people\nOslo,700000\n", "cities.csv")
    assert "| city | people |\n|---|---|\n| Oslo | 700000 |" in text


def test_a_long_csv_says_how_much_is_left_out_without_read_file_arguments():
    rows = "n\n" + "".join(f"{n}\n" for n in range(1200))
    text = text_of(rows.encode(), "long.csv")
    assert "Rows 1-500 of 1200. The rest is left out." in text and "offset=" not in text


def test_an_html_page_becomes_markdown_without_scripts_or_styles():
    text = text_of(PAGE, "page.html", "text/html")
    assert "# Launch plan" in text
    assert "Ship the [beta](https://example.com/x) soon." in text
    assert "- write docs\n- fix bugs" in text
    assert "| Team | Owner |\n|---|---|\n| Docs | Ann |" in text
    assert "alert" not in text and "color:red" not in text


def test_html_preformatted_text_keeps_its_indentation():
    assert "```\n  keep\n    indent\n```" in markdown(PAGE.decode())


def test_documents_become_text_for_image_targets_too():
    conversion = convert(File.from_bytes(files.docx(), name="memo.docx"), VISION)
    assert conversion is not None and conversion.converted_to == "text"


def test_a_corrupt_docx_raises_invalid_file_error_naming_it():
    data = files.docx()
    broken = data[:200] + bytes(len(data) - 200)
    docx = "application/vnd.openxmlformats-officedocument.wordprocessingml.document"
    file = File.model_validate(
        {"source": {"type": "bytes", "data": broken}, "media_type": docx, "name": "memo.docx"}
    )
    with pytest.raises(InvalidFileError, match="memo.docx"):
        convert(file, TEXT_ONLY)


def test_an_xlsx_whose_declared_dimension_is_too_small_loses_no_cell():
    """A writer that declares ``<dimension ref="A1"/>`` (the sheet holds A1:C4)."""
    import io
    import re
    import zipfile

    source = zipfile.ZipFile(io.BytesIO(files.xlsx()))
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as target:
        for member in source.infolist():
            data = source.read(member)
            if member.filename == "xl/worksheets/sheet1.xml":
                assert b"<dimension " in data
                data = re.sub(rb'<dimension ref="[^"]*"', b'<dimension ref="A1"', data)
            target.writestr(member, data)
    text = text_of(buffer.getvalue(), "sales.xlsx")
    assert "| Product | Units |\n|---|---|\n| Widget | 42 |\n| Gadget | 7 |" in text
    assert "Rows 1-2 of 2." in text


def test_a_sheet_counted_only_in_part_says_its_row_count_is_a_lower_bound(monkeypatch):
    import io

    import openpyxl

    from toolwire.readers import tables
    from toolwire.readers.common import Options

    book = openpyxl.Workbook(write_only=True)  # declares no useful dimension
    sheet = book.create_sheet("log")
    for number in range(40):
        sheet.append([number, f"event {number}"])
    buffer = io.BytesIO()
    book.save(buffer)
    monkeypatch.setattr(tables, "MAX_COUNTED_ROWS", 5)
    ((title, page),) = tables.xlsx_pages(buffer.getvalue(), Options(limit=10), "log.xlsx")
    assert page.summary().startswith("Rows 1-10 of at least 16.")
    monkeypatch.setattr(tables, "MAX_COUNTED_ROWS", 100)
    ((title, page),) = tables.xlsx_pages(buffer.getvalue(), Options(limit=10), "log.xlsx")
    assert page.summary().startswith("Rows 1-10 of 39.")


def test_xlsx_cells_read_as_the_sheet_shows_them_by_their_number_format():
    """A workbook stores 0.125 for a cell that shows 12.5%, a day count for a date, 1234.5 for
    $1,234.50; the Markdown has what the sheet shows."""
    import datetime as dt
    import io

    import openpyxl

    book = openpyxl.Workbook()
    sheet = book.active
    sheet.title = "Budget"
    sheet.append(["Item", "Date", "Share", "Cost", "Units", "Change", "Ratio"])
    values = ["Rent", dt.datetime(2024, 1, 15), 0.125, 1234.5, 1234567, -1500.25, 0.1 + 0.2]
    sheet.append(values)
    formats = [None, "d-mmm-yy", "0.0%", '"$"#,##0.00', "#,##0", "#,##0.00;(#,##0.00)", None]
    for cell, number_format in zip(sheet[2], formats, strict=True):
        if number_format:
            cell.number_format = number_format
    sheet.append(["Lease", dt.datetime(2024, 2, 1), 0.5, 10, 3, 2, 1.5])
    sheet["B3"].number_format = "mm-dd-yy"  # Excel's locale short date: an ISO date
    buffer = io.BytesIO()
    book.save(buffer)
    text = text_of(buffer.getvalue(), "budget.xlsx")
    assert "| Rent | 15-Jan-24 | 12.5% | $1,234.50 | 1,234,567 | (1,500.25) | 0.3 |" in text
    assert "| Lease | 2024-02-01 | 0.5 | 10 | 3 | 2 | 1.5 |" in text


def test_excelizes_date_formats_workbook_reads_as_excel_shows_it():
    """excelize's DateFormats.xlsx (corpus/README.md): US, ISO and day-first dates and
    two-decimal numbers, as Excel shows them rather than ISO timestamps and bare integers."""
    from pathlib import Path

    data = (Path(__file__).parent / "corpus" / "excelize-DateFormats.xlsx").read_bytes()
    text = text_of(data, "DateFormats.xlsx")
    assert "| 1 | abc | 08/05/2019 | 2019-03-04 | 04/03/2019 | 1.00 | 4 |" in text
    assert "| 3 | k l m | 08/07/2019 | 2019-03-06 | 06/03/2019 | 3.00 | 6 |" in text
