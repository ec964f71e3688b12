"""Tables as Markdown: CSV/TSV files and XLSX workbooks, paged by rows.

The first row is the table's header and is repeated on every page; ``offset`` and ``limit``
count the rows after it (``Rows 1-500 of 12000. Use offset=500 to continue.``). Columns beyond
``MAX_TABLE_COLUMNS`` are left out, and the header says so.
"""

from __future__ import annotations

import contextlib
import csv
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
from .common import Job, Options, header, output, plural
from .text import decode


@dataclass(frozen=True)
class Page:
    """One page of a table: its Markdown, and the rows shown out of how many."""

    markdown: str
    first: int
    last: int
    total: int
    columns_cut: int

    def summary(self) -> str:
        """``Rows 1-500 of 12000. Use offset=500 to continue.``"""
        text = f"Rows {self.first}-{self.last} of {self.total}."
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
            rows = _sheet_rows(sheet, options)
            total = max((sheet.max_row or 0) - 1, len(rows) - 1, 0)
            page = paginate(rows, options, name, total=total, columns=sheet.max_column)
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


def _sheet_rows(sheet: Any, options: Options) -> list[tuple[Any, ...]]:
    """The header row and the data rows up to the window's end (never the whole sheet)."""
    limit = options.limit or limits.TABLE_ROWS_PER_READ
    last = 1 + options.offset + limit
    # read-only openpyxl pads every row to max_col: ask for no more columns than the sheet has
    columns = min(limits.MAX_TABLE_COLUMNS, sheet.max_column or limits.MAX_TABLE_COLUMNS)
    return list(sheet.iter_rows(values_only=True, max_row=last, max_col=columns))
