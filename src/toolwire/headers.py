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


def image_size(data: bytes) -> tuple[int, int] | None:
    """(width, height) from a PNG, GIF, JPEG, WebP or BMP header, or None."""
    try:
        if data.startswith(b"\xff\xd8"):  # JPEG (photos, first): segments walked to the frame
            i, end = 2, len(data) - 9  # (its stored size, not EXIF-rotated)
            while i < end:
                if data[i] != 0xFF:
                    return None
                marker = data[i + 1]
                if marker == 0xFF:  # fill byte
                    i += 1
                    continue
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
    endian = "<" if tiff[:2] == b"II" else ">"
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


_LENGTH = re.compile(rb"/Length\s+(\d+)(\s+\d+\s+R)?")
_STREAM_START = re.compile(rb"stream\r?\n")
_STREAM_END = re.compile(rb"\s*endstream")


def pdf_page_count(data: bytes) -> int | None:
    """Page objects counted in the raw PDF, or None (pages hidden in object streams).

    Streams whose dictionary gives their length directly are stepped over, not searched:
    a page object is never inside a content or image stream, and a scanned page's image is
    most of the file. A stream that cannot be stepped over (an indirect length, a length that
    does not end at ``endstream``) or that holds objects (``/ObjStm``: pages may be in it)
    sends the count back to searching the whole file."""
    count = _pages_between_streams(data)
    if count is None:
        count = len(_PAGE.findall(data))
    return count or None


def _pages_between_streams(data: bytes) -> int | None:
    count, pos, find = 0, 0, data.find
    while True:
        keyword = find(b"stream", pos)
        if keyword < 0:
            return count + len(_PAGE.findall(data, pos))
        opened = find(b"obj", pos, keyword)
        at = data.rfind(b"/Length", opened, keyword) if opened >= 0 else -1
        length = _LENGTH.match(data, at) if at >= 0 else None  # the last: the stream's own
        if length is None and at >= 0:  # a font file's /Length1–3 came last: read them all
            for length in _LENGTH.finditer(data, opened, keyword):  # noqa: B007  (the last)
                pass
        start = _STREAM_START.match(data, keyword)
        if length is None or length[2] or start is None:
            return None
        if find(b"/ObjStm", opened, keyword) >= 0:
            return None  # an object stream holds objects, pages among them: search it all
        end = start.end() + int(length[1])
        closed = _STREAM_END.match(data, end)
        if closed is None:
            return None
        count += len(_PAGE.findall(data, pos, keyword))
        pos = closed.end()


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
