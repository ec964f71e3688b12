"""media: what the page embeds for an image, a PDF, audio and video."""

from __future__ import annotations

import base64
import html
import io
import re

import pytest
from PIL import Image

import toolwire as tw
from toolwire import File
from toolwire.pillow import eight_bit
from toolwire.viewer import media

from .conversations import example, png


def decoded(url: str) -> Image.Image:
    head, data = url.split(",", 1)
    assert head.startswith("data:image/") and head.endswith(";base64")
    return Image.open(io.BytesIO(base64.b64decode(data)))


def test_a_small_browser_image_is_embedded_as_the_very_bytes_sent() -> None:
    file = png(120, 80)
    shown = media.picture(file)
    assert isinstance(shown, media.Picture)
    assert shown.url == media.data_url("image/png", file.read())
    assert (shown.width, shown.height, shown.note) == (120, 80, "")


def test_a_large_image_is_shown_as_a_thumbnail_and_says_so() -> None:
    shown = media.picture(png(1600, 1000, seed=3))
    assert isinstance(shown, media.Picture)
    assert (shown.width, shown.height) == (1600, 1000)  # the size sent
    assert decoded(shown.url).size == (media.THUMB_EDGE, 300) == (shown.shown_width, 300)
    assert shown.note == "shown downscaled to 480x300"


def test_an_image_pillow_cannot_decode_is_described_not_embedded() -> None:
    broken = File.from_bytes(b"\x89PNG\r\n\x1a\n" + b"\0" * 64, "image/png", name="broken.png")
    shown = media.picture(broken)
    assert shown == (
        "not shown: broken.png: Pillow cannot identify the image (corrupt, or an unsupported "
        "variant); re-save it as PNG or JPEG"
    )


def test_a_pdf_shows_its_page_count_and_its_first_page_as_a_png() -> None:
    pages, first = media.pdf_first_page(example("report.pdf"))
    assert pages == 3
    assert isinstance(first, media.Picture)
    image = decoded(first.url)
    assert image.format == "PNG" and max(image.size) == media.THUMB_EDGE
    lo, hi = image.convert("L").getextrema()
    assert hi - lo > 100  # text was drawn on the white page


def test_a_damaged_pdf_says_why_no_page_is_shown() -> None:
    damaged = File.from_bytes(b"%PDF-1.7\n" + b"garbage " * 40, "application/pdf", name="x.pdf")
    pages, first = media.pdf_first_page(damaged)
    assert pages == 0 and isinstance(first, str) and first.startswith("not rendered")


def test_audio_is_embedded_for_a_player_up_to_the_cap_and_described_beyond_it() -> None:
    wav = example("tone.wav")
    assert media.player_source(wav) == media.data_url("audio/wav", wav.read())
    head = wav.read()[:44]
    big = File.from_bytes(head + b"\0" * (media.MAX_EMBED_BYTES + 1), "audio/wav", name="big.wav")
    assert media.player_source(big) == "not embedded: 8.0 MB is over the 8.0 MB the page embeds"


def test_video_the_browser_cannot_play_is_described() -> None:
    assert media.player_source(example("clip.mp4")).startswith("data:video/mp4;base64,")
    mov = File.from_bytes(b"\0\0\0\x14ftypqt  \0\0\0\0qt  ", "video/quicktime", name="a.mov")
    assert media.player_source(mov) == "not embedded: browsers do not play video/quicktime"


def jpeg(width: int, height: int, name: str, orientation: int = 1) -> File:
    """A real JPEG, red on its stored left half and blue on its right, with an EXIF
    orientation when one is given."""
    image = Image.new("RGB", (width, height), (20, 40, 220))
    image.paste((220, 30, 30), (0, 0, width // 2, height))
    exif = Image.Exif()
    if orientation != 1:
        exif[0x0112] = orientation
    out = io.BytesIO()
    image.save(out, "JPEG", quality=95, exif=exif)
    return File.from_bytes(out.getvalue(), "image/jpeg", name=name)


def viewed(file: File, model: str = "anthropic:claude-sonnet-4-5") -> str:
    return tw.view([tw.User(["Look.", file])], model)


def notes(page: str) -> list[str]:
    return [html.unescape(n) for n in re.findall(r'<div class="note">(.*?)</div>', page)]


def test_a_decompression_bomb_is_named_and_refused_not_decoded() -> None:
    out = io.BytesIO()
    Image.new("1", (8100, 8100)).save(out, "PNG")  # 66 megapixels in 8 KB
    bomb = File.from_bytes(out.getvalue(), "image/png", name="bomb.png")
    # openai-compatible has no image limits, so the planner sends the bomb as it is.
    page = viewed(bomb, "openai-compatible:local-model")
    assert "<img" not in page
    [note] = notes(page)
    assert note.startswith("not shown: bomb.png is refused as a possible decompression bomb")


@pytest.mark.parametrize("size", [(800, 600), (200, 150)])
def test_a_truncated_jpeg_is_named_and_described_not_embedded(size: tuple[int, int]) -> None:
    whole = jpeg(*size, name="whole.jpg").read()
    cut = File.from_bytes(whole[: len(whole) // 2], "image/jpeg", name="cut.jpg")
    page = viewed(cut)
    assert "<img" not in page
    [note] = notes(page)
    assert note.startswith("not shown: cut.jpg: the image is corrupt or truncated")


@pytest.mark.parametrize("size", [(1000, 600), (300, 200)])
def test_an_exif_rotated_jpeg_is_shown_upright(size: tuple[int, int]) -> None:
    page = viewed(jpeg(*size, name="turned.jpg", orientation=6))
    [(url, width, height)] = re.findall(
        r'<img class="image" src="([^"]+)".*?width="(\d+)" height="(\d+)"', page
    )
    image = decoded(url)
    assert image.size == (int(width), int(height))
    assert image.height > image.width  # stored landscape, shown portrait
    middle = image.width // 2
    top, bottom = image.getpixel((middle, 5)), image.getpixel((middle, image.height - 5))
    assert top[0] > 150 > top[2] and bottom[2] > 150 > bottom[0]  # the stored left half on top
    assert f"{size[0]}x{size[1]} px sent" in page
    assert f"shown upright (EXIF orientation 6) at {width}x{height}" in page


def grey16_png(width: int, height: int) -> File:
    """A 16-bit greyscale PNG (Pillow mode "I;16"), black on the left to white on the right."""
    row = Image.new("I", (width, 1))
    row.putdata([x * 65535 // (width - 1) for x in range(width)])
    out = io.BytesIO()
    row.resize((width, height), Image.Resampling.NEAREST).convert("I;16").save(out, "PNG")
    return File.from_bytes(out.getvalue(), "image/png", name="scan.png")


def shown_image(file: File) -> tuple[str, Image.Image]:
    # openai-compatible has no image limits, so the planner sends the PNG as it is.
    page = viewed(file, "openai-compatible:local-model")
    [url] = re.findall(r'<img class="image" src="([^"]+)"', page)
    return url, decoded(url)


def assert_gradient_kept(image: Image.Image) -> None:
    """Black at the left edge, mid grey in the middle, white at the right: not clipped."""
    grey, y = eight_bit(image).convert("L"), image.height // 2
    left, middle, right = (grey.getpixel((x, y)) for x in (0, image.width // 2, image.width - 1))
    assert left <= 3 and abs(middle - 128) <= 3 and right >= 252


def test_a_large_16_bit_grey_png_is_thumbnailed_keeping_its_gradient() -> None:
    _, image = shown_image(grey16_png(4000, 3000))
    assert (image.format, image.size) == ("JPEG", (media.THUMB_EDGE, 360))
    assert_gradient_kept(image)


def test_a_small_16_bit_grey_png_is_embedded_as_sent_for_the_browser_to_show() -> None:
    file = grey16_png(300, 20)
    url, image = shown_image(file)
    assert url == media.data_url("image/png", file.read())
    assert (image.mode, image.size) == ("I;16", (300, 20))
    assert_gradient_kept(image)
