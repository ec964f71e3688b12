"""read_file: check the path, tell what the bytes are, and hand them to the matching reader.

What a file is comes from its bytes (``mediatypes.sniff``), never from its name alone. When
the name's extension says one thing and the bytes another (a PDF named ``photo.png``), the
file is read as what its bytes are and the header says so
(``photo.png: PDF (despite its .png extension), 3 pages…``); bytes that match no
format read_file knows and are not text are refused. That choice keeps a mislabelled but
valid file useful, while nonsense (random bytes, unknown binaries) never reaches a parser.

The file is opened and read here, within the matching reader's size cap; the reader gets the
bytes as a ``Job`` and runs in the read worker (``isolation``: a separate process under a
memory and a time limit), so a decoder bomb cannot take this process down.

No dependency's exception escapes: readers turn the ones they expect into InvalidFileError
with a specific message, and anything else a parser raises on hostile input is wrapped
(``common.parse``, or the worker's equivalent).
"""

from __future__ import annotations

import os
from pathlib import PurePath

from ..errors import InvalidFileError
from ..mediatypes import (
    ALL_EXTENSIONS,
    DOCX,
    PPTX,
    XLSX,
    check_declared,
    is_textual,
    sniff,
)
from ..messages import ContentOutput
from . import isolation, limits, paths
from .common import Job, Options, Reader, label
from .html import read_html
from .image import read_image
from .media import read_media
from .office import read_office
from .pdf import read_pdf
from .svg import read_svg
from .tables import read_csv
from .text import read_text

#: Exact media types with their own reader; after these, a type's top level decides.
_BY_TYPE: dict[str, Reader] = {
    "image/svg+xml": read_svg,
    "application/pdf": read_pdf,
    DOCX: read_office,
    PPTX: read_office,
    XLSX: read_office,
    "text/csv": read_csv,
    "text/tab-separated-values": read_csv,
    "text/html": read_html,
}
_BY_TOP_LEVEL: dict[str, Reader] = {"image": read_image, "audio": read_media, "video": read_media}

#: What each reader may be handed: its size cap, the files the cap is for (named in the
#: refusal), and whether a larger file is read up to the cap instead of refused.
#: The cap is named, not copied, so it is looked up in ``limits`` at each read.
_CAPS: dict[Reader, tuple[str, str, bool]] = {
    read_image: ("MAX_IMAGE_BYTES", "images", False),
    read_svg: ("MAX_SVG_BYTES", "SVG files", False),
    read_pdf: ("MAX_PDF_BYTES", "PDFs", False),
    read_office: ("MAX_OFFICE_BYTES", "office documents", False),
    read_media: ("MAX_MEDIA_BYTES", "audio and video files", False),
    read_csv: ("MAX_TEXT_BYTES", "CSV files", True),
    read_text: ("MAX_TEXT_BYTES", "text files", True),
    read_html: ("MAX_TEXT_BYTES", "HTML files", True),
}

_OFFICE = frozenset({DOCX, PPTX, XLSX})
_OLE = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
_WHAT_IS_READ = "it reads images, PDFs, DOCX/PPTX/XLSX/CSV, text, SVG, audio and video"


def read_file(
    path: str | os.PathLike[str],
    *,
    root: str | os.PathLike[str] | None = None,
    page_start: int = 0,
    page_end: int | None = None,
    offset: int = 0,
    limit: int | None = None,
    raw: bool = False,
    allow_hardlinks: bool = False,
) -> ContentOutput:
    """Read a file into a tool output: a Text (header and extracted text) and File parts.

    ``root`` confines the read to one directory (a relative ``path`` is taken relative to
    it; the path is opened component by component from the root, never following a symlink
    out of it); without it any regular file the process can read is allowed. Under a root a
    file with several hard links is refused unless ``allow_hardlinks=True``.
    ``page_start`` / ``page_end`` choose PDF pages (0-based, end exclusive, 20 per read by
    default); ``offset`` / ``limit`` choose lines of text and documents or rows of tables.
    An HTML file is read as Markdown; ``raw=True`` reads its source.
    The header says how to continue a partial read.

    Raises PathNotAllowedError (outside ``root``; directories, FIFOs, devices) and
    InvalidFileError (missing, empty, too large, corrupt, encrypted, a bomb, an unknown
    format), each naming the file and the cause.

    >>> read_file("report.pdf", root="examples").value[0].text.splitlines()[0]
    'report.pdf: PDF, 3 pages, 35 KB, page 3 has no text layer (rendered as report-p3.png). Pages 1-3 of 3.'
    """
    options = _options(page_start, page_end, offset, limit, raw)
    target = paths.resolve(path, root, allow_hardlinks=allow_hardlinks)
    head = paths.read_head(target)
    media_type, data = identify(target, head)
    reader = _reader(media_type, target.name)
    note = _name_note(target.name, media_type, data)
    job = Job(target.name, media_type, options, _read(reader, target, data), target.size, note)
    return isolation.run(reader, job)


def _read(reader: Reader, target: paths.Target, known: bytes) -> bytes:
    """The bytes ``reader`` is handed: the whole file within its cap (text-like readers: the
    first bytes up to it), reusing ``known`` when it already is the whole file."""
    cap_name, what, truncate = _CAPS[reader]
    cap: int = getattr(limits, cap_name)
    if len(known) == target.size and target.size <= cap:
        return known
    return paths.read_bytes(target, cap, what, truncate=truncate)


def identify(target: paths.Target, head: bytes) -> tuple[str, bytes]:
    """The media type the bytes show, and the bytes it was told from (the head, or the
    whole file for zip containers, whose type is in their directory)."""
    data = head
    if head.startswith(b"PK\x03\x04"):
        data = paths.read_bytes(target, limits.MAX_OFFICE_BYTES, "zip-based files")
    media_type = sniff(data, target.name)
    if media_type is not None:
        return media_type, data
    if head.startswith(_OLE):
        raise InvalidFileError(
            f"{target.name} is a legacy Office (.doc/.xls/.ppt) or password-protected Office "
            "file; save it as an unprotected DOCX, XLSX or PPTX to read it"
        )
    raise InvalidFileError(
        f"{target.name}: its bytes match no format read_file reads and are not text; "
        f"{_WHAT_IS_READ}"
    )


def _reader(media_type: str, name: str) -> Reader:
    reader = _BY_TYPE.get(media_type) or _BY_TOP_LEVEL.get(media_type.split("/", 1)[0])
    if reader is None and is_textual(media_type):
        reader = read_text
    if reader is None:
        raise InvalidFileError(
            f"{name} is a {label(media_type)}, which read_file does not read; {_WHAT_IS_READ}"
            + ("; extract the file you need from the archive" if "zip" in media_type else "")
        )
    return reader


def _name_note(name: str, media_type: str, data: bytes) -> str:
    """`` (despite its .png extension)`` when the name promises another format than the bytes."""
    suffix = PurePath(name).suffix.lower()
    expected = ALL_EXTENSIONS.get(suffix)
    if expected is None or expected == media_type:
        return ""
    if expected in _OFFICE or media_type in _OFFICE:
        agrees = False
    else:
        try:
            check_declared(expected, data, name)
            agrees = True
        except InvalidFileError:
            agrees = False
    return "" if agrees else f" (despite its {suffix} extension)"


def _options(
    page_start: int, page_end: int | None, offset: int, limit: int | None, raw: bool
) -> Options:
    for field, value, least, optional in (
        ("page_start", page_start, 0, False),
        ("page_end", page_end, 1, True),
        ("offset", offset, 0, False),
        ("limit", limit, 1, True),
    ):
        if value is None and optional:
            continue
        if isinstance(value, bool) or not isinstance(value, int) or value < least:
            raise InvalidFileError(
                f"read_file: {field}={value!r} is not allowed; it must be an integer >= {least}"
                + (" or None" if optional else "")
            )
    if not isinstance(raw, bool):
        raise InvalidFileError(f"read_file: raw={raw!r} is not allowed; it must be true or false")
    return Options(page_start, page_end, offset, limit, raw)
