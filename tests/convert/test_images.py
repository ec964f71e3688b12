"""Images a target does not take (convert/images.py): JPEG for photos, PNG otherwise; SVG."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from toolwire.content import File
from toolwire.convert import Target, convert
from toolwire.errors import InvalidFileError

from . import files
from .conftest import TEXT_ONLY, VISION

HEIC = pytest.param(
    "HEIF",
    "photo.heic",
    marks=pytest.mark.skipif(pytest.importorskip("pillow_heif") is None, reason="pillow-heif"),
)


def only_image(file: File, target: Target = VISION) -> tuple[File, str]:
    conversion = convert(file, target)
    assert conversion is not None and conversion.converted_to == "image"
    (image,) = conversion.parts
    assert isinstance(image, File)
    return image, conversion.reason


@pytest.mark.parametrize(("fmt", "name"), [("TIFF", "photo.tiff"), ("BMP", "photo.bmp"), HEIC])
def test_a_photo_without_alpha_becomes_a_jpeg(fmt, name):
    image, reason = only_image(File.from_bytes(files.image_bytes(fmt), name=name))
    assert image.media_type == "image/jpeg" and image.name == "photo.jpg"
    assert Image.open(io.BytesIO(image.read())).size == (96, 64)
    assert "to JPEG image (a photo without alpha)" in reason


@pytest.mark.parametrize(("fmt", "name"), [("TIFF", "logo.tiff"), HEIC])
def test_an_image_with_alpha_becomes_a_png_keeping_it(fmt, name):
    image, reason = only_image(File.from_bytes(files.image_bytes(fmt, alpha=True), name=name))
    assert image.media_type == "image/png"
    assert Image.open(io.BytesIO(image.read())).getpixel((0, 0))[3] <= 5  # HEIC alpha is lossy
    assert "(it has alpha or at most 256 colours)" in reason


def test_a_target_taking_only_png_gets_a_png_photo():
    file = File.from_bytes(files.image_bytes("TIFF"), name="photo.tiff")
    image, _ = only_image(file, Target(frozenset({"image/png"}), 1))
    assert image.media_type == "image/png"


def test_a_target_taking_only_jpeg_gets_alpha_flattened_onto_white():
    file = File.from_bytes(files.image_bytes("TIFF", alpha=True), name="logo.tiff")
    image, _ = only_image(file, Target(frozenset({"image/jpeg"}), 1))
    picture = Image.open(io.BytesIO(image.read()))
    assert image.media_type == "image/jpeg" and min(picture.getpixel((0, 0))) >= 250


def test_an_svg_becomes_a_png_of_its_drawing():
    try:
        import cairosvg  # noqa: F401  (OSError, not ImportError, without libcairo)
    except (ImportError, OSError) as exc:
        pytest.skip(f"cairosvg is not usable here: {exc}")
    image, reason = only_image(File.from_bytes(files.SVG, name="diagram.svg"))
    picture = Image.open(io.BytesIO(image.read())).convert("RGB")
    assert image.name == "diagram.png" and picture.size == (120, 80)
    assert picture.getpixel((5, 5)) == (255, 0, 0) and picture.getpixel((60, 40)) == (0, 0, 255)
    assert reason == "rasterised SVG to PNG image 120x80"


def test_an_image_the_target_takes_or_a_text_only_target_is_not_converted():
    tiff = File.from_bytes(files.image_bytes("TIFF"), name="photo.tiff")
    assert convert(tiff, Target(frozenset({"image/tiff", "image/png"}), 5)) is None
    assert convert(tiff, TEXT_ONLY) is None
    png = File.from_bytes(files.image_bytes("PNG"), name="photo.png")
    assert convert(png, VISION) is None


def test_a_corrupt_tiff_raises_invalid_file_error_naming_it():
    data = files.image_bytes("TIFF")
    broken = data[:16] + b"\xff" * 64
    file = File.model_validate(
        {
            "source": {"type": "bytes", "data": broken},
            "media_type": "image/tiff",
            "name": "scan.tiff",
        }
    )
    with pytest.raises(InvalidFileError, match="scan.tiff"):
        convert(file, VISION)
