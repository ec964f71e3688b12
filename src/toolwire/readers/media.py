"""Audio and video: duration, channels, sample rate and resolution, with the file itself.

Metadata comes from mutagen (WAV, MP3, M4A/MP4/MOV, Ogg, FLAC), which reads headers only; a
file it cannot parse is corrupt and refused. Video resolution is read from the MP4/MOV
``tkhd`` box here (mutagen does not report it). WebM/Matroska and AVI are not parsed by
mutagen: they are passed on with their signature checked and a note that their duration was
not read. Before mutagen parses a file, its RIFF chunks, FLAC metadata blocks, MP4 boxes and
ID3 frames are counted from their headers, so a few MB holding millions of them is refused
at once instead of parsed for minutes.

The File part is the original (``name`` = its base name); its ``text`` is the metadata line
(``1.0 s, 1 channel, 16000 Hz``), so a text fallback says what the recording is.
"""

from __future__ import annotations

import io
import struct
from collections.abc import Iterator

from ..content import File
from ..errors import InvalidFileError, missing_dependency
from ..messages import ContentOutput
from .common import Job, header, output, plural, size_line

#: Containers mutagen does not parse: read with a note instead of refused.
_UNPARSED = frozenset({"video/webm", "video/x-matroska", "audio/webm", "video/x-msvideo"})
_ISO_BMFF = frozenset({"video/mp4", "video/quicktime", "audio/mp4", "video/x-m4v"})
_CONTAINERS = frozenset({b"moov", b"trak", b"mdia", b"edts"})
#: mutagen builds Python objects for every chunk, atom, metadata block and tag frame of a
#: file before it reports anything, so a few MB holding millions of them keep it busy for
#: minutes. Their headers are walked here first (no payload is parsed), and files with more
#: than these are refused: RIFF (WAV) chunks and FLAC metadata blocks (real files have a
#: few dozen)...
MAX_MEDIA_CHUNKS = 10_000
#: ... ISO BMFF (MP4, M4A, MOV) boxes, in the containers mutagen descends into (a
#: fragmented two-hour film has tens of thousands) ...
MAX_MP4_BOXES = 100_000
#: ... and frames of an ID3v2 tag (MP3, or a WAV's id3 chunk).
MAX_ID3_FRAMES = 2_000
#: The boxes mutagen descends into, with the bytes it skips at their start (mutagen/mp4/_atom).
_MUTAGEN_CONTAINERS = {
    **dict.fromkeys((b"moov", b"udta", b"trak", b"mdia", b"ilst", b"stbl", b"minf"), 0),
    **dict.fromkeys((b"moof", b"traf"), 0),
    b"meta": 4,
}
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
    check_structure(data, media_type, name)
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


def check_structure(data: bytes, media_type: str, name: str) -> None:
    """Count the chunks, boxes, blocks or tag frames mutagen would parse; refuse a file with
    more than their limit before mutagen sees it."""
    if media_type in _ISO_BMFF:
        _count(_mp4_boxes(data), MAX_MP4_BOXES, "MP4 boxes (atoms)", name)
    elif data.startswith(b"RIFF"):
        _count(_riff_chunks(data, name), MAX_MEDIA_CHUNKS, "RIFF chunks", name)
    elif data.startswith(b"ID3"):
        _check_id3(data, 0, name)
    if media_type == "audio/flac":
        _count(_flac_blocks(data), MAX_MEDIA_CHUNKS, "FLAC metadata blocks", name)


def _count(items: Iterator[object], most: int, what: str, name: str) -> None:
    for count, _ in enumerate(items, 1):
        if count > most:
            raise InvalidFileError(
                f"{name} holds more than {most:,} {what}; files with more are refused, as "
                "reading their metadata would take minutes (a crafted file). Re-export it"
            )


def _mp4_boxes(data: bytes) -> Iterator[bytes]:
    """Every box at the top level and inside the containers mutagen descends into."""
    spans = [(0, len(data))]
    while spans:
        position, end = spans.pop()
        while position + 8 <= end:
            size, box = struct.unpack_from(">I4s", data, position)
            header = 8
            if size == 1 and position + 16 <= end:
                (size,) = struct.unpack_from(">Q", data, position + 8)
                header = 16
            elif size == 0:
                size = end - position
            if size < header:
                break  # mutagen refuses it: nothing more to count
            yield box
            if box in _MUTAGEN_CONTAINERS:
                start = position + header + _MUTAGEN_CONTAINERS[box]
                spans.append((start, min(position + size, end)))
            position += size


def _riff_chunks(data: bytes, name: str) -> Iterator[bytes]:
    """Every chunk of a RIFF file (LIST chunks' too); an ID3 chunk's frames are counted."""
    (riff_size,) = struct.unpack_from("<I", data, 4)
    spans = [(12, min(len(data), 8 + riff_size))]
    while spans:
        position, end = spans.pop()
        while position + 8 <= end:
            chunk, size = struct.unpack_from("<4sI", data, position)
            yield chunk
            if chunk == b"LIST":
                spans.append((position + 12, min(position + 8 + size, end)))
            elif chunk.lower() == b"id3 " and data[position + 8 : position + 11] == b"ID3":
                _check_id3(data, position + 8, name)
            position += 8 + size + (size & 1)


def _check_id3(data: bytes, start: int, name: str) -> None:
    """Refuse an ID3v2 tag at ``start`` with more than ``MAX_ID3_FRAMES`` frames."""
    while data[start : start + 3] == b"ID3" and start + 10 <= len(data):  # tags may repeat
        _count(_id3_frames(data, start), MAX_ID3_FRAMES, "ID3 tag frames", name)
        start += 10 + _syncsafe(data[start + 6 : start + 10])


def _id3_frames(data: bytes, start: int) -> Iterator[bytes]:
    """The frame ids of the ID3v2 tag at ``start``, from their headers (ID3v2.2 to 2.4)."""
    version, flags = data[start + 3], data[start + 5]
    end = min(start + 10 + _syncsafe(data[start + 6 : start + 10]), len(data))
    position = start + 10
    if flags & 0x40 and version >= 3:  # an extended header
        extended = data[position : position + 4]
        position += _syncsafe(extended) if version == 4 else int.from_bytes(extended, "big") + 4
    id_size, header = (3, 6) if version == 2 else (4, 10)
    while position + header <= end:
        frame = data[position : position + id_size]
        if not frame.strip(b"\x00"):
            return  # padding
        size_bytes = data[position + id_size : position + 2 * id_size]
        size = _syncsafe(size_bytes) if version == 4 else int.from_bytes(size_bytes, "big")
        yield frame
        position += header + size


def _syncsafe(four: bytes) -> int:
    """An ID3 size stored 7 bits a byte."""
    value = 0
    for byte in four:
        value = (value << 7) | (byte & 0x7F)
    return value


def _flac_blocks(data: bytes) -> Iterator[int]:
    """The types of a FLAC's metadata blocks, from their 4-byte headers."""
    position = 0
    while data[position : position + 3] == b"ID3":  # mutagen skips ID3 tags before fLaC
        position += 10 + _syncsafe(data[position + 6 : position + 10])
    if data[position : position + 4] != b"fLaC":
        return
    position += 4
    while position + 4 <= len(data):
        flags, size = data[position], int.from_bytes(data[position + 1 : position + 4], "big")
        yield flags & 0x7F
        if flags & 0x80:
            return  # the last metadata block
        position += 4 + size


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
