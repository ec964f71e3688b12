"""Facts read from a file's headers only: image dimensions, PDF page count, WAV duration.

These feed text fallbacks (``[Image: cat.png, 640x480, 24 KB]``) and token estimates, which
must not decode pixels or parse whole documents. Each function returns None when the header
does not say, never raises on malformed input.
"""

from __future__ import annotations

import re
import struct

#: The JPEG start-of-frame markers (the segment that holds the size).
_SOF_MARKERS = {0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF}


#: Through how many segments a JPEG's frame header is looked for: a real file's frame follows
#: its metadata segments (each at most 64 KB; extended XMP runs to dozens of them).
JPEG_SEGMENTS = 256
_FILL = re.compile(rb"\xff+")


def image_size(data: bytes) -> tuple[int, int] | None:
    """(width, height) from a PNG, GIF, JPEG, WebP or BMP header, or None.

    A JPEG's segments are walked to its frame header through at most ``JPEG_SEGMENTS``
    segments, runs of fill bytes skipped in C: hostile bytes (40 MB of 0xFF) cost a bounded
    walk, never one step per byte."""
    try:
        if data.startswith(b"\xff\xd8"):  # JPEG (photos, first): segments walked to the frame
            i, end = 2, len(data) - 9  # (its stored size, not EXIF-rotated)
            for _ in range(JPEG_SEGMENTS):
                if i >= end or data[i] != 0xFF:
                    return None
                fill = _FILL.match(data, i, end)  # the marker's 0xFF and any fill bytes
                i = fill.end() - 1 if fill is not None else i
                marker = data[i + 1]
                if marker in _SOF_MARKERS:
                    return data[i + 7] << 8 | data[i + 8], data[i + 5] << 8 | data[i + 6]
                i += 2 + (data[i + 2] << 8 | data[i + 3])
            return None
        if data.startswith(b"\x89PNG") and data[12:16] == b"IHDR":
            return struct.unpack(">II", data[16:24])
        if data[:6] in (b"GIF87a", b"GIF89a"):
            return struct.unpack("<HH", data[6:10])
        if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
            return _webp_size(data)
        if data[:2] == b"BM":
            w, h = struct.unpack("<ii", data[18:26])
            return w, abs(h)
    except struct.error:
        return None
    return None


def _webp_size(data: bytes) -> tuple[int, int] | None:
    if len(data) < 30:  # every chunk's size fields end by byte 30; shorter is truncated
        return None
    chunk = data[12:16]
    if chunk == b"VP8X":
        w = int.from_bytes(data[24:27], "little") + 1
        h = int.from_bytes(data[27:30], "little") + 1
        return w, h
    if chunk == b"VP8L":
        bits = int.from_bytes(data[21:25], "little")
        return (bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1
    if chunk == b"VP8 ":
        w, h = struct.unpack("<HH", data[26:30])
        return w & 0x3FFF, h & 0x3FFF
    return None


def jpeg_orientation(data: bytes) -> int:
    """EXIF orientation (1–8) of a JPEG, 1 when absent; 5–8 mean width and height swap."""
    i = data.find(b"Exif\x00\x00", 0, 65536)
    if i < 0:
        return 1
    tiff = memoryview(data)[i + 6 : i + 65536]  # the APP1 segment: no copy of the image data
    endian = "<" if bytes(tiff[:2]) == b"II" else ">"
    try:
        (ifd,) = struct.unpack(endian + "I", tiff[4:8])
        (count,) = struct.unpack(endian + "H", tiff[ifd : ifd + 2])
        for n in range(count):
            entry = tiff[ifd + 2 + 12 * n : ifd + 14 + 12 * n]
            tag, _typ, _cnt, value = struct.unpack(endian + "HHIH", entry[:10])
            if tag == 0x0112:
                return value if 1 <= value <= 8 else 1
    except struct.error:
        return 1
    return 1


_PAGE = re.compile(rb"/Type\s*/Page(?![a-zA-Z])")
#: White space as the regex's ``\s`` (bytes); ``_LETTERS``: what may not follow ``/Page``.
_SPACE = frozenset(b" \t\n\r\f\v")
_LETTERS = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")
_DIGITS = frozenset(b"0123456789")
#: What may end a PDF name: white space or a delimiter (ISO 32000-1 §7.2.2).
_NAME_END = frozenset(b" \t\n\r\f\x00()<>[]{}/%")
#: Bounds of the page tree's read (``_tables``, ``_key``), past which the raw count takes
#: over: tables (an update's each), subsections of them all, a trailer's bytes, and longer
#: names that start as the key does.
_MAX_TABLES = 64
_MAX_SUBSECTIONS = 4096
_TRAILER_BYTES = 8192
_MAX_MISSES = 16
#: A ``/Count`` from this on is not trusted: pdfium counts the kids instead.
_MAX_COUNT = 0xFFFFF


def pdf_page_count(data: bytes) -> int | None:
    """The PDF's page count, or None (pages hidden in object streams).

    First as a PDF reader finds it: the page tree's ``/Count``, reached through the
    cross-reference table from the end of the file (``_tree_count``: a few reads whatever
    the file's size, and a page an edit removed is not counted). Where that table is not
    plain (a cross-reference stream, an offset that misses its object), page objects are
    counted in the raw PDF: streams whose dictionary gives their length directly are stepped
    over, not searched (a page object is never inside a content or image stream, and a
    scanned page's image is most of the file); a stream that cannot be stepped over (an
    indirect length, a length that does not end at ``endstream``) or that holds objects
    (``/ObjStm``: pages may be in it) sends the count back to searching the whole file
    (``_PAGE``)."""
    count = _tree_count(data)
    if count is None:
        count = _pages_between_streams(data)
    if count is None:
        count = len(_PAGE.findall(data))
    return count or None


def _tree_count(data: bytes) -> int | None:
    """``/Count`` of the page tree's root: ``startxref`` → the trailer's ``/Root`` → the
    catalog's ``/Pages`` → its ``/Count``, each object found through a classic
    cross-reference table (ISO 32000-1 §7.5.4–7.5.6; incremental updates and linearized
    files through ``/Prev``). None where any step is not as the standard writes it."""
    tail = data.rfind(b"startxref", max(0, len(data) - 2048))
    xref = _number(data, tail + 9, min(len(data), tail + 33))[0] if tail >= 0 else None
    tables = _tables(data, xref) if xref is not None else None
    if tables is None:
        return None
    sections, trailer, end = tables
    catalog = _resolve(data, sections, _key(data, b"/Root", trailer, end))
    root = _resolve(data, sections, _key(data, b"/Pages", *catalog)) if catalog else None
    if root is None or _key(data, b"/Kids", *root) < 0:
        return None
    at = _key(data, b"/Count", *root)
    words = data[at : at + 32].split(None, 2) if at >= 0 else []
    if not words or (
        len(words) > 2 and words[0].isdigit() and words[1].isdigit() and words[2][:1] == b"R"
    ):
        return None  # no count, or an indirect one ("/Count 12 0 R")
    count = _number(data, at, root[1])[0]
    return count if count and count < _MAX_COUNT else None


def _tables(data: bytes, xref: int) -> tuple[list[tuple[int, int, int]], int, int] | None:
    """The subsections of the table at ``xref`` and of every earlier one (``/Prev``), newest
    first, as (first object, count, where its rows start); and where the newest trailer's
    dictionary starts and ends. A table is ``xref``, subsections (a line ``first count``,
    then ``count`` rows of 20 bytes: ``oooooooooo ggggg n`` and a two-byte end of line), then
    ``trailer``. None where it is not so, or where objects may live in object streams
    (``/XRefStm``: a hybrid file). Bounded: at most ``_MAX_TABLES`` tables and
    ``_MAX_SUBSECTIONS`` subsections read, each trailer searched within ``_TRAILER_BYTES``."""
    sections: list[tuple[int, int, int]] = []
    newest: tuple[int, int] | None = None
    for _ in range(_MAX_TABLES):
        if not data.startswith(b"xref", xref):
            return None
        at = xref + 4
        while True:
            chunk = data[at : at + 48]
            words = chunk.split(None, 2)
            if len(words) < 3 or not (words[0].isdigit() and words[1].isdigit()):
                break
            if len(sections) == _MAX_SUBSECTIONS:
                return None
            first, count = int(words[0]), int(words[1])
            rows = at + len(chunk) - len(words[2])  # the first row, after the line's end
            sections.append((first, count, rows))
            at = rows + 20 * count
        if not words or not words[0].startswith(b"trailer"):
            return None  # a line that is neither a subsection nor the trailer
        trailer = at + len(chunk) - len(chunk.lstrip())
        end = data.find(b"startxref", trailer, trailer + _TRAILER_BYTES)
        if end < 0 or data.find(b"/XRefStm", trailer, end) >= 0:
            return None
        if newest is None:
            newest = (trailer, end)
        prev = _key(data, b"/Prev", trailer, end)
        if prev < 0:
            return sections, *newest
        earlier = _number(data, prev, end)[0]
        if earlier is None:
            return None
        xref = earlier
    return None


def _key(data: bytes, key: bytes, start: int, end: int) -> int:
    """Where the value of ``key`` starts in ``data[start:end]`` (-1: absent), the name
    matched whole (``/Pages``, not ``/PageLabels`` or ``/Pages2``): white space or a
    delimiter after it. At most ``_MAX_MISSES`` longer names are stepped over."""
    at = data.find(key, start, end)
    for _ in range(_MAX_MISSES):
        if at < 0:
            return -1
        after = at + len(key)
        if after >= end or data[after] in _NAME_END:
            return after
        at = data.find(key, after, end)
    return -1


def _resolve(data: bytes, sections: list[tuple[int, int, int]], at: int) -> tuple[int, int] | None:
    """The span of the object an indirect reference at ``at`` (``12 0 R``) points to, between
    ``obj`` and ``endobj``; None where it is not a reference, or not where the table says
    (``_tables``: the newest table that lists it; free there, or listed nowhere: None)."""
    words = data[at : at + 32].split(None, 3) if at >= 0 else []
    if len(words) < 3 or not (words[0].isdigit() and words[1].isdigit()) or words[2][:1] != b"R":
        return None
    number, offset = int(words[0]), None
    for first, count, rows in sections:
        if first <= number < first + count:
            place = rows + 20 * (number - first)
            row = data[place : place + 18]
            if len(row) < 18 or not row[:10].isdigit() or row[10] != 32 or row[16] != 32:
                return None  # rows not 20 bytes each: not as the standard writes it
            if row[17] != 110:  # "f": free
                return None
            offset = int(row[:10])
            break
    if offset is None:
        return None
    head = data[offset : offset + 32].split(None, 3)
    if len(head) < 3 or head[0] != words[0] or head[1] != words[1] or head[2][:3] != b"obj":
        return None  # the table's offset misses the object: a broken or shifted file
    start = data.find(b"obj", offset) + 3
    end = data.find(b"endobj", start)
    return (start, end) if end >= 0 else None


def _pages_between_streams(data: bytes) -> int | None:
    """The step over streams with ``find`` and byte reads only: the budgets count the pages
    of every PDF of a cold encode, and the regular expressions this replaced took most of it
    (each one's first use after a collection is slow)."""
    count, pos, find, size = 0, 0, data.find, len(data)
    while True:
        keyword = find(b"stream", pos)
        if keyword < 0:
            return count + _pages_in(data, pos, size)
        opened = find(b"obj", pos, keyword)
        at = data.rfind(b"/Length", opened, keyword) if opened >= 0 else -1
        while at >= 0 and data[at + 7] in _DIGITS:  # a font file's /Length1–3: the one before
            at = data.rfind(b"/Length", opened, at)
        length, after = _number(data, at + 7, keyword) if at >= 0 else (None, 0)
        if length is None or _number(data, after, keyword)[0] is not None:
            return None  # no length, or an indirect one ("/Length 12 0 R")
        if data.startswith(b"\r\n", keyword + 6):
            start = keyword + 8
        elif data.startswith(b"\n", keyword + 6):
            start = keyword + 7
        else:
            return None  # not a stream keyword ("stream" inside a name or a string)
        if find(b"/ObjStm", opened, keyword) >= 0:
            return None  # an object stream holds objects, pages among them: search it all
        end = start + length
        while end < size and data[end] in _SPACE:
            end += 1
        if not data.startswith(b"endstream", end):
            return None
        count += _pages_in(data, pos, keyword)
        pos = end + 9


def _number(data: bytes, at: int, end: int) -> tuple[int | None, int]:
    """The integer after white space at ``at`` (at least one space, as ``/Length 12``
    needs), and where it ends; None where there is none before ``end``."""
    first = at
    while at < end and data[at] in _SPACE:
        at += 1
    digits = at
    while at < end and data[at] in _DIGITS:
        at += 1
    if at == digits or digits == first:
        return None, at
    return int(data[digits:at]), at


def _pages_in(data: bytes, start: int, end: int) -> int:
    """``/Type /Page`` objects (not ``/Pages``) in ``data[start:end]``: ``_PAGE``, by find."""
    count, find = 0, data.find
    at = find(b"/Type", start, end)
    while at >= 0:
        at += 5
        while at < end and data[at] in _SPACE:
            at += 1
        if data.startswith(b"/Page", at, end) and (at + 5 >= end or data[at + 5] not in _LETTERS):
            count += 1
        at = find(b"/Type", at, end)
    return count


def wav_duration(data: bytes) -> float | None:
    """Seconds of audio in a PCM WAV file, from its fmt and data chunk headers."""
    if data[:4] != b"RIFF" or data[8:12] != b"WAVE":
        return None
    i, byte_rate = 12, 0
    while i + 8 <= len(data):
        chunk, size = data[i : i + 4], int.from_bytes(data[i + 4 : i + 8], "little")
        if chunk == b"fmt ":
            byte_rate = int.from_bytes(data[i + 16 : i + 20], "little")
        elif chunk == b"data":
            return size / byte_rate if byte_rate else None
        i += 8 + size + (size & 1)
    return None


def human_size(n: int) -> str:
    """1536 → '1.5 KB'; sizes in binary units with one decimal below 10."""
    value = float(n)
    for unit in ("B", "KB", "MB", "GB"):
        if value < 1024 or unit == "GB":
            if unit == "B":
                return f"{n} B"
            return f"{value:.1f} {unit}" if value < 10 else f"{value:.0f} {unit}"
        value /= 1024
    return f"{n} B"
