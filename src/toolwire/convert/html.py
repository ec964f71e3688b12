"""HTML as Markdown, with the standard library's tolerant parser (no network, no scripts).

Headings become ``#``, paragraphs and line breaks keep their breaks, list items ``-``,
links ``[text](href)``, ``<pre>`` a fenced block, tables Markdown tables; ``<script>``,
``<style>``, ``<template>`` and ``<head>`` are dropped. Good enough for a model to read a
page; not a faithful renderer.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser

from ..readers.tables import markdown_table

_SKIP = frozenset({"script", "style", "template", "head", "noscript", "svg"})
_BLOCKS = frozenset({"p", "div", "section", "article", "header", "footer", "ul", "ol", "main"})
_HEADINGS = {f"h{n}": "#" * n for n in range(1, 7)}
_SPACE = re.compile(r"[ \t\r\n\f]+")
_ONE_SPACE = re.compile(r" \S")


class _Markdown(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.out: list[str] = []
        self.skipping = 0
        self.pre = 0
        self.href: list[str | None] = []
        self.table: list[list[str]] | None = None
        self.cell: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _SKIP:
            self.skipping += 1
        elif tag in _HEADINGS:
            self.out.append(f"\n\n{_HEADINGS[tag]} ")
        elif tag in _BLOCKS or tag == "br":
            self.out.append("\n\n" if tag != "br" else "\n")
        elif tag == "li":
            self.out.append("\n- ")
        elif tag == "pre":
            self.pre += 1
            self.out.append("\n\n```\n")
        elif tag == "a":
            self.href.append(dict(attrs).get("href"))
            self.out.append("[")
        else:
            self._table_start(tag)

    def _table_start(self, tag: str) -> None:
        if tag == "table":
            self.table = []
        elif tag == "tr" and self.table is not None:
            self.table.append([])
        elif tag in ("td", "th") and self.table is not None:
            self.cell = []

    def handle_endtag(self, tag: str) -> None:
        if tag in _SKIP:
            self.skipping = max(0, self.skipping - 1)
        elif tag in _HEADINGS or tag in _BLOCKS:
            self.out.append("\n\n")
        elif tag == "pre":
            self.pre = max(0, self.pre - 1)
            self.out.append("\n```\n\n")
        elif tag == "a" and self.href:
            href = self.href.pop()
            self.out.append(f"]({href})" if href and not href.startswith("javascript:") else "]")
        elif tag in ("td", "th") and self.cell is not None and self.table:
            self.table[-1].append(" ".join("".join(self.cell).split()))
            self.cell = None
        elif tag == "table" and self.table is not None:
            rows = [row for row in self.table if row]
            self.out.append("\n\n" + markdown_table(rows) + "\n\n" if rows else "")
            self.table = None

    def handle_data(self, data: str) -> None:
        if self.skipping:
            return
        if self.cell is not None:
            self.cell.append(data)
        elif self.table is None:
            self.out.append(data if self.pre else _SPACE.sub(" ", data))


def markdown(html: str) -> str:
    """The page's text as Markdown."""
    parser = _Markdown()
    parser.feed(html)
    parser.close()
    text = "".join(parser.out)
    # Collapsed whitespace leaves one space at a line's start; <pre> indentation stays.
    lines = [line.rstrip() for line in text.split("\n")]
    lines = [line[1:] if _ONE_SPACE.match(line) else line for line in lines]
    return re.sub(r"\n{3,}", "\n\n", "\n".join(lines)).strip()
