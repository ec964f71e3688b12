"""SVG: the XML as text, parsed safely, and a PNG rendering when a rasteriser is installed.

The XML is parsed with defusedxml, which refuses entity declarations (billion laughs) and
external references (XXE) before anything is expanded. The text is paged by lines like a text
file. When CairoSVG is installed (``pip install cairosvg``; it needs the system's libcairo),
the image is also rasterised to PNG with its long side at most ``SVG_RASTER_MAX_SIDE`` pixels,
fetching nothing but ``data:`` URLs; an SVG whose ``<use>`` references would expand to more
than ``_MAX_EXPANDED`` elements is not rasterised (a "use bomb" would render for ever), nor is
one whose ``data:`` URLs unpack too far (gzip bombs), embed too many pixels or SVGs that fail
these same checks, whose dashes would take minutes to draw, or whose size is not finite. A
failed or skipped rendering is noted in the header, never an error: the text is still there.

The File part, when rasterised: ``name`` is the base name with ``.png``
(``diagram.png``), ``text`` the SVG's XML, so a text fallback carries the drawing's source.
"""

from __future__ import annotations

import base64
import binascii
import io
import math
import re
import warnings
import zlib
from pathlib import PurePath
from typing import Any
from urllib.parse import unquote_to_bytes

from ..content import File
from ..errors import InvalidFileError, missing_dependency
from ..headers import human_size
from ..messages import ContentOutput
from . import limits
from .common import Job, header, output
from .text import decode, page_lines, split_lines

_MAX_EXPANDED = 100_000
_MAX_DEPTH = 100
_UNITS = {"": 1.0, "px": 1.0, "pt": 4 / 3, "pc": 16.0, "in": 96.0, "cm": 96 / 2.54, "mm": 96 / 25.4}
_LENGTH = re.compile(r"\s*([0-9]*\.?[0-9]+(?:[eE][-+]?[0-9]+)?)\s*([a-z]*)\s*$")
_XLINK_HREF = "{http://www.w3.org/1999/xlink}href"

#: What the rasteriser is allowed to take on; past any of these the SVG is returned without
#: a PNG, and the header names the limit. A side (in CSS pixels) larger than this, or not a
#: finite number (``width="1e400"``), is not a size that can be rasterised.
MAX_SVG_SIDE = 1e7
#: The bytes of one ``data:`` URL once decoded and, when gzipped (CairoSVG unpacks gzipped
#: SVG images: 1 MB of it can inflate to gigabytes), inflated.
MAX_DATA_URL_BYTES = 8 * limits.MB
#: Pixels of the raster images that ``data:`` URLs embed, together (each is decoded whole).
MAX_EMBEDDED_PIXELS = 32_000_000
#: SVGs embedded in embedded SVGs, at most this deep.
MAX_DATA_URL_DEPTH = 3
#: Dashes the renderer would draw, estimated as the length of every shape's geometry over
#: the shortest dash period anywhere in the document (CSS can dash any shape); each costs
#: about half a microsecond (40,000 finely dashed lines rendered for minutes).
MAX_DASHES = 2_000_000
#: A data URL in an attribute or in CSS: up to a quote or ")" (base64 may hold spaces).
_DATA_URL = re.compile(r"data:([^,]*),([^\"')]*)", re.IGNORECASE)
_DASHARRAY = re.compile(r"stroke-dasharray\s*[:=]\s*[\"']?([^;\"'}>]*)", re.IGNORECASE)
_NUMBER = re.compile(r"[-+]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][-+]?[0-9]+)?")
_GEOMETRY = ("d", "points", "x1", "y1", "x2", "y2", "width", "height", "r", "rx", "ry")


def read_svg(job: Job) -> ContentOutput:
    """An SVG as a header, its XML (paged by lines), and a PNG rendering when possible."""
    name = job.name
    data = job.data
    text, _encoding = decode(data, name)
    root = parse(data, name)
    size = natural_size(root)
    png, raster_note = _rasterise(data, root, size, name)
    body, summary = page_lines(split_lines(text), job.options.offset, job.options.limit, name)
    facts = [f"{size[0]:g}x{size[1]:g}" if size else "no intrinsic size", human_size(len(data))]
    files = []
    if png is not None:
        rendered = File.from_bytes(png, "image/png", str(PurePath(name).with_suffix(".png")))
        files.append(rendered.model_copy(update={"text": text[: limits.MAX_TEXT_CHARS]}))
    facts.append(raster_note)
    return output(f"{header(job, *facts)} {summary}", body, files)


def parse(data: bytes, name: str) -> Any:
    """The SVG's root element; InvalidFileError for entities, external references, bad XML."""
    try:
        import defusedxml
        import defusedxml.ElementTree as safe_tree
    except ImportError as exc:
        raise missing_dependency("defusedxml", "files") from exc
    try:
        root = safe_tree.fromstring(data)
    except defusedxml.DefusedXmlException as exc:
        raise InvalidFileError(
            f"{name} is refused: it declares XML entities or external references ({exc}), "
            "which can expand without bound (billion laughs) or read other files. "
            "Remove the DOCTYPE's entity declarations"
        ) from exc
    except safe_tree.ParseError as exc:
        raise InvalidFileError(f"{name}: not well-formed XML ({exc})") from exc
    if _local(root.tag) != "svg":
        raise InvalidFileError(f"{name}: not an SVG (its root element is <{_local(root.tag)}>)")
    return root


def natural_size(root: Any) -> tuple[float, float] | None:
    """Width and height in CSS pixels from width/height, else the viewBox; None if neither."""
    width, height = _length(root.get("width")), _length(root.get("height"))
    box = [
        float(v) for v in re.split(r"[\s,]+", (root.get("viewBox") or "").strip()) if _is_number(v)
    ]
    if len(box) == 4 and box[2] > 0 and box[3] > 0:
        if width and not height:
            height = width * box[3] / box[2]
        elif height and not width:
            width = height * box[2] / box[3]
        width, height = width or box[2], height or box[3]
    return (width, height) if width and height else None


def _rasterise(
    data: bytes, root: Any, size: tuple[float, float] | None, name: str
) -> tuple[bytes | None, str]:
    try:
        from cairosvg.surface import PNGSurface
        from cairosvg.url import safe_fetch
    except (ImportError, OSError):  # OSError: cairocffi found no libcairo
        return None, "not rasterised (install cairosvg to get a PNG rendering)"
    problem, _ = _raster_problem(data, root, size, 0)
    if problem:
        return None, f"not rasterised ({problem})"
    width, height = size or (512.0, 512.0)
    scale = min(1.0, limits.SVG_RASTER_MAX_SIDE / max(width, height))
    out_w, out_h = max(1, round(width * scale)), max(1, round(height * scale))
    try:
        png = PNGSurface.convert(
            bytestring=data,
            output_width=out_w,
            output_height=out_h,
            unsafe=False,
            url_fetcher=safe_fetch,  # data: URLs only; never files or the network
        )
    except Exception as exc:  # any renderer failure costs only the PNG, never the read
        return None, f"not rasterised ({type(exc).__name__}: {exc})"
    if not png:
        return None, "not rasterised (the renderer produced nothing)"
    return png, f"rasterised to PNG {out_w}x{out_h}"


def _raster_problem(
    data: bytes, root: Any, size: tuple[float, float] | None, depth: int
) -> tuple[str | None, int]:
    """Why the SVG (or an SVG it embeds, ``depth`` levels down) must not be rasterised, if
    it must not; and how many elements it expands to."""
    if size and not all(math.isfinite(side) and side <= MAX_SVG_SIDE for side in size):
        return f"its size {size[0]:g}x{size[1]:g} is over {MAX_SVG_SIDE:g} px or infinite", 0
    weights, problem = _embedded(root, depth)
    if problem:
        return problem, 0
    expanded = _expanded_elements(root, weights)
    if expanded >= _MAX_EXPANDED:
        return f"its <use> references expand past {_MAX_EXPANDED} elements", 0
    elements = sum(1 for _ in root.iter())
    dashes = _dashes(data.decode("utf-8", "replace"), root) * expanded / max(elements, 1)
    if dashes > MAX_DASHES:
        return f"about {dashes:.3g} dashes to draw, over the limit of {MAX_DASHES:,}", 0
    return None, expanded


def _embedded(root: Any, depth: int) -> tuple[dict[int, int], str | None]:
    """Each element embedding ``data:`` SVGs, weighted by the elements they expand to; or
    the problem with an embedded file (too big, a bomb, too many pixels)."""
    weights: dict[int, int] = {}
    pixels = 0
    for element in root.iter():
        for value in [*element.attrib.values(), element.text or ""]:
            for match in _DATA_URL.finditer(value) if "data:" in value.lower() else ():
                payload = _data_url_bytes(match.group(1), match.group(2))
                if payload is None:
                    return weights, f"a data: URL unpacks to more than {_mb(MAX_DATA_URL_BYTES)}"
                if b"<svg" not in payload:
                    pixels += _pixels(payload)
                    continue
                problem, expanded = _embedded_svg(payload, depth + 1)
                if problem:
                    return weights, problem
                weights[id(element)] = weights.get(id(element), 1) + expanded
    if pixels > MAX_EMBEDDED_PIXELS:
        return weights, f"its embedded images hold more than {MAX_EMBEDDED_PIXELS:,} pixels"
    return weights, None


def _embedded_svg(payload: bytes, depth: int) -> tuple[str | None, int]:
    if depth > MAX_DATA_URL_DEPTH:
        return f"it embeds SVGs more than {MAX_DATA_URL_DEPTH} levels deep", 0
    try:
        inner = parse(payload, "embedded SVG")
    except InvalidFileError as exc:
        return f"an SVG in a data: URL is refused: {exc}", 0
    problem, expanded = _raster_problem(payload, inner, natural_size(inner), depth)
    return (f"in an SVG in a data: URL, {problem}" if problem else None), expanded


def _data_url_bytes(header: str, body: str) -> bytes | None:
    """A data URL's payload, gunzipped if gzipped; None when larger than the limit."""
    try:
        if header.lower().endswith(";base64"):
            payload = base64.b64decode(re.sub(r"\s+", "", body) + "==", validate=False)
        else:
            payload = unquote_to_bytes(body)
    except (binascii.Error, ValueError):
        return b""  # undecodable: the renderer gets nothing out of it either
    if payload.startswith(b"\x1f\x8b"):
        inflater = zlib.decompressobj(wbits=31)
        try:
            payload = inflater.decompress(payload, MAX_DATA_URL_BYTES + 1)
        except zlib.error:
            return b""
    return payload if len(payload) <= MAX_DATA_URL_BYTES else None


def _pixels(payload: bytes) -> int:
    """The pixel count of an embedded raster image, from its header (0 if none is told)."""
    from PIL import Image, UnidentifiedImageError

    bomb = (Image.DecompressionBombError, Image.DecompressionBombWarning)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            with Image.open(io.BytesIO(payload)) as image:
                width, height = image.size
    except bomb:
        return MAX_EMBEDDED_PIXELS + 1  # Pillow's own bomb limit is far above this one
    except (UnidentifiedImageError, OSError, ValueError, SyntaxError):
        return 0
    return width * height


def _dashes(text: str, root: Any) -> float:
    """The dashes a render would draw, estimated (``MAX_DASHES``); 0 when nothing is dashed."""
    periods = []
    for match in _DASHARRAY.finditer(text):
        period = sum(abs(float(number)) for number in _NUMBER.findall(match.group(1)))
        if period > 0:
            periods.append(period)
    if not periods:
        return 0.0
    shortest = min(periods)
    length = 0.0
    for element in root.iter():
        for attribute in _GEOMETRY:
            length += sum(abs(float(n)) for n in _NUMBER.findall(element.get(attribute) or ""))
        if length / shortest > MAX_DASHES:
            break  # over the limit already: the rest cannot bring it back
    return length / shortest


def _mb(size: int) -> str:
    return f"{size // limits.MB} MB"


def _expanded_elements(root: Any, weights: dict[int, int] | None = None) -> int:
    """Elements after expanding every ``<use>``, capped at ``_MAX_EXPANDED`` (memoised);
    an element embedding SVGs counts as ``weights[id(element)]`` elements."""
    weights = weights or {}
    by_id = {el.get("id"): el for el in root.iter() if el.get("id")}
    memo: dict[int, int] = {}

    def count(element: Any, depth: int) -> int:
        key = id(element)
        if key in memo:
            return memo[key]
        if depth > _MAX_DEPTH:
            return _MAX_EXPANDED  # too deep, or a <use> cycle
        total = weights.get(key, 1) + sum(count(child, depth + 1) for child in element)
        href = element.get(_XLINK_HREF) or element.get("href") or ""
        if _local(element.tag) == "use" and href.startswith("#") and href[1:] in by_id:
            total += count(by_id[href[1:]], depth + 1)
        memo[key] = min(total, _MAX_EXPANDED)
        return memo[key]

    return count(root, 0)


def _length(value: str | None) -> float | None:
    match = _LENGTH.match(value or "")
    if match is None or match.group(2) not in _UNITS:
        return None  # missing, a percentage, or font-relative: fall back to the viewBox
    return float(match.group(1)) * _UNITS[match.group(2)] or None


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def _local(tag: Any) -> str:
    return str(tag).rsplit("}", 1)[-1]
