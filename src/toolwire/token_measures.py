"""What token estimates measure in a file without decoding it: image size, PDF pages,
duration, and the text inside an office document.

Each function returns the measure and a short account of where it came from; when the file
says nothing (or is not local), a stated guess takes its place and the account says so.
Guesses lean high (more pages, longer durations), because an estimate that is too low is the
one that gets a request rejected.
"""

from __future__ import annotations

import io
import math
import re
import zipfile
from typing import Any

from . import headers
from .content import File
from .mediatypes import ZIP_ERRORS

#: A PDF whose pages cannot be counted: one page per this many bytes.
PDF_BYTES_PER_PAGE = 16 * 1024
#: Not local (a URL or a provider file id): what is assumed instead of measured.
UNKNOWN_PDF_PAGES = 10
UNKNOWN_SECONDS = 60.0
#: A duration that cannot be read: bytes per second of low-rate audio (32 kbit/s) and video
#: (500 kbit/s), so the guess is long rather than short.
BYTES_PER_SECOND = {"audio": 4000, "video": 62_500}
#: OOXML members that hold a document's text, and how much of them is read at most.
_OFFICE_TEXT = re.compile(
    r"word/(document|footnotes|endnotes)\.xml|ppt/(slides|notesSlides)/[^/]+\.xml"
    r"|xl/sharedStrings\.xml|xl/worksheets/[^/]+\.xml"
)
_OFFICE_READ_BYTES = 16 * 1024 * 1024
_TAG = re.compile(rb"<[^>]*>")


def image_size(file: File) -> tuple[int, int] | None:
    """Width and height as shown (EXIF orientation applied), from the header only; None when
    the file is not local or its format's header is not parsed (HEIC, TIFF, SVG…)."""
    return shown_size(file.read(), file.media_type) if file.source.is_local else None


def shown_size(data: bytes, media_type: str) -> tuple[int, int] | None:
    """An image's header size with JPEG EXIF orientations 5-8 (a quarter turn) applied."""
    size = headers.image_size(data)
    if size and media_type == "image/jpeg" and headers.jpeg_orientation(data) >= 5:
        size = (size[1], size[0])
    return size if size and size[0] > 0 and size[1] > 0 else None


def pdf_pages(file: File) -> tuple[int, str]:
    """Pages from the page objects, else pypdfium2's page tree (nothing rendered), else a
    guess from the size."""
    if not file.source.is_local:
        return UNKNOWN_PDF_PAGES, f"{UNKNOWN_PDF_PAGES} pages (not local: assumed)"
    data = file.read()
    pages = headers.pdf_page_count(data) or _pdfium_pages(data)
    if pages:
        return pages, f"{pages} pages"
    guess = max(1, math.ceil(len(data) / PDF_BYTES_PER_PAGE))
    return guess, f"{guess} pages (guessed: one per {PDF_BYTES_PER_PAGE // 1024} KiB)"


def _pdfium_pages(data: bytes) -> int | None:
    """pypdfium2's page count, taken in the read worker (readers.isolation: untrusted bytes
    are parsed there, under its limits and sandbox); None where it cannot tell."""
    from .errors import ToolwireError
    from .readers import isolation
    from .readers.common import Job, Options

    job = Job("document.pdf", "application/pdf", Options(), data, len(data), "")
    try:
        output = isolation.run(count_pdf_pages, job)
    except ToolwireError:  # unreadable, or over a limit: the size-based guess takes over
        return None
    first = output.value[0] if output.value else None
    text = getattr(first, "text", None) or ""
    return int(text) if text.isdigit() and int(text) > 0 else None


def count_pdf_pages(job: Any) -> Any:
    """In the read worker: the PDF's page count from pypdfium2's page tree (nothing
    rendered), as a ContentOutput of one Text ("0": pypdfium2 is missing or cannot read it)."""
    from .content import Text
    from .messages import ContentOutput

    count = 0
    try:
        import pypdfium2

        document = pypdfium2.PdfDocument(job.data)
        try:
            count = len(document)
        finally:
            document.close()
    except Exception:  # unreadable or not installed: the caller guesses from the size
        count = 0
    return ContentOutput(value=(Text(text=str(count)),))


def seconds(file: File) -> tuple[float, str]:
    """Duration from a WAV header or mutagen (headers only), else a guess from the size."""
    if not file.source.is_local:
        return UNKNOWN_SECONDS, f"{UNKNOWN_SECONDS:g} s (not local: assumed)"
    data = file.read()
    found = headers.wav_duration(data) if file.media_type == "audio/wav" else None
    if found is None:
        found = _mutagen_seconds(data)
    if found is not None:
        return found, f"{found:.1f} s"
    rate = BYTES_PER_SECOND.get(file.kind, BYTES_PER_SECOND["audio"])
    guess = len(data) / rate
    return guess, f"{guess:.1f} s (guessed from size at {rate * 8 // 1000} kbit/s)"


def _mutagen_seconds(data: bytes) -> float | None:
    try:
        import mutagen
    except ImportError:
        return None
    try:
        parsed = mutagen.File(io.BytesIO(data))
    except Exception:  # mutagen raises many types on odd files: the guess takes over, and says so
        return None
    length = getattr(getattr(parsed, "info", None), "length", None)
    return float(length) if length else None


def office_text(data: bytes) -> str | None:
    """The text of a DOCX, PPTX or XLSX: its text-bearing XML members with the tags removed
    (at most 16 MB of them read); None when the bytes are not such a zip."""
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            chunks = _text_members(archive)
    except ZIP_ERRORS:
        return None
    return " ".join(" ".join(chunks).split()) if chunks else None


def _text_members(archive: zipfile.ZipFile) -> list[str]:
    """Each text-bearing member's XML without its tags, reading at most the byte budget (the
    decompressed size is bounded by the read, whatever the zip's directory claims)."""
    budget, chunks = _OFFICE_READ_BYTES, []
    for info in archive.infolist():
        if budget <= 0 or not _OFFICE_TEXT.fullmatch(info.filename):
            continue
        with archive.open(info) as member:
            xml = member.read(budget)
        budget -= len(xml)
        chunks.append(_TAG.sub(b" ", xml).decode("utf-8", "replace"))
    return chunks
