"""The text description of audio and video that no route carries: with its duration.

``File.text_fallback()`` reads headers only and gives a duration for WAV alone
(``[Video: clip.mp4, 6.4 KB]``). :func:`describe` reads the container in the read worker —
mutagen for WAV, MP3, M4A/MP4/MOV, Ogg and FLAC, PyAV (when installed) for WebM, Matroska, AVI
and whatever mutagen cannot time — so the model learns what the recording is:
``[Video: clip.mp4, 3.0 s, 320x240, no audio, 6.4 KB]``. The file's declared ``text`` (a
transcript, a caption) follows the description, as in ``text_fallback``.
"""

from __future__ import annotations

from ..content import File, Text
from ..headers import human_size
from ..messages import ContentOutput
from ..readers.media import describe as media_facts
from . import video
from .jobs import ConvertJob, Outcome, job_for, reply, run

_NOT_READ = "duration not read (mutagen does not parse this container)"


def describe(file: File) -> str:
    """``[Audio: talk.mp3, 61.2 s, 2 channels, 44100 Hz, 960 KB]``: what the file is, with
    its duration, then its declared ``text`` if any. Reads the file; parses it in the worker.

    A file that is not local audio or video gets ``file.text_fallback()``.
    """
    if file.kind not in ("audio", "video") or not file.source.is_local:
        return file.text_fallback()
    outcome = run(describe_media, job_for(file, file.read()))
    head = outcome.parts[0]
    assert isinstance(head, Text)
    return f"{head.text}\n{file.text}" if file.text else head.text


def describe_media(job: ConvertJob) -> ContentOutput:
    """The description line (in the worker)."""
    facts = _facts(job)
    kind = "Video" if job.media_type.startswith("video/") else "Audio"
    line = f"[{kind}: {job.name}, {', '.join([*facts, human_size(job.size)])}]"
    reason = f"described as text ({', '.join(facts)})"
    return reply(Outcome((Text(text=line),), "text", reason))


def _facts(job: ConvertJob) -> list[str]:
    facts = media_facts(job.data, job.media_type, job.name)
    timed = any(fact.endswith(" s") for fact in facts)
    if timed or not video.available():
        return facts
    found = video.facts(job)
    return found + [fact for fact in facts if fact not in (_NOT_READ, "no stream information")]
