"""Downscale images that exceed a target's limits, deterministically, at encode time.

``encode(..., fit_images=True)`` (the default) calls ``fit_image`` for every local image it
routes. Header dimensions and byte size are checked first, in this process; only an image that
breaks a limit of its capability cell is decoded, and that in the read worker (readers.isolation,
under its memory and time limits: the bytes are untrusted), never in the calling process: ``max_bytes``, ``max_edge``, ``max_pixels``, or
``fit_edge`` / ``fit_short_edge`` (the long or short edge beyond which the provider would
downscale anyway, so sending more costs bytes and buys nothing). The conversation keeps the original; the target gets a
new File (same name, or the original's identifier as name, so labels do not change) and the
Decision records the note, e.g. ``resized 4000x3000 -> 1568x1176 (fit_edge 1568 px), 3.1 MB
-> 412 KB``.

Deterministic: EXIF orientation applied first, LANCZOS resampling, JPEG draft mode chosen from
the target size only, fixed encoder settings (PNG compress level 6 without optimize; JPEG and
WebP at quality 85, stepping down through ``QUALITIES`` while over ``max_bytes``), metadata
and timestamps dropped. The same bytes and limits give the same output bytes, and results are
cached per (content hash, media type, limits) within the process.

PNG stays PNG, JPEG stays JPEG, WebP stays WebP; a GIF becomes a PNG of its first frame.
Other formats (BMP, TIFF, HEIC…) are left as they are, with a note.
"""

from __future__ import annotations

import copy
import io
import math
import threading
from collections import OrderedDict
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from . import headers
from .capability_schema import Cell
from .content import File, Text
from .errors import InvalidFileError, MissingDependencyError, ToolwireError
from .messages import ContentOutput

if TYPE_CHECKING:
    from PIL.Image import Image

#: Media types fit_image re-encodes, and the format each becomes.
RESIZABLE = {"image/png": "PNG", "image/jpeg": "JPEG", "image/webp": "WEBP", "image/gif": "PNG"}
_OUT_TYPES = {"PNG": "image/png", "JPEG": "image/jpeg", "WEBP": "image/webp"}
#: JPEG and WebP qualities tried in order until the image is within max_bytes.
QUALITIES = (85, 75, 65, 55, 45)
PNG_COMPRESS_LEVEL = 6
#: Beyond the lowest quality, both sides shrink to 3/4 this many times at most.
SHRINK_STEPS = 8
#: Fitted images kept for re-encodes, in bytes of output.
CACHE_BYTES = 64 * 1024 * 1024

_cache: OrderedDict[tuple[Any, ...], tuple[bytes, str, str]] = OrderedDict()
#: Fits that failed, by content and limits, with their error (at most ``FAILURES_KEPT``).
_failed: OrderedDict[tuple[Any, ...], ToolwireError] = OrderedDict()
FAILURES_KEPT = 1024
_cache_lock = threading.Lock()


def fitted_size(width: int, height: int, cell: Cell) -> tuple[int, int]:
    """The size ``fit_image`` sends a ``width`` x ``height`` image at (never larger): the long
    edge within ``fit_edge`` and ``max_edge``, the short edge within ``fit_short_edge``, the
    area within ``max_pixels``."""
    w, h = width, height
    bounds = cell.fit_bounds
    if bounds is None:
        return w, h
    edge, short, pixels, _ = bounds
    if edge and max(w, h) > edge:
        w, h = (edge, max(1, h * edge // w)) if w >= h else (max(1, w * edge // h), edge)
    if short and min(w, h) > short:  # after the long edge, as OpenAI does: 2048 box, then 768
        w, h = (max(1, w * short // h), short) if w >= h else (short, max(1, h * short // w))
    if pixels and w * h > pixels:
        factor = math.sqrt(pixels / (w * h))
        w, h = max(1, math.floor(w * factor)), max(1, math.floor(h * factor))
        while w * h > pixels:
            w, h = (w - 1, h) if w >= h else (w, h - 1)
    return w, h


def fit_image(file: File, cell: Cell) -> tuple[File, str | None]:
    """The image as the target should receive it, and a note when it was changed."""
    bounds, source = cell.fit_bounds, file.source
    if bounds is None or not file.media_type.startswith("image/"):  # File.kind, inline
        return file, None
    if source.is_local:
        data = file.read()
    else:
        return file, None
    size = headers.image_size(data)  # as stored: whether it fits does not depend on rotation
    if size is not None and (size[0] <= 0 or size[1] <= 0):
        size = None
    over_bytes = bool(cell.max_bytes and len(data) > cell.max_bytes)
    if size is None and (not over_bytes or file.media_type in RESIZABLE):
        # no size in its header: nothing to fit, and no decoder let loose on it in this process
        why = "not resized: its header gives no size (corrupt or crafted)" if over_bytes else None
        return file, why
    if not over_bytes and size is not None:  # most images: within every bound
        (w, h), (edge, short, pixels, _) = size, bounds  # each rule symmetric in w and h
        if not (
            (edge and max(w, h) > edge)
            or (short and min(w, h) > short)
            or (pixels and w * h > pixels)
        ):
            return file, None
    limits = bounds[-1]
    if file.media_type not in RESIZABLE:
        return file, f"not resized: toolwire resizes PNG, JPEG, WebP and GIF, not {file.media_type}"
    key = (file.source.sha256(), file.media_type, *limits)
    with _cache_lock:
        cached = _cache.get(key)
        failed = _failed.get(key)
    if failed is not None:  # these bytes failed before: the same error, without the work
        raise copy.copy(failed)
    if cached is None:
        try:
            cached = _fit_in_worker(data, file.media_type, cell, file.identifier)
        except MissingDependencyError:
            hard = replace(cell, fit_edge=None)  # fit_edge is a saving, not a rule
            if over_bytes or size is None or fitted_size(*size, hard) != size:
                raise
            return file, "not resized: Pillow is not installed (pip install 'toolwire[files]')"
        except ToolwireError as exc:
            _remember_failure(key, exc)
            raise
        _remember(key, cached)
    out, out_type, note = cached
    return File.from_bytes(out, out_type, name=file.name or file.identifier), note


def clear_cache() -> None:
    """Forget fitted images and failed fits (tests, or to free memory)."""
    with _cache_lock:
        _cache.clear()
        _failed.clear()


def _remember_failure(key: tuple[Any, ...], exc: ToolwireError) -> None:
    """Keep a failed fit by content and limits (a corrupt or crafted image, a worker that ran
    out of time or memory), so an agent loop pays for it once; not a busy worker pool, which
    is about this process, not the bytes."""
    from .readers.isolation import WorkersBusyError

    if isinstance(exc, WorkersBusyError):
        return
    kept = copy.copy(exc)  # the message and class, without traceback, cause or context
    with _cache_lock:
        _failed[key] = kept
        while len(_failed) > FAILURES_KEPT:
            _failed.popitem(last=False)


def _remember(key: tuple[Any, ...], value: tuple[bytes, str, str]) -> None:
    with _cache_lock:
        _cache[key] = value
        total = sum(len(v[0]) for v in _cache.values())
        while total > CACHE_BYTES and len(_cache) > 1:
            total -= len(_cache.popitem(last=False)[1][0])


@dataclass(frozen=True)
class FitJob:
    """An image to fit in the read worker (a ``readers.common.Job`` in shape: the worker needs
    its name, media type and bytes), with the cell whose limits it is fitted to."""

    name: str
    media_type: str
    data: bytes = field(repr=False)
    cell: Cell | None = None


def _fit_in_worker(data: bytes, media_type: str, cell: Cell, name: str) -> tuple[bytes, str, str]:
    """``_fit`` in the read worker (readers.isolation), under its memory and time limits: the
    bytes came from a tool, a URL, a store or an MCP server, and decoding them is what a
    crafted image exploits (a 2.5 KB WebP took a host to 1 GB). A failure is a ToolwireError
    naming the file; the reply is checked before it is used."""
    from .readers import isolation

    output = isolation.run(fit_job, FitJob(name, media_type, data, cell))  # type: ignore[type-var]
    parts = output.value
    expected = _OUT_TYPES[RESIZABLE[media_type]]  # PNG stays PNG, a GIF becomes a PNG, …
    note, fitted = (parts[0], parts[1]) if len(parts) == 2 else (None, None)
    if isinstance(note, Text) and isinstance(fitted, File) and fitted.media_type == expected:
        return fitted.read(), fitted.media_type, note.text
    raise InvalidFileError(f"{name}: the image worker sent an invalid reply")


def fit_job(job: FitJob) -> ContentOutput:
    """The worker's side of ``_fit_in_worker``: the fitted bytes, with the note first."""
    assert job.cell is not None
    out, out_type, note = _fit(job.data, job.media_type, job.cell, job.name)
    return ContentOutput(value=(Text(text=note), File.from_bytes(out, out_type, name=job.name)))


@dataclass(frozen=True)
class _Outcome:
    shown: tuple[int, int]  # as displayed (EXIF orientation applied), before fitting
    target: tuple[int, int]  # fitted_size of ``shown``
    sent: tuple[int, int]
    before: int
    after: int
    quality: int | None
    orientation: int
    media_type: str


def _fit(data: bytes, media_type: str, cell: Cell, name: str) -> tuple[bytes, str, str]:
    """Decode, orient, resize and re-encode; the bytes, their media type and the note."""
    from .pillow import exif_orientation, open_image

    fmt = RESIZABLE[media_type]
    with open_image(data, name) as image:
        orientation = exif_orientation(image)
        shown = (image.size[1], image.size[0]) if orientation >= 5 else image.size
        target = fitted_size(*shown, cell)
        upright = _upright(image, orientation, target, fmt)
        out, sent, quality = _encode_within(upright, fmt, target, cell.max_bytes)
    outcome = _Outcome(shown, target, sent, len(data), len(out), quality, orientation, media_type)
    return out, _OUT_TYPES[fmt], _note(outcome, cell)


def _upright(image: Image, orientation: int, target: tuple[int, int], fmt: str) -> Image:
    """The image decoded (a large JPEG at a reduced draft scale), EXIF-rotated, without
    metadata, in a mode the output format can take (16-bit grey as 8-bit grey)."""
    from . import pillow

    if image.format == "JPEG":  # libjpeg decodes at 1/2, 1/4 or 1/8 scale, never below target
        image.draft("RGB", (target[1], target[0]) if orientation >= 5 else target)
    image.seek(0)
    image.load()
    upright = pillow.eight_bit(pillow.upright(image, orientation))
    allowed = ("L", "RGB") if fmt == "JPEG" else ("L", "RGB", "RGBA")
    if upright.mode == "1":  # bilevel scans stay grey, not three times their size as RGB
        upright = upright.convert("L")
    if upright.mode not in allowed:
        alpha = fmt != "JPEG" and ("A" in upright.getbands() or "transparency" in upright.info)
        upright = upright.convert("RGBA" if alpha else "RGB")
    upright.info.clear()
    return upright


def _encode_within(
    image: Image, fmt: str, target: tuple[int, int], max_bytes: int | None
) -> tuple[bytes, tuple[int, int], int | None]:
    """Resize to ``target`` and encode; while over ``max_bytes``, lower the quality, then
    shrink both sides to 3/4. Returns the bytes, their size and the quality used."""
    from PIL import Image as PilImage

    size, qualities = target, (QUALITIES if fmt != "PNG" else (None,))
    for _ in range(SHRINK_STEPS + 1):
        resized = image if size == image.size else image.resize(size, PilImage.Resampling.LANCZOS)
        for quality in qualities:
            out = _encode(resized, fmt, quality)
            if not max_bytes or len(out) <= max_bytes:
                return out, size, quality
        size = (max(1, size[0] * 3 // 4), max(1, size[1] * 3 // 4))
    return out, resized.size, quality


def _encode(image: Image, fmt: str, quality: int | None) -> bytes:
    buffer = io.BytesIO()
    if fmt == "PNG":
        image.save(buffer, "PNG", optimize=False, compress_level=PNG_COMPRESS_LEVEL)
    elif fmt == "JPEG":
        image.save(buffer, "JPEG", quality=quality, optimize=False, progressive=False)
    else:
        image.save(buffer, "WEBP", quality=quality, method=4)
    return buffer.getvalue()


def _note(o: _Outcome, cell: Cell) -> str:
    """``resized 4000x3000 -> 1568x1176 (fit_edge 1568 px), 3.1 MB -> 412 KB``."""
    reasons = []
    edge = cell.fit_bounds[0] if cell.fit_bounds else None
    if edge and max(o.shown) > edge:
        reasons.append(f"{'fit_edge' if edge == cell.fit_edge else 'max_edge'} {edge} px")
    if cell.fit_short_edge and min(o.target) == cell.fit_short_edge < min(o.shown):
        reasons.append(f"fit_short_edge {cell.fit_short_edge} px")
    if cell.max_pixels and o.shown[0] * o.shown[1] > cell.max_pixels:
        reasons.append(f"max_pixels {cell.max_pixels:,}")
    stepped = o.quality is not None and o.quality < QUALITIES[0]
    if cell.max_bytes and (o.before > cell.max_bytes or stepped or o.sent != o.target):
        reasons.append(f"max_bytes {headers.human_size(cell.max_bytes)}")
    if stepped:
        reasons.append(f"quality {o.quality}")
    if o.sent != o.target:
        reasons.append("shrunk further to fit max_bytes")
    if o.orientation != 1:
        reasons.append(f"EXIF orientation {o.orientation} applied")
    if o.media_type == "image/gif":
        reasons.append("first frame, as PNG")
    if cell.max_bytes and o.after > cell.max_bytes:
        reasons.append("still over max_bytes")
    verb = "resized" if o.sent != o.shown else "re-encoded"
    sizes = f"{headers.human_size(o.before)} -> {headers.human_size(o.after)}"
    return f"{verb} {o.shown[0]}x{o.shown[1]} -> {o.sent[0]}x{o.sent[1]} ({', '.join(reasons)}), {sizes}"
