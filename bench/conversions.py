"""Benchmark document conversions against markitdown, side by side on the same real files.

The files are tests/convert/corpus (other projects' test files; sources in its README). For
each file, two kinds of expectation, each a regular expression searched in the output:

- *content*: words a reader sees on the page (a list item's text, a footnote's text, a chart's
  value, a form field's value, a picture's alt text);
- *structure*: the Markdown that carries what the layout shows, written loosely so any
  reasonable Markdown passes (a list marker before an item, ``|`` between a table's cells,
  ``#`` before a heading, ``[text](url)`` for a link, ``$…$`` around an equation, a note mark).

markitdown's own expectations (its tests' ``must_include`` strings on its own test files,
``_test_vectors.py`` and ``test_module_misc.py`` at ``a51f725d``) are counted apart from the
ones written here from what Word, PowerPoint or a browser shows, so neither set alone decides.
markitdown's data-URI expectations (``keep_data_uris=True`` mode) are left out.

Speed: the median time of a conversion of each file, toolwire's ``convert`` for a text-only
target (in the read worker, its memo cleared before each run) alternating with markitdown's
``convert`` (in this process), so both see the same machine load; the ratio per format is of
the summed medians. Run: PYTHONPATH=src .venv-bench/bin/python bench/conversions.py
[--repeat N]. No result is asserted.
"""

from __future__ import annotations

import argparse
import re
from dataclasses import dataclass
from pathlib import Path

from _timing import alternating

CORPUS = Path(__file__).resolve().parents[1] / "tests" / "convert" / "corpus"


@dataclass(frozen=True)
class Expect:
    """One expectation: a pattern, whether it is about structure, and who wrote it."""

    pattern: str
    structure: bool = False
    markitdown: bool = False


def content(*texts: str, markitdown: bool = False) -> list[Expect]:
    return [Expect(re.escape(text), False, markitdown) for text in texts]


def structure(*patterns: str, markitdown: bool = False) -> list[Expect]:
    return [Expect(pattern, True, markitdown) for pattern in patterns]


_NOTE = r"(?:\[\^?[0-9a-z]+\]|\^\[?[0-9a-z]+|<sup>)"  # a footnote/comment mark, any style

EXPECTATIONS: dict[str, list[Expect]] = {
    "markitdown-test_with_comment.docx": [
        *content(
            "314b0a30-5b04-470b-b9f7-eed2c2bec74a",
            "49e168b7-d2ae-407f-a055-2167576f39a1",
            "AutoGen: Enabling Next-Gen LLM Applications via Multi-Agent Conversation",
            "This is a test comment. 12df-321a",
            "Yet another comment in the doc. 55yiyi-asd09",
            markitdown=True,
        ),
        *structure(
            re.escape("## d666f1f7-46cb-42bd-9a39-9a39cf2a509f"),
            re.escape("# Abstract"),
            re.escape("# Introduction"),
            markitdown=True,
        ),
    ],
    "markitdown-equations.docx": [
        *structure(re.escape("$m=1$"), r"\$\$(.+?)\$\$", markitdown=True),
        *content("For", "The angle is", "From Eq. 36.1.3"),
        *structure(r"\\frac\{m", r"θ"),
    ],
    "markitdown-test.pptx": [
        *content(
            "2cdda5c8-e50e-4db4-b5f0-9722a649f455",
            "04191ea8-5c73-4215-a1d3-1cfb43aaaf12",
            "44bf7d06-5e7a-4a40-a2e1-a2e42ef28c8a",
            "1b92870d-e3b5-4e65-8153-919f4ff45592",
            "AutoGen: Enabling Next-Gen LLM Applications via Multi-Agent Conversation",
            "a3f6004b-6f4f-4ea8-bee3-3741f4dc385f",
            "2003",
            markitdown=True,
        ),
        *structure(re.escape("![This phrase of the caption is Human-written.]"), markitdown=True),
        *content("This phrase of the caption is Human-written.", "Sub comment 2"),
        *structure(r"\|\s*2001\s*\|\s*2001\s*\|", r"\|\s*ColA\s*\|\s*ColB\s*\|"),
    ],
    "mammoth-simple-list.docx": [
        *content("Apple", "Banana"),
        *structure(r"(?m)^\s*[-*+] Apple$", r"(?m)^\s*[-*+] Banana$"),
    ],
    "docxfix-legal-list.docx": [
        *content("Lorem ipsum dolor sit amet", "Donec ut est in lectus"),
        *structure(
            r"(?m)^1\.? Lorem ipsum",
            r"(?m)^\s+1\.1\.? Vivamus",
            r"(?m)^\s+2\.1\.1\.? Donec ut est",
        ),
    ],
    "docxfix-styled-numbering.docx": [
        *content("One", "Two", "Three", "Four"),
        *structure(r"(?m)^# 1\.? One", r"(?m)^## 1\.1\.? Two", r"\(a\) Three", r"\(i\) Four"),
    ],
    "mammoth-footnotes.docx": [
        *content("Ouch", "A tachyon walks into a bar.", "Fin."),
        *structure(r"Ouch" + _NOTE),
    ],
    "mammoth-endnotes.docx": [
        *content("Ouch", "A tachyon walks into a bar.", "Fin."),
        *structure(r"Ouch" + _NOTE),
    ],
    "mammoth-comments.docx": [
        *content("Ouch", "A tachyon walks into a bar.", "Fin."),
        *structure(r"Ouch" + _NOTE),
    ],
    "mammoth-footnote-hyperlink.docx": [
        *content("Example"),
        *structure(re.escape("[Example](http://www.example.com")),
    ],
    "mammoth-text-box.docx": [*content("Datum plane")],
    "mammoth-tiny-picture.docx": [*structure(r"(?i)!\[|\[picture|image")],
    "markitdown-rlink.docx": [
        *content("Testing Linked Images", "A red and blue square"),
    ],
    "mammoth-strict-format.docx": [*content("Test")],
    "mammoth-tables.docx": [
        *content("Above", "Top left", "Bottom right", "Below"),
        *structure(r"\|\s*Top left\s*\|\s*Top right\s*\|"),
    ],
    "docxfix-mixed-insert-delete.docx": [
        *content("Lorem dolor sit amet ipsum, consectetuer"),
    ],
    "python-docx-par-hyperlinks.docx": [
        *content("awesome hyperlink", "second one"),
        *structure(
            re.escape("[awesome hyperlink](http://yahoo.com/)"),
            re.escape("[second one](http://python.org/)"),
        ),
    ],
    "python-docx-par-hlink-frags.docx": [
        *content("Two with link to bookmark.", "Five with link to"),
        *structure(r"\]\(http://foo\.com/?#intro\)"),
    ],
    "python-pptx-cht-charts.pptx": [
        *content("Category 1", "4.3", "2.4"),
        *structure(r"\|\s*Category 1\s*\|\s*4\.3\s*\|\s*2\.4\s*\|"),
    ],
    "wikipedia-microsoft-infobox.html": [
        *content("Microsoft Corporation", "Bill Gates", "Paul Allen", "Satya Nadella"),
        *structure(
            r"\|\s*Founders\s*\|[^\n]*Bill Gates[^\n]*Paul Allen[^\n]*\|",
            r"\|\s*Website\s*\|\s*\[microsoft\.com\]\(https://www\.microsoft\.com/?\)\s*\|",
            r"!\[A square divided into four sub-squares",
        ),
        Expect(r"^(?![\s\S]*\[\]\()", True),  # no empty-link fragments anywhere
    ],
    "excelize-DateFormats.xlsx": [
        *content("k l m", "08/05/2019", "04/03/2019", "1.00"),
        *structure(
            r"\|\s*abc\s*\|\s*08/05/2019\s*\|\s*2019-03-04\s*\|\s*04/03/2019\s*\|\s*1\.00\s*\|"
        ),
    ],
    "pypdf-form_acrobatReader.pdf": [*content("foo", "Bar")],
    "markitdown-SPARSE-2024-INV-1234_borderless_table.pdf": [
        *content("SKU-8847", "B-07", "CRITICAL", "High Value"),
        *structure(
            r"\|\s*\|\s*B-07\s*\|\s*\|\s*289\s*\|\s*-23\s*\|\s*\|",
            r"\|\s*SKU-9201\s*\|\s*\|\s*780\s*\|\s*778\s*\|\s*\|\s*OK\s*\|",
            r"\|\s*SKU-4563\s*\|\s*Software\s*\|\s*\$120\.00\s*\|\s*\$18,720\.00\s*\|\s*\|",
        ),
    ],
}


def toolwire_text(path: Path) -> str:
    from toolwire.content import File, Text
    from toolwire.convert import Target, clear_cache, convert
    from toolwire.errors import ToolwireError

    clear_cache()
    try:
        conversion = convert(File.from_path(path), Target(frozenset(), None))
    except ToolwireError as exc:  # a refused file meets no expectation
        return str(exc)
    assert conversion is not None
    return "\n".join(part.text for part in conversion.parts if isinstance(part, Text))


def markitdown_text(converter: object, path: Path) -> str:
    return str(converter.convert(str(path)).text_content)  # type: ignore[attr-defined]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()
    import markitdown

    converter = markitdown.MarkItDown()
    met: dict[tuple[str, bool, bool], list[int]] = {}
    times: dict[str, list[float]] = {}
    print(
        f"markitdown {markitdown.__version__}; {len(EXPECTATIONS)} files; median of {args.repeat}"
    )
    print("\n| file | toolwire met | markitdown met | toolwire ms | markitdown ms |")
    print("|---|---|---|---|---|")
    for name, expectations in EXPECTATIONS.items():
        path = CORPUS / name
        outputs = {"toolwire": toolwire_text(path), "markitdown": markitdown_text(converter, path)}
        counts = {}
        for tool, text in outputs.items():
            hits = [bool(re.search(e.pattern, text)) for e in expectations]
            counts[tool] = sum(hits)
            for expect, hit in zip(expectations, hits, strict=True):
                key = (tool, expect.structure, expect.markitdown)
                met.setdefault(key, [0, 0])
                met[key][0] += hit
                met[key][1] += 1
        ours, theirs = alternating(
            lambda p=path: toolwire_text(p),
            lambda p=path: markitdown_text(converter, p),
            args.repeat,
        )
        suffix = path.suffix.lstrip(".")
        times.setdefault(suffix, [0.0, 0.0])
        times[suffix][0] += ours
        times[suffix][1] += theirs
        total = len(expectations)
        print(
            f"| {name} | {counts['toolwire']}/{total} | {counts['markitdown']}/{total} | "
            f"{ours * 1000:.1f} | {theirs * 1000:.1f} |"
        )
    print("\n| expectations | toolwire | markitdown |\n|---|---|---|")
    for structural in (False, True):
        for by_markitdown in (True, False):
            label = f"{'structure' if structural else 'content'}, written by " + (
                "markitdown's tests" if by_markitdown else "this bench"
            )
            cells = []
            for tool in ("toolwire", "markitdown"):
                hit, total = met.get((tool, structural, by_markitdown), [0, 0])
                cells.append(f"{hit}/{total} ({hit / max(total, 1):.0%})")
            print(f"| {label} | {cells[0]} | {cells[1]} |")
    print("\n| format | toolwire ms (sum of medians) | markitdown ms | markitdown / toolwire |")
    print("|---|---|---|---|")
    for suffix, (ours, theirs) in sorted(times.items()):
        print(f"| {suffix} | {ours * 1000:.1f} | {theirs * 1000:.1f} | {theirs / ours:.1f}× |")


if __name__ == "__main__":
    main()
