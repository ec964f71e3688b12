"""Images: validated by decoding them, rotated per EXIF, converted when providers refuse them.

PNG, JPEG, GIF and WebP are what providers take; their bytes are passed on unchanged unless an
EXIF orientation other than 1 asks for a rotation, in which case the image is re-encoded
upright (JPEG at a fixed quality with no metadata, others as PNG) and the header says so.
BMP, TIFF, HEIC/HEIF and AVIF are converted to PNG (HEIC/HEIF only when pillow-heif is
installed; without it they are passed on unchanged, unvalidated, with a note).

Decompression bombs: images are opened through ``toolwire.pillow`` (the pixel limit, the
JPEG scan limit, Pillow's errors as InvalidFileError); a TIFF's pages are counted here from the
bytes before Pillow walks them.

The File part: ``name`` is the file's base name (``photo.png`` for a converted
``photo.bmp``); ``text`` is None, since an image has no extracted text and
``File.text_fallback()`` already describes it (``[Image: photo.png, 640x480, 245 KB]``).
"""

from __future__ import annotations

import io
import struct
from pathlib import PurePath
from typing import TYPE_CHECKING

from .. import pillow
from ..content import File
from ..errors import InvalidFileError
from ..messages import ContentOutput
from . import limits
from .common import Job, header, label, output, plural, size_line

if TYPE_CHECKING:
    from PIL.Image import Image

#: Formats providers take as they are.
KEPT = frozenset({"image/png", "image/jpeg", "image/gif", "image/webp"})
#: Formats that need a plugin Pillow may lack; without it they pass through unvalidated.
_PLUGIN_FORMATS = {"image/heic": "pillow-heif", "image/heif": "pillow-heif"}


def read_image(job: Job) -> ContentOutput:
    """An image as a header (format, size, what was done to it) and one File."""
    name = job.name
    data = job.data
    if job.media_type in _PLUGIN_FORMATS and not pillow.heif_available():
        plugin = _PLUGIN_FORMATS[job.media_type]
        facts = [size_line(data), f"not validated or converted ({plugin} is not installed)"]
        file = File.from_bytes(data, job.media_type, name)
        return output(header(job, *facts), "", [file])
    with pillow.open_image(data, name) as image:
        out, out_type, out_name, facts = _deliver(image, data, job)
    file = File.from_bytes(out, out_type, out_name)
    return output(header(job, *facts), "", [file])


def _deliver(image: Image, data: bytes, job: Job) -> tuple[bytes, str, str, list[str]]:
    """The bytes to send, their media type and name, and the facts for the header."""
    name = job.name
    frames = _frame_count(image, data, name)
    orientation = 1 if frames > 1 else pillow.exif_orientation(image)
    if job.media_type in KEPT and orientation == 1:
        size = image.size  # before draft: the header reports the stored size
        if image.format == "JPEG":
            image.draft("RGB", (size[0] // 8 or 1, size[1] // 8 or 1))
        image.load()  # validates: a truncated or corrupt image fails here
        facts = [_dimensions(size), size_line(data)]
        return data, job.media_type, name, facts + _animated(frames)
    image.load()
    upright = _upright(image, orientation)
    keep_jpeg = job.media_type == "image/jpeg"
    out = _encode(upright, "JPEG" if keep_jpeg else "PNG")
    out_type = "image/jpeg" if keep_jpeg else "image/png"
    out_name = name if keep_jpeg else str(PurePath(name).with_suffix(".png"))
    facts = [_dimensions(upright.size), size_line(data)]
    if orientation != 1:
        facts.append(
            f"rotated upright per EXIF orientation {orientation} (stored {_dimensions(image.size)})"
        )
    if job.media_type not in KEPT:
        first = " (first of " + plural(frames, "page") + ")" if frames > 1 else ""
        facts.append(
            f"converted to PNG as {out_name}{first}: providers do not take {label(job.media_type)}s"
        )
    elif keep_jpeg:
        facts.append(f"re-encoded as JPEG at quality {limits.JPEG_QUALITY}, metadata removed")
    else:
        facts.append(f"re-encoded as PNG as {out_name}")
    return out, out_type, out_name, facts


def _upright(image: Image, orientation: int) -> Image:
    upright = pillow.upright(image, orientation)
    if upright.mode not in ("1", "L", "LA", "I", "I;16", "P", "RGB", "RGBA"):
        upright = upright.convert("RGBA" if "A" in upright.getbands() else "RGB")
    return upright


def _frame_count(image: Image, data: bytes, name: str) -> int:
    # Pillow counts a TIFF's pages by parsing every page's tags: count the IFD chain first.
    pages = _tiff_pages(data, limits.MAX_IMAGE_FRAMES) if image.format == "TIFF" else 0
    frames = pages if pages > limits.MAX_IMAGE_FRAMES else int(getattr(image, "n_frames", 1) or 1)
    if frames > limits.MAX_IMAGE_FRAMES:
        counted = f"more than {limits.MAX_IMAGE_FRAMES}" if pages else str(frames)
        raise InvalidFileError(
            f"{name} has {counted} frames; images with more than {limits.MAX_IMAGE_FRAMES} "
            "frames are refused. Pass a still image or a shorter animation"
        )
    if frames > 1:
        image.seek(0)
    return frames


def _tiff_pages(data: bytes, most: int) -> int:
    """A TIFF's page count from its chain of IFD offsets (no tag is parsed), counting at
    most ``most + 1``; a loop or an offset past the end ends the chain."""
    order = "<" if data[:2] == b"II" else ">"
    big = data[2:4] in (b"+\x00", b"\x00+")  # BigTIFF: 64-bit offsets and counts
    count_format, entry_size, offset_format = ("Q", 20, "Q") if big else ("H", 12, "I")
    count_size, offset_size = struct.calcsize(count_format), struct.calcsize(offset_format)
    (offset,) = struct.unpack_from(order + offset_format, data, 8 if big else 4)
    seen: set[int] = set()
    while offset and offset not in seen and len(seen) <= most:
        seen.add(offset)
        if offset + count_size > len(data):
            break
        (entries,) = struct.unpack_from(order + count_format, data, offset)
        following = offset + count_size + entries * entry_size
        if following + offset_size > len(data):
            break
        (offset,) = struct.unpack_from(order + offset_format, data, following)
    return len(seen)


def _animated(frames: int) -> list[str]:
    if frames <= 1:
        return []
    return [f"animated ({plural(frames, 'frame')}; most providers see only the first frame)"]


def _dimensions(size: tuple[int, int]) -> str:
    return f"{size[0]}x{size[1]}"


def _encode(image: Image, fmt: str) -> bytes:
    """Deterministic bytes: fixed JPEG quality, no EXIF, no timestamps."""
    buffer = io.BytesIO()
    if fmt == "JPEG":
        rgb = image if image.mode in ("RGB", "L") else image.convert("RGB")
        rgb.save(buffer, "JPEG", quality=limits.JPEG_QUALITY, optimize=False)
    else:
        image.save(buffer, "PNG")
    return buffer.getvalue()
