"""Video as frames (convert/video.py): evenly spaced, labelled with their time, budgeted."""

from __future__ import annotations

import dataclasses
import io
import re

import pytest
from PIL import Image

from toolwire.content import File, Text
from toolwire.convert import Conversion, Target, convert
from toolwire.errors import InvalidFileError

from . import files
from .conftest import TEXT_ONLY, VISION

pytest.importorskip("av")


@pytest.fixture(scope="module", params=["libx264", "mpeg4"])
def clip(request) -> File:
    return File.from_bytes(files.video(seconds=4, codec=request.param), name="clip.mp4")


def frames(conversion: Conversion) -> list[tuple[float, File]]:
    """(labelled time, image) pairs: each image with the label just before it."""
    parts = conversion.parts
    found = []
    for label, image in zip(parts, parts[1:], strict=False):
        if isinstance(image, File):
            assert isinstance(label, Text) and re.fullmatch(r"t=\d+\.\ds", label.text)
            found.append((float(label.text[2:-1]), image))
    return found


def colour_at_centre(image: File) -> tuple[int, int, int]:
    picture = Image.open(io.BytesIO(image.read())).convert("RGB")
    return picture.getpixel((picture.width // 2, picture.height // 2))


def near(colour: tuple[int, int, int], expected: tuple[int, int, int]) -> bool:
    return all(abs(a - b) <= 30 for a, b in zip(colour, expected, strict=True))


def test_a_video_becomes_eight_evenly_spaced_labelled_jpeg_frames(clip):
    conversion = convert(clip, VISION)
    assert conversion is not None and conversion.converted_to == "frames"
    found = frames(conversion)
    assert [time for time, _ in found] == [0.3, 0.8, 1.3, 1.8, 2.3, 2.8, 3.3, 3.8]
    assert all(image.media_type == "image/jpeg" for _, image in found)
    assert found[0][1].name == "clip-t0.3s.jpg"
    for time, image in found:  # each frame is the one shown at its time: its second's colour
        assert near(colour_at_centre(image), files.SECOND_COLOURS[int(time)])


def test_the_header_gives_duration_resolution_and_frame_times(clip):
    conversion = convert(clip, VISION)
    assert conversion is not None
    head = conversion.parts[0]
    assert isinstance(head, Text)
    assert head.text.startswith("clip.mp4: MP4 video, 4.0 s, 160x120, ")
    assert (
        "8 frames, evenly spaced, at t=0.3s, 0.8s, 1.3s, 1.8s, 2.3s, 2.8s, 3.3s, 3.8s" in head.text
    )
    assert "from a 4.0 s 160x120 video" in conversion.reason


def test_frames_never_exceed_the_targets_image_budget_nor_the_frame_budget(clip):
    conversion = convert(clip, dataclasses.replace(VISION, max_images=3), frames=8)
    assert conversion is not None
    assert [time for time, _ in frames(conversion)] == [0.7, 2.0, 3.4]
    conversion = convert(clip, VISION, frames=2)
    assert conversion is not None and len(frames(conversion)) == 2


def test_a_target_without_jpeg_gets_png_frames(clip):
    conversion = convert(clip, Target(frozenset({"image/png"}), 4))
    assert conversion is not None
    assert {image.media_type for _, image in frames(conversion)} == {"image/png"}


def test_a_video_for_a_text_only_target_becomes_its_description_with_duration(clip):
    conversion = convert(clip, TEXT_ONLY)
    assert conversion is not None and conversion.converted_to == "text"
    (part,) = conversion.parts
    assert isinstance(part, Text)
    assert re.fullmatch(r"\[Video: clip\.mp4, 4\.0 s, 160x120, no audio, [\d.]+ KB\]", part.text)


def test_a_video_pyav_cannot_decode_raises_invalid_file_error_naming_it():
    data = files.video(seconds=2)
    broken = data[:64] + b"\x00" * (len(data) - 64)
    file = File.model_validate(
        {"source": {"type": "bytes", "data": broken}, "media_type": "video/mp4", "name": "cut.mp4"}
    )
    with pytest.raises(InvalidFileError, match="cut.mp4"):
        convert(file, VISION)
