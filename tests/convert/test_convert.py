"""The entry point (convert/__init__.py): dispatch, the caller's converters, once per content,
deterministic output, and what is refused."""

from __future__ import annotations

import dataclasses
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from toolwire.content import File, Text
from toolwire.convert import convert, describe
from toolwire.errors import ToolwireError

from . import files
from .conftest import TEXT_ONLY, VISION

TESTS = Path(__file__).resolve().parents[1]


def test_a_second_conversion_of_the_same_content_does_not_run_the_converter_again(worker_runs):
    pdf = File.from_bytes(files.pdf(["Alpha", "Beta"]), name="two.pdf")
    first = convert(pdf, VISION)
    again = convert(File.from_bytes(files.pdf(["Alpha", "Beta"]), name="two.pdf"), VISION)
    assert again == first and worker_runs == ["two.pdf"]  # a lookup, not a render


def test_another_target_budget_or_name_is_converted_afresh(worker_runs):
    data = files.pdf(["Alpha", "Beta"])
    convert(File.from_bytes(data, name="two.pdf"), VISION)
    convert(File.from_bytes(data, name="two.pdf"), TEXT_ONLY)
    convert(File.from_bytes(data, name="two.pdf"), VISION, pages=1)
    convert(File.from_bytes(data, name="copy.pdf"), VISION)
    assert worker_runs == ["two.pdf", "two.pdf", "two.pdf", "copy.pdf"]


def test_fit_runs_on_every_call_over_the_kept_images(worker_runs):
    fitted: list[str] = []

    def fit(file: File) -> File:
        fitted.append(file.name or "")
        return file

    pdf = File.from_bytes(files.pdf(["Alpha"]), name="one.pdf")
    target = dataclasses.replace(VISION, fit=fit)
    convert(pdf, target)
    convert(pdf, target)
    assert fitted == ["one-p1.png", "one-p1.png"] and worker_runs == ["one.pdf"]


def test_the_callers_converter_takes_precedence_and_runs_once_per_content(worker_runs):
    heard: list[str] = []

    def transcribe(file: File) -> list[Text | File]:
        heard.append(file.name or "")
        return [Text(text="Transcript: hello there")]

    wav = File.from_bytes(files.wav(), name="note.wav")
    for _ in range(2):
        conversion = convert(wav, VISION, converters={"audio/*": transcribe})
        assert conversion is not None and conversion.parts == (
            Text(text="Transcript: hello there"),
        )
    assert conversion.converted_to == "text"
    assert conversion.reason.startswith("converted by the converter given for 'audio/*'")
    assert heard == ["note.wav"] and worker_runs == []


def test_an_exact_media_type_wins_over_a_glob():
    def by(label: str):
        return lambda file: [Text(text=label)]

    converters = {"*/*": by("any"), "audio/*": by("audio"), "audio/wav": by("wav")}
    wav = File.from_bytes(files.wav(), name="note.wav")
    conversion = convert(wav, VISION, converters=converters)
    assert conversion is not None and conversion.parts == (Text(text="wav"),)
    pdf = File.from_bytes(files.pdf(["Alpha"]), name="one.pdf")
    conversion = convert(pdf, VISION, converters=converters)
    assert conversion is not None and conversion.parts == (Text(text="any"),)


def test_a_callers_converter_returning_what_the_target_cannot_take_is_refused():
    wav = File.from_bytes(files.wav(), name="note.wav")
    with pytest.raises(ToolwireError, match=r"returned note.wav \(WAV audio\) for note.wav"):
        convert(wav, VISION, converters={"audio/wav": lambda file: [file]})
    with pytest.raises(ToolwireError, match="must return a list of toolwire Text and File"):
        convert(wav, VISION, converters={"audio/wav": lambda file: "hello"})


def test_a_callers_converter_that_fails_raises_toolwire_error_naming_the_file():
    def broken(file: File) -> list[Text | File]:
        raise RuntimeError("model offline")

    wav = File.from_bytes(files.wav(), name="note.wav")
    with pytest.raises(ToolwireError, match=r"failed on note.wav \(RuntimeError: model offline\)"):
        convert(wav, VISION, converters={"audio/*": broken})


def test_files_without_local_bytes_or_without_a_converter_are_not_converted():
    assert convert(File.from_url("https://example.com/report.pdf"), VISION) is None
    assert convert(File.from_bytes(b"plain words", "text/plain", "a.txt"), TEXT_ONLY) is None


@pytest.mark.parametrize("change", [{"pages": -1}, {"frames": 1.5}, {"pages": True}])
def test_budgets_that_are_not_counts_are_refused(change):
    pdf = File.from_bytes(files.pdf(["Alpha"]), name="one.pdf")
    with pytest.raises(ToolwireError, match="use an integer >= 0"):
        convert(pdf, VISION, **change)


_CONVERT_AND_HASH = """
import hashlib, json, sys
from convert import files
from toolwire.content import File
from toolwire.convert import Target, convert
target = Target(frozenset({"image/png", "image/jpeg"}), 20)
made = [("report.pdf", files.pdf(["Alpha", None])), ("clip.mp4", files.video(seconds=2)),
        ("photo.tiff", files.image_bytes("TIFF")), ("memo.docx", files.docx())]
out = {}
for name, data in made:
    parts = convert(File.from_bytes(data, name=name), target).parts
    out[name] = [hashlib.sha256(p.read() if p.type == "file" else p.text.encode()).hexdigest()
                 for p in parts]
print(json.dumps(out))
"""


@pytest.mark.slow
def test_the_same_bytes_convert_to_the_same_bytes_in_two_processes():
    pytest.importorskip("av")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(TESTS), *sys.path])}
    runs = [
        subprocess.run(
            [sys.executable, "-c", _CONVERT_AND_HASH],
            env=env,
            capture_output=True,
            text=True,
            check=True,
            timeout=120,
        ).stdout
        for _ in range(2)
    ]
    first = json.loads(runs[0])
    assert first == json.loads(runs[1])
    assert len(first["report.pdf"]) == 6 and len(first["clip.mp4"]) == 17


def test_the_callers_converter_also_takes_files_without_local_bytes():
    remote = File.from_url("https://example.com/talk.mp3")
    conversion = convert(remote, VISION, converters={"audio/*": lambda f: [Text(text="heard")]})
    assert conversion is not None and conversion.parts == (Text(text="heard"),)


def test_without_pyav_a_video_is_described_and_the_reason_says_why(monkeypatch):
    pytest.importorskip("av")
    clip = File.from_bytes(files.video(seconds=2), name="clip.mp4")
    monkeypatch.setitem(sys.modules, "av", None)  # makes `import av` raise ImportError here
    conversion = convert(clip, VISION)
    assert conversion is not None and conversion.converted_to == "text"
    assert conversion.parts[0] == Text(text=describe(clip))
    assert conversion.reason.endswith(
        "; no frames extracted: PyAV is not installed (pip install av)"
    )


def reply_without_meta(job):
    from toolwire.messages import ContentOutput

    return ContentOutput(value=[Text(text="not json")])


def reply_with_unknown_kind(job):
    from toolwire.messages import ContentOutput

    return ContentOutput(value=[Text(text='{"converted_to": "audio", "reason": "x"}')])


@pytest.mark.parametrize("converter", [reply_without_meta, reply_with_unknown_kind])
def test_a_worker_reply_that_is_not_a_conversion_is_refused_naming_the_file(converter):
    from toolwire.convert.jobs import job_for, run
    from toolwire.errors import InvalidFileError

    wav = File.from_bytes(files.wav(), name="note.wav")
    with pytest.raises(InvalidFileError, match="note.wav: the conversion worker sent an invalid"):
        run(converter, job_for(wav, wav.read()))
