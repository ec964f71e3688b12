"""toolwire.pillow: images opened within toolwire's limits, Pillow's errors named, EXIF obeyed."""

from __future__ import annotations

import io
import struct

import pytest
from PIL import Image

from toolwire import headers
from toolwire.capability import Cell
from toolwire.content import File, Text
from toolwire.errors import InvalidFileError
from toolwire.imagefit import fit_image
from toolwire.pillow import exif_orientation, open_image, upright
from toolwire.readers import limits
from toolwire.readers.common import Job, Options
from toolwire.readers.image import read_image


def jpeg(exif: bytes = b"") -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", (300, 200), "red").save(buffer, "JPEG", exif=exif)
    return buffer.getvalue()


def orientation_exif(value: int) -> bytes:
    exif = Image.Exif()
    exif[0x0112] = value
    return exif.tobytes()


def text_orientation_exif(text: bytes) -> bytes:
    """EXIF whose Orientation is stored as ASCII text, which Pillow hands back as a str."""
    value = text.ljust(4, b"\x00")
    entry = struct.pack("<HHI", 0x0112, 2, len(text) + 1) + value
    return b"Exif\x00\x00II*\x00" + struct.pack("<IH", 8, 1) + entry + struct.pack("<I", 0)


def test_opening_an_image_sets_pillows_pixel_limit(monkeypatch):
    monkeypatch.setattr(Image, "MAX_IMAGE_PIXELS", None)  # as if another library lifted it
    with open_image(jpeg(), "red.jpg"):
        pass
    assert Image.MAX_IMAGE_PIXELS == limits.MAX_IMAGE_PIXELS


def test_pillow_errors_in_the_block_become_an_invalid_file_error_naming_it():
    refused = pytest.raises(InvalidFileError, match="half.jpg: the image is corrupt or truncated")
    with refused, open_image(jpeg()[:300], "half.jpg") as image:
        image.load()


def test_the_image_is_closed_when_the_block_ends():
    with open_image(jpeg(), "red.jpg") as image:
        pass
    with pytest.raises(ValueError, match="closed"):
        image.load()


@pytest.mark.parametrize(
    ("exif", "expected"),
    [
        (b"", 1),
        (orientation_exif(6), 6),
        (orientation_exif(9), 1),
        (text_orientation_exif(b"6"), 1),
        (text_orientation_exif(b"ab"), 1),
    ],
)
def test_exif_orientation_is_2_to_8_or_else_upright(exif, expected):
    with open_image(jpeg(exif), "photo.jpg") as image:
        assert exif_orientation(image) == expected


def test_upright_turns_per_the_orientation_and_leaves_orientation_1_alone():
    with open_image(jpeg(orientation_exif(6)), "photo.jpg") as image:
        image.load()
        assert upright(image, 6).size == (200, 300)
        assert upright(image, 1) is image


def test_an_orientation_stored_as_text_neither_turns_nor_squashes_the_image():
    # Pillow's exif_transpose ignores it; read_file used to claim a rotation and fit_image to
    # fit the swapped size, squashing the picture.
    data = jpeg(text_orientation_exif(b"6"))
    read = read_image(Job("photo.jpg", "image/jpeg", Options(), data, len(data)))
    header, file = read.value
    assert isinstance(header, Text) and isinstance(file, File)
    assert "rotated" not in header.text
    assert file.read() == data
    cell = Cell(("image/jpeg",), "native", fit_edge=150)
    fitted, _ = fit_image(File.from_bytes(data, name="photo.jpg"), cell)
    assert headers.image_size(fitted.read()) == (150, 100)
