"""Images: validated by decoding them, rotated per EXIF, converted when providers refuse them.

PNG, JPEG, GIF and WebP are what providers take; their bytes are passed on unchanged unless an
EXIF orientation other than 1 asks for a rotation, in which case the image is re-encoded
upright (JPEG at a fixed quality with no metadata, others as PNG) and the header says so.
BMP, TIFF, HEIC/HEIF and AVIF are converted to PNG (HEIC/HEIF only when pillow-heif is
installed; without it they are passed on unchanged, unvalidated, with a note).

Decompression bombs: Pillow's process-wide ``Image.MAX_IMAGE_PIXELS`` is set to
``limits.MAX_IMAGE_PIXELS`` when this module first opens an image, Pillow's
DecompressionBombWarning is treated as an error, and the pixel count is checked again here,
so raising Pillow's limit elsewhere does not lift this one. A JPEG's scans and a TIFF's pages
are counted from the bytes before Pillow decodes or walks them.

The File part: ``name`` is the file's base name (``photo.png`` for a converted
``photo.bmp``); ``text`` is None, since an image has no extracted text and
``File.text_fallback()`` already describes it (``[Image: photo.png, 640x480, 245 KB]``).
"""

from __future__ import annotations

import functools
import io
import struct
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import PurePath
from typing import TYPE_CHECKING, Any

from ..content import File
from ..errors import InvalidFileError, missing_dependency
from ..messages import ContentOutput
from . import limits
from .common import Job, header, label, output, plural, size_line

if TYPE_CHECKING:
    from PIL.Image import Image

#: Formats providers take as they are.
KEPT = frozenset({"image/png", "image/jpeg", "image/gif", "image/webp"})
#: Formats that need a plugin Pillow may lack; without it they pass through unvalidated.
_PLUGIN_FORMATS = {"image/heic": "pillow-heif", "image/heif": "pillow-heif"}
#: A progressive JPEG's scans each walk every block of the image again (100,000 scans decode
#: for minutes), so JPEGs with more scans than this are refused, counted before decoding...
MAX_JPEG_SCANS = 500
#: ... and so are those whose scans times megapixels pass this budget (about a second of
#: decoding; an ordinary progressive photo has about 10 scans).
MAX_JPEG_SCAN_MEGAPIXELS = 5000
_SOS = b"\xff\xda"  # start of scan; 0xFF in entropy-coded data is always followed by 0x00


def read_image(job: Job) -> ContentOutput:
    """An image as a header (format, size, what was done to it) and one File."""
    name = job.name
    data = job.data
    if job.media_type in _PLUGIN_FORMATS and not _heif_available():
        plugin = _PLUGIN_FORMATS[job.media_type]
        facts = [size_line(data), f"not validated or converted ({plugin} is not installed)"]
        file = File.from_bytes(data, job.media_type, name)
        return output(header(job, *facts), "", [file])
    with _guard(name):
        image = open_image(data, name)
        try:
            out, out_type, out_name, facts = _deliver(image, data, job)
        finally:
            image.close()
    file = File.from_bytes(out, out_type, out_name)
    return output(header(job, *facts), "", [file])


def open_image(data: bytes, name: str) -> Image:
    """The image, opened (header only) and checked against the pixel limit.

    Call inside ``_guard`` (as ``read_image`` and ``downscale`` do) so Pillow's errors become
    InvalidFileError.
    """
    image_module = _pillow()
    image = image_module.open(io.BytesIO(data))
    width, height = image.size
    try:
        if width * height > limits.MAX_IMAGE_PIXELS:
            raise InvalidFileError(
                f"{name} is {width}x{height} ({width * height / 1e6:.0f} megapixels); images "
                f"over {limits.MAX_IMAGE_PIXELS / 1e6:.0f} megapixels are refused as possible "
                "decompression bombs. Downscale it first"
            )
        if image.format in ("JPEG", "MPO"):
            _check_scans(data, width * height, name)
    except InvalidFileError:
        image.close()
        raise
    return image


def _check_scans(data: bytes, pixels: int, name: str) -> None:
    """Refuse a JPEG whose scan count would make decoding it take minutes."""
    scans = data.count(_SOS)
    megapixels = pixels / 1e6
    if scans > MAX_JPEG_SCANS or scans * megapixels > MAX_JPEG_SCAN_MEGAPIXELS:
        raise InvalidFileError(
            f"{name} is a JPEG with {scans} scans of {megapixels:.1f} megapixels; JPEGs with "
            f"more than {MAX_JPEG_SCANS} scans or {MAX_JPEG_SCAN_MEGAPIXELS} scan-megapixels "
            "(scans x megapixels) are refused, as each scan decodes the whole image again. "
            "Re-save it as a baseline JPEG"
        )


def downscale(data: bytes, max_side: int, *, name: str = "image", use_draft: bool = True) -> bytes:
    """The image validated, upright, and scaled so its long side is at most ``max_side``.

    JPEG stays JPEG (quality ``JPEG_QUALITY``); everything else becomes PNG. ``use_draft``
    lets libjpeg decode a JPEG at 1/2, 1/4 or 1/8 scale straight away, which is what makes a
    12-megapixel photo cheap; ``use_draft=False`` exists as the benchmark's baseline.
    """
    from PIL import ImageOps

    with _guard(name):
        image = open_image(data, name)
        try:
            is_jpeg = image.format == "JPEG"
            if use_draft and is_jpeg:
                # Ask for the thumbnail's own size: draft keeps both sides at least this big.
                scale = min(1.0, max_side / max(image.size))
                image.draft("RGB", (round(image.size[0] * scale), round(image.size[1] * scale)))
            image.load()
            upright = ImageOps.exif_transpose(image)
            upright.thumbnail((max_side, max_side))
            return _encode(upright, "JPEG" if is_jpeg else "PNG")
        finally:
            image.close()


def _deliver(image: Image, data: bytes, job: Job) -> tuple[bytes, str, str, list[str]]:
    """The bytes to send, their media type and name, and the facts for the header."""
    name = job.name
    frames = _frame_count(image, data, name)
    orientation = 1 if frames > 1 else int(image.getexif().get(0x0112, 1) or 1)
    orientation = orientation if 2 <= orientation <= 8 else 1
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
    from PIL import ImageOps

    upright = ImageOps.exif_transpose(image) if orientation != 1 else image
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


@contextmanager
def _guard(name: str) -> Iterator[None]:
    """Turn Pillow's errors (and its bomb warning) into InvalidFileError naming the file."""
    image_module = _pillow()
    bomb = (image_module.DecompressionBombError, image_module.DecompressionBombWarning)
    try:
        # catch_warnings swaps the process-wide filter list; the pixel check in open_image
        # still refuses bombs if another thread's read restores the filters meanwhile.
        with warnings.catch_warnings():
            warnings.simplefilter("error", image_module.DecompressionBombWarning)
            yield
    except InvalidFileError:  # a ValueError too, but already says what is wrong
        raise
    except bomb as exc:
        raise InvalidFileError(
            f"{name} is refused as a possible decompression bomb ({exc}); images over "
            f"{limits.MAX_IMAGE_PIXELS / 1e6:.0f} megapixels are not read. Downscale it first"
        ) from exc
    except image_module.UnidentifiedImageError as exc:
        raise InvalidFileError(
            f"{name}: Pillow cannot identify the image (corrupt, or an unsupported variant); "
            "re-save it as PNG or JPEG"
        ) from exc
    except (OSError, SyntaxError, ValueError, EOFError, struct.error, IndexError) as exc:
        raise InvalidFileError(
            f"{name}: the image is corrupt or truncated ({exc}); re-export it and try again"
        ) from exc


def _pillow() -> Any:
    try:
        from PIL import Image
    except ImportError as exc:
        raise missing_dependency("Pillow", "files") from exc
    Image.MAX_IMAGE_PIXELS = limits.MAX_IMAGE_PIXELS
    _heif_available()
    return Image


@functools.cache
def _heif_available() -> bool:
    """Register pillow-heif's opener once, if installed; True when HEIC/HEIF can be opened."""
    try:
        import pillow_heif
    except ImportError:
        return False
    pillow_heif.register_heif_opener()
    return True
