"""Pictures for the terminal come from the read worker as RGB samples: real files, hostile
files, and replies a taken-over worker might send."""

from __future__ import annotations

import base64
import io
import json

import pytest
from PIL import Image
from viewer.conversations import example

from toolwire import File
from toolwire.content import Text
from toolwire.messages import ContentOutput
from toolwire.readers import isolation
from toolwire.tui import pixels


def png_of(colour: tuple[int, int, int], size: tuple[int, int], name: str) -> File:
    out = io.BytesIO()
    Image.new("RGB", size, colour).save(out, "PNG")
    return File.from_bytes(out.getvalue(), "image/png", name=name)


def test_an_image_arrives_as_samples_fitted_to_the_edge() -> None:
    found = pixels.shot(png_of((200, 30, 10), (1000, 500), "wide.png"))
    assert found.pages == 1 and found.pixels is not None
    assert (found.pixels.width, found.pixels.height) == (320, 160)
    assert found.pixels.rgb[:6] == bytes([200, 30, 10] * 2)


def test_nothing_is_decoded_in_this_process(monkeypatch: pytest.MonkeyPatch) -> None:
    assert isolation.settings().enabled

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("the host decoded an image")

    monkeypatch.setattr(Image, "open", refuse)
    found = pixels.shot(png_of((1, 2, 3), (40, 30), "host.png"))
    assert found.pixels is not None and found.pixels.rgb[:3] == bytes([1, 2, 3])


def test_an_exif_rotated_jpeg_arrives_upright() -> None:
    rotated = example("rotated.jpg")
    found = pixels.shot(rotated)
    with Image.open(io.BytesIO(rotated.read())) as stored:
        width, height = stored.size
    assert found.pixels is not None
    assert (found.pixels.width > found.pixels.height) == (height > width)


def test_a_pdf_page_by_page_and_a_page_it_does_not_have() -> None:
    report = example("report.pdf")
    first, second = pixels.shot(report, 0), pixels.shot(report, 1)
    assert first.pages == second.pages == 3
    assert first.pixels is not None and second.pixels is not None
    assert first.pixels.rgb != second.pixels.rgb
    missing = pixels.shot(report, 7)
    assert missing.pixels is None and missing.why == "page 8 is not in the file"


def test_a_decompression_bomb_is_refused_with_its_name() -> None:
    out = io.BytesIO()
    Image.new("1", (8100, 8100)).save(out, "PNG")  # 66 megapixels in 8 KB
    found = pixels.shot(File.from_bytes(out.getvalue(), "image/png", name="bomb.png"))
    assert found.pixels is None
    assert found.why.startswith("not shown: bomb.png is refused as a possible decompression bomb")


def test_a_truncated_jpeg_is_described() -> None:
    out = io.BytesIO()
    Image.new("RGB", (400, 300), (9, 9, 9)).save(out, "JPEG")
    cut = File.from_bytes(out.getvalue()[:600], "image/jpeg", name="cut.jpg")
    found = pixels.shot(cut)
    assert found.pixels is None and found.why.startswith("not shown: cut.jpg")


@pytest.mark.parametrize(
    "reply",
    [
        {"pages": 1, "width": 2, "height": 2, "rgb": base64.b64encode(b"\0" * 11).decode()},
        {"pages": 1, "width": 5000, "height": 1, "rgb": base64.b64encode(b"\0" * 15000).decode()},
        {"pages": -1, "why": "x"},
        {"pages": 1, "width": 1, "height": 1, "rgb": "not base64!"},
        ["not", "an", "object"],
    ],
)
def test_a_forged_worker_reply_is_refused(monkeypatch: pytest.MonkeyPatch, reply: object) -> None:
    forged = ContentOutput(value=(Text(text=json.dumps(reply)),))
    monkeypatch.setattr(isolation, "run", lambda reader, job: forged)
    shade = sum(json.dumps(reply).encode()) % 256  # other bytes each: shots are kept by content
    found = pixels.shot(png_of((shade, 5, 5), (3, 3), "forged.png"), edge=319)
    assert found == pixels.Shot(
        0, None, "not shown: the worker that decodes it sent an invalid reply"
    )


class EmptiedByAnotherThread(dict[object, pixels.Shot]):
    """The shot cache as another reading thread leaves it: full (over 256 shots), it is
    emptied by that thread right after this one stored its shot."""

    def __setitem__(self, key: object, value: pixels.Shot) -> None:
        super().__setitem__(key, value)
        self.clear()


def test_a_shot_is_returned_when_another_thread_empties_the_cache(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(pixels, "_shots", EmptiedByAnotherThread())
    found = pixels.shot(png_of((7, 8, 9), (4, 4), "shared.png"))
    assert found.pixels is not None and found.pixels.rgb[:3] == bytes([7, 8, 9])
