"""Images (readers/image.py): validated, rotated, converted, and safe on hostile files."""

from __future__ import annotations

import io
import random
import struct
import zlib

import pytest
from PIL import Image

from toolwire.errors import InvalidFileError
from toolwire.readers import read_file

from .helpers import copy_example, example, outcome


def _png(width: int, height: int, rows: bytes, bit_depth: int = 8, color_type: int = 2) -> bytes:
    """A PNG built chunk by chunk, so its header can claim any size."""

    def chunk(kind: bytes, payload: bytes) -> bytes:
        crc = zlib.crc32(kind + payload)
        return struct.pack(">I", len(payload)) + kind + payload + struct.pack(">I", crc)

    header = struct.pack(">IIBBBBB", width, height, bit_depth, color_type, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", rows) + chunk(b"IEND", b"")
    )


def _bomb_png(side: int) -> bytes:
    """A real decompression bomb: a side x side 1-bit image of zeros, a few dozen KB on disk."""
    compressor = zlib.compressobj(9)
    row = bytes(1 + (side + 7) // 8)  # filter byte + packed bits
    block = row * 1000
    parts = [compressor.compress(block) for _ in range(side // 1000)]
    parts.append(compressor.compress(row * (side % 1000)))
    parts.append(compressor.flush())
    return _png(side, side, b"".join(parts), bit_depth=1, color_type=0)


def _noise_jpeg(width: int, height: int) -> bytes:
    rng = random.Random(7)
    image = Image.frombytes("RGB", (width, height), rng.randbytes(width * height * 3))
    buffer = io.BytesIO()
    image.save(buffer, "JPEG", quality=90)
    return buffer.getvalue()


def _image_of(result):
    file = result.value[1]
    return file, Image.open(io.BytesIO(file.read()))


def test_a_png_is_validated_and_passed_on_with_its_bytes_unchanged(tmp_path):
    path = copy_example("photo.png", tmp_path)
    result = read_file(path)
    assert result.value[0].text == "photo.png: PNG image, 640x480, 245 KB."
    file = result.value[1]
    assert (file.name, file.media_type, file.text) == ("photo.png", "image/png", None)
    assert file.read() == path.read_bytes()
    assert file.text_fallback().startswith("[Image: photo.png, 640x480")


def test_webp_is_kept_as_webp():
    result = read_file(example("sample.webp"))
    assert result.value[0].text.startswith("sample.webp: WebP image, 320x240")
    assert result.value[1].media_type == "image/webp"
    assert result.value[1].read() == example("sample.webp").read_bytes()


def test_a_jpeg_with_exif_orientation_6_is_rotated_upright_and_said_so():
    result = read_file(example("rotated.jpg"))
    text = result.value[0].text
    assert "300x400" in text
    assert "rotated upright per EXIF orientation 6 (stored 400x300)" in text
    assert "quality 90" in text
    file, image = _image_of(result)
    assert (file.name, file.media_type, image.size) == ("rotated.jpg", "image/jpeg", (300, 400))
    assert image.getexif().get(0x0112) is None  # metadata removed: no second rotation
    red, green = image.getpixel((150, 60)), image.getpixel((150, 392))
    assert red[0] > 150 and red[1] < 100  # the red arrow is at the top
    assert green[1] > 100 and green[0] < 100  # the green bar is at the bottom


def test_the_rotated_jpeg_is_re_encoded_deterministically():
    first = read_file(example("rotated.jpg")).value[1].read()
    second = read_file(example("rotated.jpg")).value[1].read()
    assert first == second


def test_an_animated_gif_is_kept_and_noted():
    result = read_file(example("formats/image.gif"))
    assert "animated (3 frames; most providers see only the first frame)" in result.value[0].text
    assert result.value[1].read() == example("formats/image.gif").read_bytes()


@pytest.mark.parametrize(
    ("name", "label"),
    [("formats/image.bmp", "BMP"), ("formats/image.tiff", "TIFF"), ("formats/image.heic", "HEIC")],
)
def test_formats_providers_refuse_are_converted_to_png_and_the_header_says_so(name, label):
    if label == "HEIC":
        pytest.importorskip("pillow_heif")
    result = read_file(example(name))
    assert f"converted to PNG as image.png: providers do not take {label} images" in (
        result.value[0].text
    )
    file, image = _image_of(result)
    assert (file.name, file.media_type, image.format, image.size) == (
        "image.png",
        "image/png",
        "PNG",
        (64, 48),
    )


def test_a_decompression_bomb_png_is_refused_before_decoding(tmp_path):
    path = tmp_path / "bomb.png"
    path.write_bytes(_bomb_png(20_000))  # 400 megapixels in about 50 KB
    assert path.stat().st_size < 200_000
    error = outcome(lambda: read_file(path))
    assert isinstance(error, InvalidFileError)
    assert "decompression bomb" in str(error) and "bomb.png" in str(error)


def test_an_image_just_over_the_limit_is_refused_too(tmp_path):
    # 8200 x 8200 = 67 MP: over toolwire's 64 MP, under twice Pillow's limit, where Pillow
    # only warns; the warning is treated as an error.
    path = tmp_path / "big.png"
    path.write_bytes(_bomb_png(8_200))
    error = outcome(lambda: read_file(path))
    assert isinstance(error, InvalidFileError)
    assert "decompression bomb" in str(error)


def test_a_truncated_png_is_refused(tmp_path):
    data = example("photo.png").read_bytes()
    path = tmp_path / "half.png"
    path.write_bytes(data[: len(data) // 2])
    error = outcome(lambda: read_file(path))
    assert isinstance(error, InvalidFileError)
    assert "half.png: the image is corrupt or truncated" in str(error)


def test_a_truncated_jpeg_is_refused(tmp_path):
    data = _noise_jpeg(400, 300)
    path = tmp_path / "half.jpg"
    path.write_bytes(data[: len(data) // 2])
    error = outcome(lambda: read_file(path))
    assert isinstance(error, InvalidFileError)
    assert "corrupt or truncated" in str(error)


def test_a_png_signature_followed_by_garbage_is_refused(tmp_path):
    path = tmp_path / "garbage.png"
    path.write_bytes(b"\x89PNG\r\n\x1a\n" + random.Random(1).randbytes(4000))
    error = outcome(lambda: read_file(path))
    assert isinstance(error, InvalidFileError)
    assert "garbage.png" in str(error)
