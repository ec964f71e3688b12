"""Image fitting at encode time: which limits trigger it, what comes out, and determinism."""

from __future__ import annotations

import hashlib
import io
import random
import struct
import subprocess
import sys
import zlib
from dataclasses import replace
from pathlib import Path
from unittest.mock import patch

import pytest
from hypothesis import given
from hypothesis import strategies as st
from PIL import Image

from toolwire import headers
from toolwire.capability import Cell
from toolwire.content import File, ToolCall
from toolwire.errors import InvalidFileError
from toolwire.imagefit import clear_cache, fit_image, fitted_size
from toolwire.messages import Assistant, ToolResult, User
from toolwire.request import encode

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
ANTHROPIC = Cell(("image/png", "image/jpeg"), "native", max_bytes=5 * 1024 * 1024, fit_edge=1568)
OPENAI_TILES = Cell(("image/jpeg",), "native", fit_edge=2048, fit_short_edge=768)


def gradient(width: int, height: int, mode: str = "RGB") -> Image.Image:
    """A smooth image (compresses well, so big sizes stay small on disk)."""
    band = Image.linear_gradient("L").resize((width, height))
    return Image.merge(
        "RGB", (band, band.transpose(Image.Transpose.FLIP_LEFT_RIGHT), band)
    ).convert(mode)


def noise(width: int, height: int, seed: int = 7) -> Image.Image:
    """Incompressible pixels, seeded: the same image every run."""
    return Image.frombytes(
        "RGB", (width, height), random.Random(seed).randbytes(width * height * 3)
    )


def encoded(image: Image.Image, fmt: str, **params: object) -> bytes:
    buffer = io.BytesIO()
    image.save(buffer, fmt, **params)
    return buffer.getvalue()


def png_header_only(width: int, height: int) -> bytes:
    """A PNG signature and IHDR claiming ``width`` x ``height``, followed by garbage."""
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    chunk = struct.pack(">I", 13) + b"IHDR" + ihdr + struct.pack(">I", zlib.crc32(b"IHDR" + ihdr))
    return b"\x89PNG\r\n\x1a\n" + chunk + b"\x00garbage" * 64


@pytest.fixture(autouse=True)
def _fresh_cache():
    clear_cache()
    yield
    clear_cache()


@pytest.mark.parametrize(
    ("size", "cell", "expected"),
    [
        ((4000, 3000), ANTHROPIC, (1568, 1176)),
        ((3000, 4000), ANTHROPIC, (1176, 1568)),
        ((1568, 1000), ANTHROPIC, (1568, 1000)),
        ((640, 480), ANTHROPIC, (640, 480)),
        ((9000, 100), Cell((), "native", max_edge=8000, fit_edge=9000), (8000, 88)),
        ((2000, 2000), Cell((), "native", max_pixels=1_000_000), (1000, 1000)),
        ((3001, 2001), Cell((), "native", max_pixels=1_000_000), (1224, 816)),
        # OpenAI tile models (docs "Images and vision"): fit in 2048x2048, then the short
        # side to 768 -- the worked example 2048x4096 -> 768x1536.
        ((2048, 4096), OPENAI_TILES, (768, 1536)),
        ((4000, 3000), OPENAI_TILES, (1024, 768)),
        ((4000, 1000), OPENAI_TILES, (2048, 512)),  # the 2048 box already made it short
        ((1024, 1024), OPENAI_TILES, (768, 768)),
        ((700, 500), OPENAI_TILES, (700, 500)),
    ],
)
def test_fitted_size_fits_the_long_edge_and_the_area_and_never_enlarges(size, cell, expected):
    fitted = fitted_size(*size, cell)
    assert fitted == expected
    assert not cell.max_pixels or fitted[0] * fitted[1] <= cell.max_pixels


def test_image_beyond_fit_edge_is_resized_with_a_note_and_keeps_its_name():
    file = File.from_bytes(encoded(gradient(4000, 3000), "PNG"), name="big.png")
    fitted, note = fit_image(file, ANTHROPIC)
    assert headers.image_size(fitted.read()) == (1568, 1176)
    assert (fitted.name, fitted.media_type) == ("big.png", "image/png")
    size_before = headers.human_size(len(file.read()))
    size_after = headers.human_size(len(fitted.read()))
    assert (
        note == f"resized 4000x3000 -> 1568x1176 (fit_edge 1568 px), {size_before} -> {size_after}"
    )


def test_unnamed_image_keeps_its_identifier_so_labels_do_not_change():
    file = File.from_bytes(encoded(gradient(2000, 1000), "PNG"))
    fitted, _ = fit_image(file, ANTHROPIC)
    assert fitted.identifier == file.identifier
    assert fitted.read() != file.read()


def test_image_within_limits_comes_back_unchanged_without_a_note():
    file = File.from_path(EXAMPLES / "photo.png")
    assert fit_image(file, ANTHROPIC) == (file, None)


def test_image_within_limits_is_not_decoded():
    code = (
        "import sys\n"
        "from toolwire.capability import Cell\n"
        "from toolwire.content import File\n"
        "from toolwire.imagefit import fit_image\n"
        f"f = File.from_path({str(EXAMPLES / 'photo.png')!r})\n"
        "assert fit_image(f, Cell((), 'native', max_bytes=5_000_000, fit_edge=1568))[1] is None\n"
        "print('PIL' in sys.modules)\n"
    )
    ran = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert ran.stdout.strip() == "False"


def test_exif_rotated_jpeg_is_turned_upright_before_resizing():
    exif = Image.Exif()
    exif[0x0112] = 6  # stored landscape, shown portrait
    data = encoded(gradient(3000, 2000), "JPEG", quality=90, exif=exif.tobytes())
    fitted, note = fit_image(File.from_bytes(data, name="phone.jpg"), ANTHROPIC)
    out = fitted.read()
    assert headers.image_size(out) == (1045, 1568)
    assert headers.jpeg_orientation(out) == 1
    assert note is not None
    assert note.startswith("resized 2000x3000 -> 1045x1568 (fit_edge 1568 px, EXIF orientation 6")


def test_jpeg_over_max_bytes_steps_its_quality_down_until_it_fits():
    data = encoded(noise(1200, 1200), "JPEG", quality=95)
    cell = Cell(("image/jpeg",), "native", max_bytes=len(data) // 3)
    fitted, note = fit_image(File.from_bytes(data, name="noisy.jpg"), cell)
    assert len(fitted.read()) <= cell.max_bytes
    assert headers.image_size(fitted.read()) == (1200, 1200)
    assert note is not None and note.startswith("re-encoded 1200x1200 -> 1200x1200 (max_bytes")
    assert "quality" in note


def test_png_over_max_bytes_shrinks_until_it_fits():
    data = encoded(noise(800, 800), "PNG")
    cell = Cell(("image/png",), "native", max_bytes=len(data) // 4)
    fitted, note = fit_image(File.from_bytes(data, name="noisy.png"), cell)
    assert len(fitted.read()) <= cell.max_bytes
    assert fitted.media_type == "image/png"
    assert note is not None and "shrunk further to fit max_bytes" in note


def test_webp_stays_webp_and_gif_becomes_a_png_of_its_first_frame():
    cell = Cell(("image/webp", "image/gif"), "native", fit_edge=500)
    webp, _ = fit_image(File.from_bytes(encoded(gradient(1000, 800), "WEBP")), cell)
    gif, note = fit_image(File.from_bytes(encoded(gradient(1000, 800, "P"), "GIF")), cell)
    assert (webp.media_type, headers.image_size(webp.read())) == ("image/webp", (500, 400))
    assert (gif.media_type, headers.image_size(gif.read())) == ("image/png", (500, 400))
    assert note is not None and "first frame, as PNG" in note


def test_formats_it_does_not_resize_are_left_alone_with_a_note():
    file = File.from_bytes(encoded(gradient(2000, 100), "BMP"), name="wide.bmp")
    cell = Cell(("image/bmp",), "native", fit_edge=1000)
    same, note = fit_image(file, cell)
    assert same is file
    assert note == "not resized: toolwire resizes PNG, JPEG, WebP and GIF, not image/bmp"


@pytest.mark.slow
def test_fitting_is_deterministic_across_calls_and_processes():
    data = encoded(noise(2400, 1800, seed=3), "JPEG", quality=90)
    first = fit_image(File.from_bytes(data), ANTHROPIC)[0].read()
    clear_cache()
    second = fit_image(File.from_bytes(data), ANTHROPIC)[0].read()
    assert first == second
    code = (
        "import hashlib, sys\n"
        "from toolwire.capability import Cell\n"
        "from toolwire.content import File\n"
        "from toolwire.imagefit import fit_image\n"
        "cell = Cell((), 'native', max_bytes=5 * 1024 * 1024, fit_edge=1568)\n"
        "out = fit_image(File.from_bytes(sys.stdin.buffer.read()), cell)[0].read()\n"
        "print(hashlib.sha256(out).hexdigest())\n"
    )
    ran = subprocess.run([sys.executable, "-c", code], input=data, capture_output=True, check=True)
    assert ran.stdout.decode().strip() == hashlib.sha256(first).hexdigest()


def test_a_decompression_bomb_is_refused_as_an_invalid_file():
    bomb = File.from_bytes(png_header_only(20_000, 20_000), name="bomb.png")
    with pytest.raises(InvalidFileError, match="bomb.png"):
        fit_image(bomb, ANTHROPIC)


def test_a_corrupt_image_is_an_invalid_file_not_a_pillow_error():
    broken = File.from_bytes(png_header_only(3000, 3000), name="broken.png")
    with pytest.raises(InvalidFileError, match="broken.png"):
        fit_image(broken, ANTHROPIC)


def conversation(file: File) -> list:
    call = ToolCall(id="c1", name="screenshot", arguments={})
    return [User("Look."), Assistant([call]), ToolResult.of("c1", "screenshot", [file])]


def test_encode_records_the_resize_and_leaves_the_conversation_untouched():
    original = encoded(gradient(3000, 2000), "PNG")
    messages = conversation(File.from_bytes(original, name="shot.png"))
    request = encode(messages, "anthropic:claude-sonnet-4-5")
    (decision,) = request.decisions
    # 1568 px on the long edge would still be 1.64 MP: the pixel cap (~1.15 MP) binds first.
    assert decision.notes[0].startswith(
        "resized 3000x2000 -> 1358x905 (fit_edge 1568 px, max_pixels 1,229,312)"
    )
    assert messages[2].output.value[0].read() == original


def test_re_encoding_the_same_conversation_is_byte_identical():
    messages = conversation(File.from_bytes(encoded(noise(2000, 1600), "PNG"), name="n.png"))
    first = encode(messages, "bedrock:us.anthropic.claude-sonnet-4-5-20250929-v1:0").kwargs
    clear_cache()
    second = encode(messages, "bedrock:us.anthropic.claude-sonnet-4-5-20250929-v1:0").kwargs
    assert first == second


def test_image_too_big_for_max_bytes_is_shrunk_so_the_request_is_accepted():
    data = encoded(noise(1500, 1500, seed=11), "PNG")  # about 6.4 MB: over Bedrock's 3.75 MB
    messages = conversation(File.from_bytes(data, name="big.png"))
    request = encode(messages, "bedrock:anthropic.claude-3-5-sonnet-20240620-v1:0")
    (decision,) = request.decisions
    assert decision.mode == "native"
    assert "max_bytes 3.8 MB" in decision.notes[0]


def test_fit_images_false_sends_the_original():
    data = encoded(gradient(3000, 2000), "PNG")
    request = encode(conversation(File.from_bytes(data)), "anthropic:x", fit_images=False)
    assert request.decisions[0].notes == ()


def test_cell_without_limits_never_reads_the_file(tmp_path):
    path = tmp_path / "later.png"
    path.write_bytes(encoded(gradient(50, 50), "PNG"))
    file = File.from_path(path, media_type="image/png")
    path.unlink()  # reading now would fail
    assert fit_image(file, replace(ANTHROPIC, max_bytes=None, fit_edge=None)) == (file, None)


@pytest.mark.parametrize("model", ["openai:gpt-4.1", "openai-chat:gpt-4o", "openai:gpt-5"])
def test_openai_tile_models_get_the_short_side_the_provider_keeps_at_the_same_token_cost(model):
    from toolwire.tokens import estimate_tokens

    photo = encoded(noise(2400, 1800), "JPEG", quality=90)
    messages = conversation(File.from_bytes(photo, name="photo.jpg"))
    request = encode(messages, model)
    (decision,) = request.decisions
    expected = "resized 2400x1800 -> 1024x768 (fit_edge 2048 px, fit_short_edge 768 px)"
    assert decision.notes[0].startswith(expected)
    as_given = estimate_tokens(messages, model, fit_images=False).total
    assert estimate_tokens(messages, model).total == as_given  # what the model sees is the same


def test_openai_patch_models_keep_their_detail_up_to_the_patch_budget():
    photo = encoded(noise(2400, 1800), "JPEG", quality=90)
    request = encode(conversation(File.from_bytes(photo, name="p.jpg")), "openai:gpt-4.1-mini")
    (decision,) = request.decisions
    assert "max_pixels 1,572,864" in decision.notes[0] and "fit_short_edge" not in decision.notes[0]


@given(
    st.integers(1, 20000),
    st.integers(1, 20000),
    st.sampled_from([None, 768, 1024, 1568, 2048, 8000]),
    st.sampled_from([None, 1568, 8000]),
    st.sampled_from([None, 512, 768]),
    st.sampled_from([None, 1_000_000, 1_229_312, 33_177_600]),
)
def test_the_quick_check_agrees_with_fitted_size(
    width: int, height: int, fit_edge, max_edge, short, pixels
) -> None:
    """fit_image decides "nothing to fit" from the stored size and each cell's bounds read
    once, inline; it must say exactly what comparing fitted_size does, for either orientation
    (a quarter-turned JPEG is measured unrotated). The image is a PNG header alone: resizing
    it (``_fit_in_worker``) is where the quick check said "not within"."""
    from toolwire import imagefit

    cell = Cell(
        media_types=("image/png",), tool_result="native", fit_edge=fit_edge, max_edge=max_edge,
        fit_short_edge=short, max_pixels=pixels, evidence="test",
    )  # fmt: skip
    for w, h in ((width, height), (height, width)):
        header = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + struct.pack(">II", w, h) + bytes(9)
        file = File.from_bytes(header, "image/png")
        unchanged = fitted_size(w, h, cell) == (w, h)
        with patch.object(imagefit, "_fit_in_worker", side_effect=_Resized):
            try:
                kept = fit_image(file, cell) == (file, None)
            except _Resized:
                kept = False
        assert kept == unchanged


class _Resized(Exception):
    """fit_image went on to resize (test_the_quick_check_agrees_with_fitted_size)."""
