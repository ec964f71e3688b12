"""Hostile files for the reader tests, each built by code in a fraction of a second.

Every builder returns the file's bytes. They are the attacks found against read_file
(issue 19), scaled down so that the whole corpus is made in seconds while each file still
costs the undefended readers far more time or memory than the tests allow. Images, audio,
video and SVG are here; PDFs and office documents in hostile_documents, the deflate bombs
they share in bombs.
"""

from __future__ import annotations

import base64
import io
import struct
from pathlib import Path

from .bombs import gzip_bomb, png_bomb

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


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
