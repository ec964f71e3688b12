"""What the page embeds for a file: a thumbnail of the image sent, a PDF's first page, a player.

Everything becomes a ``data:`` URL built from bytes and a media type the sniffer checked,
never from conversation text. Images above ``THUMB_EDGE`` px or in a format browsers may not
show are downscaled with Pillow (the page says so); audio and video above ``MAX_EMBED_BYTES``
are not embedded (the page says that too). Thumbnails are kept per content and size, so a file
sent to several targets or repeated in a session is converted once.

The bytes come from the conversation, so they may be crafted: images are decoded and PDFs
rendered in read_file's worker process, under its memory and time limits
(``readers.isolation``), and images are opened through ``toolwire.pillow`` (its pixel and
JPEG-scan limits, its errors naming the file; EXIF orientation turned upright). A bomb or a
corrupt file leaves its file described ("not shown: …"), never the caller dead or stuck; the
worker's reply is JSON data in a Text, checked before it is used.
"""

from __future__ import annotations

import base64
import io
import json
from collections.abc import Callable
from dataclasses import asdict, dataclass, replace
from typing import Any

from ..content import File, Text
from ..errors import ToolwireError
from ..headers import human_size
from ..messages import ContentOutput
from ..readers import isolation
from ..readers.common import Job, Options

#: Longest edge of an image shown in the page.
THUMB_EDGE = 480
#: Audio or video larger than this is described, not embedded.
MAX_EMBED_BYTES = 8 * 1024 * 1024
#: Image types every current browser decodes, embedded as sent when small enough.
BROWSER_IMAGES = ("image/png", "image/jpeg", "image/gif", "image/webp")
#: Media types a player may take; other audio/video is described only.
PLAYABLE = (
    "audio/wav",
    "audio/mpeg",
    "audio/ogg",
    "audio/webm",
    "audio/flac",
    "audio/aac",
    "audio/mp4",
    "video/mp4",
    "video/webm",
    "video/ogg",
)


@dataclass(frozen=True)
class Picture:
    """An image to show: its data URL, the size sent, the size shown, and how it was made."""

    url: str
    width: int
    height: int
    shown_width: int
    shown_height: int
    note: str = ""


_pictures: dict[tuple[str, str, int], Picture | str] = {}


def data_url(media_type: str, data: bytes) -> str:
    return f"data:{media_type};base64,{base64.b64encode(data).decode('ascii')}"


def picture(file: File) -> Picture | str:
    """The image as sent, or a thumbnail of it; a str says why nothing can be shown."""
    key = (file.source.sha256(), file.media_type, THUMB_EDGE)
    if key not in _pictures:
        if len(_pictures) > 512:
            _pictures.clear()
        data = file.read()
        _, shown = _in_worker(_picture_job, file, data, "not shown")
        if isinstance(shown, Picture) and not shown.url:  # as sent: a small browser image
            shown = replace(shown, url=data_url(file.media_type, data))
        _pictures[key] = shown
    return _pictures[key]


def _picture(data: bytes, media_type: str, name: str) -> Picture:
    """(In the worker.) A thumbnail, upright; a Picture without a URL: the bytes as sent will do.

    The image is opened through ``toolwire.pillow``: a bomb or a corrupt image raises an
    InvalidFileError naming ``name``, which ``_in_worker`` turns into the "not shown" note.
    """
    from ..pillow import eight_bit, exif_orientation, open_image, upright

    with open_image(data, name) as opened:
        size = opened.size
        orientation = exif_orientation(opened)
        if media_type in BROWSER_IMAGES and max(size) <= THUMB_EDGE and orientation == 1:
            opened.load()  # a corrupt image is described, not embedded (16-bit PNG too)
            return Picture("", *size, *size)
        opened.draft("RGB", (THUMB_EDGE, THUMB_EDGE))
        # 16-bit grey: thumbnail() cannot reduce it, convert("RGB") would clip it white
        image = eight_bit(opened)
        alpha = image.mode in ("RGBA", "LA", "PA") or "transparency" in image.info
        image.thumbnail((THUMB_EDGE, THUMB_EDGE))
        shown = upright(image, orientation).convert("RGBA" if alpha else "RGB")
        out = io.BytesIO()
        shown.save(out, "PNG" if alpha else "JPEG", quality=85)
    url = data_url("image/png" if alpha else "image/jpeg", out.getvalue())
    note = f"shown downscaled to {shown.width}x{shown.height}"
    if orientation != 1:
        note = f"shown upright (EXIF orientation {orientation}) at {shown.width}x{shown.height}"
    return Picture(url, size[0], size[1], shown.width, shown.height, note)


def pdf_first_page(file: File) -> tuple[int, Picture | str]:
    """(page count, the first page rendered as a PNG picture or why not)."""
    key = (file.source.sha256(), "pdf", THUMB_EDGE)
    cached = _pages.get(key)
    if cached is None:
        cached = _pages[key] = _in_worker(_pdf_job, file, file.read(), "not rendered")
    return cached


def _picture_job(job: Job) -> ContentOutput:
    """(In the worker.) ``_picture`` of the job's bytes, as a reply."""
    return _reply(0, _picture(job.data, job.media_type, job.name))


def _pdf_job(job: Job) -> ContentOutput:
    """(In the worker.) ``_render_pdf`` of the job's bytes, as a reply."""
    return _reply(*_render_pdf(job.data))


def _reply(count: int, shown: Picture | str) -> ContentOutput:
    found: dict[str, Any] = {"count": count}
    if isinstance(shown, str):
        found["why"] = shown
    else:
        found["picture"] = asdict(shown)
    return ContentOutput(value=(Text(text=json.dumps(found)),))


def _in_worker(
    render: Callable[[Job], ContentOutput], file: File, data: bytes, failed: str
) -> tuple[int, Picture | str]:
    """What ``render`` made of ``data`` in the read worker, checked: (page count, picture);
    a str, starting with ``failed``, says why there is no picture."""
    job = Job(file.name or file.identifier, file.media_type, Options(), data, len(data))
    try:
        first = isolation.run(render, job).value[0]
        found = json.loads(first.text if isinstance(first, Text) else "")
        count, why, fields = found["count"], found.get("why"), found.get("picture")
        if isinstance(why, str) and type(count) is int:
            return count, why
        picture = Picture(**fields)
        numbers = (picture.width, picture.height, picture.shown_width, picture.shown_height)
        if type(count) is int and _is_valid(picture, numbers, file.media_type):
            return count, picture
    except ToolwireError as exc:  # over the worker's memory or time limit, or crashed it
        return 0, f"{failed}: {exc}"
    except (ValueError, TypeError, KeyError, IndexError, AttributeError):
        pass
    return 0, f"{failed}: the worker that decodes it sent an invalid reply"


def _is_valid(picture: Picture, numbers: tuple[Any, ...], media_type: str) -> bool:
    is_url = picture.url.startswith(("data:image/png;base64,", "data:image/jpeg;base64,"))
    as_sent = not picture.url and media_type in BROWSER_IMAGES
    return (is_url or as_sent) and all(type(n) is int and n >= 0 for n in numbers)


_pages: dict[tuple[str, str, int], tuple[int, Picture | str]] = {}


def _render_pdf(data: bytes) -> tuple[int, Picture | str]:
    try:
        import pypdfium2
    except ImportError:
        return 0, "not rendered: pypdfium2 is not installed (pip install 'toolwire[files]')"
    try:
        pdf = pypdfium2.PdfDocument(data)
        try:
            count = len(pdf)
            page = pdf[0]
            width, height = page.get_size()
            scale = THUMB_EDGE / max(width, height, 1)
            image = page.render(scale=scale).to_pil()
        finally:
            pdf.close()
    except Exception as exc:  # pypdfium2 raises its own errors for damaged files
        return 0, f"not rendered: pypdfium2 cannot open it ({type(exc).__name__})"
    out = io.BytesIO()
    image.save(out, "PNG")
    url = data_url("image/png", out.getvalue())
    picture = Picture(url, image.width, image.height, image.width, image.height)
    return count, picture


def player_source(file: File) -> str:
    """A data URL for an audio or video player, or (starting "not embedded") why not."""
    if file.media_type not in PLAYABLE:
        return f"not embedded: browsers do not play {file.media_type}"
    data = file.read()
    if len(data) > MAX_EMBED_BYTES:
        return (
            f"not embedded: {human_size(len(data))} is over the "
            f"{human_size(MAX_EMBED_BYTES)} the page embeds"
        )
    return data_url(file.media_type, data)
