"""What PowerPoint shows on a slide beyond its text: charts and pictures.

A chart reads as its title and the numbers it plots, as a categories × series table (one
column per series); a picture reads as ``[Picture: alt text]`` (``[Picture]`` when it has
none), so neither vanishes from the slide without a mention.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from . import limits
from .tables import markdown_table

#: What python-pptx raises on a chart it cannot model (a 3-D area chart: NotImplementedError)
#: or on chart XML that does not hold what it expects.
_CHART_ERRORS = (NotImplementedError, KeyError, ValueError, IndexError, TypeError, AttributeError)


def chart_markdown(chart: Any) -> str:
    """``Chart: title`` and its data as a Markdown table (categories down, series across);
    a chart whose data python-pptx cannot read keeps its title and says so."""
    try:
        title = _chart_title(chart)
    except _CHART_ERRORS:
        title = ""
    lines = [f"[Chart: {title}]" if title else "[Chart]"]
    try:
        dates = _has_date_axis(chart)
        tables = [_plot_table(plot, dates) for plot in chart.plots]
    except _CHART_ERRORS as exc:
        return f"{lines[0]} (its data could not be read: {type(exc).__name__})"
    return "\n\n".join(lines + [table for table in tables if table])


def _chart_title(chart: Any) -> str:
    if not chart.has_title:
        return ""
    frame = chart.chart_title.text_frame if chart.chart_title.has_text_frame else None
    return " ".join((frame.text if frame is not None else "").split())


def _has_date_axis(chart: Any) -> bool:
    """Whether the categories are dates (kept as Excel day numbers, shown as dates)."""
    from pptx.chart.axis import DateAxis

    try:
        return isinstance(chart.category_axis, DateAxis)
    except ValueError:  # a chart without a category axis (a pie)
        return False


def _plot_table(plot: Any, dates: bool) -> str:
    series = list(plot.series)[: limits.MAX_TABLE_COLUMNS - 1]
    if not series:
        return ""
    categories = [_category(category, dates) for category in plot.categories]
    length = max([len(categories), *(len(s.values) for s in series)])
    header = ["Category" if categories else "Point", *(s.name or "" for s in series)]
    rows: list[list[Any]] = [header]
    for index in range(min(length, limits.TABLE_ROWS_PER_READ)):
        label = categories[index] if index < len(categories) else str(index + 1)
        rows.append([label, *(_value(s.values, index) for s in series)])
    if length > limits.TABLE_ROWS_PER_READ:
        rows.append(["…"])
    return markdown_table(rows)


def _category(category: Any, dates: bool) -> str:
    """A category label; on a date axis an Excel day number as the ISO date it shows."""
    text = str(category)
    if not dates:
        return text
    try:
        serial = float(text)
    except ValueError:
        return text
    if not 0 < serial < 2_958_466:  # Excel's last day: 9999-12-31
        return text
    return (dt.date(1899, 12, 30) + dt.timedelta(days=int(serial))).isoformat()


def _value(values: Any, index: int) -> str:
    if index >= len(values) or values[index] is None:
        return ""
    value = values[index]
    return f"{value:g}" if isinstance(value, float) else str(value)


def picture_text(shape: Any) -> str:
    """``[Picture: alt text]``: the picture's description, else its title, else nothing."""
    properties = shape.element.find(".//{*}cNvPr")
    text = ""
    if properties is not None:
        text = properties.get("descr") or properties.get("title") or ""
    text = " ".join(text.split())
    return f"[Picture: {text}]" if text else "[Picture]"


def pptx_pictures(data: bytes) -> list[tuple[bytes, str, int]]:
    """The pictures of the deck, slide by slide: (image bytes, alt text, slide number)."""
    import io

    import pptx
    from pptx.enum.shapes import MSO_SHAPE_TYPE

    found: list[tuple[bytes, str, int]] = []
    deck = pptx.Presentation(io.BytesIO(data))
    for number, slide in enumerate(deck.slides, 1):
        for shape in _all_shapes(slide.shapes):
            if shape.shape_type == MSO_SHAPE_TYPE.PICTURE:
                alt = picture_text(shape).removeprefix("[Picture").removeprefix(": ")[:-1]
                found.append((shape.image.blob, alt, number))
    return found


def _all_shapes(shapes: Any) -> list[Any]:
    """Every shape, the shapes inside groups included, in document order."""
    every = []
    for shape in reading_order(shapes):
        inner = getattr(shape, "shapes", None)
        every += _all_shapes(inner) if inner is not None else [shape]
    return every


def reading_order(shapes: Any) -> list[Any]:
    """The shapes top to bottom, then left to right (a slide's own order is its z-order:
    a text box added last but placed at the top would otherwise read last). A shape
    without a position keeps its place among those without one, first."""
    return sorted(shapes, key=lambda shape: (shape.top or 0, shape.left or 0))
