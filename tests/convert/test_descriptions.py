"""Descriptions of audio and video (convert/descriptions.py): always with the duration."""

from __future__ import annotations

import re

import pytest

from toolwire.content import File
from toolwire.convert import convert, describe
from toolwire.errors import InvalidFileError

from . import files
from .conftest import VISION


def test_an_mp3_is_described_with_its_duration_where_text_fallback_has_none():
    mp3 = File.from_bytes(files.mp3(seconds=2.0), name="talk.mp3")
    assert "s," not in mp3.text_fallback()
    assert re.fullmatch(
        r"\[Audio: talk\.mp3, 2\.0 s, 1 channel, 44100 Hz, [\d.]+ KB\]", describe(mp3)
    )


def test_an_mp4_is_described_with_duration_and_resolution():
    pytest.importorskip("av")
    clip = File.from_bytes(files.video(seconds=3), name="clip.mp4")
    assert re.fullmatch(
        r"\[Video: clip\.mp4, 3\.0 s, 160x120, no audio, [\d.]+ KB\]", describe(clip)
    )


def test_a_webm_that_mutagen_cannot_time_is_timed_by_pyav():
    av = pytest.importorskip("av")
    import io
    from fractions import Fraction

    buffer = io.BytesIO()
    with av.open(buffer, mode="w", format="webm") as container:
        stream = (
            container.add_stream("libvpx", rate=10) if "libvpx" in av.codecs_available else None
        )
        if stream is None:
            pytest.skip("no VP8 encoder in this PyAV")
        stream.width, stream.height, stream.pix_fmt = 64, 48, "yuv420p"
        stream.time_base = Fraction(1, 10)
        for index in range(20):
            frame = av.VideoFrame(64, 48, "yuv420p")
            frame.pts = index
            container.mux(stream.encode(frame))
        container.mux(stream.encode(None))
    webm = File.from_bytes(buffer.getvalue(), "video/webm", "clip.webm")
    assert describe(webm).startswith("[Video: clip.webm, 2.0 s, 64x48, ")


def test_a_description_carries_the_files_declared_text():
    wav = File.from_bytes(files.wav(seconds=1.0), name="note.wav")
    wav = wav.model_copy(update={"text": "Transcript: hello"})
    assert describe(wav).endswith(", 1 channel, 8000 Hz, 16 KB]\nTranscript: hello")


def test_audio_converts_to_its_description():
    conversion = convert(File.from_bytes(files.wav(seconds=1.0), name="note.wav"), VISION)
    assert conversion is not None and conversion.converted_to == "text"
    assert conversion.reason == "described as text (1.0 s, 1 channel, 8000 Hz)"


def test_a_file_that_is_not_local_media_gets_its_text_fallback():
    remote = File.from_url("https://example.com/talk.mp3")
    assert describe(remote) == remote.text_fallback()


def test_corrupt_audio_raises_invalid_file_error_naming_it():
    broken = File.model_validate(
        {
            "source": {
                "type": "bytes",
                "data": b"ID3\x04\x00\x00\x00\x00\x00\x00" + bytes(range(256)) * 4,
            },
            "media_type": "audio/mpeg",
            "name": "bad.mp3",
        }
    )
    with pytest.raises(InvalidFileError, match="bad.mp3"):
        describe(broken)
