"""What every reader shares: the read options, format labels, and the shape of the output.

Every reader returns a ContentOutput whose first part is a Text: a one-line header
(``report.pdf: PDF, 3 pages. Pages 1-3 of 3.``) followed by the extracted text, and then the
File parts it produced.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TypeVar

from ..content import File, Text
from ..errors import InvalidFileError, ToolwireError
from ..headers import human_size
from ..mediatypes import DOCX, PPTX, XLSX
from ..messages import ContentOutput


@dataclass(frozen=True)
class Options:
    """Where a read starts and stops: pages for PDFs, lines or rows for text and tables.

    ``page_start`` is 0-based and ``page_end`` exclusive, like a Python slice; ``None`` for
    ``page_end`` / ``limit`` means the reader's default window.
    """

    page_start: int = 0
    page_end: int | None = None
    offset: int = 0
    limit: int | None = None
    #: HTML: the page's source instead of its Markdown.
    raw: bool = False


@dataclass(frozen=True)
class Job:
    """One file to read: its name, its bytes, what they are, and how to read them.

    A plain picklable value (no path, no open descriptor): read_file opens and reads the file
    itself, within the reader's size cap, so a reader only parses bytes it is handed, in this
    process or in the isolated worker. ``data`` is the whole file, except for text-like files
    larger than their read cap, where it is the first ``MAX_TEXT_BYTES`` (``size`` is the
    file's size on disk). ``note`` is set when the file's name suggests another format than
    its bytes; readers put it into their header.
    """

    name: str
    media_type: str
    options: Options
    data: bytes = field(repr=False)
    size: int
    note: str = ""


Reader = Callable[[Job], ContentOutput]
#: A Job or a subclass of it (a conversion's job), for functions that run any such reader.
AnyJob = TypeVar("AnyJob", bound=Job)


def parse(reader: Callable[[AnyJob], ContentOutput], job: AnyJob) -> ContentOutput:
    """``reader(job)``, with any exception a parser raises on hostile input turned into an
    InvalidFileError naming the file: no dependency's exception escapes read_file."""
    try:
        return reader(job)
    except ToolwireError:
        raise
    except Exception as exc:
        raise unreadable(job, exc) from exc


def unreadable(job: Job, exc: Exception) -> InvalidFileError:
    """The error for a parser's own failure (not one of toolwire's) on ``job``'s bytes."""
    return InvalidFileError(
        f"{job.name} could not be read as {label(job.media_type)} "
        f"({type(exc).__name__}: {exc}); the file is probably corrupt"
    )


_LABELS = {
    "image/png": "PNG image",
    "image/jpeg": "JPEG image",
    "image/gif": "GIF image",
    "image/webp": "WebP image",
    "image/bmp": "BMP image",
    "image/tiff": "TIFF image",
    "image/heic": "HEIC image",
    "image/heif": "HEIF image",
    "image/avif": "AVIF image",
    "image/svg+xml": "SVG image",
    "application/pdf": "PDF",
    DOCX: "Word document (DOCX)",
    PPTX: "PowerPoint presentation (PPTX)",
    XLSX: "Excel workbook (XLSX)",
    "application/zip": "zip archive",
    "text/csv": "CSV table",
    "text/tab-separated-values": "TSV table",
    "text/markdown": "Markdown text",
    "text/html": "HTML text",
    "text/plain": "text",
    "application/json": "JSON text",
    "application/xml": "XML text",
    "audio/wav": "WAV audio",
    "audio/mpeg": "MP3 audio",
    "audio/mp4": "M4A audio",
    "audio/ogg": "Ogg audio",
    "audio/flac": "FLAC audio",
    "video/mp4": "MP4 video",
    "video/quicktime": "QuickTime video",
    "video/webm": "WebM video",
    "video/ogg": "Ogg video",
    "video/x-matroska": "Matroska video",
    "video/x-msvideo": "AVI video",
}


def label(media_type: str) -> str:
    """A short human name for a media type: 'PNG image', 'PDF', 'Word document (DOCX)'."""
    return _LABELS.get(media_type, media_type)


def plural(count: int, noun: str) -> str:
    """'1 page', '3 pages'."""
    return f"{count} {noun}{'' if count == 1 else 's'}"


def output(header: str, body: str, files: list[File]) -> ContentOutput:
    """The ContentOutput every reader returns: header and body as one Text, then the files."""
    text = f"{header}\n\n{body}" if body else header
    return ContentOutput(value=(Text(text=text), *files))


def header(job: Job, *facts: str) -> str:
    """``name: LABEL, fact, fact.`` with the name-mismatch note, if any, after the label."""
    parts = [label(job.media_type) + job.note, *facts]
    return f"{job.name}: {', '.join(parts)}."


def size_line(data: bytes) -> str:
    """'245 KB' — the size fact used in headers."""
    return human_size(len(data))
