"""PDFs as page images plus their text layer, or as the text layer alone (in the read worker).

For a target that takes images, the first ``budget`` pages are rendered with pypdfium2 at
``limits.PDF_RENDER_DPI`` (long side at most ``PDF_RENDER_MAX_SIDE``; the caller's ``fit``
then fits them to the target), each preceded by the label ``Page k of N``; one Text then
gives the text layer of every page (``--- Page k ---`` sections), the pages beyond the budget
included, with a note saying which pages were not rendered. For a text-only target the text
layer alone. A page that draws something but has no text layer (a scan) says so, and so
does a page whose text layer is unreadable (its text is left out) or that is blank; filled
form fields follow their page's text (readers/pdftext.py).

read_file's PDF defences apply: every zlib stream is checked before pdfium sees the file
(``check_streams``), and pages stop at its drawing-object budget; the text stops at
``limits.MAX_TEXT_CHARS`` characters once the budget's pages are rendered. Both say which
pages were left out.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..content import File, Text
from ..headers import human_size
from ..messages import ContentOutput
from ..readers import limits
from ..readers import pdf as pdf_reader
from ..readers.common import header, plural
from ..readers.pdf import (
    _LOCK,
    _document,
    _object_count,
    _page_text,
    _pdfium,
    check_streams,
)
from ..readers.pdftext import PageText, read_page
from .images import encode, output_format, renamed
from .jobs import ConvertJob, Outcome, reply

if TYPE_CHECKING:
    from PIL.Image import Image


@dataclass(frozen=True)
class _Page:
    number: int
    reading: PageText
    image: File | None

    @property
    def text(self) -> str:
        return self.reading.text


def pdf_pages(job: ConvertJob) -> ContentOutput:
    """Page images (up to ``job.budget``) and the text layer of every page."""
    fmt = output_format(job.image_types, photo=False) if job.budget else None
    check_streams(job.data, job.name)
    pdfium = _pdfium()
    with _LOCK, _document(pdfium, job.data, job.name) as pdf:
        count = len(pdf)
        pages, left_out = _read(pdf, count, job, fmt)
    rendered = [page for page in pages if page.image is not None]
    parts: list[Text | File] = [Text(text=_header(job, count, len(rendered)))]
    for page in rendered:
        assert page.image is not None
        parts += [Text(text=f"Page {page.number} of {count}"), page.image]
    parts.append(Text(text=_text_layer(job.name, pages, bool(rendered), left_out)))
    return reply(Outcome(tuple(parts), *_what(pages, count, rendered, fmt)))


def _read(pdf: Any, count: int, job: ConvertJob, fmt: str | None) -> tuple[list[_Page], str]:
    """The pages read, and a note on those left out: past ``MAX_TEXT_CHARS`` of text (once
    the budget's pages are rendered), or past read_file's drawing-object budget."""
    pages: list[_Page] = []
    chars = objects = 0
    for index in range(count):
        page = pdf[index]
        try:
            objects += _object_count(page)
            if objects > pdf_reader.MAX_PDF_OBJECTS_PER_READ:
                return pages, (
                    f"(pages {index + 1}-{count} left out: they draw more than "
                    f"{pdf_reader.MAX_PDF_OBJECTS_PER_READ:,} objects, the most one conversion reads)"
                )
            pages.append(_page(pdf, page, index, count, job, fmt))
        finally:
            page.close()
        chars += len(pages[-1].text)
        if chars > limits.MAX_TEXT_CHARS and index + 1 >= job.budget and index + 1 < count:
            return pages, (
                f"(pages {index + 2}-{count} left out: the text layer is over "
                f"{limits.MAX_TEXT_CHARS:,} characters)"
            )
    return pages, ""


def _page(pdf: Any, page: Any, index: int, count: int, job: ConvertJob, fmt: str | None) -> _Page:
    reading = read_page(pdf, page, _page_text(page))
    image = None
    if fmt is not None and index < job.budget:
        image = _render(page, index, count, job.name, fmt)
    return _Page(index + 1, reading, image)


def _render(page: Any, index: int, count: int, name: str, fmt: str) -> File:
    width, height = page.get_size()
    scale = min(limits.PDF_RENDER_DPI / 72, limits.PDF_RENDER_MAX_SIDE / max(width, height, 1.0))
    bitmap = page.render(scale=scale)
    try:
        data, media_type = encode(_grey_if_colourless(bitmap.to_pil()), fmt)
    finally:
        bitmap.close()
    image = File.from_bytes(data, media_type, renamed(name, fmt, f"-p{index + 1}"))
    return image.model_copy(update={"text": f"Page {index + 1} of {count} of {name}"})


def _grey_if_colourless(image: Image) -> Image:
    """The page as greyscale when it has no colour (most text pages): a PNG of it encodes
    about three times faster and is half the size, with the same pixels."""
    from PIL import ImageChops

    if image.mode != "RGB":
        return image
    red, green, blue = image.split()
    if ImageChops.difference(red, green).getbbox() or ImageChops.difference(green, blue).getbbox():
        return image
    return image.convert("L")


def _header(job: ConvertJob, count: int, rendered: int) -> str:
    facts = [plural(count, "page"), human_size(job.size)]
    if not rendered:
        return f"{header(job, *facts)} Its text layer follows, page by page."
    shown = "Page 1 is" if rendered == 1 else f"Pages 1-{rendered} are"
    text = f"{header(job, *facts)} {shown} shown as images, each labelled 'Page k of {count}'"
    if rendered < count:
        text += f"; pages {rendered + 1}-{count} are not shown as images (page budget {rendered})"
    return text + ". The text layer of every page follows them."


def _text_layer(name: str, pages: list[_Page], images: bool, left_out: str) -> str:
    sections = [f"Text layer of {name}:"]
    for page in pages:
        body = page.text if page.reading.kind == "text" else _no_text(page, images)
        if page.reading.kind == "text" and page.reading.needs_image and page.image is None:
            why = "beyond the page budget" if images else "the target takes no images"
            body += f"\n\n({page.reading.why_rendered}, not shown as an image: {why})"
        sections.append(f"--- Page {page.number} ---\n{body}")
    return "\n\n".join([*sections, left_out] if left_out else sections)


def _no_text(page: _Page, images: bool) -> str:
    """What a page without trusted text says, then its form fields if it has any."""
    kind = page.reading.kind
    if kind == "blank":
        return "(a blank page)"
    what = "no text layer: a scanned page" if kind == "scanned" else page.reading.note[1:-1]
    if page.image is not None:
        note = f"({what}; read it in its image above)"
    else:
        why = "beyond the page budget" if images else "the target takes no images"
        note = f"({what}, not shown as an image: {why})"
    return f"{note}\n\n{page.text}" if page.text else note


def _what(
    pages: list[_Page], count: int, rendered: list[_Page], fmt: str | None
) -> tuple[str, str]:
    scanned = _kind_note(pages, "scanned", "no text layer (scanned)")
    scanned += _kind_note(pages, "unreadable", "an unreadable text layer")
    scanned += _kind_note(pages, "blank", "nothing on it (blank)")
    if not rendered:
        return "text", f"extracted the text layer of {plural(count, 'page')}{scanned}"
    shown = len(rendered)
    reason = (
        f"rendered pages 1-{shown} of {count} as {fmt} at {limits.PDF_RENDER_DPI} dpi, "
        f"labelled 'Page k of {count}', with the text layer of all {count}"
    )
    if shown < count:
        reason += f"; pages {shown + 1}-{count} as text only (page budget {shown})"
    return "pages", reason + scanned


def _kind_note(pages: list[_Page], kind: str, what: str) -> str:
    """``; pages 2, 5 have …`` for the pages of one kind, or nothing."""
    numbers = [str(page.number) for page in pages if page.reading.kind == kind]
    if not numbers:
        return ""
    has = "has" if len(numbers) == 1 else "have"
    return f"; page{'s' if len(numbers) > 1 else ''} {', '.join(numbers)} {has} {what}"
