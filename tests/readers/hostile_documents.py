"""Hostile PDFs and office documents for the reader tests (see hostile_files)."""

from __future__ import annotations

import io
import random
import zipfile
import zlib

from .bombs import zlib_bomb

# --- PDF ------------------------------------------------------------------------------------


def _pdf(objects: list[bytes]) -> bytes:
    """A PDF of these objects (object 1 is the catalog) with a correct xref table."""
    out = bytearray(b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for number, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    for offset in offsets:
        out += b"%010d 00000 n \n" % offset
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (
        len(objects) + 1,
        xref,
    )
    return bytes(out)


def _stream(data: bytes, extra: bytes = b"", eol: bytes = b"\n") -> bytes:
    return b"<< /Length %d %s>>\nstream%s" % (len(data), extra, eol) + data + b"\nendstream"


_FONT = b"<< /Font << /F1 << /Type /Font /Subtype /Type1 /BaseFont /Helvetica >> >> >>"


def _pages(count: int, contents: bytes, resources: bytes, first: int = 3) -> list[bytes]:
    """Catalog, page tree and ``count`` pages that all draw ``contents`` (an object ref)."""
    kids = b" ".join(b"%d 0 R" % (first + i) for i in range(count))
    page = b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents %s /Resources %s >>" % (
        contents,
        resources,
    )
    return [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [%s] /Count %d >>" % (kids, count),
        *[page] * count,
    ]


def pdf_form_recursion(depth: int = 25) -> bytes:
    """Form XObjects that each draw the next one twice, ``depth`` levels: 2**depth draws."""
    first_form = 5
    objects = _pages(1, b"4 0 R", b"<< /XObject << /X %d 0 R >> >>" % first_form)
    objects.append(_stream(b"/X Do"))
    for level in range(depth):
        if level == depth - 1:
            body, resources = b"0 0 10 10 re f", b"<< >>"
        else:
            body, resources = (
                b"/X Do /X Do",
                b"<< /XObject << /X %d 0 R >> >>" % (first_form + level + 1),
            )
        extra = b"/Type /XObject /Subtype /Form /BBox [0 0 612 792] /Resources %s " % resources
        objects.append(_stream(body, extra))
    return _pdf(objects)


def pdf_inflating_stream(inflated: int, eol: bytes = b"\n") -> bytes:
    """One page whose Flate content stream inflates to ``inflated`` bytes (~1000:1);
    ``eol`` ends the line of its ``stream`` keyword (pdfium takes any rest of line)."""
    data = zlib_bomb(inflated, ord(" "), prefix=b"0 0 m ", suffix=b" 10 10 l S")
    objects = _pages(1, b"4 0 R", b"<< >>")
    objects.append(_stream(data, b"/Filter /FlateDecode ", eol))
    return _pdf(objects)


def pdf_nested_flate(inflated: int) -> bytes:
    """One page whose content stream is Flate inside Flate: the outer layer inflates to a
    few MB, the inner one to ``inflated`` bytes."""
    data = zlib.compress(zlib_bomb(inflated, ord(" "), prefix=b"0 0 m ", suffix=b" 10 10 l S"))
    objects = _pages(1, b"4 0 R", b"<< >>")
    objects.append(_stream(data, b"/Filter [/FlateDecode /FlateDecode] "))
    return _pdf(objects)


def pdf_many_streams(count: int) -> bytes:
    """A one-page PDF followed by ``count`` tiny Flate stream objects."""
    empty = zlib.compress(b"")
    objects = _pages(1, b"4 0 R", b"<< >>")
    objects += [_stream(empty, b"/Filter /FlateDecode ")] * count
    return _pdf(objects)


def pdf_text_operators(operators: int, pages: int) -> bytes:
    """``pages`` pages sharing one content stream of ``operators`` text-showing operators."""
    content = b"BT /F1 1 Tf 72 700 Td " + b"(a) Tj " * operators + b"ET"
    objects = _pages(pages, b"%d 0 R" % (pages + 3), _FONT)
    objects.append(_stream(zlib.compress(content, 9), b"/Filter /FlateDecode "))
    return _pdf(objects)


# --- office ---------------------------------------------------------------------------------


def _noisy(unit: bytes, size: int, every: int, seed: int) -> bytes:
    """``unit`` repeated to ``size`` bytes with an XML comment of random digits every
    ``every`` units, so the part compresses well below the zip-ratio limit."""
    rng = random.Random(seed)
    block = bytearray()
    while len(block) < 64 * 1024:  # longer than deflate's 32 KB window: no long repeats
        block += unit * every + b"<!--%d-->" % rng.getrandbits(40)
    chunk = bytes(block)
    repeats = -(-size // len(chunk))
    return chunk * repeats


def xlsx_shared_strings(entries: int) -> bytes:
    """A workbook whose sharedStrings part holds ``entries`` empty strings (``<si/>``),
    compressed well under the zip-ratio limit; cell A1 shows the first one."""
    import openpyxl

    buffer = io.BytesIO()
    workbook = openpyxl.Workbook()
    workbook.active["A1"] = "name"
    workbook.save(buffer)
    with zipfile.ZipFile(io.BytesIO(buffer.getvalue())) as archive:
        sheet = archive.read("xl/worksheets/sheet1.xml")
        rels = archive.read("xl/_rels/workbook.xml.rels")
        types = archive.read("[Content_Types].xml")
    body = _noisy(b"<si/>", entries * 5 * 33 // 32, 32, seed=1)
    strings = (
        b'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
        b'<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" '
        b'count="1" uniqueCount="1"><si><t>name</t></si>' + body + b"</sst>"
    )
    replaced = {
        "xl/worksheets/sheet1.xml": sheet.replace(
            b'<c r="A1" t="inlineStr"><is><t>name</t></is></c>', b'<c r="A1" t="s"><v>0</v></c>'
        ),
        "xl/_rels/workbook.xml.rels": rels.replace(
            b"</Relationships>",
            b'<Relationship Type="http://schemas.openxmlformats.org/officeDocument/2006/'
            b'relationships/sharedStrings" Target="sharedStrings.xml" Id="rIdS"/>'
            b"</Relationships>",
        ),
        "[Content_Types].xml": types.replace(
            b"</Types>",
            b'<Override PartName="/xl/sharedStrings.xml" ContentType="application/'
            b'vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/></Types>',
        ),
    }
    return _replace_members(buffer.getvalue(), replaced, {"xl/sharedStrings.xml": strings})


def _docx_base() -> bytes:
    import docx

    buffer = io.BytesIO()
    document = docx.Document()
    document.add_paragraph("Hello")
    document.save(buffer)
    return buffer.getvalue()


_W = b'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"'
_R = b'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"'


def docx_many_headers(headers: int, header_bytes: int, suffix: str = ".xml") -> bytes:
    """A DOCX with ``headers`` header parts of ``header_bytes`` each (below the 1 MB floor
    of the zip-ratio check), all related from the document, so python-docx parses them.
    Their names end in ``suffix``: the content type, not the name, makes them XML parts."""
    base = _docx_base()
    with zipfile.ZipFile(io.BytesIO(base)) as archive:
        rels = archive.read("word/_rels/document.xml.rels")
        types = archive.read("[Content_Types].xml")
    body = b"<w:p/>" * (header_bytes // 6)
    part = b"<w:hdr %s>%s</w:hdr>" % (_W, body)
    header_type = b"application/vnd.openxmlformats-officedocument.wordprocessingml.header+xml"
    new_rels = b"".join(
        b'<Relationship Id="rIdH%d" Type="http://schemas.openxmlformats.org/officeDocument/'
        b'2006/relationships/header" Target="header%d%s"/>' % (i, i, suffix.encode())
        for i in range(headers)
    )
    new_types = b"".join(
        b'<Override PartName="/word/header%d%s" ContentType="%s"/>'
        % (i, suffix.encode(), header_type)
        for i in range(headers)
    )
    replaced = {
        "word/_rels/document.xml.rels": rels.replace(
            b"</Relationships>", new_rels + b"</Relationships>"
        ),
        "[Content_Types].xml": types.replace(b"</Types>", new_types + b"</Types>"),
    }
    added = {f"word/header{i}{suffix}": part for i in range(headers)}
    return _replace_members(base, replaced, added)


def docx_huge_document(document_bytes: int) -> bytes:
    """A DOCX whose document.xml is ``document_bytes`` of empty paragraphs, compressed
    about 60:1 (under the zip-ratio limit)."""
    body = _noisy(b"<w:p/>", document_bytes, 40, seed=2)
    document = b"<w:document %s %s><w:body>%s</w:body></w:document>" % (_W, _R, body)
    return _replace_members(_docx_base(), {"word/document.xml": document})


def _replace_members(
    data: bytes, replaced: dict[str, bytes], added: dict[str, bytes] | None = None
) -> bytes:
    """The zip with some members' contents replaced and others added (deflated, level 1)."""
    out = io.BytesIO()
    with (
        zipfile.ZipFile(io.BytesIO(data)) as source,
        zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED, compresslevel=1) as target,
    ):
        for member in source.infolist():
            target.writestr(member.filename, replaced.get(member.filename) or source.read(member))
        for filename, content in (added or {}).items():
            target.writestr(filename, content)
    return out.getvalue()
