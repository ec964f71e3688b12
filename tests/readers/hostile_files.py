"""Hostile files for the reader tests, each built by code in a fraction of a second.

Every builder returns the file's bytes. They are the attacks found against read_file
(issue 19), scaled down so that the whole corpus is made in seconds while each file still
costs the undefended readers far more time or memory than the tests allow.
"""

from __future__ import annotations

import base64
import io
import random
import struct
import zipfile
import zlib
from pathlib import Path

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


# --- deflate bombs: a run of one byte, compressed about 1000:1 without compressing it -------


class _Bits:
    """A deflate bit stream: fields LSB first, Huffman codes MSB first (RFC 1951, 3.1.1)."""

    def __init__(self) -> None:
        self.value = 0
        self.count = 0

    def field(self, value: int, width: int) -> None:
        self.value |= value << self.count
        self.count += width

    def code(self, code: tuple[int, int]) -> None:
        value, width = code
        self.field(int(f"{value:0{width}b}"[::-1], 2), width)

    def to_bytes(self) -> bytes:
        self.field(0, -self.count % 8)
        return self.value.to_bytes(self.count // 8, "little")


def _canonical(lengths: dict[int, int]) -> dict[int, tuple[int, int]]:
    """Canonical Huffman codes (RFC 1951, 3.2.2) for symbol -> code length."""
    codes = {}
    code = 0
    previous = 0
    for symbol, length in sorted(lengths.items(), key=lambda item: (item[1], item[0])):
        code <<= length - previous
        codes[symbol] = (code, length)
        code += 1
        previous = length
    return codes


def _lengths(symbols: list[int]) -> dict[int, int]:
    """A complete prefix code: symbol 285 (copy 258 bytes) 1 bit, the others share the rest."""
    others = sorted(set(symbols) - {285})
    size = max(len(others), 2)
    bits = (size - 1).bit_length()
    short = 2**bits - size  # this many codes one bit shorter keep the code complete
    lengths = {285: 1}
    for index, symbol in enumerate(others):
        lengths[symbol] = 1 + (bits - 1 if index < short else bits)
    if len(others) == 1:
        lengths[others[0]] = 1
    return lengths


_CL_ORDER = (16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15)


def raw_deflate(prefix: bytes, byte: int, count: int, suffix: bytes) -> bytes:
    """Raw deflate data for ``prefix + bytes([byte]) * count + suffix`` in one dynamic
    block where a 258-byte copy costs 2 bits: about 1032:1, like zlib's best."""
    copies, rest = divmod(count - 1, 258)
    literals = [*prefix, byte, *suffix]
    codes = _canonical(_lengths([*literals, 256, 285]))
    bits = _Bits()
    bits.field(1, 1)  # BFINAL
    bits.field(2, 2)  # BTYPE 10: dynamic Huffman codes
    bits.field(286 - 257, 5)  # HLIT: literal/length codes 0..285
    bits.field(0, 5)  # HDIST: one distance code
    bits.field(19 - 4, 4)  # HCLEN: all 19 code-length codes
    for symbol in _CL_ORDER:  # code-length code: lengths 0..15 with 4 bits each
        bits.field(0 if symbol >= 16 else 4, 3)
    length_codes = _canonical({symbol: 4 for symbol in range(16)})
    for symbol in range(286):
        bits.code(length_codes[codes[symbol][1] if symbol in codes else 0])
    bits.code(length_codes[1])  # distance code 0: one bit
    for value in [*prefix, byte]:
        bits.code(codes[value])
    # Symbol 285 and distance code 0 both have the one-bit code 0, so every copy is two
    # zero bits: the copies are written as a shift, not one by one.
    assert codes[285] == (0, 1)
    bits.count += 2 * copies
    for value in [byte] * rest + list(suffix):
        bits.code(codes[value])
    bits.code(codes[256])
    return bits.to_bytes()


def _adler32(prefix: bytes, byte: int, count: int, suffix: bytes) -> int:
    """Adler-32 of the run, the run's part in closed form (RFC 1950, 8.2)."""
    start = zlib.adler32(prefix)
    low, high = start & 0xFFFF, start >> 16
    high = (high + count * low + byte * count * (count + 1) // 2) % 65521
    low = (low + count * byte) % 65521
    return zlib.adler32(suffix, (high << 16) | low)


def _crc32(prefix: bytes, byte: int, count: int, suffix: bytes) -> int:
    """CRC-32 of the run, computed 16 MB at a time."""
    crc = zlib.crc32(prefix)
    chunk = bytes([byte]) * (16 << 20)
    left = count
    while left:
        piece = chunk[: min(left, len(chunk))]
        crc = zlib.crc32(piece, crc)
        left -= len(piece)
    return zlib.crc32(suffix, crc)


def zlib_bomb(count: int, byte: int = 0x20, prefix: bytes = b"", suffix: bytes = b"") -> bytes:
    """A zlib stream that inflates to ``prefix + byte * count + suffix``."""
    adler = _adler32(prefix, byte, count, suffix)
    return b"\x78\x01" + raw_deflate(prefix, byte, count, suffix) + struct.pack(">I", adler)


def gzip_bomb(count: int, byte: int = 0x20, prefix: bytes = b"", suffix: bytes = b"") -> bytes:
    """A gzip member that inflates to ``prefix + byte * count + suffix``."""
    crc = _crc32(prefix, byte, count, suffix)
    size = (len(prefix) + count + len(suffix)) & 0xFFFFFFFF
    header = b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\xff"
    return header + raw_deflate(prefix, byte, count, suffix) + struct.pack("<II", crc, size)


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


# --- images ---------------------------------------------------------------------------------


def _segment(marker: int, payload: bytes) -> bytes:
    return struct.pack(">BBH", 0xFF, marker, len(payload) + 2) + payload


def jpeg_many_scans(side: int, scans: int) -> bytes:
    """A progressive greyscale JPEG of ``side`` x ``side`` pixels with ``scans`` AC scans.

    The scans hold no entropy-coded data: libjpeg fills them with zeros, yet walks every
    block of the image once per scan.
    """
    table = bytes([1] + [0] * 15)
    parts = [
        b"\xff\xd8",
        _segment(0xDB, b"\x00" + b"\x01" * 64),
        _segment(0xC2, struct.pack(">BHHB", 8, side, side, 1) + b"\x01\x11\x00"),
        _segment(0xC4, b"\x00" + table + b"\x00"),  # DC table 0: one code, category 0
        _segment(0xC4, b"\x10" + table + b"\xe0"),  # AC table 0: one code, EOB run
        _segment(0xDA, b"\x01\x01\x00\x00\x00\x00") + b"\x00" * 16,  # DC scan
    ]
    ac_scan = _segment(0xDA, b"\x01\x01\x00\x01\x3f\x00")
    return b"".join(parts) + ac_scan * scans + b"\xff\xd9"


def tiff_many_pages(pages: int) -> bytes:
    """A little-endian TIFF of ``pages`` one-pixel greyscale pages, all sharing one pixel."""
    entries = [
        (256, 3, 1),  # ImageWidth
        (257, 3, 1),  # ImageLength
        (258, 3, 8),  # BitsPerSample
        (259, 3, 1),  # Compression: none
        (262, 3, 1),  # Photometric: black is zero
        (273, 4, 8),  # StripOffsets: the pixel right after the header
        (277, 3, 1),  # SamplesPerPixel
        (278, 3, 1),  # RowsPerStrip
        (279, 4, 1),  # StripByteCounts
    ]
    ifd_size = 2 + 12 * len(entries) + 4
    first = 12  # 8-byte header, the pixel, padding
    out = bytearray(b"II*\x00" + struct.pack("<I", first) + b"\x80\x00\x00\x00")
    body = struct.pack("<H", len(entries)) + b"".join(
        struct.pack("<HHII", tag, kind, 1, value) for tag, kind, value in entries
    )
    for page in range(pages):
        following = first + (page + 1) * ifd_size if page + 1 < pages else 0
        out += body + struct.pack("<I", following)
    return bytes(out)


def jpeg_photo(width: int, height: int) -> bytes:
    """An ordinary baseline JPEG photo of ``width`` x ``height`` (a flat colour, fast)."""
    from PIL import Image

    buffer = io.BytesIO()
    Image.new("RGB", (width, height), (120, 160, 200)).save(buffer, "JPEG", quality=80)
    return buffer.getvalue()


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


# --- audio and video ------------------------------------------------------------------------


def _syncsafe(value: int) -> bytes:
    return bytes((value >> shift) & 0x7F for shift in (21, 14, 7, 0))


_MPEG_FRAME = b"\xff\xfb\x90\x64" + b"\x00" * 413  # MPEG-1 layer III, 128 kbit/s, 44.1 kHz


def id3_many_txxx(frames: int) -> bytes:
    """An ID3v2.4 tag of ``frames`` TXXX frames."""
    tag_frames = b"".join(
        b"TXXX" + _syncsafe(len(body)) + b"\x00\x00" + body
        for body in (b"\x03%d\x00v" % i for i in range(frames))
    )
    return b"ID3\x04\x00\x00" + _syncsafe(len(tag_frames)) + tag_frames


def mp3_many_txxx(frames: int) -> bytes:
    """An MP3 whose ID3v2.4 tag holds ``frames`` TXXX frames, then a second of audio."""
    return id3_many_txxx(frames) + _MPEG_FRAME * 40


def wav_many_chunks(chunks: int, extra: bytes = b"") -> bytes:
    """A WAV (16 kHz mono, 1 s) with ``chunks`` empty chunks between fmt and data, and the
    chunks ``extra`` after the data."""
    fmt = struct.pack("<HHIIHH", 1, 1, 16000, 32000, 2, 16)
    samples = b"\x00\x00" * 16000
    body = (
        b"WAVE"
        + b"fmt "
        + struct.pack("<I", len(fmt))
        + fmt
        + b"junk\x00\x00\x00\x00" * chunks
        + b"data"
        + struct.pack("<I", len(samples))
        + samples
        + extra
    )
    return b"RIFF" + struct.pack("<I", len(body)) + body


def wav_id3_many_txxx(frames: int) -> bytes:
    """A WAV whose ``id3 `` chunk holds an ID3 tag of ``frames`` TXXX frames."""
    tag = id3_many_txxx(frames)
    return wav_many_chunks(
        0, b"id3 " + struct.pack("<I", len(tag)) + tag + b"\x00" * (len(tag) & 1)
    )


def flac_many_blocks(blocks: int) -> bytes:
    """A FLAC whose STREAMINFO is followed by ``blocks`` empty PADDING metadata blocks."""
    # 44.1 kHz, 2 channels, 16 bits, 44100 samples: 20-bit rate, 3-bit channels-1,
    # 5-bit bits-1, 36-bit total samples.
    packed = (44100 << 44) | (1 << 41) | (15 << 36) | 44100
    info = struct.pack(">HH", 4096, 4096) + b"\x00" * 6 + packed.to_bytes(8, "big") + b"\x00" * 16
    padding = b"\x01\x00\x00\x00" * (blocks - 1) + b"\x81\x00\x00\x00"
    return b"fLaC" + b"\x00\x00\x00\x22" + info + padding


def _box(kind: bytes, payload: bytes) -> bytes:
    return struct.pack(">I", len(payload) + 8) + kind + payload


def mp4_with_moov_extra(extra: bytes, trailing: bytes = b"") -> bytes:
    """examples/clip.mp4 with ``extra`` boxes in place of moov's udta, and ``trailing``
    bytes after the last box."""
    data = (EXAMPLES / "clip.mp4").read_bytes()
    out = bytearray()
    for kind, box in _children(data):
        if kind == b"moov":
            kept = b"".join(child for name, child in _children(box[8:]) if name != b"udta")
            box = _box(b"moov", kept + extra)
        out += box
    return bytes(out) + trailing


def _children(data: bytes) -> list[tuple[bytes, bytes]]:
    boxes = []
    position = 0
    while position + 8 <= len(data):
        size, kind = struct.unpack(">I4s", data[position : position + 8])
        boxes.append((kind, data[position : position + size]))
        position += size
    return boxes


def mp4_many_ilst_items(items: int) -> bytes:
    """An MP4 whose moov/udta/meta/ilst holds ``items`` title tags."""
    item = _box(b"\xa9nam", _box(b"data", b"\x00\x00\x00\x01\x00\x00\x00\x00t"))
    hdlr = _box(b"hdlr", b"\x00" * 8 + b"mdirappl" + b"\x00" * 9)
    meta = _box(b"meta", b"\x00\x00\x00\x00" + hdlr + _box(b"ilst", item * items))
    return mp4_with_moov_extra(_box(b"udta", meta))


def mp4_many_atoms(atoms: int) -> bytes:
    """An MP4 followed by ``atoms`` empty top-level ``free`` atoms."""
    return mp4_with_moov_extra(b"", _box(b"free", b"") * atoms)


# --- SVG ------------------------------------------------------------------------------------

_SVG = b'<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"'


def _data_url(media_type: str, payload: bytes) -> bytes:
    return b"data:%s;base64,%s" % (media_type.encode(), base64.b64encode(payload))


def svg_gzip_bomb_image(inflated: int) -> bytes:
    """An SVG drawing an ``image`` whose data URL is gzipped SVG inflating to ``inflated``."""
    inner = gzip_bomb(
        inflated, ord(" "), prefix=b"<svg xmlns='http://www.w3.org/2000/svg'>", suffix=b"</svg>"
    )
    url = _data_url("image/svg+xml", inner)
    return (
        _SVG + b' width="100" height="100"><image width="100" height="100" href="%s"/></svg>' % url
    )


def png_bomb(side: int) -> bytes:
    """A valid RGBA PNG of ``side`` x ``side`` transparent pixels, compressed ~1000:1."""

    def chunk(kind: bytes, payload: bytes) -> bytes:
        crc = zlib.crc32(kind + payload)
        return struct.pack(">I", len(payload)) + kind + payload + struct.pack(">I", crc)

    rows = zlib_bomb(side * (1 + 4 * side), 0)  # filter byte 0 and four zero bytes a pixel
    ihdr = struct.pack(">IIBBBBB", side, side, 8, 6, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", rows) + chunk(b"IEND", b"")


def svg_png_bomb_image(side: int) -> bytes:
    """An SVG drawing an ``image`` whose data URL is a ``side`` x ``side`` PNG bomb."""
    url = _data_url("image/png", png_bomb(side))
    return (
        _SVG + b' width="100" height="100"><image width="100" height="100" href="%s"/></svg>' % url
    )


def svg_nested(levels: int) -> bytes:
    """An SVG embedding an SVG embedding an SVG ... ``levels`` deep, by data URLs."""
    svg = _SVG + b' width="10" height="10"><rect width="5" height="5"/></svg>'
    for _ in range(levels):
        url = _data_url("image/svg+xml", svg)
        svg = (
            _SVG + b' width="10" height="10"><image width="10" height="10" href="%s"/></svg>' % url
        )
    return svg


def svg_use_bomb_of_embedded_svgs() -> bytes:
    """A ``<use>`` bomb whose leaf is an ``image`` embedding an SVG of 1,000 rectangles:
    the outer document alone expands to 10,000 elements, 10 million with the leaves."""
    inner = _SVG + b' width="10" height="10">' + b'<rect width="1" height="1"/>' * 1000 + b"</svg>"
    leaf = b'<image id="l0" width="10" height="10" href="%s"/>' % _data_url("image/svg+xml", inner)
    bomb = use_bomb(5, 10).replace(b'<rect id="l0" width="1" height="1"/>', leaf)
    return bomb


def svg_dashed_lines(lines: int) -> bytes:
    """An SVG of ``lines`` long lines with a fine dash pattern."""
    body = b"".join(
        b'<line x1="0" y1="%d" x2="2000" y2="%d" stroke="black" stroke-dasharray="0.2 0.2"/>'
        % (i % 2000, i % 2000)
        for i in range(lines)
    )
    return _SVG + b' width="2000" height="2000">' + body + b"</svg>"


def use_bomb(levels: int = 9, fanout: int = 10) -> bytes:
    """The classic ``<use>`` bomb: each level draws the one below ``fanout`` times."""
    defs = [b'<rect id="l0" width="1" height="1"/>']
    for level in range(1, levels):
        uses = b"".join(b'<use xlink:href="#l%d"/>' % (level - 1) for _ in range(fanout))
        defs.append(b'<g id="l%d">%s</g>' % (level, uses))
    return _SVG + b' width="100" height="100"><defs>%s</defs><use xlink:href="#l%d"/></svg>' % (
        b"".join(defs),
        levels - 1,
    )


def svg_nested_use_bomb() -> bytes:
    """An innocent SVG whose ``image`` is a data-URL SVG holding a ``<use>`` bomb."""
    url = _data_url("image/svg+xml", use_bomb())
    return (
        _SVG
        + b' width="100" height="100"><image width="100" height="100" xlink:href="%s"/></svg>' % url
    )


def svg_infinite_width() -> bytes:
    """An SVG whose width is ``1e400``: a float that overflows to infinity."""
    return _SVG + b' width="1e400" height="10"><rect width="5" height="5"/></svg>'
