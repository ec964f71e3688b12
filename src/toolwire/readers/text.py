"""Text files: the encoding detected, binary refused, and the lines paged.

UTF-8 (with or without BOM) and UTF-16 with a BOM are decoded directly; only when UTF-8 fails
does charset-normalizer guess a legacy encoding. Files whose sample holds NUL bytes or many
control characters are binary and refused. At most ``MAX_TEXT_BYTES`` are read, so a huge log
costs no more than that; lines are paged like PDF pages
(``Lines 1-2000 of 5210. Use offset=2000 to continue.``). A text file yields only a Text part:
its content is already text, which every provider takes.
"""

from __future__ import annotations

import codecs

from ..errors import InvalidFileError, missing_dependency
from ..headers import human_size
from ..messages import ContentOutput
from . import limits
from .common import Job, header, output, plural

_CONTROL_OK = frozenset(b"\t\n\r\f\b\x1b")
_WESTERN = "cp1252"
_TIE = 0.05


def read_text(job: Job) -> ContentOutput:
    """A text file as a header and its lines ``offset`` to ``offset + limit``."""
    truncated = job.size > limits.MAX_TEXT_BYTES
    data = job.data
    text, encoding = decode(data, job.name, truncated=truncated)
    lines = split_lines(text, drop_partial_last=truncated)
    body, summary = page_lines(lines, job.options.offset, job.options.limit, job.name)
    facts = [encoding, human_size(job.size)]
    if truncated:
        summary = summary.replace(" of ", " of the first ", 1)
        facts.append(f"only the first {human_size(limits.MAX_TEXT_BYTES)} are read")
    return output(f"{header(job, *facts)} {summary}", body, [])


def decode(data: bytes, name: str, *, truncated: bool = False) -> tuple[str, str]:
    """The text and the name of its encoding; InvalidFileError when the bytes are binary.

    ``truncated`` says the bytes were cut at a read cap, so a character split at the end is
    dropped instead of treated as an encoding error.
    """
    for bom, codec, label in (
        (codecs.BOM_UTF8, "utf-8-sig", "UTF-8 with BOM"),
        (codecs.BOM_UTF16_LE, "utf-16", "UTF-16"),
        (codecs.BOM_UTF16_BE, "utf-16", "UTF-16"),
    ):
        if data.startswith(bom):
            return _decode(data, codec, truncated, name), label
    sample = data[: limits.TEXT_SAMPLE_BYTES]
    _refuse_binary(sample, name)
    try:
        return _decode(data, "utf-8", truncated, name, errors="strict"), "UTF-8"
    except UnicodeDecodeError:
        pass
    encoding = _guess_encoding(sample, name)
    return _decode(data, encoding, truncated, name), encoding


def split_lines(text: str, *, drop_partial_last: bool = False) -> list[str]:
    """Lines split at \\n, \\r\\n or \\r only (not at form feeds or U+2028 inside lines)."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    elif drop_partial_last and len(lines) > 1:
        lines.pop()  # cut at the read cap: the last line is incomplete
    return lines


def page_lines(
    lines: list[str], offset: int, limit: int | None, name: str, unit: str = "line"
) -> tuple[str, str]:
    """The chosen lines joined, and the paging summary the model reads.

    ``offset`` is 0-based; ``limit`` defaults to ``TEXT_LINES_PER_READ``. Over-long lines are
    cut at ``MAX_LINE_CHARS`` and a read stops early at ``MAX_TEXT_CHARS``, the summary then
    naming the offset to continue from: ``Lines 1-2000 of 5210. Use offset=2000 to continue.``
    """
    limit = limit or limits.TEXT_LINES_PER_READ
    total = len(lines)
    if offset and offset >= total:
        raise InvalidFileError(
            f"{name}: offset={offset} is past the end ({plural(total, unit)}); "
            f"use an offset from 0 to {max(total - 1, 0)}"
        )
    chosen: list[str] = []
    chars = 0
    for line in lines[offset : offset + limit]:
        if len(line) > limits.MAX_LINE_CHARS:
            cut = len(line) - limits.MAX_LINE_CHARS
            line = f"{line[: limits.MAX_LINE_CHARS]} … [line cut: {cut} more characters]"
        if chosen and chars + len(line) > limits.MAX_TEXT_CHARS:
            break
        chosen.append(line)
        chars += len(line) + 1
    end = offset + len(chosen)
    summary = f"{unit.capitalize()}s {offset + 1 if total else 0}-{end} of {total}."
    if end < total:
        summary += f" Use offset={end} to continue."
    return "\n".join(chosen), summary


def _decode(data: bytes, codec: str, truncated: bool, name: str, errors: str = "replace") -> str:
    try:
        decoder = codecs.getincrementaldecoder(codec)(errors=errors)
    except LookupError as exc:
        raise InvalidFileError(f"{name}: unknown text encoding {codec!r}") from exc
    return decoder.decode(data, final=not truncated)


def _refuse_binary(sample: bytes, name: str) -> None:
    controls = sum(b < 32 and b not in _CONTROL_OK for b in sample)
    if b"\x00" in sample or controls > len(sample) // 10:
        raise InvalidFileError(
            f"{name} is binary (not text) and not a format read_file reads; it reads text, "
            "images, PDFs, office documents, SVG, audio and video"
        )


def _guess_encoding(sample: bytes, name: str) -> str:
    try:
        import charset_normalizer
    except ImportError as exc:
        raise missing_dependency("charset-normalizer", "files") from exc
    matches = list(charset_normalizer.from_bytes(sample))
    if not matches:
        raise InvalidFileError(
            f"{name}: not UTF-8 and no other text encoding fits; it looks binary. "
            "Convert it to UTF-8 or pass a supported format"
        )
    best = matches[0]
    # Short samples leave several code pages equally plausible (cp775 vs cp1252 for "Zürich");
    # Windows-1252 is by far the most common legacy encoding, so it wins a near tie.
    for match in matches:
        tied = match.chaos <= best.chaos and match.coherence >= best.coherence - _TIE
        if match.encoding == _WESTERN and tied:
            return _WESTERN
    return str(best.encoding)
