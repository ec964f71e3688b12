"""Pixels for the terminal: an image's thumbnail or a PDF page, made in the read worker.

The bytes come from the conversation, so they may be crafted: they are decoded (images
through ``toolwire.pillow``, PDFs through pypdfium2) only in read_file's worker process, under
its memory and time limits (``readers.isolation``), as the HTML view's thumbnails are. The
worker answers with raw RGB samples of a small picture, never an encoded image, so this
process decodes nothing: it checks the sample count against the size and hands the samples
to the terminal renderer. A bomb or a corrupt file gives a sentence saying why, never a
crash or a hang.
"""

from __future__ import annotations

import base64
import json
from dataclasses import dataclass
from typing import Any

from ..content import File, Text
from ..errors import ToolwireError
from ..messages import ContentOutput
from ..readers import isolation
from ..readers.common import Job, Options

#: Longest edge, in pixels, of what the worker sends back: enough for a thumbnail a third
#: of a wide terminal across with a graphics protocol, small enough to send as JSON.
EDGE = 320


@dataclass(frozen=True)
class Pixels:
    """An RGB picture ``width`` x ``height``, 3 bytes a pixel, rows top to bottom."""

    width: int
    height: int
    rgb: bytes


@dataclass(frozen=True)
class Shot:
    """What the worker made of a file: its page count (1 for an image) and the pixels, or
    ``why`` there are none."""

    pages: int
    pixels: Pixels | None
    why: str = ""


@dataclass(frozen=True)
class PixelJob(Job):
    """A Job with the PDF page wanted (0-based) and the edge to fit it in."""

    page: int = 0
    edge: int = EDGE


_shots: dict[tuple[str, int, int], Shot] = {}


def shot(file: File, page: int = 0, edge: int = EDGE) -> Shot:
    """The file's picture (an image, or page ``page`` of a PDF), kept per content and page.
    Reading threads share the cache: what one stored, another may clear before it is read
    back, so the shot returned is the one in hand."""
    key = (file.source.sha256(), page, edge)
    found = _shots.get(key)
    if found is None:
        found = _in_worker(file, page, edge)
        if len(_shots) > 256:
            _shots.clear()
        _shots[key] = found
    return found


def _in_worker(file: File, page: int, edge: int) -> Shot:
    data = file.read()
    name = file.name or file.identifier
    job = PixelJob(name, file.media_type, Options(), data, len(data), page=page, edge=edge)
    try:
        first = isolation.run(_pixels_job, job).value[0]
        return _checked(json.loads(first.text if isinstance(first, Text) else ""), edge)
    except ToolwireError as exc:  # over the worker's limits, or it crashed
        return Shot(0, None, f"not shown: {exc}")
    except (ValueError, TypeError, KeyError, IndexError, AttributeError):
        return Shot(0, None, "not shown: the worker that decodes it sent an invalid reply")


def _checked(found: object, edge: int) -> Shot:
    """The worker's reply as a Shot, or ValueError where any field is not what it sends."""
    if not isinstance(found, dict):
        raise ValueError("not an object")
    pages, why = found["pages"], found.get("why")
    if not _whole(pages) or pages < 0:
        raise ValueError("pages")
    if isinstance(why, str):
        return Shot(pages, None, why)
    width, height = found["width"], found["height"]
    if not all(_whole(n) and 0 < n <= edge for n in (width, height)):
        raise ValueError("size")
    rgb = base64.b64decode(found["rgb"], validate=True)
    if len(rgb) != width * height * 3:
        raise ValueError("samples")
    return Shot(pages, Pixels(width, height, rgb))


def _pixels_job(job: PixelJob) -> ContentOutput:
    """(In the worker.) The job's image, or its PDF page, as RGB samples in JSON."""
    try:
        pages, image = _pdf_page(job) if job.media_type == "application/pdf" else _image(job)
    except ToolwireError as exc:
        return _reply({"pages": 0, "why": f"not shown: {exc}"})
    if image is None:
        return _reply({"pages": pages, "why": f"page {job.page + 1} is not in the file"})
    rgb = image.convert("RGB")
    samples = base64.b64encode(rgb.tobytes()).decode("ascii")
    return _reply({"pages": pages, "width": rgb.width, "height": rgb.height, "rgb": samples})


def _image(job: PixelJob) -> tuple[int, Any]:
    """(1, the image upright, fitted to the edge, RGB), all while the file is open."""
    from ..pillow import eight_bit, exif_orientation, open_image, upright

    with open_image(job.data, job.name) as opened:
        orientation = exif_orientation(opened)
        opened.draft("RGB", (job.edge, job.edge))
        image = eight_bit(opened)
        image.thumbnail((job.edge, job.edge))
        return 1, upright(image, orientation).convert("RGB")


def _pdf_page(job: PixelJob) -> tuple[int, Any]:
    try:
        import pypdfium2
    except ImportError as exc:
        raise ToolwireError("pypdfium2 is not installed (pip install 'toolwire[files]')") from exc
    try:
        pdf = pypdfium2.PdfDocument(job.data)
        try:
            count = len(pdf)
            if not 0 <= job.page < count:
                return count, None
            page = pdf[job.page]
            width, height = page.get_size()
            scale = job.edge / max(width, height, 1)
            image = page.render(scale=scale).to_pil().convert("RGB")
        finally:
            pdf.close()
    except Exception as exc:  # pypdfium2 raises its own errors for damaged files
        raise ToolwireError(f"pypdfium2 cannot open it ({type(exc).__name__})") from exc
    return count, image


def _reply(found: dict[str, object]) -> ContentOutput:
    return ContentOutput(value=(Text(text=json.dumps(found)),))


def _whole(value: object) -> bool:
    """An int the worker sent as a JSON number (a bool is not one)."""
    return isinstance(value, int) and not isinstance(value, bool)
