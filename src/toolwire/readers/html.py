"""HTML as Markdown, with the standard library's tolerant parser (no network, no scripts).

Headings become ``#``, paragraphs and line breaks keep their breaks, list items ``-`` or
``1.`` (nested lists indented), bold and italic ``**``/``*``, links ``[text](href)``, images
with alt text ``![alt](src)``, ``<pre>`` a fenced block, tables Markdown tables whose cells
keep their line breaks, list items and links inside the cell (``<br>``); a table's caption
comes before it. ``<script>``, ``<style>``, ``<template>`` and ``<head>`` are dropped, and so
is a link with no text (an icon's ``[](href)`` says nothing). Good enough for a model to read
a page; not a faithful renderer.

read_file gives an HTML file as this Markdown (a page's source is mostly markup: about 2.4
times the tokens), paged by lines; ``raw=True`` gives the source, as for any text file.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from html.parser import HTMLParser

from ..headers import human_size
from ..messages import ContentOutput
from . import limits
from .common import Job, header, output
from .tables import markdown_table
from .text import decode, page_lines, read_text, split_lines

_SKIP = frozenset({"script", "style", "template", "head", "noscript", "svg"})
_BLOCKS = frozenset(
    {"p", "div", "section", "article", "header", "footer", "main", "nav", "aside", "figure"}
    | {"figcaption", "blockquote", "dl", "dt", "dd", "form", "fieldset", "address"}
)
_HEADINGS = {f"h{n}": "#" * n for n in range(1, 7)}
_EMPHASIS = {"b": "**", "strong": "**", "i": "*", "em": "*"}
_SPACE = re.compile(r"[ \t\r\n\f]+")
_ONE_SPACE = re.compile(r" \S")
#: A list marker followed by the space of the item's own leading whitespace.
_MARKER_SPACES = re.compile(r"^(\s*(?:-|\d+\.)) {2,}")


@dataclass
class _Table:
    """A table being read: finished rows, the open cell's pieces, and its caption."""

    rows: list[list[str]] = field(default_factory=list)
    cell: list[str] | None = None
    caption: list[str] = field(default_factory=list)
    in_caption: bool = False


@dataclass
class _Span:
    """An open link or emphasis: where its text starts in the buffer it writes to."""

    tag: str
    buffer: list[str]
    start: int
    href: str | None = None


class _Markdown(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.out: list[str] = []
        self.skipping = 0
        self.pre = 0
        self.spans: list[_Span] = []
        self.tables: list[_Table] = []
        #: Open lists: None for ``<ul>``, the next number for ``<ol>``.
        self.lists: list[int | None] = []

    @property
    def buffer(self) -> list[str]:
        """Where text goes now: the open table cell (or caption), else the page."""
        if self.tables:
            table = self.tables[-1]
            if table.cell is not None:
                return table.cell
            if table.in_caption:
                return table.caption
            return []  # text between cells (whitespace, stray text) is not shown in place
        return self.out

    def _break(self, page: str) -> None:
        """A block break: ``page`` on the page, a line break inside a table cell."""
        self.buffer.append("\n" if self.tables else page)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _SKIP:
            self.skipping += 1
        elif self.skipping:
            return
        elif tag in _HEADINGS:
            self._break(f"\n\n{_HEADINGS[tag]} ")
        elif tag in _BLOCKS:
            self._break("\n\n")
        elif tag == "br":
            self.buffer.append("\n")
        elif tag in ("ul", "ol"):
            self.lists.append(None if tag == "ul" else 1)
            self._break("\n")
        elif tag == "li":
            self._list_item()
        elif tag == "pre":
            self.pre += 1
            self._break("\n\n```\n")
        elif tag == "a" or (tag in _EMPHASIS and not self.pre):
            buffer = self.buffer
            self.spans.append(_Span(tag, buffer, len(buffer), dict(attrs).get("href")))
        elif tag == "img":
            self._image(dict(attrs))
        else:
            self._table_start(tag)

    def _list_item(self) -> None:
        depth = max(len(self.lists) - 1, 0)
        number = self.lists[-1] if self.lists else None
        if self.lists and number is not None:
            self.lists[-1] = number + 1
        marker = f"{number}." if number is not None else "-"
        indent = "" if self.tables else "    " * depth
        self.buffer.append(f"\n{indent}{marker} ")

    def _image(self, attrs: dict[str, str | None]) -> None:
        alt = " ".join((attrs.get("alt") or "").split())
        if not alt:
            return
        source = attrs.get("src") or ""
        if source.startswith("data:"):
            source = source.split(",", 1)[0] + ",…"
        self.buffer.append(f"![{alt}]({source})" if source else f"![{alt}]")

    def _table_start(self, tag: str) -> None:
        if tag == "table":
            self.tables.append(_Table())
        elif not self.tables:
            return
        elif tag == "caption":
            self.tables[-1].in_caption = True
        elif tag == "tr":
            self.tables[-1].rows.append([])
        elif tag in ("td", "th"):
            table = self.tables[-1]
            if not table.rows:
                table.rows.append([])
            table.cell = []

    def handle_endtag(self, tag: str) -> None:
        if tag in _SKIP:
            self.skipping = max(0, self.skipping - 1)
        elif self.skipping:
            return
        elif tag in _HEADINGS or tag in _BLOCKS:
            self._break("\n\n")
        elif tag in ("ul", "ol") and self.lists:
            self.lists.pop()
            self._break("\n\n" if not self.lists else "")
        elif tag == "pre":
            self.pre = max(0, self.pre - 1)
            self._break("\n```\n\n")
        elif tag == "a" or tag in _EMPHASIS:
            self._close_span(tag)
        else:
            self._table_end(tag)

    def _close_span(self, tag: str) -> None:
        """Wrap the span's text as a link or emphasis; one with no text leaves nothing."""
        if not self.spans or self.spans[-1].tag != tag:
            return
        span = self.spans.pop()
        inner = "".join(span.buffer[span.start :])
        del span.buffer[span.start :]
        text = inner.strip()
        if not text:
            span.buffer.append(inner)
            return
        lead = inner[: len(inner) - len(inner.lstrip())]
        trail = inner[len(inner.rstrip()) :]
        if tag == "a":
            href = span.href
            shown = f"[{text}]({href})" if href and not href.startswith("javascript:") else text
        else:
            mark = _EMPHASIS[tag]
            shown = f"{mark}{text}{mark}"
        span.buffer.append(f"{lead}{shown}{trail}")

    def _table_end(self, tag: str) -> None:
        if not self.tables:
            return
        table = self.tables[-1]
        if tag in ("td", "th") and table.cell is not None and table.rows:
            table.rows[-1].append(_cell_text("".join(table.cell)))
            table.cell = None
        elif tag == "caption":
            table.in_caption = False
        elif tag == "table":
            self.tables.pop()
            self._emit_table(table)

    def _emit_table(self, table: _Table) -> None:
        rows = [row for row in table.rows if row]
        caption = " ".join("".join(table.caption).split())
        text = markdown_table(rows) if rows else ""
        if caption:
            text = f"{caption}\n\n{text}" if text else caption
        if not text:
            return
        if self.tables:  # a table inside a cell: its lines stay inside that cell
            self.buffer.append("\n" + text + "\n")
        else:
            self.out.append("\n\n" + text + "\n\n")

    def handle_data(self, data: str) -> None:
        if self.skipping:
            return
        if self.pre:
            self.buffer.append(data)
            return
        buffer = self.buffer
        text = _SPACE.sub(" ", data)
        # Spaces collapse across pieces too: none after a break, a marker or another space.
        if text.startswith(" ") and (not buffer or buffer[-1].endswith((" ", "\n"))):
            text = text[1:]
        if text:
            buffer.append(text)


def _cell_text(text: str) -> str:
    """A cell's text: spaces collapsed on each line, its line breaks kept (``<br>``)."""
    lines = (" ".join(line.split()) for line in text.split("\n"))
    return "\n".join(line for line in lines if line)


def markdown(html: str) -> str:
    """The page's text as Markdown."""
    parser = _Markdown()
    parser.feed(html)
    parser.close()
    text = "".join(parser.out)
    # Collapsed whitespace leaves one space at a line's start; <pre> indentation stays.
    lines = [line.rstrip() for line in text.split("\n")]
    lines = [line[1:] if _ONE_SPACE.match(line) else line for line in lines]
    lines = [_MARKER_SPACES.sub(r"\1 ", line) for line in lines]
    return re.sub(r"\n{3,}", "\n\n", "\n".join(lines)).strip()


def read_html(job: Job) -> ContentOutput:
    """An HTML file as a header and lines of its Markdown (with ``raw``, of its source)."""
    if job.options.raw:
        return read_text(job)
    truncated = job.size > limits.MAX_TEXT_BYTES
    source, encoding = decode(job.data, job.name, truncated=truncated)
    lines = split_lines(markdown(source))
    body, summary = page_lines(lines, job.options.offset, job.options.limit, job.name)
    facts = [encoding, human_size(job.size)]
    if truncated:
        facts.append(f"only the first {human_size(limits.MAX_TEXT_BYTES)} are read")
    facts.append("converted to Markdown (raw=true gives the source)")
    return output(f"{header(job, *facts)} {summary}", body, [])
