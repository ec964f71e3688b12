"""Pillow opened one way, with toolwire's limits, by every module that decodes an image.

read_file's image reader (``readers/image.py``), the converter to PNG or JPEG
(``convert/images.py``) and image fitting (``imagefit.py``) all decode bytes nobody vetted, so
they share one set of defences here rather than keeping copies that drift apart:

- ``open_image`` sets Pillow's process-wide ``Image.MAX_IMAGE_PIXELS`` to
  ``limits.MAX_IMAGE_PIXELS``, treats Pillow's DecompressionBombWarning as an error, and checks
  the pixel count again itself, so raising Pillow's limit elsewhere does not lift this one. A
  JPEG's scans are counted from the bytes before Pillow decodes them.
- ``guard`` turns Pillow's errors into an InvalidFileError that names the file and says what to
  do, so no Pillow exception escapes toolwire.
- ``exif_orientation`` and ``upright`` turn a photo the way its camera meant it to be seen.
- ``eight_bit`` scales a 16-bit greyscale image down to 8 bits, which every output format takes.

Pillow itself is imported only when an image is opened; still, modules that ``import toolwire``
loads import this one inside functions, so the package import stays light.

Example::

    with open_image(data, "photo.jpg") as image:
        image.load()
        shown = upright(image, exif_orientation(image))
"""

from __future__ import annotations

import functools
import io
import struct
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from .errors import InvalidFileError, missing_dependency
from .readers import limits

if TYPE_CHECKING:
    from PIL.Image import Image

#: A progressive JPEG's scans each walk every block of the image again (100,000 scans decode
#: for minutes), so JPEGs with more scans than this are refused, counted before decoding...
MAX_JPEG_SCANS = 500
#: ... and so are those whose scans times megapixels pass this budget (about a second of
#: decoding; an ordinary progressive photo has about 10 scans).
MAX_JPEG_SCAN_MEGAPIXELS = 5000
#: EXIF Orientation: 1 is upright, 2 to 8 a flip or turn to undo.
ORIENTATION_TAG = 0x0112
_SOS = b"\xff\xda"  # start of scan; 0xFF in entropy-coded data is always followed by 0x00


@contextmanager
def open_image(data: bytes, name: str) -> Iterator[Image]:
    """The image, opened (header only) within the limits above, Pillow's errors turned into
    InvalidFileError naming ``name`` for the whole block, and closed on leaving it."""
    with guard(name):
        image = _opened(data, name)
        try:
            yield image
        finally:
            image.close()


@contextmanager
def guard(name: str) -> Iterator[None]:
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


def exif_orientation(image: Image) -> int:
    """The EXIF orientation ``upright`` undoes: 2 to 8, or 1 when the tag is absent or holds
    anything else (Pillow's ``ImageOps.exif_transpose`` reads it the same way)."""
    value = image.getexif().get(ORIENTATION_TAG, 1)
    return int(value) if value in range(2, 9) else 1


def upright(image: Image, orientation: int) -> Image:
    """The image flipped or turned as EXIF ``orientation`` asks, without that tag; the image
    itself when ``orientation`` is 1."""
    if orientation == 1:
        return image
    from PIL import ImageOps

    return ImageOps.exif_transpose(image)


def eight_bit(image: Image) -> Image:
    """The image as 8-bit greyscale ("L") when Pillow holds it as 16-bit greyscale ("I;16",
    "I;16B", "I;16L", or "I" as older Pillow opens a 16-bit PNG); any other image as it is.

    Each sample keeps its high byte, so the picture looks as before: Pillow's own
    ``convert("L")`` or ``convert("RGB")`` clips the samples at 255 and turns it mostly white.
    """
    if image.mode != "I" and not image.mode.startswith("I;16"):
        return image
    # Pillow maps "I" to "L" through a 65,536-entry table, values outside it clamped.
    return image.convert("I").point([value >> 8 for value in range(65536)], "L")


@functools.cache
def heif_available() -> bool:
    """Register pillow-heif's opener once, if installed; True when HEIC/HEIF can be opened."""
    try:
        import pillow_heif
    except ImportError:
        return False
    pillow_heif.register_heif_opener()
    return True


def _opened(data: bytes, name: str) -> Image:
    """The image opened (header only), closed again if it breaks the pixel or scan limit."""
    image: Image = _pillow().open(io.BytesIO(data))
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


def _pillow() -> Any:
    """PIL.Image, with toolwire's pixel limit set and pillow-heif's opener registered."""
    try:
        from PIL import Image
    except ImportError as exc:
        raise missing_dependency("Pillow", "files") from exc
    Image.MAX_IMAGE_PIXELS = limits.MAX_IMAGE_PIXELS
    heif_available()
    return Image
