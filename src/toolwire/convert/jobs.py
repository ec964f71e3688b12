"""The conversion side of the read worker: a Job with the target's facts, and the reply shape.

A converter that parses untrusted bytes runs through ``readers.isolation.run`` like a reader:
a module-level function over a picklable ``ConvertJob`` that returns a ContentOutput. The
worker may send back only toolwire's output models, so what the conversion did travels as
the reply's first Text, a JSON object (``{"converted_to": ..., "reason": ...}``) that
:func:`run` takes off again.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass

from ..content import File, Text
from ..errors import InvalidFileError
from ..messages import ContentOutput
from ..readers import isolation
from ..readers.common import Job, Options, label

Part = Text | File
#: What a conversion may turn a file into.
CONVERTED_TO = frozenset({"text", "pages", "frames", "image"})


@dataclass(frozen=True)
class ConvertJob(Job):
    """A Job plus what the target takes: image types, and how many images may be made."""

    image_types: tuple[str, ...] = ()
    budget: int = 0


@dataclass(frozen=True)
class Outcome:
    """What a worker-side converter made: the parts, in order, and what was done."""

    parts: tuple[Part, ...]
    converted_to: str
    reason: str


def reply(outcome: Outcome) -> ContentOutput:
    """The ContentOutput a worker-side converter returns for ``outcome``."""
    meta = {"converted_to": outcome.converted_to, "reason": outcome.reason}
    return ContentOutput(value=(Text(text=json.dumps(meta)), *outcome.parts))


def run(converter: Callable[[ConvertJob], ContentOutput], job: ConvertJob) -> Outcome:
    """``converter(job)`` in the read worker (under its memory and time limits)."""
    output = isolation.run(converter, job)
    try:  # never trust a worker's reply: it parsed hostile bytes
        first, *parts = output.value
        meta = json.loads(first.text) if isinstance(first, Text) else {}
        converted_to, reason = meta["converted_to"], str(meta["reason"])
    except (ValueError, KeyError, TypeError) as exc:
        raise InvalidFileError(f"{job.name}: the conversion worker sent an invalid reply") from exc
    if converted_to not in CONVERTED_TO:
        raise InvalidFileError(f"{job.name}: the conversion worker sent an invalid reply")
    checked = tuple(part for part in parts if isinstance(part, Text | File))
    return Outcome(checked, converted_to, reason)


def job_for(
    file: File,
    data: bytes,
    *,
    options: Options | None = None,
    image_types: tuple[str, ...] = (),
    budget: int = 0,
) -> ConvertJob:
    """The job converting ``file`` (whose bytes are ``data``) for a target."""
    name = file.name or file.identifier
    options = options or Options()
    return ConvertJob(name, file.media_type, options, data, len(data), "", image_types, budget)


def what(job: Job) -> str:
    """'report.pdf (PDF)': the file and its format, for messages."""
    return f"{job.name} ({label(job.media_type)})"
