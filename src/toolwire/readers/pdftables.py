"""Tables in a PDF's text layer, found from where pdfium places each character.

pdfium's text joins a line's words with single spaces, so in a borderless table with empty
cells ("SKU-9201 780 778 OK") a text-only model cannot tell which column a value is in. Here a
page's characters are split into lines (pdfium's own line breaks) and each line into *runs*:
text separated by a gap wider than ``GAP_CHARS`` typical character widths. Consecutive lines
of several runs whose runs fall into shared columns are a table: the line with the most runs
sets the columns (its runs' gaps are the column boundaries), every other line's runs go to the
column they sit in, and the block is written as a Markdown table, empty cells kept.

Only blocks that look like tables become tables: at least ``MIN_ROWS`` lines, a widest line
of at least ``MIN_COLUMNS`` runs, and at least half the lines with ``MIN_COLUMNS`` runs or more
(the two runs per line of a two-column page layout never qualify). A page with no such block
keeps pdfium's text exactly.
"""

from __future__ import annotations

import re
import statistics
from dataclasses import dataclass
from typing import Any

from .tables import markdown_table

#: A gap wider than this many median character widths separates two runs (cells).
GAP_CHARS = 1.5
MIN_ROWS = 3
MIN_COLUMNS = 3


@dataclass(frozen=True)
class _Run:
    """Text on one line between two wide gaps, and where it starts and ends (points)."""

    text: str
    left: float
    right: float


def page_text_with_tables(textpage: Any, text: str) -> str:
    """``text`` (pdfium's text of the page) with its tables written as Markdown tables."""
    if not _may_hold_table(textpage):
        return text
    lines = _lines(textpage)
    if not lines:
        return text
    runs = [_runs(line) for line in lines]
    blocks = _table_blocks(runs)
    if not blocks:
        return text
    out: list[str] = []
    index = 0
    for start, end in blocks:
        out += [" ".join(run.text for run in line) for line in runs[index:start]]
        out.append(f"\n{_markdown(runs[start:end])}\n")  # a blank line either side
        index = end
    out += [" ".join(run.text for run in line) for line in runs[index:]]
    return re.sub(r"\n{3,}", "\n\n", "\n".join(line for line in out if line)).strip()


def _may_hold_table(textpage: Any) -> bool:
    """A cheap first look (pdfium's text rectangles, a few per line, rather than every
    character's box): whether ``MIN_ROWS`` lines hold ``MIN_COLUMNS`` rectangles apart by
    gaps wider than half the line's height. Pages of running text never do."""
    lines: list[list[tuple[float, float, float, float]]] = []
    for index in range(textpage.count_rects()):
        left, bottom, right, top = textpage.get_rect(index)
        middle = (bottom + top) / 2
        if lines and lines[-1][-1][1] <= middle <= lines[-1][-1][3]:
            lines[-1].append((left, bottom, right, top))
        else:
            lines.append([(left, bottom, right, top)])
    wide = 0
    for line in lines:
        height = max(top - bottom for _, bottom, _, top in line)
        ordered = sorted(line)
        gaps = sum(
            1 for a, b in zip(ordered, ordered[1:], strict=False) if b[0] - a[2] > height / 2
        )
        wide += gaps + 1 >= MIN_COLUMNS
    return wide >= MIN_ROWS


def _lines(textpage: Any) -> list[list[tuple[str, tuple[float, float, float, float]]]]:
    """The page's characters with their boxes, split at pdfium's line breaks."""
    import pypdfium2.raw as pdfium_c

    lines: list[list[tuple[str, tuple[float, float, float, float]]]] = [[]]
    for index in range(textpage.count_chars()):
        code = pdfium_c.FPDFText_GetUnicode(textpage.raw, index)
        char = chr(code) if 0 < code < 0x110000 else ""
        if char in ("\r", "\n"):
            if lines[-1]:
                lines.append([])
            continue
        if char:
            lines[-1].append((char, textpage.get_charbox(index)))
    return [line for line in lines if line]


def _runs(line: list[tuple[str, tuple[float, float, float, float]]]) -> list[_Run]:
    """A line's runs: its characters split where the gap is wider than GAP_CHARS widths."""
    visible = [(char, box) for char, box in line if not char.isspace()]
    if not visible:
        return []
    width = statistics.median(box[2] - box[0] for _, box in visible) or 1.0
    runs: list[_Run] = []
    text, left, right = "", visible[0][1][0], visible[0][1][2]
    previous_right = None
    for char, box in line:
        if char.isspace():
            text += " " if text and not text.endswith(" ") else ""
            continue
        if previous_right is not None and box[0] - previous_right > GAP_CHARS * width:
            runs.append(_Run(text.strip(), left, right))
            text, left = "", box[0]
        text += char
        right = previous_right = max(box[2], previous_right or box[2])
    runs.append(_Run(text.strip(), left, right))
    return [run for run in runs if run.text]


def _table_blocks(runs: list[list[_Run]]) -> list[tuple[int, int]]:
    """(start, end) of each block of lines that reads as a table. A block grows while each
    next line has several runs and still fits its columns; a line that does not fit starts
    the next block (two tables one under the other are two tables). A new line is checked
    alone against the columns, unless it is the new widest line: then the whole block is."""
    blocks = []
    start: int | None = None
    widest: list[_Run] = []
    for index, line in enumerate([*runs, []]):
        if start is not None and len(line) >= 2:
            if len(line) > len(widest):
                fits = _fits(_boundaries(line), runs[start : index + 1])
            else:
                fits = _fits(_boundaries(widest), [line])
            if fits:
                widest = line if len(line) > len(widest) else widest
                continue
        if start is not None and _is_table(runs[start:index]):
            blocks.append((start, index))
        start, widest = (index, line) if len(line) >= 2 else (None, [])
    return blocks


def _fits(bounds: list[float], lines: list[list[_Run]]) -> bool:
    """Whether every run of ``lines`` sits between two column boundaries, crossing none."""
    return all(
        not any(run.left < bound < run.right for bound in bounds) for line in lines for run in line
    )


def _is_table(block: list[list[_Run]]) -> bool:
    if len(block) < MIN_ROWS:
        return False
    wide = sum(1 for line in block if len(line) >= MIN_COLUMNS)
    if max(len(line) for line in block) < MIN_COLUMNS or wide * 2 < len(block):
        return False
    return _fits(_boundaries(max(block, key=len)), block)


def _boundaries(widest: list[_Run]) -> list[float]:
    """Where one column ends and the next begins: the middle of each gap of the widest line."""
    return [(a.right + b.left) / 2 for a, b in zip(widest, widest[1:], strict=False)]


def _markdown(block: list[list[_Run]]) -> str:
    bounds = _boundaries(max(block, key=len))
    rows = []
    for line in block:
        cells = [""] * (len(bounds) + 1)
        for run in line:
            column = sum(1 for bound in bounds if (run.left + run.right) / 2 > bound)
            cells[column] = f"{cells[column]} {run.text}".strip()
        rows.append(cells)
    return markdown_table(rows)
