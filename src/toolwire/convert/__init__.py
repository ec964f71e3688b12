"""Convert a file a target cannot take into what it can take: page images, frames, text.

The planner calls :func:`convert` for ``encode(..., on_unsupported="convert")`` with a
:class:`Target` that says, without naming a provider, which image types the model takes, how
many images this conversion may produce and how to fit an image to it. What is done:

- PDF: pages rendered as images (labelled ``Page k of N``) plus the text layer, for a target
  that takes images (``pages`` per file, never more than ``max_images``); the text layer
  alone for a text-only target.
- DOCX, PPTX, XLSX, CSV/TSV, HTML: Markdown text through read_file's readers.
- Video: ``frames`` evenly spaced frames as JPEG, each labelled ``t=12.0s``, after a header
  with the duration, resolution and frame times; the description with its duration when the
  target takes no images (or PyAV is not installed, said in the reason).
- Audio: the description with its duration (:func:`describe`).
- SVG, and images of a type the target does not take (HEIC, TIFF, BMP, AVIF, …): PNG or
  JPEG (see ``images``).
- Anything matching a caller's ``converters`` pattern: the caller's function, first.

Untrusted bytes are parsed in read_file's worker process, under its memory and time limits
(``readers.isolation``); every failure is a ToolwireError naming the file. Conversions are
deterministic and kept per content in an LRU (``memo.BYTES``); ``target.fit`` runs on each
call, over the kept images (``imagefit`` keeps its own results).

>>> convert(File.from_path("report.pdf"), Target(frozenset({"image/png"}), 20))  # doctest: +SKIP
Conversion(parts=(Text(...), Text(text='Page 1 of 3'), File(...), ...), converted_to='pages', ...)
"""

from __future__ import annotations

import copy
import fnmatch
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal, cast

from ..content import File, Text
from ..errors import MissingDependencyError, ToolwireError
from ..mediatypes import DOCX, PPTX
from ..messages import ContentOutput
from ..readers.common import Options, label
from ..readers.isolation import WorkersBusyError
from . import descriptions, video
from .images import FORMATS, to_image
from .jobs import ConvertJob, Outcome, job_for, run
from .memo import Memo
from .office import MARKDOWN_TYPES, to_markdown
from .pdf import pdf_pages
from .video import video_frames

__all__ = ["Conversion", "Converter", "Target", "clear_cache", "convert", "describe"]

describe = descriptions.describe
Part = Text | File
#: A caller's converter (``encode(..., converters={"audio/*": fn})``): File -> its parts.
Converter = Callable[[File], Sequence[Part]]
ConvertedTo = Literal["text", "pages", "frames", "image"]
#: Documents read whole (within the readers' text caps) rather than by read_file's window.
_WHOLE = frozenset({DOCX, PPTX, "text/html"})
_WHOLE_OPTIONS = Options(limit=1_000_000_000)


@dataclass(frozen=True)
class Target:
    """What the receiving model can take, described without provider names.

    ``image_types``: the image media types it takes (empty: text only); ``max_images``: how
    many images this conversion may produce (None: no limit beyond ``pages``/``frames``);
    ``fit``: fits one image to the target (the planner passes imagefit's).
    """

    image_types: frozenset[str] = frozenset()
    max_images: int | None = None
    fit: Callable[[File], File] | None = None


@dataclass(frozen=True)
class Conversion:
    """What replaces a file: the parts in order, what they are, and exactly what was done."""

    parts: tuple[Part, ...]
    converted_to: ConvertedTo
    reason: str


_memo: Memo[Conversion] = Memo()
#: Conversions that failed (a timeout, a bomb, a corrupt file), per content and settings, with
#: their error: the same bytes are not parsed again in this process, so an agent loop and the
#: viewer pay for a hostile file once. Bounded by the characters of the errors kept.
_failed: Memo[ToolwireError] = Memo(1024 * 1024)


def stripped(exc: ToolwireError) -> ToolwireError:
    """A copy of ``exc`` to keep: its message and class, without the traceback, cause and
    context that would keep the file's bytes and the callers' frames alive."""
    kept = copy.copy(exc)
    kept.__traceback__ = kept.__cause__ = kept.__context__ = None
    return kept


def clear_cache() -> None:
    """Forget every kept conversion and failure (the next call converts again)."""
    _memo.clear()
    _failed.clear()


def convert(
    file: File,
    target: Target,
    *,
    pages: int = 20,
    frames: int = 8,
    converters: Mapping[str, Converter] | None = None,
) -> Conversion | None:
    """``file`` in a form ``target`` takes, or None when no converter applies.

    ``pages`` and ``frames`` are the per-file budgets of rendered PDF pages (and of the
    pictures of a DOCX or PPTX) and of video frames (both also capped by
    ``target.max_images``). ``converters`` maps media types or globs
    (``"audio/*"``) to the caller's own ``fn(File) -> list[Text | File]``, which take
    precedence over the built-in ones; an exact type wins over a glob.
    """
    _check_budgets(pages, frames, target)
    pattern = _pattern(file.media_type, converters or {})
    if pattern is not None:
        assert converters is not None
        return _fitted(_by_caller(file, target, pattern, converters[pattern]), target)
    plan = _plan(file, target, pages, frames)
    if plan is None or not file.source.is_local:
        return None
    converter, options, budget = plan
    types = tuple(sorted(t for t in target.image_types if t in FORMATS)) if budget else ()
    key = (file.source.sha256(), file.media_type, file.name, converter, types, budget)
    failed = _failed.get(key)
    if failed is not None:
        raise copy.copy(failed).with_traceback(None)  # the same error, without the work
    found = _memo.get(key)
    if found is None:
        job = job_for(file, file.read(), options=options, image_types=types, budget=budget)
        try:
            found = _conversion(run(converter, job), _missing(file, converter, frames, target))
        except (MissingDependencyError, WorkersBusyError):
            raise  # about this process, not these bytes: an extra to install, a busy pool
        except ToolwireError as exc:
            _failed.put(key, stripped(exc), len(str(exc)) + 100)
            raise
        _memo.put(key, found, _size(found))
    return _fitted(found, target)


Plan = tuple[Callable[[ConvertJob], ContentOutput], Options | None, int]


def _plan(file: File, target: Target, pages: int, frames: int) -> Plan | None:
    """The built-in converter for ``file``, its read options and its image budget."""
    media_type, kind = file.media_type, file.kind
    images = _image_budget(target)
    if media_type == "application/pdf":
        return pdf_pages, None, min(pages, images)
    if media_type in MARKDOWN_TYPES:
        budget = min(pages, images) if media_type in (DOCX, PPTX) else 0  # their pictures
        return to_markdown, _WHOLE_OPTIONS if media_type in _WHOLE else None, budget
    if kind == "video" and min(frames, images) > 0 and video.available():
        return video_frames, None, min(frames, images)
    if kind in ("audio", "video"):
        return descriptions.describe_media, None, 0
    if kind == "image" and media_type not in target.image_types and images > 0:
        return to_image, None, 1
    return None


def _image_budget(target: Target) -> int:
    """How many images may be made for ``target``: 0 when it takes no type we can encode."""
    if not any(t in FORMATS for t in target.image_types):
        return 0
    return target.max_images if target.max_images is not None else 1_000_000


def _conversion(outcome: Outcome, note: str = "") -> Conversion:
    converted_to = cast(ConvertedTo, outcome.converted_to)
    return Conversion(outcome.parts, converted_to, outcome.reason + note)


def _missing(file: File, converter: object, frames: int, target: Target) -> str:
    """The reason's note when frames could have been sent but PyAV is not installed."""
    wanted = file.kind == "video" and min(frames, _image_budget(target)) > 0
    if wanted and converter is descriptions.describe_media:
        return "; no frames extracted: PyAV is not installed (pip install av)"
    return ""


def _fitted(conversion: Conversion, target: Target) -> Conversion:
    fit = target.fit
    if fit is None or not any(isinstance(p, File) for p in conversion.parts):
        return conversion
    parts = tuple(
        fit(p) if isinstance(p, File) and p.kind == "image" else p for p in conversion.parts
    )
    return Conversion(parts, conversion.converted_to, conversion.reason)


def _size(conversion: Conversion) -> int:
    total = 256
    for part in conversion.parts:
        total += len(part.read()) if isinstance(part, File) else len(part.text)
    return total


def _pattern(media_type: str, converters: Mapping[str, Converter]) -> str | None:
    """The caller's pattern for ``media_type``: the exact type, else the most specific glob."""
    if media_type in converters:
        return media_type
    matching = [p for p in converters if fnmatch.fnmatchcase(media_type, p)]
    if not matching:
        return None
    return min(matching, key=lambda p: (p.count("*") + p.count("?"), -len(p)))


def _by_caller(file: File, target: Target, pattern: str, fn: Converter) -> Conversion:
    """The caller's converter's parts, checked, kept per content and function."""
    key = (file.source.sha256(), file.media_type, file.name, "caller", fn)
    found = _memo.get(key)
    if found is not None:
        return found
    name = file.name or file.identifier
    what = f"the converter given for {pattern!r} ({getattr(fn, '__qualname__', fn)!r})"
    try:
        parts = fn(file)
    except ToolwireError:
        raise
    except Exception as exc:
        raise ToolwireError(f"{what} failed on {name} ({type(exc).__name__}: {exc})") from exc
    checked = _checked_parts(parts, target, name, what)
    images = sum(isinstance(p, File) for p in checked)
    converted_to: ConvertedTo = "text"
    if images == 1:
        converted_to = "image"
    elif images:
        converted_to = "frames" if file.kind == "video" else "pages"
    found = Conversion(checked, converted_to, f"converted by {what}: {_summary(checked)}")
    _memo.put(key, found, _size(found))
    return found


def _checked_parts(parts: object, target: Target, name: str, what: str) -> tuple[Part, ...]:
    if (
        not isinstance(parts, Sequence)
        or isinstance(parts, str | bytes)
        or not all(isinstance(p, Text | File) for p in parts)
    ):
        raise ToolwireError(
            f"{what} returned {type(parts).__name__} for {name}; it must return a list of "
            "toolwire Text and File parts"
        )
    takes = ", ".join(sorted(target.image_types)) or "no files (text only)"
    for part in parts:
        if isinstance(part, File) and part.media_type not in target.image_types:
            raise ToolwireError(
                f"{what} returned {part.identifier} ({label(part.media_type)}) for {name}, "
                f"which the target cannot take; it takes {takes}. Return Text, or images of "
                "those types"
            )
    images = sum(isinstance(p, File) for p in parts)
    if target.max_images is not None and images > target.max_images:
        raise ToolwireError(
            f"{what} returned {images} images for {name}; the target takes at most "
            f"{target.max_images} here"
        )
    return tuple(parts)


def _summary(parts: tuple[Part, ...]) -> str:
    images = sum(isinstance(p, File) for p in parts)
    chars = sum(len(p.text) for p in parts if isinstance(p, Text))
    return f"{images} image{'s' if images != 1 else ''} and {chars:,} characters of text"


def _check_budgets(pages: int, frames: int, target: Target) -> None:
    for field, value in (("pages", pages), ("frames", frames), ("max_images", target.max_images)):
        if value is None and field == "max_images":
            continue
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise ToolwireError(f"convert: {field}={value!r} is not allowed; use an integer >= 0")
