"""Media types: sniffing them from bytes, normalising aliases, and deriving a file's kind.

Sniffing is a small signature table rather than a dependency: the general-purpose libraries
(filetype, puremagic) cannot tell DOCX from XLSX or Markdown from CSV, cost import time, and
we need only the few dozen types providers take. Text formats are told apart by content
first (HTML, SVG, JSON) and by the file name's extension second.
"""

from __future__ import annotations

import json
import re
import struct
import zipfile
import zlib
from pathlib import PurePath

from .errors import InvalidFileError

OCTET_STREAM = "application/octet-stream"

ALIASES = {
    "image/jpg": "image/jpeg",
    "image/pjpeg": "image/jpeg",
    "image/x-png": "image/png",
    "image/x-ms-bmp": "image/bmp",
    "image/tif": "image/tiff",
    "audio/x-wav": "audio/wav",
    "audio/wave": "audio/wav",
    "audio/vnd.wave": "audio/wav",
    "audio/mp3": "audio/mpeg",
    "audio/x-mp3": "audio/mpeg",
    "audio/x-m4a": "audio/mp4",
    "audio/m4a": "audio/mp4",
    "audio/x-flac": "audio/flac",
    "audio/x-aac": "audio/aac",
    "text/x-markdown": "text/markdown",
    "text/x-csv": "text/csv",
    "application/csv": "text/csv",
    "application/x-pdf": "application/pdf",
    "video/x-quicktime": "video/quicktime",
}

DOCX = "application/vnd.openxmlformats-officedocument.wordprocessingml.document"
XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
PPTX = "application/vnd.openxmlformats-officedocument.presentationml.presentation"

#: Text and zip formats, whose bytes do not tell their type: the extension does (sniffing).
EXTENSIONS = {
    ".txt": "text/plain",
    ".log": "text/plain",
    ".md": "text/markdown",
    ".markdown": "text/markdown",
    ".csv": "text/csv",
    ".tsv": "text/tab-separated-values",
    ".html": "text/html",
    ".htm": "text/html",
    ".json": "application/json",
    ".xml": "application/xml",
    ".svg": "image/svg+xml",
    ".docx": DOCX,
    ".xlsx": XLSX,
    ".pptx": PPTX,
}

#: Formats whose bytes tell their type; the extension only says what the name promises.
MEDIA_EXTENSIONS = {
    ".png": "image/png",
    ".jpg": "image/jpeg",
    ".jpeg": "image/jpeg",
    ".gif": "image/gif",
    ".webp": "image/webp",
    ".bmp": "image/bmp",
    ".tif": "image/tiff",
    ".tiff": "image/tiff",
    ".heic": "image/heic",
    ".heif": "image/heif",
    ".avif": "image/avif",
    ".pdf": "application/pdf",
    ".wav": "audio/wav",
    ".mp3": "audio/mpeg",
    ".m4a": "audio/mp4",
    ".flac": "audio/flac",
    ".ogg": "audio/ogg",
    ".opus": "audio/ogg",
    ".mp4": "video/mp4",
    ".mov": "video/quicktime",
    ".webm": "video/webm",
    ".mkv": "video/x-matroska",
    ".avi": "video/x-msvideo",
}
#: Every extension toolwire knows: the one table of extensions and media types.
ALL_EXTENSIONS = {**MEDIA_EXTENSIONS, **EXTENSIONS}

_DOCUMENT_TYPES = {
    "application/pdf",
    "application/json",
    "application/xml",
    "application/msword",
    "application/vnd.ms-excel",
    DOCX,
    XLSX,
    PPTX,
}

# ISO BMFF 'ftyp' major brands → media type (everything else in that family is video/mp4).
_FTYP_BRANDS = {
    b"M4A ": "audio/mp4",
    b"M4B ": "audio/mp4",
    b"qt  ": "video/quicktime",
    b"heic": "image/heic",
    b"heix": "image/heic",
    b"heim": "image/heic",
    b"heis": "image/heic",
    b"hevc": "image/heic",
    b"mif1": "image/heif",
    b"msf1": "image/heif",
    b"avif": "image/avif",
}

# Types that may legitimately be declared for bytes sniffed as another member of the family.
_FAMILIES = [
    {"audio/mp4", "video/mp4", "video/quicktime", "audio/aac", "video/x-m4v", "video/3gpp"},
    {"video/webm", "audio/webm", "video/x-matroska"},
    {"audio/ogg", "video/ogg", "audio/opus", "application/ogg"},
    {"image/heic", "image/heif"},
    # A zip may be declared as one office type, but a DOCX declared for an XLSX is a contradiction.
    {"application/zip", DOCX},
    {"application/zip", XLSX},
    {"application/zip", PPTX},
]

# Types whose bytes always carry a signature we sniff: declared for bytes without one, they are
# wrong. Other types (audio/aac as raw ADTS, audio/aiff, video/mpeg, video/x-flv, video/wmv…) are
# trusted when the bytes show no known signature.
_SIGNED = {
    "application/pdf",
    "image/png",
    "image/jpeg",
    "image/gif",
    "image/webp",
    "image/bmp",
    "image/tiff",
    "image/heic",
    "image/heif",
    "image/avif",
    "audio/wav",
    "audio/mpeg",
    "audio/flac",
    "audio/ogg",
    "audio/opus",
    "audio/mp4",
    "audio/webm",
    "video/mp4",
    "video/x-m4v",
    "video/3gpp",
    "video/quicktime",
    "video/webm",
    "video/x-matroska",
    "video/ogg",
    "video/x-msvideo",
}

#: What reading a damaged or hostile zip (an office file) may raise; callers turn it into
#: their own answer (not an office file, or an InvalidFileError naming the file).
ZIP_ERRORS = (
    zipfile.BadZipFile,
    OSError,
    ValueError,
    EOFError,
    RuntimeError,
    NotImplementedError,
    zlib.error,
)


def normalise(media_type: str) -> str:
    """Lower-case, strip parameters (``; charset=…``) and map aliases to the IANA name."""
    base = media_type.split(";", 1)[0].strip().lower()
    return ALIASES.get(base, base)


def kind_of(media_type: str) -> str:
    """'image', 'audio', 'video' or 'document' (text, PDF, office, JSON and anything else)."""
    top = media_type.split("/", 1)[0]
    return top if top in ("image", "audio", "video") else "document"


def is_textual(media_type: str) -> bool:
    """True for media whose bytes are text: text/*, JSON, XML, SVG."""
    return media_type.startswith("text/") or media_type in (
        "application/json",
        "application/xml",
        "image/svg+xml",
    )


def sniff(data: bytes, name: str | None = None) -> str | None:
    """The media type the bytes declare by their signature, or None when they declare none."""
    found = _sniff_binary(data)
    if found == "application/zip":
        return _sniff_zip(data, name)
    if found is not None:
        return found
    if _looks_like_text(data):
        return _sniff_text(data, name)
    return None


def check_declared(declared: str | None, data: bytes, name: str | None) -> str:
    """The media type to use: the declared one unless the bytes contradict it, else sniffed.

    Raises InvalidFileError when the bytes prove the declared type wrong (a "PNG" that is a
    PDF) or when nothing is declared and the bytes carry no known signature.
    """
    return _settle(declared, sniff(data, name), name or "file")


def check_head(declared: str, head: bytes, name: str | None) -> str:
    """``check_declared`` for the first bytes only (a few KB are enough for a signature).

    A zip's directory is at its end, so a zip head is not judged by the name's extension
    (a DOCX named ``.xlsx`` is a DOCX): it passes for any office type.
    """
    zipped = _sniff_binary(head) == "application/zip"
    return _settle(declared, sniff(head, None if zipped else name), name or "file")


def _settle(declared: str | None, sniffed: str | None, label: str) -> str:
    """The declared type unless ``sniffed`` contradicts it; the sniffed one if none is."""
    if declared is None or normalise(declared) == OCTET_STREAM:
        if sniffed is None:
            raise InvalidFileError(
                f"{label}: cannot tell the media type from its bytes; pass media_type=…"
            )
        return sniffed
    declared = normalise(declared)
    if sniffed is not None and (sniffed == declared or _compatible(declared, sniffed)):
        return declared
    if sniffed is None and not _has_signature(declared) and not is_textual(declared):
        return declared  # a format we have no signature for: trust the caller
    found = sniffed or "not text and carry no known signature"
    if sniffed is None and _has_signature(declared):
        found = f"not {declared} (no {declared} signature: corrupt, truncated or mislabelled)"
    raise InvalidFileError(
        f"{label}: declared {declared}, but the bytes are {found}; fix the media type or the file"
    )


def from_extension(name: str | None) -> str | None:
    """The media type a file name's extension suggests (used only for text and zip formats)."""
    if not name:
        return None
    return EXTENSIONS.get(PurePath(name).suffix.lower())


def _compatible(declared: str, sniffed: str) -> bool:
    if is_textual(declared) and is_textual(sniffed):
        return True
    return any(declared in family and sniffed in family for family in _FAMILIES)


def _has_signature(media_type: str) -> bool:
    return media_type in _SIGNED


# BMP: the DIB header's own size (bytes 14–18) tells its version; text starting "BM…" has none.
_BMP_DIB_SIZES = (12, 40, 52, 56, 64, 108, 124)


def _sniff_binary(data: bytes) -> str | None:
    head = data[:16]
    if head.startswith(b"\x89PNG\r\n\x1a\n"):
        return "image/png"
    if head.startswith(b"\xff\xd8\xff"):
        return "image/jpeg"
    if head[:6] in (b"GIF87a", b"GIF89a"):
        return "image/gif"
    if head[:4] == b"RIFF" and head[8:12] in (b"WEBP", b"WAVE", b"AVI "):
        return {b"WEBP": "image/webp", b"WAVE": "audio/wav", b"AVI ": "video/x-msvideo"}[head[8:12]]
    if head[:2] == b"BM" and int.from_bytes(data[14:18], "little") in _BMP_DIB_SIZES:
        return "image/bmp"
    if head[:4] in (b"II*\x00", b"MM\x00*"):
        return "image/tiff"
    if _is_pdf(data):
        return "application/pdf"
    if head[4:8] == b"ftyp":
        return _FTYP_BRANDS.get(head[8:12], "video/mp4")
    if head.startswith(b"\x1a\x45\xdf\xa3"):
        return "video/webm" if b"webm" in data[:64] else "video/x-matroska"
    if head.startswith(b"OggS"):
        return "video/ogg" if b"\x80theora" in data[:256] else "audio/ogg"
    if head.startswith(b"fLaC"):
        return "audio/flac"
    if head[:3] == b"ID3" and head[3:4] in (b"\x02", b"\x03", b"\x04"):  # ID3v2.2–2.4 tag
        return "audio/mpeg"
    if len(head) > 1 and head[0] == 0xFF and head[1] & 0xE6 == 0xE2:
        return "audio/mpeg"
    if head.startswith(b"PK\x03\x04"):
        return "application/zip"
    return None


# Bytes that plain text does not contain: C0 controls other than tab, newlines and form feed.
_CONTROL = re.compile(rb"[\x00-\x08\x0b\x0e-\x1f\x7f]")


def _is_pdf(data: bytes) -> bool:
    """A PDF header at the start, or after binary junk within the first 1024 bytes.

    Readers look for ``%PDF-`` within the first 1024 bytes (Adobe PDF Reference 1.7,
    Appendix H, note on section 3.4.1), so junk may precede it; but text that merely mentions
    "%PDF-1.7" is not a PDF, so a later header counts only when the bytes before it are not
    text (control bytes, or not UTF-8).
    """
    at = data.find(b"%PDF-", 0, 1024)
    if at <= 0:
        return at == 0
    before = data[:at]
    try:
        before.decode("utf-8")
    except UnicodeDecodeError:
        return True
    return _CONTROL.search(before) is not None


def _sniff_zip(data: bytes, name: str | None) -> str:
    """Office documents are zips; their part names say which (word/, xl/, ppt/). The names
    are read from the zip's central directory, at most ``ZIP_DIRECTORY_BYTES`` of it, by one
    regular expression: a zip of a million entries costs a bounded search, never a list of
    them all."""
    directory = _zip_directory(data)
    for prefix, media_type in ((b"word/", DOCX), (b"xl/", XLSX), (b"ppt/", PPTX)):
        if re.search(rb"PK\x01\x02.{42}" + re.escape(prefix), directory, re.DOTALL):
            return media_type
    by_name = from_extension(name)
    return by_name if by_name in (DOCX, XLSX, PPTX) else "application/zip"


#: How much of a zip's central directory sniffing reads (about 10,000 entries).
ZIP_DIRECTORY_BYTES = 1024 * 1024


def _zip_directory(data: bytes) -> bytes:
    """The start of the zip's central directory, where its end record says it is; empty when
    there is no end record (only the head was read, or the zip is damaged)."""
    end = data.rfind(b"PK\x05\x06", max(0, len(data) - 65_557))  # 22 bytes + a comment
    if end < 0 or end + 22 > len(data):
        return b""
    size, offset = struct.unpack("<II", data[end + 12 : end + 20])
    if offset >= len(data):  # ZIP64 (0xFFFFFFFF) or damaged
        return b""
    return data[offset : offset + min(size, ZIP_DIRECTORY_BYTES)]


def _looks_like_text(data: bytes) -> bool:
    sample = data[:8192]
    if b"\x00" in sample:
        return sample.startswith((b"\xff\xfe", b"\xfe\xff"))  # UTF-16 with a BOM
    try:
        sample.decode("utf-8")
        return True
    except UnicodeDecodeError as exc:
        if exc.start >= len(sample) - 4:  # a character cut at the sample's end
            return True
    printable = sum(32 <= b < 127 or b in (9, 10, 13) or b >= 128 for b in sample)
    return printable >= 0.95 * len(sample)


def _sniff_text(data: bytes, name: str | None) -> str:
    start = data[:512].lstrip(b"\xef\xbb\xbf \t\r\n").lower()
    if start.startswith((b"<!doctype html", b"<html")):
        return "text/html"
    if start.startswith(b"<svg") or (start.startswith(b"<?xml") and b"<svg" in data[:2048]):
        return "image/svg+xml"
    by_name = from_extension(name)
    if by_name is not None:
        return by_name
    if start[:1] in (b"{", b"[") and len(data) <= JSON_SNIFF_BYTES:
        try:
            json.loads(data)
            return "application/json"
        except (ValueError, RecursionError):  # RecursionError: hostile nesting, "[[[[…"
            pass
    return "text/plain"


#: Text up to this size is parsed to tell JSON from plain text (parsed, JSON takes up to 80
#: times its size in memory); a larger text without a telling name is plain text (a log that
#: opens and closes with brackets is no JSON). Pass ``media_type=`` to say otherwise.
JSON_SNIFF_BYTES = 256 * 1024


def is_document(media_type: str) -> bool:
    """True for the media DESIGN.md calls documents: text, PDF, office, JSON/XML."""
    return media_type.startswith("text/") or media_type in _DOCUMENT_TYPES
