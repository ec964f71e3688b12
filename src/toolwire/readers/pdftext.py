"""What a PDF page says in text, and whether its text layer can be trusted.

A text layer is not always what the page shows:

- filled form fields are widgets, not page text: their values are listed after the page's
  text (``Form fields:``), and pages are rendered with them drawn (the document's form
  environment is opened first, ``init_forms``);
- a font without a Unicode map gives its glyph codes back as control characters, private-use
  code points or U+FFFD; a page whose text is mostly those is *unreadable*: its text is left
  out, and it is rendered like a scan so a model can read the image;
- a page with no text that draws nothing visible (white on white, an empty path) is *blank*,
  not a scan, so it is not rendered;
- a text page whose pictures cover at least ``PICTURED_SHARE`` of it (a figure, a scanned
  table, text drawn as a picture) keeps its text and is rendered too, and says so.
"""

from __future__ import annotations

import ctypes
import unicodedata
from dataclasses import dataclass
from typing import Any

#: A text layer is unreadable when more than this share of its non-space characters are
#: control characters, U+FFFD or private-use code points (and at least ``_MIN_BAD`` are).
UNREADABLE_SHARE = 0.1
_MIN_BAD = 3
#: A page with no text is blank when, rendered small, no pixel is darker than this (0-255).
_BLANK_LEVEL = 250
_BLANK_SCALE = 0.25
#: A text page whose images cover this share of its area or more is rendered as well.
PICTURED_SHARE = 0.25
#: pdfium's form field types (FPDF_FORMFIELD_*) read as values, and checkable ones.
_PUSHBUTTON, _CHECKBOX, _RADIO, _SIGNATURE = 1, 2, 3, 7
_WIDGET = 20  # FPDF_ANNOT_WIDGET


@dataclass(frozen=True)
class PageText:
    """A page's text and what kind of page it is.

    ``kind``: ``text`` (a trusted text layer), ``unreadable`` (a text layer that is not text;
    render the page), ``scanned`` (no text layer, but the page draws something; render it) or
    ``blank`` (nothing on it). ``text`` holds the form fields even when the layer is not
    trusted; ``note`` says why a layer was not.
    """

    text: str
    kind: str
    note: str = ""
    #: The share of the page its pictures cover (0 to 1).
    pictured: float = 0.0

    @property
    def needs_image(self) -> bool:
        """Whether only an image of the page shows (all of) what is on it."""
        return self.kind in ("scanned", "unreadable") or self.pictured >= PICTURED_SHARE

    @property
    def why_rendered(self) -> str:
        """Why the page is rendered, as the header says it: ``has no text layer``."""
        if self.kind == "scanned":
            return "no text layer"
        if self.kind == "unreadable":
            return "an unreadable text layer"
        return f"pictures over {self.pictured:.0%} of it"


def read_page(pdf: Any, page: Any, layer: str) -> PageText:
    """The page's text (``layer``: its extracted text layer), with its form fields, judged."""
    fields = form_fields(pdf, page)
    block = "Form fields:\n" + "\n".join(f"- {line}" for line in fields) if fields else ""
    if layer:
        bad = unreadable_characters(layer)
        if bad:
            note = (
                f"(text layer unreadable: {bad} of its characters are control, private-use or "
                "replacement characters, a font without a Unicode map)"
            )
            return PageText(block, "unreadable", note)
        text = f"{layer}\n\n{block}" if block else layer
        return PageText(text, "text", pictured=picture_share(page))
    if not fields and is_blank(page):
        return PageText("", "blank")
    return PageText(block, "scanned" if not fields else "text")


def picture_share(page: Any) -> float:
    """The share of the page's area its images cover (overlaps counted twice, capped at 1)."""
    import pypdfium2.raw as pdfium_c

    width, height = page.get_size()
    area = 0.0
    for image in page.get_objects(filter=[pdfium_c.FPDF_PAGEOBJ_IMAGE], max_depth=3):
        left, bottom, right, top = image.get_bounds()
        area += max(0.0, min(right, width) - max(left, 0.0)) * max(
            0.0, min(top, height) - max(bottom, 0.0)
        )
    return float(min(area / max(width * height, 1.0), 1.0))


def unreadable_characters(text: str) -> int:
    """How many characters of ``text`` are not text, when they are too many; else 0."""
    visible = [char for char in text if not char.isspace()]
    bad = sum(1 for char in visible if _is_bad(char))
    if bad >= _MIN_BAD and bad > UNREADABLE_SHARE * len(visible):
        return bad
    return 0


def _is_bad(char: str) -> bool:
    return char == "\ufffd" or unicodedata.category(char) in ("Cc", "Co")


def is_blank(page: Any) -> bool:
    """Whether the page, rendered small with its forms, shows no mark at all."""
    if next(iter(page.get_objects(max_depth=1)), None) is None:
        return True
    bitmap = page.render(scale=_BLANK_SCALE, grayscale=True)
    try:
        darkest, _ = bitmap.to_pil().convert("L").getextrema()
    finally:
        bitmap.close()
    return bool(darkest > _BLANK_LEVEL)


def form_fields(pdf: Any, page: Any) -> list[str]:
    """``name: value`` for each filled form field on the page (checked boxes and chosen
    radio buttons included, empty and unchecked ones left out), in widget order."""
    import pypdfium2.raw as pdfium_c

    form = getattr(pdf, "formenv", None)
    if form is None:
        return []
    lines: list[str] = []
    for index in range(pdfium_c.FPDFPage_GetAnnotCount(page.raw)):
        annotation = pdfium_c.FPDFPage_GetAnnot(page.raw, index)
        try:
            if pdfium_c.FPDFAnnot_GetSubtype(annotation) == _WIDGET:
                line = _field_line(pdfium_c, form.raw, annotation)
                if line and line not in lines:
                    lines.append(line)
        finally:
            pdfium_c.FPDFPage_CloseAnnot(annotation)
    return lines


def _field_line(pdfium_c: Any, form: Any, annotation: Any) -> str:
    kind = pdfium_c.FPDFAnnot_GetFormFieldType(form, annotation)
    if kind in (_PUSHBUTTON, _SIGNATURE):
        return ""
    name = _wide(pdfium_c.FPDFAnnot_GetFormFieldName, form, annotation) or "(unnamed field)"
    if kind in (_CHECKBOX, _RADIO):
        if not pdfium_c.FPDFAnnot_IsChecked(form, annotation):
            return ""
        value = _wide(pdfium_c.FPDFAnnot_GetFormFieldValue, form, annotation)
        return f"{name}: {'checked' if kind == _CHECKBOX or value in ('', 'Yes', 'On') else value}"
    value = _wide(pdfium_c.FPDFAnnot_GetFormFieldValue, form, annotation)
    value = " ".join(value.split())
    return f"{name}: {value}" if value else ""


def _wide(function: Any, form: Any, annotation: Any) -> str:
    """A UTF-16 string pdfium writes into a buffer it first sizes."""
    import pypdfium2.raw as pdfium_c

    size = function(form, annotation, None, 0)
    if size <= 2:
        return ""
    buffer = ctypes.create_string_buffer(size)
    function(form, annotation, ctypes.cast(buffer, ctypes.POINTER(pdfium_c.FPDF_WCHAR)), size)
    return buffer.raw[:size].decode("utf-16-le", "replace").rstrip("\x00").strip()
