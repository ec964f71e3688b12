"""PDFs with pypdfium2: page count, text per page, pagination, and image-only pages rendered.

One read covers ``PDF_PAGES_PER_READ`` pages from ``page_start`` (0-based; ``page_end`` is
exclusive), and the header tells the model how to go on:
``report.pdf: PDF, 47 pages, 1.2 MB. Pages 1-20 of 47. Use page_start=20 to continue.``

Parts returned, after the Text (header + ``--- Page N ---`` sections):

- a PDF File: the original (``name`` = the file's base name) when the read covers the whole
  document, else a new PDF of just the pages read (``report-p21-40.pdf``); its ``text`` is the
  extracted text of those pages, so a text fallback downstream carries the content;
- a PNG File per page that has no text layer but draws something (a scan), or whose text
  layer is unreadable (pdftext.py), rendered at ``PDF_RENDER_DPI`` with its form fields drawn
  (``report-p3.png``), for providers that read PDFs as text only; its ``text`` says which page
  it is and why it was rendered. Filled form fields follow their page's text; a blank page is
  called blank, not scanned.

Hostile files: before pdfium sees a byte, every zlib stream is inflated (the output dropped)
to check ``MAX_PDF_STREAM_BYTES`` / ``MAX_PDF_INFLATED_BYTES``; each page's drawing objects are
counted when it loads, before its text is extracted (``MAX_PDF_OBJECTS_PER_READ``). What pdfium
has no knob for (form XObjects drawing each other) is left to the read worker's memory limit.

pdfium is not thread-safe, so every use is serialised by one lock.
"""

from __future__ import annotations

import io
import itertools
import re
import threading
import zlib
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import PurePath
from typing import Any

from ..content import File
from ..errors import InvalidFileError, missing_dependency
from ..messages import ContentOutput
from . import limits
from .common import Job, Options, header, output, plural, size_line
from .pdftables import page_text_with_tables
from .pdftext import PageText, read_page

_LOCK = threading.Lock()
_PASSWORD_ERROR = 4  # FPDF_ERR_PASSWORD

#: pdfium inflates a stream whole when a page needs it (a 4 MB Flate content stream becomes
#: 4 GB), so before pdfium sees the file every zlib stream in it is inflated here, and the
#: output dropped, to check that none inflates to more than this...
MAX_PDF_STREAM_BYTES = 256 * limits.MB
#: ... and that all of them together stay within this.
MAX_PDF_INFLATED_BYTES = 1024 * limits.MB
#: Drawing objects (text runs, paths, images) on the pages one read covers: each costs pdfium
#: about 600 bytes and 1.3 microseconds to load and extract text from. Pages are counted as
#: they are loaded, before their text is extracted.
MAX_PDF_OBJECTS_PER_READ = 500_000
#: zlib streams checked at most; a PDF with more is refused (a 1,000-page book has a few
#: thousand; each costs the check about 2 microseconds even when it is tiny).
MAX_PDF_ZLIB_STREAMS = 100_000
#: A zlib header (RFC 1950, 2.2): method 8 with a window of at most 32 KB, and a check byte
#: that makes the pair a multiple of 31.
_ZLIB_HEADERS = b"|".join(
    re.escape(bytes([method, check]))
    for method in range(0x08, 0x80, 0x10)
    for check in range(256)
    if (method * 256 + check) % 31 == 0
)
#: A line end followed by a zlib header: where zlib stream data may begin. pdfium skips the
#: rest of the line after a ``stream`` keyword, whatever it holds, and takes CR, LF or CRLF
#: as its end (PDF 32000-1, 7.3.8.1, asks for CRLF or LF right after the keyword).
_ZLIB_LINE = re.compile(rb"(?:\r\n|\r(?!\n)|\n)(?=" + _ZLIB_HEADERS + rb")")
_KEYWORD = re.compile(rb"(?<!end)stream")
_PIECE = 64 * 1024  # zlib allocates its output buffer up front: keep it small


@dataclass(frozen=True)
class _Page:
    number: int  # 1-based, as people count pages
    reading: PageText
    image: File | None  # the rendered page, when only an image shows what is on it

    @property
    def text(self) -> str:
        return self.reading.text


def read_pdf(job: Job) -> ContentOutput:
    """A window of a PDF's pages as text, the PDF (or the window's pages) and page images."""
    name = job.name
    data = job.data
    check_streams(data, name)
    pdfium = _pdfium()
    with _LOCK, _document(pdfium, data, name) as pdf:
        count = len(pdf)
        start, end = window(job.options, count, name)
        pages = _pages(pdf, start, end, name)
        whole = (start, end) == (0, count)
        pdf_bytes = data if whole else _subset(pdfium, pdf, start, end)
    body = "\n\n".join(_section(page) for page in pages)
    pdf_name = name if whole else _page_name(name, start, end, ".pdf")
    document = File.from_bytes(pdf_bytes, "application/pdf", pdf_name)
    document = document.model_copy(update={"text": body})
    images = [page.image for page in pages if page.image is not None]
    summary = (
        f"Page {end} of {count}." if end == start + 1 else f"Pages {start + 1}-{end} of {count}."
    )
    if end < count:
        summary += f" Use page_start={end} to continue."
    facts = [plural(count, "page"), size_line(data), *_render_facts(pages)]
    return output(f"{header(job, *facts)} {summary}", body, [document, *images])


def window(options: Options, count: int, name: str) -> tuple[int, int]:
    """The pages to read as (start, end), 0-based and end exclusive, checked against ``count``."""
    start = options.page_start
    if start < 0 or start >= count:
        raise InvalidFileError(
            f"{name}: page_start={start} is outside the document ({plural(count, 'page')}); "
            f"use a page_start from 0 to {count - 1}"
        )
    end = options.page_end if options.page_end is not None else start + limits.PDF_PAGES_PER_READ
    if end <= start:
        raise InvalidFileError(
            f"{name}: page_end={end} must be greater than page_start={start} "
            "(page_end is exclusive: page_start=0, page_end=1 reads the first page)"
        )
    return start, min(end, count, start + limits.PDF_MAX_PAGES_PER_READ)


def check_streams(data: bytes, name: str) -> None:
    """Refuse a PDF with a zlib stream that inflates past ``MAX_PDF_STREAM_BYTES``, or
    streams that together inflate past ``MAX_PDF_INFLATED_BYTES``, without keeping any.

    Every line that holds a ``stream`` keyword and is followed by a zlib header is tried,
    whatever the stream's dictionary says (its filter may be an indirect object).
    """
    total = 0
    for number, start in enumerate(_zlib_stream_starts(data)):
        if number >= MAX_PDF_ZLIB_STREAMS:
            raise InvalidFileError(
                f"{name} holds more than {MAX_PDF_ZLIB_STREAMS:,} compressed streams; PDFs "
                "with more are refused (a crafted file: books have a few thousand)"
            )
        size = _inflated_size(data, start, MAX_PDF_STREAM_BYTES)
        total += size
        if size > MAX_PDF_STREAM_BYTES or total > MAX_PDF_INFLATED_BYTES:
            what = (
                f"a stream at byte {start} inflates to more than "
                f"{MAX_PDF_STREAM_BYTES // limits.MB} MB"
                if size > MAX_PDF_STREAM_BYTES
                else f"its streams inflate to more than {MAX_PDF_INFLATED_BYTES // limits.MB} MB"
            )
            raise InvalidFileError(
                f"{name}: {what}; PDFs over that limit are refused as possible decompression "
                "bombs (the PDF reader inflates each stream whole)"
            )


def _zlib_stream_starts(data: bytes) -> Iterator[int]:
    """Where stream data that begins with a zlib header starts: after a line holding a
    ``stream`` keyword, or after a line longer than 4 KB (not searched: tried anyway)."""
    for line_end in _ZLIB_LINE.finditer(data):
        end = line_end.start()
        low = max(end - 4096, 0)
        line_start = max(data.rfind(b"\n", low, end), data.rfind(b"\r", low, end))
        if (line_start < 0 and low > 0) or _KEYWORD.search(data, max(line_start, low), end):
            yield line_end.end()


def _inflated_size(data: bytes, start: int, most: int) -> int:
    """The size of the zlib data at ``start`` inflated (0 if it is not zlib), through one
    nested zlib layer (``/Filter [/FlateDecode /FlateDecode]``); counts to ``most + 1``."""
    view = memoryview(data)
    outer = _inflate((view[i : i + _PIECE] for i in range(start, len(data), _PIECE)), most)
    first = next(outer, b"")
    if len(first) >= 2 and first[0] & 0x0F == 8 and int.from_bytes(first[:2], "big") % 31 == 0:
        counted = _Counted(itertools.chain([first], outer))
        inner = sum(len(piece) for piece in _inflate(counted, most))
        return max(inner, counted.size + sum(len(piece) for piece in outer))
    return len(first) + sum(len(piece) for piece in outer)


class _Counted:
    """An iterable of pieces that counts the bytes taken from it."""

    def __init__(self, pieces: Iterator[bytes]) -> None:
        self.pieces = pieces
        self.size = 0

    def __iter__(self) -> Iterator[bytes]:
        for piece in self.pieces:
            self.size += len(piece)
            yield piece


def _inflate(chunks: Iterable[bytes | memoryview], most: int) -> Iterator[bytes]:
    """The zlib data in ``chunks`` inflated piece by piece, until its end, an error, or more
    than ``most`` bytes."""
    inflater = zlib.decompressobj()
    produced = 0
    for chunk in chunks:
        pending: bytes | memoryview = chunk
        while pending and produced <= most and not inflater.eof:
            try:
                piece = inflater.decompress(pending, _PIECE)
            except zlib.error:
                return
            pending = inflater.unconsumed_tail
            produced += len(piece)
            yield piece
        if inflater.eof or produced > most:
            return


def _pages(pdf: Any, start: int, end: int, name: str) -> list[_Page]:
    pages = []
    rendered = 0
    objects = 0
    for index in range(start, end):
        page = pdf[index]
        try:
            objects += _object_count(page)
            if objects > MAX_PDF_OBJECTS_PER_READ:
                raise _too_many_objects(name, start, index, objects)
            reading = read_page(pdf, page, _page_text(page))
            image = None
            if reading.needs_image and rendered < limits.PDF_MAX_RENDERED_PAGES:
                image = _render(page, index, name, reading)
                rendered += 1
        finally:
            page.close()
        pages.append(_Page(index + 1, reading, image))
    return pages


def _object_count(page: Any) -> int:
    import pypdfium2.raw as pdfium_c

    return int(pdfium_c.FPDFPage_CountObjects(page.raw))


def _too_many_objects(name: str, start: int, index: int, objects: int) -> InvalidFileError:
    limit = f"{MAX_PDF_OBJECTS_PER_READ:,}"
    if index == start:
        return InvalidFileError(
            f"{name}: page {index + 1} alone draws {objects:,} objects; one read covers at "
            f"most {limit} drawing objects, so the page is refused (a crafted page, or a "
            "drawing too detailed to extract text from)"
        )
    return InvalidFileError(
        f"{name}: pages {start + 1}-{index + 1} draw more than {limit} objects, the most one "
        f"read covers; read fewer pages at a time (page_start={start}, page_end={index})"
    )


def _page_text(page: Any) -> str:
    textpage = page.get_textpage()
    try:
        text = page_text_with_tables(textpage, textpage.get_text_bounded())
    finally:
        textpage.close()
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    return "\n".join(line.rstrip() for line in lines).strip()


def _render(page: Any, index: int, name: str, reading: PageText) -> File:
    width, height = page.get_size()
    scale = min(limits.PDF_RENDER_DPI / 72, limits.PDF_RENDER_MAX_SIDE / max(width, height, 1.0))
    bitmap = page.render(scale=scale)
    try:
        buffer = io.BytesIO()
        bitmap.to_pil().save(buffer, "PNG")
    finally:
        bitmap.close()
    image = File.from_bytes(
        buffer.getvalue(), "image/png", _page_name(name, index, index + 1, ".png")
    )
    note = f"Page {index + 1} of {name}: {reading.why_rendered}; rendered at {limits.PDF_RENDER_DPI} dpi."
    return image.model_copy(update={"text": note})


def _subset(pdfium: Any, pdf: Any, start: int, end: int) -> bytes:
    """A new PDF holding pages start..end-1 of ``pdf``."""
    part = pdfium.PdfDocument.new()
    try:
        part.import_pages(pdf, pages=list(range(start, end)))
        buffer = io.BytesIO()
        part.save(buffer)
    finally:
        part.close()
    return buffer.getvalue()


def _section(page: _Page) -> str:
    kind, head = page.reading.kind, f"--- Page {page.number} ---"
    if kind == "text" and page.image is not None:
        why = page.reading.why_rendered
        return f"{head}\n{page.text}\n\n({why}; see the image {page.image.name})"
    if kind == "text":
        return f"{head}\n{page.text}"
    if kind == "blank":
        return f"{head}\n(a blank page)"
    why = page.reading.note or "(no text layer"
    why = why.rstrip(")")
    if page.image is not None:
        body = f"{why}; see the image {page.image.name})"
    else:
        body = (
            f"{why}; not rendered, as one read renders at most "
            f"{limits.PDF_MAX_RENDERED_PAGES} pages: read it with page_start={page.number - 1})"
        )
    return f"{head}\n{body}" + (f"\n\n{page.text}" if page.text else "")


def _render_facts(pages: list[_Page]) -> list[str]:
    """``page 3 has no text layer (rendered as report-p3.png)``, one fact per reason."""
    facts = []
    by_reason: dict[str, list[tuple[int, str]]] = {}
    for page in pages:
        if page.image is not None:
            image = page.image.name or f"page {page.number}"
            by_reason.setdefault(page.reading.why_rendered, []).append((page.number, image))
    for why, rendered in by_reason.items():
        if len(rendered) == 1:
            number, image = rendered[0]
            facts.append(f"page {number} has {why} (rendered as {image})")
        else:
            numbers = ", ".join(str(number) for number, _ in rendered)
            facts.append(f"pages {numbers} have {why} (rendered as images)")
    return facts


def _page_name(name: str, start: int, end: int, suffix: str) -> str:
    stem = PurePath(name).stem
    pages = f"p{start + 1}" if end == start + 1 else f"p{start + 1}-{end}"
    return f"{stem}-{pages}{suffix}"


@contextmanager
def _document(pdfium: Any, data: bytes, name: str) -> Iterator[Any]:
    """The opened document; pdfium's errors become InvalidFileError naming the file."""
    try:
        pdf = pdfium.PdfDocument(data)
    except pdfium.PdfiumError as exc:
        if getattr(exc, "err_code", None) == _PASSWORD_ERROR:
            raise InvalidFileError(
                f"{name} is password-protected; remove the password (or pass a decrypted "
                "copy) to read it"
            ) from exc
        raise InvalidFileError(
            f"{name}: the PDF is corrupt or truncated ({exc}); re-export it and try again"
        ) from exc
    try:
        if len(pdf) == 0:
            raise InvalidFileError(f"{name}: the PDF has no pages")
        _open_forms(pdf)
        yield pdf
    except pdfium.PdfiumError as exc:
        raise InvalidFileError(f"{name}: pdfium could not read a page ({exc})") from exc
    finally:
        pdf.close()


def _open_forms(pdf: Any) -> None:
    """Open the form environment before any page loads, so filled fields are drawn when a
    page is rendered and their values can be read (pdftext.form_fields)."""
    import pypdfium2

    try:
        pdf.init_forms()
    except pypdfium2.PdfiumError:
        return  # no form environment: pages are read and drawn without their widgets


def _pdfium() -> Any:
    try:
        import pypdfium2
    except ImportError as exc:
        raise missing_dependency("pypdfium2", "files") from exc
    return pypdfium2
