"""SVG: the XML as text, parsed safely, and a PNG rendering when a rasteriser is installed.

The XML is parsed with defusedxml, which refuses entity declarations (billion laughs) and
external references (XXE) before anything is expanded. The text is paged by lines like a text
file. When CairoSVG is installed (``pip install cairosvg``; it needs the system's libcairo),
the image is also rasterised to PNG with its long side at most ``SVG_RASTER_MAX_SIDE`` pixels,
fetching nothing but ``data:`` URLs; an SVG whose ``<use>`` references would expand to more
than ``_MAX_EXPANDED`` elements is not rasterised (a "use bomb" would render for ever). A
failed or skipped rendering is noted in the header, never an error: the text is still there.

The File part, when rasterised: ``name`` is the base name with ``.png``
(``diagram.png``), ``text`` the SVG's XML, so a text fallback carries the drawing's source.
"""

from __future__ import annotations

import re
from pathlib import PurePath
from typing import Any

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
    if _expanded_elements(root) >= _MAX_EXPANDED:
        return None, f"not rasterised (its <use> references expand past {_MAX_EXPANDED} elements)"
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


def _expanded_elements(root: Any) -> int:
    """Elements after expanding every ``<use>``, capped at ``_MAX_EXPANDED`` (memoised)."""
    by_id = {el.get("id"): el for el in root.iter() if el.get("id")}
    memo: dict[int, int] = {}

    def count(element: Any, depth: int) -> int:
        key = id(element)
        if key in memo:
            return memo[key]
        if depth > _MAX_DEPTH:
            return _MAX_EXPANDED  # too deep, or a <use> cycle
        total = 1 + sum(count(child, depth + 1) for child in element)
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
