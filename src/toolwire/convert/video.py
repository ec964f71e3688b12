"""Video as evenly spaced frames (PyAV, in the read worker), each labelled with its time.

``n = budget`` frames are taken at the middles of ``n`` equal spans of the video
(``t = (i + 0.5) * duration / n``): seek to the key frame before ``t``, decode up to the first
frame at or after it. Each frame becomes a JPEG (PNG when the target takes no JPEG), preceded
by its label ``t=12.0s`` (the frame's own time, to 0.1 s); a header gives the duration, the
resolution and the frame times. Decoding is single-threaded, so the same file always gives the
same frames. Frames larger than ``limits.MAX_IMAGE_PIXELS`` are refused (a bomb).
"""

from __future__ import annotations

import contextlib
import io
from collections.abc import Iterator
from typing import Any

from ..content import File, Text
from ..errors import InvalidFileError, MissingDependencyError
from ..headers import human_size
from ..messages import ContentOutput
from ..readers import limits
from ..readers.common import Job, header, label
from .images import encode, output_format, renamed
from .jobs import ConvertJob, Outcome, reply


def available() -> bool:
    """Whether PyAV can be imported (``pip install av``)."""
    try:
        import av  # noqa: F401
    except ImportError:
        return False
    return True


def video_frames(job: ConvertJob) -> ContentOutput:
    """``job.budget`` evenly spaced frames, labelled, after a header."""
    fmt = output_format(job.image_types, photo=True)
    assert fmt is not None and job.budget > 0
    with _opened(job) as (container, stream):
        duration = _duration(container, stream, job)
        width, height = _checked_size(stream, job)
        times = [(i + 0.5) * duration / job.budget for i in range(job.budget)]
        start = float(stream.start_time * stream.time_base) if stream.start_time else 0.0
        frames = _frames(container, stream, [start + t for t in times], job)
        frames = [(time - start, image) for time, image in frames]
    parts: list[Text | File] = []
    for time, image in frames:
        data, media_type = encode(image, fmt)
        stamp = f"t={time:.1f}s"
        file = File.from_bytes(
            data, media_type, renamed(job.name, fmt, f"-{stamp.replace('=', '')}")
        )
        parts += [
            Text(text=stamp),
            file.model_copy(update={"text": f"Frame of {job.name} at {stamp}"}),
        ]
    stamps = ", ".join(f"{time:.1f}s" for time, _ in frames)
    facts = [f"{duration:.1f} s", f"{width}x{height}", human_size(job.size)]
    head = (
        f"{header(job, *facts)} {len(frames)} frames, evenly spaced, at t={stamps}; "
        "each image follows its time label."
    )
    reason = (
        f"extracted {len(frames)} evenly spaced frames as {label(media_type)} from a "
        f"{duration:.1f} s {width}x{height} video (t={stamps})"
    )
    return reply(Outcome((Text(text=head), *parts), "frames", reason))


def facts(job: Job) -> list[str]:
    """Duration and resolution as PyAV reads them (for containers mutagen does not parse)."""
    with _opened(job) as (container, stream):
        found = [f"{_duration(container, stream, job):.1f} s"]
        if stream is not None:
            width, height = _checked_size(stream, job)
            found.append(f"{width}x{height}")
    return found


@contextlib.contextmanager
def _opened(job: Job) -> Iterator[tuple[Any, Any]]:
    av = _av()
    try:
        container = av.open(io.BytesIO(job.data), mode="r")
    except av.FFmpegError as exc:
        raise InvalidFileError(
            f"{job.name}: PyAV cannot open it as {label(job.media_type)} ({exc}); the file is "
            "corrupt or in a container FFmpeg does not read. Re-export it as MP4 (H.264)"
        ) from exc
    try:
        streams = container.streams.video
        stream = streams[0] if streams else None
        if stream is not None:
            stream.thread_type = "SLICE"
            stream.codec_context.thread_count = 1  # one thread: the same frames every time
        yield container, stream
    except av.FFmpegError as exc:
        raise InvalidFileError(
            f"{job.name}: PyAV cannot decode its video ({exc}); the file is corrupt or uses a "
            "codec FFmpeg does not read. Re-export it as MP4 (H.264)"
        ) from exc
    finally:
        container.close()


def _duration(container: Any, stream: Any, job: Job) -> float:
    if stream is not None and stream.duration and stream.time_base:
        return float(stream.duration * stream.time_base)
    if container.duration:
        return float(container.duration) / 1_000_000  # AV_TIME_BASE
    raise InvalidFileError(
        f"{job.name}: its container gives no duration, so frames cannot be spaced evenly; "
        "re-export it as MP4 (H.264)"
    )


def _checked_size(stream: Any, job: Job) -> tuple[int, int]:
    if stream is None:
        raise InvalidFileError(f"{job.name}: {label(job.media_type)} with no video stream")
    width, height = stream.codec_context.width, stream.codec_context.height
    if not width or not height:
        raise InvalidFileError(f"{job.name}: its video stream gives no frame size; re-export it")
    if width * height > limits.MAX_IMAGE_PIXELS:
        raise InvalidFileError(
            f"{job.name}: its frames are {width}x{height}, over the limit of "
            f"{limits.MAX_IMAGE_PIXELS / 1e6:.0f} megapixels per image; downscale the video first"
        )
    return width, height


def _frames(container: Any, stream: Any, times: list[float], job: Job) -> list[tuple[float, Any]]:
    """(time, PIL image) of the first frame at or after each time; each frame once."""
    found: list[tuple[float, Any]] = []
    seen: set[int] = set()
    for wanted in times:
        frame = _frame_at(container, stream, wanted)
        if frame is None or frame.pts in seen:
            continue
        seen.add(frame.pts)
        found.append((float(frame.time), frame.to_image()))
    if not found:
        raise InvalidFileError(f"{job.name}: PyAV decoded no frame from its video stream")
    return found


def _frame_at(container: Any, stream: Any, wanted: float) -> Any:
    container.seek(int(wanted / stream.time_base), stream=stream, backward=True)
    last = None
    for frame in container.decode(stream):
        if frame.time is None:
            continue
        last = frame
        if frame.time >= wanted - 1e-6:
            return frame
    return last


def _av() -> Any:
    try:
        import av
    except ImportError as exc:
        raise MissingDependencyError(
            "PyAV is not installed, so video frames cannot be extracted; install it with: "
            "pip install av"
        ) from exc
    return av
