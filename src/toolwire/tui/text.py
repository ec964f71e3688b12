"""A file's text for its detail section: PDF text per page, office documents as Markdown, a
text file's own text. Through ``toolwire.convert`` (its text-only target), which parses in
the read worker; a failure is a sentence, not an exception."""

from __future__ import annotations

from ..content import File, Text
from ..errors import ToolwireError
from ..mediatypes import is_textual
from .lines import DETAIL_CHARS, plain

#: Types whose text the detail shows, through the converter of a text-only target.
CONVERTED = (
    "application/pdf",
    "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
    "application/vnd.openxmlformats-officedocument.presentationml.presentation",
    "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    "text/html",
)


def file_text(file: File) -> str:
    """The file's text as a text-only model would get it, cut to ``DETAIL_CHARS``; "" if none."""
    if not file.source.is_local or not (
        file.media_type in CONVERTED or is_textual(file.media_type)
    ):
        return ""
    if file.media_type not in CONVERTED:
        return _cut(file.text_fallback())
    from ..convert import Target, convert

    try:
        conversion = convert(file, Target())
    except ToolwireError as exc:
        return plain(f"(no text: {exc})")
    if conversion is None:
        return ""
    texts = [p.text for p in conversion.parts if isinstance(p, Text)]
    return _cut("\n".join(texts))


def _cut(text: str) -> str:
    text = plain(text)
    if len(text) <= DETAIL_CHARS:
        return text
    return f"{text[:DETAIL_CHARS]}\n… {len(text) - DETAIL_CHARS:,} more characters"
