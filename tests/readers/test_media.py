"""Audio and video (readers/media.py): metadata, the file itself, corrupt files refused."""

from __future__ import annotations

import random

import pytest

from toolwire.errors import InvalidFileError
from toolwire.readers import read_file
from toolwire.readers.media import mp4_resolution

from .helpers import copy_example, example, outcome


@pytest.mark.parametrize(
    ("name", "header"),
    [
        ("tone.wav", "tone.wav: WAV audio, 1.0 s, 1 channel, 16000 Hz, 31 KB."),
        ("tone.mp3", "tone.mp3: MP3 audio, 1.1 s, 1 channel, 16000 Hz, 4.4 KB."),
        ("formats/audio.flac", "audio.flac: FLAC audio, 1.0 s, 1 channel, 16000 Hz, 15 KB."),
        ("formats/audio.m4a", "audio.m4a: M4A audio, 1.1 s, 1 channel, 16000 Hz, 5.3 KB."),
        ("formats/audio.ogg", "audio.ogg: Ogg audio, 1.0 s, 1 channel, 4.0 KB."),
        ("clip.mp4", "clip.mp4: MP4 video, 1.1 s, 160x120, 1 channel, 16000 Hz, 6.4 KB."),
        ("formats/video.mov", "video.mov: QuickTime video, 1.0 s, 96x64, no audio, 1.9 KB."),
    ],
)
def test_the_header_gives_duration_channels_rate_and_resolution(name, header):
    assert read_file(example(name)).value[0].text == header


def test_the_file_is_passed_on_unchanged_with_its_metadata_as_text(tmp_path):
    path = copy_example("tone.wav", tmp_path)
    file = read_file(path).value[1]
    assert (file.name, file.media_type) == ("tone.wav", "audio/wav")
    assert file.read() == path.read_bytes()
    assert file.text == "1.0 s, 1 channel, 16000 Hz"


def test_webm_is_passed_on_with_a_note_that_its_duration_was_not_read():
    result = read_file(example("formats/video.webm"))
    assert "duration not read" in result.value[0].text
    assert result.value[1].media_type == "video/webm"


def test_the_mp4_resolution_comes_from_the_tkhd_box():
    assert mp4_resolution(example("clip.mp4").read_bytes()) == (160, 120)
    assert mp4_resolution(example("formats/audio.m4a").read_bytes()) is None


def test_mp4_box_parsing_stops_at_a_malformed_box():
    data = example("clip.mp4").read_bytes()
    assert mp4_resolution(data[:40] + b"\xff\xff\xff\xffmoov" + data[48:]) is None


@pytest.mark.parametrize(
    ("name", "head"),
    [
        ("noise.mp3", b"ID3\x04\x00\x00\x00\x00\x00\x00"),
        ("noise.wav", b"RIFF\x24\x00\x00\x00WAVEfmt "),
        ("noise.flac", b"fLaC"),
    ],
)
def test_a_recording_with_a_valid_signature_but_corrupt_body_is_refused(tmp_path, name, head):
    path = tmp_path / name
    path.write_bytes(head + random.Random(5).randbytes(3000))
    error = outcome(lambda: read_file(path))
    assert isinstance(error, InvalidFileError)
    assert name in str(error)


def test_a_truncated_mp4_is_refused(tmp_path):
    data = example("clip.mp4").read_bytes()
    path = tmp_path / "cut.mp4"
    path.write_bytes(data[:200])
    error = outcome(lambda: read_file(path))
    assert isinstance(error, InvalidFileError)
    assert "cut.mp4" in str(error)
