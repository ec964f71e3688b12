"""Audio and video: duration, channels, sample rate and resolution, with the file itself.

Metadata comes from mutagen (WAV, MP3, M4A/MP4/MOV, Ogg, FLAC), which reads headers only; a
file it cannot parse is corrupt and refused. Video resolution is read from the MP4/MOV
``tkhd`` box here (mutagen does not report it). WebM/Matroska and AVI are not parsed by
mutagen: they are passed on with their signature checked and a note that their duration was
not read.

The File part is the original (``name`` = its base name); its ``text`` is the metadata line
(``1.0 s, 1 channel, 16000 Hz``), so a text fallback says what the recording is.
"""

from __future__ import annotations

import io
import struct

from ..content import File
from ..errors import InvalidFileError, missing_dependency
from ..messages import ContentOutput
from .common import Job, header, output, plural, size_line

#: Containers mutagen does not parse: read with a note instead of refused.
_UNPARSED = frozenset({"video/webm", "video/x-matroska", "audio/webm", "video/x-msvideo"})
_ISO_BMFF = frozenset({"video/mp4", "video/quicktime", "audio/mp4", "video/x-m4v"})
_CONTAINERS = frozenset({b"moov", b"trak", b"mdia", b"edts"})
_MAX_SECONDS = 7 * 24 * 3600.0
_MAX_CHANNELS = 255
_RATES = (1_000, 768_000)


def read_media(job: Job) -> ContentOutput:
    """An audio or video file as a header with its metadata, and the File."""
    name = job.name
    data = job.data
    facts = describe(data, job.media_type, name)
    file = File.from_bytes(data, job.media_type, name)
    file = file.model_copy(update={"text": ", ".join(facts)})
    return output(header(job, *facts, size_line(data)), "", [file])


def describe(data: bytes, media_type: str, name: str) -> list[str]:
    """Duration, channels, sample rate and (for MP4/MOV) resolution, as header facts."""
    if media_type in _UNPARSED:
        return ["duration not read (mutagen does not parse this container)"]
    info = _mutagen_info(data, name)
    length = getattr(info, "length", None) or 0.0
    channels = getattr(info, "channels", None) or 0
    rate = getattr(info, "sample_rate", None) or 0
    _check_plausible(length, channels, rate, media_type, name)
    facts = [f"{length:.1f} s"] if length else []
    if media_type in _ISO_BMFF:
        resolution = mp4_resolution(data)
        if resolution:
            facts.append(f"{resolution[0]}x{resolution[1]}")
    if channels:
        facts.append(plural(int(channels), "channel"))
    if rate:
        facts.append(f"{rate} Hz")
    if media_type.startswith("video/") and not channels:
        facts.append("no audio")
    return facts or ["no stream information"]


def mp4_resolution(data: bytes) -> tuple[int, int] | None:
    """Width and height of the first video track, from its ``moov/trak/tkhd`` box."""
    for box, start, end in _boxes(data, 0, len(data), 0):
        if box != b"tkhd" or end - start < 84:
            continue
        version = data[start]
        offset = start + (88 if version == 1 else 76)
        if offset + 8 > end:
            continue
        width, height = struct.unpack(">II", data[offset : offset + 8])  # 16.16 fixed point
        if width >> 16 and height >> 16:
            return width >> 16, height >> 16
    return None


def _boxes(data: bytes, start: int, end: int, depth: int) -> list[tuple[bytes, int, int]]:
    """(type, payload start, payload end) of every box under the containers we descend into."""
    found: list[tuple[bytes, int, int]] = []
    position = start
    while position + 8 <= end and depth < 8:
        size, box = struct.unpack(">I4s", data[position : position + 8])
        header_size = 8
        if size == 1 and position + 16 <= end:
            (size,) = struct.unpack(">Q", data[position + 8 : position + 16])
            header_size = 16
        elif size == 0:
            size = end - position
        if size < header_size or position + size > end:
            break  # malformed: stop rather than guess
        payload = (position + header_size, position + size)
        found.append((box, *payload))
        if box in _CONTAINERS:
            found += _boxes(data, *payload, depth + 1)
        position += size
    return found


def _check_plausible(length: float, channels: int, rate: int, media_type: str, name: str) -> None:
    """Refuse headers no real recording has: they mean a corrupt file with a valid signature."""
    problems = []
    if not 0 <= length < _MAX_SECONDS:
        problems.append(f"duration {length} s")
    if not 0 <= channels <= _MAX_CHANNELS:
        problems.append(f"{channels} channels")
    if rate and not _RATES[0] <= rate <= _RATES[1]:
        problems.append(f"sample rate {rate} Hz")
    if media_type.startswith("audio/") and not (length and channels):
        problems.append("no duration or no channels")
    if problems:
        raise InvalidFileError(
            f"{name}: its audio headers are implausible ({', '.join(problems)}), so the file "
            "is corrupt; re-export it"
        )


def _mutagen_info(data: bytes, name: str) -> object:
    try:
        import mutagen
    except ImportError as exc:
        raise missing_dependency("mutagen", "files") from exc
    try:
        parsed = mutagen.File(io.BytesIO(data))
    except (mutagen.MutagenError, struct.error, ValueError, EOFError, IndexError) as exc:
        raise InvalidFileError(
            f"{name}: the audio/video headers are corrupt or truncated ({exc}); re-export it"
        ) from exc
    if parsed is None or parsed.info is None:
        raise InvalidFileError(
            f"{name}: mutagen recognises no audio/video stream in it (corrupt, or a container "
            "it does not read); re-export it as WAV, MP3, M4A, FLAC, Ogg or MP4"
        )
    return parsed.info
