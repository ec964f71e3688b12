"""Tables as Markdown: CSV/TSV files and XLSX workbooks, paged by rows.

The first row is the table's header and is repeated on every page; ``offset`` and ``limit``
count the rows after it (``Rows 1-500 of 12000. Use offset=500 to continue.``). Columns beyond
``MAX_TABLE_COLUMNS`` are left out, and the header says so.
"""

from __future__ import annotations

import contextlib
import csv
import dataclasses
import datetime as dt
import io
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from ..content import File
from ..errors import InvalidFileError, missing_dependency
from ..headers import human_size
from ..messages import ContentOutput
from . import limits
from .cellformat import general, shown
from .common import Job, Options, header, output, plural
from .text import decode

#: Rows past a read's window that are read only to be counted; past them a sheet's size is
#: the larger of the rows counted and its declared ``<dimension>``.
MAX_COUNTED_ROWS = 20_000


@dataclass(frozen=True)
class Page:
    """One page of a table: its Markdown, and the rows shown out of how many."""

    markdown: str
    first: int
    last: int
    total: int
    columns_cut: int
    #: The total is a lower bound: the sheet was counted only up to MAX_COUNTED_ROWS.
    at_least: bool = False

    def summary(self) -> str:
        """``Rows 1-500 of 12000. Use offset=500 to continue.``"""
        text = (
            f"Rows {self.first}-{self.last} of {'at least ' if self.at_least else ''}{self.total}."
        )
        if self.last < self.total:
            text += f" Use offset={self.last} to continue."
        if self.columns_cut:
            text += (
                f" {plural(self.columns_cut, 'column')} beyond {limits.MAX_TABLE_COLUMNS} left out."
            )
        return text


def read_csv(job: Job) -> ContentOutput:
    """A CSV or TSV file as a Markdown table, plus the original file (when read whole)."""
    truncated = job.size > limits.MAX_TEXT_BYTES
    data = job.data
    text, encoding = decode(data, job.name, truncated=truncated)
    rows = _csv_rows(text, job.media_type, job.name)
    if truncated and len(rows) > 1:
        rows.pop()  # cut at the read cap: the last row is incomplete
    page = paginate(rows, job.options, job.name)
    facts = [encoding, human_size(job.size)]
    files = []
    if truncated:
        facts.append(f"only the first {human_size(limits.MAX_TEXT_BYTES)} are read")
    else:
        original = File.from_bytes(data, job.media_type, job.name)
        files.append(original.model_copy(update={"text": page.markdown}))
    return output(f"{header(job, *facts)} {page.summary()}", page.markdown, files)


def xlsx_pages(data: bytes, options: Options, name: str) -> list[tuple[str, Page]]:
    """Each sheet's name and its page of rows, for the first ``MAX_SHEETS`` sheets."""
    try:
        import openpyxl
    except ImportError as exc:
        raise missing_dependency("openpyxl", "files") from exc
    workbook = openpyxl.load_workbook(io.BytesIO(data), read_only=True, data_only=True)
    try:
        pages = []
        for sheet in workbook.worksheets[: limits.MAX_SHEETS]:
            rows, count, width, at_least = _sheet_rows(sheet, options)
            page = paginate(rows, options, name, total=max(count - 1, 0), columns=width)
            page = dataclasses.replace(page, at_least=at_least)
            pages.append((str(sheet.title), page))
        return pages
    finally:
        workbook.close()


def paginate(
    rows: Sequence[Sequence[Any]],
    options: Options,
    name: str,
    total: int | None = None,
    columns: int | None = None,
) -> Page:
    """The header row plus rows ``offset`` to ``offset + limit`` as a Markdown table.

    ``rows`` may hold only the rows up to the window's end and the first columns (XLSX);
    ``total`` and ``columns`` then give the sheet's data-row and column counts.
    """
    data_rows = max(len(rows) - 1, 0)
    total = data_rows if total is None else total
    offset = options.offset
    if offset and offset >= total:
        raise InvalidFileError(
            f"{name}: offset={offset} is past the last row ({plural(total, 'row')} after the "
            f"header); use an offset from 0 to {max(total - 1, 0)}"
        )
    limit = options.limit or limits.TABLE_ROWS_PER_READ
    chosen = list(rows[1 + offset : 1 + offset + limit])
    width = max((len(r) for r in [*rows[:1], *chosen]), default=0)
    shown = min(width, limits.MAX_TABLE_COLUMNS)
    markdown = markdown_table([list(rows[0]), *chosen], shown) if rows else ""
    first = offset + 1 if chosen else 0
    cut = max((columns or width) - shown, 0)
    return Page(markdown, first, offset + len(chosen), total, cut)


def markdown_table(rows: Iterable[Sequence[Any]], width: int | None = None) -> str:
    """Rows as a Markdown table; the first row is the header. Pipes and newlines are escaped."""
    cells = [[_cell(value) for value in row] for row in rows]
    if not cells:
        return ""
    width = width if width is not None else max(len(row) for row in cells)
    if width == 0:
        return ""
    cells = [(row + [""] * width)[:width] for row in cells]
    lines = ["| " + " | ".join(row) + " |" for row in cells]
    lines.insert(1, "|" + "---|" * width)
    return "\n".join(lines)


def _cell(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, dt.datetime) and value.time() == dt.time():
        value = value.date()
    if isinstance(value, dt.date | dt.time):
        value = value.isoformat()
    text = str(value).strip()
    return (
        text.replace("\\", "\\\\").replace("|", "\\|").replace("\r\n", "<br>").replace("\n", "<br>")
    )


def _csv_rows(text: str, media_type: str, name: str) -> list[list[str]]:
    dialect: type[csv.Dialect] | csv.Dialect = csv.excel
    if media_type == "text/tab-separated-values":
        dialect = csv.excel_tab
    else:
        # One column, or too irregular to tell: plain commas.
        with contextlib.suppress(csv.Error):
            dialect = csv.Sniffer().sniff(text[:8192], delimiters=",;\t|")
    try:
        return list(csv.reader(io.StringIO(text, newline=""), dialect))
    except csv.Error as exc:
        raise InvalidFileError(f"{name}: not a readable CSV table ({exc})") from exc


def _sheet_rows(sheet: Any, options: Options) -> tuple[list[tuple[Any, ...]], int, int, bool]:
    """The header row and the data rows up to the window's end (at most
    ``MAX_TABLE_COLUMNS`` cells each), the sheet's row count and width, and whether the count
    is only a lower bound.

    The sheet's declared ``<dimension>`` is not trusted (a writer that declares ``A1`` would
    hide every other cell): it is dropped and the sheet is read on, the rows past the window
    only counted, up to ``MAX_COUNTED_ROWS`` of them. The rows kept are written as the sheet
    shows them (:func:`_as_shown`).
    """
    limit = options.limit or limits.TABLE_ROWS_PER_READ
    last = 1 + options.offset + limit
    declared = (sheet.max_row or 0, sheet.max_column or 0)
    if hasattr(sheet, "reset_dimensions"):
        sheet.reset_dimensions()
    rows: list[tuple[Any, ...]] = []
    count = width = 0  # rows up to the last one with a value; columns
    for seen, cells in enumerate(sheet.iter_rows(), 1):
        row = tuple(cell.value for cell in cells)
        used = len(row)
        while used and row[used - 1] is None:
            used -= 1
        if used:
            count, width = seen, max(width, used)
        if seen <= last:
            rows.append(
                tuple(_as_shown(cell) for cell in cells[: min(used, limits.MAX_TABLE_COLUMNS)])
            )
        elif seen > last + MAX_COUNTED_ROWS:  # past the budget: the declared size, if larger
            return rows, max(count, declared[0]), max(width, declared[1]), declared[0] <= count
    return rows[:count], count, width, False


def _as_shown(cell: Any) -> Any:
    """A cell's cached value written by its number format (``12.5%``, ``$1,234.50``, a date
    as its format writes it), as Excel shows it rather than as the file stores it."""
    value = cell.value
    number_format = getattr(cell, "number_format", None)
    if number_format in (None, "General"):
        return general(value)
    return shown(value, number_format)
