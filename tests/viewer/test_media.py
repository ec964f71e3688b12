"""media: what the page embeds for an image, a PDF, audio and video."""

from __future__ import annotations

import base64
import io

from PIL import Image

from toolwire import File
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
    assert isinstance(shown, str) and shown.startswith("not shown: Pillow cannot decode it")


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
