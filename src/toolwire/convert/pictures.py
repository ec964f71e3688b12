"""The pictures inside a DOCX or PPTX as images, for a target that reads images.

The document's Markdown already names each picture (``[Picture: alt text]``); a model that can
see gets the pictures too, in document order, up to the conversion's image budget, each after
the label ``Picture k of N in memo.docx: alt text`` and encoded like any converted image (PNG,
or JPEG for a photo; convert/images.py). A picture Pillow cannot open (EMF, WMF, a broken
file) is skipped and counted in the reason.
"""

from __future__ import annotations

import io
import zipfile
from pathlib import PurePath

from .. import pillow
from ..content import File, Text
from ..errors import InvalidFileError
from ..mediatypes import DOCX, PPTX
from ..readers.docx import docx_pictures
from ..readers.slides import pptx_pictures
from .images import encode, is_photo, output_format
from .jobs import ConvertJob, Part

#: Pictures smaller than this on both sides (icons, bullets, spacer pixels) are not sent.
MIN_SIDE = 16


def pictures(job: ConvertJob) -> tuple[list[Part], str]:
    """Labelled images of the document's pictures (at most ``job.budget``), and a note for the
    conversion's reason ("" when there are none)."""
    found = _found(job)
    if not found:
        return [], ""
    parts: list[Part] = []
    skipped = sent = 0
    for number, (data, alt, where) in enumerate(found, 1):
        if sent >= job.budget:
            break
        image = _encoded(data, job, number)
        if image is None:
            skipped += 1
            continue
        label = f"Picture {number} of {len(found)} in {job.name}{where}"
        parts += [Text(text=f"{label}: {alt}" if alt else label), image]
        sent += 1
    note = f"; with {sent} of its {len(found)} pictures as images"
    if skipped:
        note += f" ({skipped} too small or not readable as images)"
    return parts, note


def _found(job: ConvertJob) -> list[tuple[bytes, str, str]]:
    """(bytes, alt text, where) of each picture, in order."""
    if job.media_type == PPTX:
        return [(data, alt, f", slide {n}") for data, alt, n in pptx_pictures(job.data)]
    if job.media_type != DOCX:
        return []
    found = []
    with zipfile.ZipFile(io.BytesIO(job.data)) as archive:
        for member, alt in docx_pictures(job.data, job.name):
            found.append((archive.read(member), alt, ""))
    return found


def _encoded(data: bytes, job: ConvertJob, number: int) -> File | None:
    try:
        with pillow.open_image(data, f"{job.name} picture {number}") as image:
            image.load()
            if image.width < MIN_SIDE and image.height < MIN_SIDE:
                return None
            upright = pillow.eight_bit(pillow.upright(image, pillow.exif_orientation(image)))
            fmt = output_format(job.image_types, photo=is_photo(upright))
            if fmt is None:
                return None
            encoded, media_type = encode(upright, fmt)
    except InvalidFileError:
        return None
    suffix = ".jpg" if media_type == "image/jpeg" else f".{media_type.split('/')[1]}"
    name = f"{PurePath(job.name).stem}-picture{number}{suffix}"
    return File.from_bytes(encoded, media_type, name).model_copy(
        update={"text": f"Picture {number} of {job.name}"}
    )
