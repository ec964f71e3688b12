"""16-bit images: fitted and converted as 8-bit images that keep their tones, never a Pillow error.

Pillow opens a 16-bit greyscale PNG or TIFF as "I;16" ("I;16B" big-endian, "I" in older
Pillow) and clips its samples at 255 when asked for "L" or "RGB", which turns most of the
image white; toolwire scales them down to 8 bits instead. 16-bit colour PNGs Pillow already
opens as 8-bit RGB or RGBA.
"""

from __future__ import annotations

import base64
import io
import struct
import zlib
from collections.abc import Iterator
from typing import Any

import pytest
from PIL import Image

import toolwire as tw
from toolwire.content import File, ToolCall
from toolwire.convert import Target, clear_cache, convert
from toolwire.imagefit import clear_cache as clear_fitted
from toolwire.pillow import eight_bit

ANTHROPIC = "anthropic:claude-sonnet-4-5"


@pytest.fixture(autouse=True)
def _fresh_caches() -> Iterator[None]:
    clear_cache()
    clear_fitted()
    yield
    clear_cache()
    clear_fitted()


def ramp(width: int) -> list[int]:
    """16-bit samples from black on the left to white on the right."""
    return [x * 65535 // (width - 1) for x in range(width)]


def grey16(width: int, height: int, mode: str = "I;16") -> Image.Image:
    row = Image.new("I", (width, 1))
    row.putdata(ramp(width))
    return row.resize((width, height), Image.Resampling.NEAREST).convert(mode)


def grey8(width: int, height: int) -> Image.Image:
    """``grey16`` as an 8-bit image: each sample's high byte."""
    row = Image.new("L", (width, 1))
    row.putdata([value >> 8 for value in ramp(width)])
    return row.resize((width, height), Image.Resampling.NEAREST)


def saved(image: Image.Image, fmt: str) -> bytes:
    buffer = io.BytesIO()
    image.save(buffer, fmt)
    return buffer.getvalue()


def png16(width: int, height: int, colour_type: int, channels: int) -> bytes:
    """A 16-bit PNG (Pillow cannot write 16-bit colour): every channel the grey gradient."""
    row = b"".join(struct.pack(">H", value) * channels for value in ramp(width))

    def chunk(kind: bytes, body: bytes) -> bytes:
        crc = struct.pack(">I", zlib.crc32(kind + body))
        return struct.pack(">I", len(body)) + kind + body + crc

    ihdr = struct.pack(">IIBBBBB", width, height, 16, colour_type, 0, 0, 0)
    idat = zlib.compress((b"\x00" + row) * height)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", idat) + chunk(b"IEND", b"")


def encoded(data: bytes, name: str, **options: Any) -> tw.Request:
    """A conversation whose tool result is this file, encoded for Anthropic."""
    call = ToolCall(id="c1", name="scan", arguments={})
    file = File.from_bytes(data, name=name)
    turn = [tw.User("Look."), tw.Assistant([call]), tw.ToolResult.of("c1", "scan", [file])]
    return tw.encode(turn, ANTHROPIC, **options)


def sent_images(payload: Any) -> Iterator[Image.Image]:
    """Every base64 image in an encoded request, opened."""
    if isinstance(payload, dict):
        if payload.get("type") == "base64" and "data" in payload:
            yield Image.open(io.BytesIO(base64.b64decode(payload["data"])))
        for value in payload.values():
            yield from sent_images(value)
    elif isinstance(payload, list):
        for value in payload:
            yield from sent_images(value)


def sent_image(request: tw.Request) -> Image.Image:
    (image,) = sent_images(request.kwargs)
    return image


def assert_gradient_kept(image: Image.Image) -> None:
    """Black at the left edge, mid grey in the middle, white at the right: not clipped."""
    y = image.height // 2
    grey = image.convert("L")
    assert grey.getpixel((0, y)) <= 3
    assert abs(grey.getpixel((image.width // 2, y)) - 128) <= 3
    assert grey.getpixel((image.width - 1, y)) >= 252


@pytest.mark.parametrize("mode", ["I;16", "I;16B", "I;16L", "I"])
def test_sixteen_bit_grey_in_any_pillow_mode_becomes_eight_bit_grey_scaled_not_clipped(mode):
    image = eight_bit(grey16(256, 2, mode))
    assert image.mode == "L"
    assert [image.getpixel((x, 0)) for x in (0, 1, 128, 255)] == [0, 1, 128, 255]


def test_eight_bit_images_are_left_as_they_are():
    image = Image.new("RGB", (4, 4), (10, 20, 30))
    assert eight_bit(image) is image


def test_a_large_16_bit_grey_png_is_fitted_for_anthropic_as_an_8_bit_grey_png():
    request = encoded(saved(grey16(4000, 3000), "PNG"), "scan.png")
    (decision,) = request.decisions
    assert decision.mode == "native"
    assert decision.notes[0].startswith(
        "resized 4000x3000 -> 1280x960 (fit_edge 1568 px, max_pixels 1,229,312)"
    )
    image = sent_image(request)
    assert (image.format, image.mode, image.size) == ("PNG", "L", (1280, 960))
    assert_gradient_kept(image)


@pytest.mark.parametrize(("colour_type", "channels"), [(2, 3), (6, 4), (4, 2)])
def test_a_large_16_bit_colour_png_is_fitted_keeping_its_tones(colour_type, channels):
    request = encoded(png16(2000, 40, colour_type, channels), "scan.png")
    (decision,) = request.decisions
    assert decision.notes[0].startswith("resized 2000x40 -> 1568x31 (fit_edge 1568 px)")
    assert_gradient_kept(sent_image(request))


@pytest.mark.parametrize("mode", ["I;16", "I;16B"])
def test_a_16_bit_grey_tiff_converts_like_its_8_bit_twin(mode):
    def decision_and_image(image: Image.Image) -> tuple[tw.Decision, Image.Image]:
        request = encoded(saved(image, "TIFF"), "scan.tiff", on_unsupported="convert")
        (decision,) = request.decisions
        return decision, sent_image(request)

    wide, wide_image = decision_and_image(grey16(300, 20, mode))
    narrow, narrow_image = decision_and_image(grey8(300, 20))
    assert wide.converted_to == "image"
    assert wide.reason.startswith("converted: converted TIFF image 300x20 to PNG image")
    assert (wide.mode, wide.reason, wide.notes) == (narrow.mode, narrow.reason, narrow.notes)
    assert (wide_image.mode, wide_image.size) == ("L", (300, 20))
    assert wide_image.tobytes() == narrow_image.tobytes()
    assert_gradient_kept(wide_image)


@pytest.mark.parametrize("fmt", ["PNG", "JPEG"])
def test_a_16_bit_grey_tiff_converts_to_an_8_bit_grey_png_or_jpeg(fmt):
    target = Target(frozenset({f"image/{fmt.lower()}"}), 1)
    conversion = convert(File.from_bytes(saved(grey16(300, 20), "TIFF"), name="scan.tiff"), target)
    assert conversion is not None and conversion.converted_to == "image"
    (file,) = conversion.parts
    assert isinstance(file, File)
    image = Image.open(io.BytesIO(file.read()))
    assert (image.format, image.mode) == (fmt, "L")
    assert_gradient_kept(image)
