"""Office documents (DOCX, PPTX, XLSX) as Markdown, with the original kept as a File.

DOCX: as readers/docx.py reads it (lists, notes, links, text boxes, pictures, equations). PPTX: ``## Slide N: title``, the other text on the slide, tables, then the
speaker notes. XLSX: each sheet (up to ``MAX_SHEETS``) as a Markdown table paged by rows.
DOCX and PPTX Markdown is paged by lines like a text file.

Before python-docx, python-pptx or openpyxl see a byte, the zip's directory is checked: member
count, total uncompressed size (``zipfile`` never yields more than a member's declared size,
so the declared sizes bound what decompression can produce) and each large member's
compression ratio, so a zip bomb posing as an office file is refused unopened. The start of
every ``.xml`` and ``.rels`` member is checked too: Office Open XML parts are UTF-8 or UTF-16
XML with no DTD (ECMA-376 Part 2, Open Packaging Conventions, "XML usage"), so a part that
declares one (``<!DOCTYPE``, ``<!ENTITY``: the way into an entity bomb such as "billion
laughs"), names another encoding, or whose root element does not begin within
``limits.XML_PROLOG_BYTES`` is refused before libxml2 would spend seconds expanding it.
XML that a library parses whole is capped by size whatever its ratio (``MAX_PARSED_XML_BYTES``),
and a workbook's shared strings are counted before openpyxl loads them.

The File part is the original document (``name`` = its base name) so providers that take
office files natively still can; its ``text`` is the whole Markdown, for text fallbacks.
"""

from __future__ import annotations

import io
import re
import zipfile
from typing import Any

from ..content import File
from ..errors import InvalidFileError, missing_dependency
from ..headers import human_size
from ..mediatypes import DOCX, PPTX, XLSX, ZIP_ERRORS
from ..messages import ContentOutput
from . import limits
from .common import Job, header, label, output, plural
from .docx import docx_markdown
from .slides import chart_markdown, picture_text, reading_order
from .tables import markdown_table, xlsx_pages
from .text import page_lines

_XML_MEMBER = (".xml", ".rels")
_DTD = re.compile(r"<!(?:DOCTYPE|ENTITY)", re.IGNORECASE)
#: What may precede the root element once the DTD is ruled out: space, the XML declaration
#: and other processing instructions, comments.
_PROLOG = re.compile(r"(?:\s|<\?.*?\?>|<!--.*?-->)*", re.DOTALL)
_ROOT = re.compile(r"<[A-Za-z_:]")
_ENCODING = re.compile(r"""<\?xml[^>]*?\bencoding\s*=\s*["']([^"']*)["']""")
_OOXML_ENCODINGS = {"utf8", "utf16", "utf16le", "utf16be"}
#: UTF-16 is told by its byte-order mark or by the first "<" (XML 1.0, appendix F); all else
#: is read as UTF-8, so UTF-32 or EBCDIC shows up as text that does not begin with "<".
_UTF16 = (
    (b"\xff\xfe", "utf-16-le"),
    (b"<\x00", "utf-16-le"),
    (b"\xfe\xff", "utf-16-be"),
    (b"\x00<", "utf-16-be"),
)
_UNPACK_ERRORS = ZIP_ERRORS
#: python-docx and python-pptx parse every XML part whole, into trees of about 20 bytes of
#: memory per byte of XML (250 MB of empty paragraphs took 5.6 GB), and openpyxl parses an
#: XLSX's parts but its worksheets whole too: XML parsed that way may unpack to at most this
#: much in total (DOCX, PPTX) or per part (XLSX), whatever its compression ratio.
MAX_PARSED_XML_BYTES = 40 * limits.MB
#: openpyxl turns each shared string into Python objects (about 70,000 a second), so a
#: workbook whose sharedStrings part holds more entries than this is refused.
MAX_SHARED_STRINGS = 250_000
#: An ``<si>`` element, with any namespace prefix: one shared string.
_SHARED_STRING = re.compile(rb"<(?:[A-Za-z_][\w.-]{0,40}:)?si[\s/>]")
_WORKSHEET = re.compile(r"xl/worksheets/[^/]+$")
#: What a DOCX with no text, picture, table or equation reads as, so it is never just empty.
_EMPTY_DOCX = "(The document is empty: no text, pictures, tables or equations.)"


def read_office(job: Job) -> ContentOutput:
    """A DOCX, PPTX or XLSX file as a header, its Markdown, and the original File."""
    name = job.name
    data = job.data
    check_zip(data, name, job.media_type)
    facts = [human_size(len(data))]
    if job.media_type == XLSX:
        markdown, summary, count = _xlsx(data, job)
        facts.insert(0, plural(count, "sheet"))
        body = markdown
    else:
        if job.media_type == DOCX:
            markdown = docx_markdown(data, name) or _EMPTY_DOCX
        elif job.media_type == PPTX:
            markdown, slides = _pptx_markdown(data)
            facts.insert(0, plural(slides, "slide"))
        else:
            raise InvalidFileError(
                f"{name}: {label(job.media_type)} is not an office format read_file reads"
            )
        lines = markdown.split("\n") if markdown else []
        body, summary = page_lines(lines, job.options.offset, job.options.limit, name)
    original = File.from_bytes(data, job.media_type, name)
    original = original.model_copy(update={"text": markdown[: limits.MAX_TEXT_CHARS]})
    return output(f"{header(job, *facts)} {summary}", body, [original])


def check_zip(data: bytes, name: str, media_type: str | None = None) -> None:
    """Refuse a corrupt, encrypted or bomb-like zip, or an XML part with a DTD, before any
    office library opens it; with ``media_type``, also XML that its library would take too
    much memory or time to parse."""
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except (zipfile.BadZipFile, zipfile.LargeZipFile, OSError, ValueError, EOFError) as exc:
        raise InvalidFileError(
            f"{name}: not a valid zip container, so not a readable office file ({exc})"
        ) from exc
    with archive:
        members = archive.infolist()
        _check_members(members, name)
        xml = [member for member in members if _checked_xml(archive, member, name)]
        if media_type == XLSX:
            _check_workbook_parts(archive, xml, name)
        elif media_type is not None:
            _check_xml_total(xml, media_type, name)


def _checked_xml(archive: zipfile.ZipFile, member: zipfile.ZipInfo, name: str) -> bool:
    """Whether the member is XML, by its name or by its first bytes whatever its name (the
    content type, not the name, tells a library to parse a part). Members named .xml/.rels
    are checked for a DTD; others (an SVG image may have a DOCTYPE) only count as XML."""
    if member.is_dir() or not member.file_size:
        return False
    head = _xml_head(archive, member, name)
    if member.filename.lower().endswith(_XML_MEMBER):
        _check_xml_start(head, member, name)
        return True
    return _xml_text(head[:64]).lstrip()[:1] == "<"


def _check_xml_total(xml: list[zipfile.ZipInfo], media_type: str, name: str) -> None:
    total = sum(member.file_size for member in xml)
    if total > MAX_PARSED_XML_BYTES:
        raise InvalidFileError(
            f"{name}: its XML parts unpack to {human_size(total)}; a {label(media_type)} is "
            f"parsed whole (about 20 times that in memory), so more than "
            f"{human_size(MAX_PARSED_XML_BYTES)} of XML is refused. Split the document"
        )


def _check_workbook_parts(archive: zipfile.ZipFile, xml: list[zipfile.ZipInfo], name: str) -> None:
    """Every part openpyxl parses whole within its size cap, and the shared strings counted
    in every part (the content types, not the part's name, say which one openpyxl loads)."""
    strings = 0
    for member in xml:
        if member.file_size > MAX_PARSED_XML_BYTES and not _WORKSHEET.match(member.filename):
            raise InvalidFileError(
                f"{name}: member {member.filename!r} unpacks to {human_size(member.file_size)}; "
                f"workbook parts other than worksheets are parsed whole, so parts over "
                f"{human_size(MAX_PARSED_XML_BYTES)} are refused. Export the sheet as CSV"
            )
        strings += _count_shared_strings(archive, member, name, MAX_SHARED_STRINGS - strings)
        if strings > MAX_SHARED_STRINGS:
            raise InvalidFileError(
                f"{name}: its shared strings table holds more than {MAX_SHARED_STRINGS:,} "
                "entries; workbooks with more are refused, as openpyxl loads them all before "
                "the first row. Export the sheet as CSV"
            )


def _count_shared_strings(
    archive: zipfile.ZipFile, member: zipfile.ZipInfo, name: str, most: int
) -> int:
    """``<si>`` elements in the part, counted while it is inflated 1 MB at a time; stops
    once past ``most``."""
    count = 0
    carry = b""
    try:
        with archive.open(member) as stream:
            while count <= most and (chunk := stream.read(limits.MB)):
                buffer = carry + chunk
                # A match holds one "<", at its start: cutting before a "<" splits none.
                split = buffer.rfind(b"<", max(len(buffer) - 64, 0))
                split = len(buffer) if split < 0 else split
                count += len(_SHARED_STRING.findall(buffer, 0, split))
                carry = buffer[split:]
    except _UNPACK_ERRORS as exc:
        raise InvalidFileError(
            f"{name}: member {member.filename!r} cannot be unpacked ({exc}); "
            "the file is probably corrupt"
        ) from exc
    return count + len(_SHARED_STRING.findall(carry))


def _check_members(members: list[zipfile.ZipInfo], name: str) -> None:
    """Member count, total unpacked size, encryption and each large member's ratio."""
    if len(members) > limits.MAX_ZIP_MEMBERS:
        raise InvalidFileError(
            f"{name} holds {len(members)} zip members; office files with more than "
            f"{limits.MAX_ZIP_MEMBERS} are refused (a zip bomb or not an office file)"
        )
    total = sum(member.file_size for member in members)
    if total > limits.MAX_UNZIPPED_BYTES:
        raise InvalidFileError(
            f"{name} would unpack to {human_size(total)}; office files over "
            f"{human_size(limits.MAX_UNZIPPED_BYTES)} uncompressed are refused as possible "
            "zip bombs. Split the document"
        )
    for member in members:
        if member.flag_bits & 0x1:
            raise InvalidFileError(f"{name} is encrypted; save an unprotected copy to read it")
        ratio = member.file_size / max(member.compress_size, 1)
        if member.file_size >= limits.ZIP_RATIO_MIN_BYTES and ratio > limits.MAX_ZIP_RATIO:
            raise InvalidFileError(
                f"{name}: member {member.filename!r} is compressed {ratio:.0f}:1; ratios over "
                f"{limits.MAX_ZIP_RATIO}:1 are refused as a zip bomb"
            )


def _xml_head(archive: zipfile.ZipFile, member: zipfile.ZipInfo, name: str) -> bytes:
    """The first ``limits.XML_PROLOG_BYTES`` of a member, unpacked (no more is inflated)."""
    try:
        with archive.open(member) as stream:
            return stream.read(limits.XML_PROLOG_BYTES)
    except _UNPACK_ERRORS as exc:
        raise InvalidFileError(
            f"{name}: member {member.filename!r} cannot be unpacked ({exc}); "
            "the file is probably corrupt"
        ) from exc


def _check_xml_start(head: bytes, member: zipfile.ZipInfo, name: str) -> None:
    """Refuse an XML part with a DTD, a non-UTF encoding, or no root element early on."""
    where = f"{name}: member {member.filename!r}"
    text = _xml_text(head)
    if _DTD.search(text):
        raise InvalidFileError(
            f"{where} declares a DTD (<!DOCTYPE or <!ENTITY); Office Open XML never uses one, "
            "so it is refused as a possible XML entity bomb. Re-save the document from its "
            "office application if it is genuine"
        )
    declared = _ENCODING.match(text)
    encoding = declared.group(1) if declared else "UTF-8"
    if encoding.lower().replace("-", "").replace("_", "") not in _OOXML_ENCODINGS:
        raise InvalidFileError(
            f"{where} is XML in {encoding!r}; Office Open XML parts are UTF-8 or UTF-16, "
            "so it is refused"
        )
    prolog = _PROLOG.match(text)
    rest = text[prolog.end() :] if prolog else text
    is_whole = member.file_size <= len(head)
    if _ROOT.match(rest) or (not rest and is_whole):
        return
    raise InvalidFileError(
        f"{where} does not begin with an XML element within its first "
        f"{human_size(limits.XML_PROLOG_BYTES)}; Office Open XML parts always do, so it is "
        "refused"
    )


def _xml_text(head: bytes) -> str:
    """The start of an XML part as text, UTF-16 or else UTF-8, without a byte-order mark."""
    codec = next((codec for mark, codec in _UTF16 if head.startswith(mark)), "utf-8")
    return head.decode(codec, "replace").removeprefix("\ufeff")


def _xlsx(data: bytes, job: Job) -> tuple[str, str, int]:
    pages = xlsx_pages(data, job.options, job.name)
    sections = [f"## Sheet: {title}\n{page.summary()}\n\n{page.markdown}" for title, page in pages]
    more = [f"{title}: {page.summary()}" for title, page in pages if page.last < page.total]
    if len(pages) == 1:
        summary = pages[0][1].summary()
    else:
        summary = "Each sheet is paged by rows." + (" " + " ".join(more) if more else "")
    return "\n\n".join(sections), summary, len(pages)


def _pptx_markdown(data: bytes) -> tuple[str, int]:
    try:
        import pptx
    except ImportError as exc:
        raise missing_dependency("python-pptx", "files") from exc
    sections = []
    presentation = pptx.Presentation(io.BytesIO(data))
    for number, slide in enumerate(presentation.slides, 1):
        title_shape = slide.shapes.title
        title = title_shape.text_frame.text.strip() if title_shape is not None else ""
        lines = [f"## Slide {number}: {title}" if title else f"## Slide {number}"]
        skip = title_shape.shape_id if title_shape is not None else None
        lines += [text for text in _shape_texts(slide.shapes, skip) if text]
        if slide.has_notes_slide:
            notes = slide.notes_slide.notes_text_frame.text.strip()
            if notes:
                lines.append(f"Notes: {notes}")
        sections.append("\n\n".join(lines))
    return "\n\n".join(sections), len(sections)


def _shape_texts(shapes: Any, skip: int | None) -> list[str]:
    """Text of every shape (groups included) in reading order, tables as Markdown, charts as
    their data, pictures by their description, except shape ``skip``."""
    from pptx.enum.shapes import MSO_SHAPE_TYPE
    from pptx.shapes.placeholder import PlaceholderPicture

    texts = []
    for shape in reading_order(shapes):
        if shape.shape_id == skip:
            continue
        if getattr(shape, "shapes", None) is not None:  # a group shape
            texts += _shape_texts(shape.shapes, skip)
        elif getattr(shape, "has_table", False):
            rows = [[cell.text for cell in row.cells] for row in shape.table.rows]
            texts.append(markdown_table(rows[: limits.TABLE_ROWS_PER_READ + 1]))
        elif getattr(shape, "has_chart", False):
            texts.append(chart_markdown(shape.chart))
        elif isinstance(shape, PlaceholderPicture) or shape.shape_type == MSO_SHAPE_TYPE.PICTURE:
            texts.append(picture_text(shape))
        elif shape.has_text_frame:
            texts.append(shape.text_frame.text.strip())
    return texts
