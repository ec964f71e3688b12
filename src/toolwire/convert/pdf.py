"""PDFs as page images plus their text layer, or as the text layer alone (in the read worker).

For a target that takes images, the first ``budget`` pages are rendered with pypdfium2 at
``limits.PDF_RENDER_DPI`` (long side at most ``PDF_RENDER_MAX_SIDE``; the caller's ``fit``
then fits them to the target), each preceded by the label ``Page k of N``; one Text then
gives the text layer of every page (``--- Page k ---`` sections), the pages beyond the budget
included, with a note saying which pages were not rendered. For a text-only target the text
layer alone. A page that draws something but has no text layer (a scan) says so. The text
stops at ``limits.MAX_TEXT_CHARS`` characters, saying where.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..content import File, Text
from ..headers import human_size
from ..messages import ContentOutput
from ..readers import limits
from ..readers.common import header, plural
from ..readers.pdf import _LOCK, _document, _draws_something, _page_text, _pdfium
from .images import encode, output_format, renamed
from .jobs import ConvertJob, Outcome, reply


@dataclass(frozen=True)
class _Page:
    number: int
    text: str | None  # None: beyond the text cap, not extracted
    scanned: bool
    image: File | None


def pdf_pages(job: ConvertJob) -> ContentOutput:
    """Page images (up to ``job.budget``) and the text layer of every page."""
    fmt = output_format(job.image_types, photo=False) if job.budget else None
    pdfium = _pdfium()
    with _LOCK, _document(pdfium, job.data, job.name) as pdf:
        count = len(pdf)
        pages = []
        chars = 0
        for index in range(count):
            pages.append(_page(pdf, index, count, job, fmt, chars <= limits.MAX_TEXT_CHARS))
            chars += len(pages[-1].text or "")
    rendered = [page for page in pages if page.image is not None]
    parts: list[Text | File] = [Text(text=_header(job, count, len(rendered)))]
    for page in rendered:
        assert page.image is not None
        parts += [Text(text=f"Page {page.number} of {count}"), page.image]
    parts.append(Text(text=_text_layer(job.name, pages, bool(rendered))))
    return reply(Outcome(tuple(parts), *_what(pages, count, rendered, fmt)))


def _page(
    pdf: Any, index: int, count: int, job: ConvertJob, fmt: str | None, read_text: bool
) -> _Page:
    if not read_text and index >= job.budget:
        return _Page(index + 1, None, False, None)
    page = pdf[index]
    try:
        text = _page_text(page) if read_text else None
        scanned = read_text and not text and _draws_something(page)
        image = None
        if fmt is not None and index < job.budget:
            image = _render(page, index, count, job.name, fmt)
    finally:
        page.close()
    return _Page(index + 1, text, scanned, image)


def _render(page: Any, index: int, count: int, name: str, fmt: str) -> File:
    width, height = page.get_size()
    scale = min(limits.PDF_RENDER_DPI / 72, limits.PDF_RENDER_MAX_SIDE / max(width, height, 1.0))
    bitmap = page.render(scale=scale)
    try:
        data, media_type = encode(bitmap.to_pil(), fmt)
    finally:
        bitmap.close()
    image = File.from_bytes(data, media_type, renamed(name, fmt, f"-p{index + 1}"))
    return image.model_copy(update={"text": f"Page {index + 1} of {count} of {name}"})


def _header(job: ConvertJob, count: int, rendered: int) -> str:
    facts = [plural(count, "page"), human_size(job.size)]
    if not rendered:
        return f"{header(job, *facts)} Its text layer follows, page by page."
    shown = "Page 1 is" if rendered == 1 else f"Pages 1-{rendered} are"
    text = f"{header(job, *facts)} {shown} shown as images, each labelled 'Page k of {count}'"
    if rendered < count:
        text += f"; pages {rendered + 1}-{count} are not shown as images (page budget {rendered})"
    return text + ". The text layer of every page follows them."


def _text_layer(name: str, pages: list[_Page], images: bool) -> str:
    sections = [f"Text layer of {name}:"]
    chars = 0
    for page in pages:
        body = page.text
        if chars > limits.MAX_TEXT_CHARS:
            sections.append(
                f"(text after page {page.number - 1} left out: the text layer is over "
                f"{limits.MAX_TEXT_CHARS:,} characters)"
            )
            break
        if not body:
            body = _no_text(page, images)
        chars += len(body)
        sections.append(f"--- Page {page.number} ---\n{body}")
    return "\n\n".join(sections)


def _no_text(page: _Page, images: bool) -> str:
    if not page.scanned:
        return "(no text on this page)"
    if page.image is not None:
        return "(no text layer: a scanned page; read it in its image above)"
    why = "beyond the page budget" if images else "the target takes no images"
    return f"(no text layer: a scanned page, not shown as an image: {why})"


def _what(
    pages: list[_Page], count: int, rendered: list[_Page], fmt: str | None
) -> tuple[str, str]:
    scans = [str(page.number) for page in pages if page.scanned]
    scanned = ""
    if scans:
        has = "has" if len(scans) == 1 else "have"
        scanned = f"; page{'s' if len(scans) > 1 else ''} {', '.join(scans)} {has} no text layer (scanned)"
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
