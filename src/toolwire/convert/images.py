"""Images a target does not take (SVG, HEIC/HEIF, TIFF, BMP, AVIF, …) as PNG or JPEG.

Runs in the read worker. SVG is rasterised by read_file's SVG reader (CairoSVG, when
installed; without it the SVG's XML is given as text). Raster images are opened through
``toolwire.pillow`` (pixel limit, JPEG scan limit), turned upright per EXIF, and re-encoded
by this rule: **JPEG for a photo without alpha** (no alpha channel and more than
256 colours), **PNG otherwise** (transparency, diagrams, screenshots with few colours); when
the target takes only one of the two, that one (alpha flattened onto white for JPEG).

Encoder settings are fixed (PNG compress level 6; JPEG quality ``limits.JPEG_QUALITY``, no
optimize, 4:2:0) and no metadata is written (no EXIF, ICC profile, text chunk or timestamp),
so the same bytes always give the same output bytes.
"""

from __future__ import annotations

import io
from pathlib import PurePath
from typing import TYPE_CHECKING

from .. import pillow
from ..content import File, Text
from ..errors import missing_dependency
from ..messages import ContentOutput
from ..readers import limits
from ..readers.common import label
from ..readers.svg import read_svg
from .jobs import ConvertJob, Outcome, reply

if TYPE_CHECKING:
    from PIL.Image import Image

#: What a converted image may be encoded as, and the Pillow format of each.
FORMATS = {"image/png": "PNG", "image/jpeg": "JPEG", "image/webp": "WEBP"}
_SUFFIXES = {"PNG": ".png", "JPEG": ".jpg", "WEBP": ".webp"}
_PNG_MODES = frozenset({"1", "L", "LA", "P", "RGB", "RGBA"})
_HEIF = frozenset({"image/heic", "image/heif"})


def output_format(image_types: tuple[str, ...], *, photo: bool) -> str | None:
    """The Pillow format to encode a converted image as for a target taking ``image_types``."""
    order = ("JPEG", "PNG", "WEBP") if photo else ("PNG", "JPEG", "WEBP")
    taken = {FORMATS[t] for t in image_types if t in FORMATS}
    return next((fmt for fmt in order if fmt in taken), None)


def encode(image: Image, fmt: str) -> tuple[bytes, str]:
    """Deterministic bytes of ``image`` in ``fmt``, and their media type: no metadata."""
    buffer = io.BytesIO()
    if fmt == "JPEG":
        _flat(image).save(buffer, "JPEG", quality=limits.JPEG_QUALITY, optimize=False)
    elif fmt == "WEBP":
        image.save(buffer, "WEBP", quality=limits.JPEG_QUALITY, method=4)
    else:
        if image.mode not in _PNG_MODES:
            image = image.convert("RGBA" if "A" in image.getbands() else "RGB")
        image.save(buffer, "PNG", compress_level=6)
    media_type = next(t for t, f in FORMATS.items() if f == fmt)
    return buffer.getvalue(), media_type


def renamed(name: str, fmt: str, tag: str = "") -> str:
    """``photo.heic`` -> ``photo.jpg``; with ``tag``: ``report.pdf`` -> ``report-p3.png``."""
    path = PurePath(name)
    return f"{path.stem}{tag}{_SUFFIXES[fmt]}"


def to_image(job: ConvertJob) -> ContentOutput:
    """The image as PNG or JPEG (by the rule above); an SVG without a rasteriser as text."""
    if job.media_type == "image/svg+xml":
        return reply(_svg(job))
    if job.media_type in _HEIF and not pillow.heif_available():
        raise missing_dependency("pillow-heif", "heic")
    with pillow.open_image(job.data, job.name) as image:
        image.load()
        # 16-bit grey as 8-bit grey: neither getcolors nor JPEG takes 16-bit samples
        upright = pillow.eight_bit(pillow.upright(image, pillow.exif_orientation(image)))
        photo = is_photo(upright)
        fmt = output_format(job.image_types, photo=photo)
        assert fmt is not None  # convert() sends only targets that take one
        data, media_type = encode(upright, fmt)
    why = "a photo without alpha" if photo else "it has alpha or at most 256 colours"
    reason = (
        f"converted {label(job.media_type)} {upright.width}x{upright.height} to "
        f"{label(media_type)} ({why})"
    )
    return reply(
        Outcome((File.from_bytes(data, media_type, renamed(job.name, fmt)),), "image", reason)
    )


def is_photo(image: Image) -> bool:
    """No alpha channel and more than 256 colours: a photograph, best sent as JPEG."""
    if "A" in image.getbands() or "transparency" in image.info:
        return False
    return image.getcolors(256) is None


def _svg(job: ConvertJob) -> Outcome:
    output = read_svg(job)
    first, *files = output.value
    assert isinstance(first, Text)
    png = next((f for f in files if isinstance(f, File)), None)
    if png is None:  # no rasteriser, or a drawing too costly to render: its XML as text
        why = first.text.split("\n", 1)[0]
        return Outcome((first,), "text", f"SVG given as its XML text; {why}")
    from PIL import Image

    fmt = output_format(job.image_types, photo=False)
    assert fmt is not None
    data, media_type = png.read(), "image/png"
    if fmt != "PNG":
        with Image.open(io.BytesIO(data)) as image:
            data, media_type = encode(image, fmt)
    size = _png_size(png.read())
    file = File.from_bytes(data, media_type, renamed(job.name, fmt))
    return Outcome((file,), "image", f"rasterised SVG to {label(media_type)} {size}")


def _png_size(data: bytes) -> str:
    width, height = int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
    return f"{width}x{height}"


def _flat(image: Image) -> Image:
    """RGB or L for JPEG: alpha composited onto white."""
    if image.mode in ("RGB", "L"):
        return image
    from PIL import Image as PILImage

    rgba = image.convert("RGBA")
    white = PILImage.new("RGBA", rgba.size, (255, 255, 255, 255))
    return PILImage.alpha_composite(white, rgba).convert("RGB")
