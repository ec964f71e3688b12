"""PDF word recall and reading order against pdftotext, for toolwire and markitdown.

The reference text of each PDF is Debian's ``pdftotext`` (poppler-utils, its default reading
order mode, not ``-layout``). Both texts are cut into words: runs of letters and digits
(``\\w+``), case-folded, so Markdown pipes, headings and punctuation do not count.

- *recall*: the share of the reference's words found in the tool's text, counted as
  multisets (a word the reference has three times must be there three times).
- *order*: the longest common subsequence of the two word sequences, divided by the number
  of words they share (the multiset intersection). 1.0 means every shared word comes in the
  reference's order; words the tool added or lost do not count against it.

Both are summed over all files before dividing (words, not files, are weighed equally), and
printed per file. The files: the PDFs of tests/convert/corpus and examples/report.pdf, plus any
PDF files or folders named on the command line (bench/results.md names the ones used). toolwire
converts for a text-only target (``convert`` with ``Target(frozenset(), None)``), so its own
lines (the description, ``--- Page N ---``, a scanned page's note) are in its text; they add
words, which neither figure counts against it.

Run: PYTHONPATH=src .venv-bench/bin/python bench/pdf_words.py [PDF or folder ...].
No result is asserted.
"""

from __future__ import annotations

import argparse
import re
import subprocess
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_FILES = [
    *sorted((ROOT / "tests" / "convert" / "corpus").glob("*.pdf")),
    ROOT / "examples" / "report.pdf",
]


def words(text: str) -> list[str]:
    return re.findall(r"\w+", text.casefold())


def reference_text(path: Path) -> str:
    return subprocess.run(
        ["pdftotext", str(path), "-"], check=True, capture_output=True, text=True
    ).stdout


def toolwire_text(path: Path) -> str:
    from toolwire.content import File, Text
    from toolwire.convert import Target, convert
    from toolwire.errors import ToolwireError

    try:
        conversion = convert(File.from_path(path), Target(frozenset(), None))
    except ToolwireError as exc:
        return str(exc)
    assert conversion is not None
    return "\n".join(part.text for part in conversion.parts if isinstance(part, Text))


def markitdown_text(converter: object, path: Path) -> str:
    return str(converter.convert(str(path)).text_content)  # type: ignore[attr-defined]


def lcs_length(a: list[str], b: list[str]) -> int:
    """Length of the longest common subsequence (one row of the usual table at a time)."""
    if len(a) < len(b):
        a, b = b, a
    previous = [0] * (len(b) + 1)
    for word in a:
        current = [0]
        for j, other in enumerate(b):
            if word == other:
                current.append(previous[j] + 1)
            else:
                current.append(max(previous[j + 1], current[j]))
        previous = current
    return previous[-1]


def score(reference: list[str], text: list[str]) -> tuple[int, int]:
    """(shared words, words in common order) of ``text`` against ``reference``."""
    shared = sum((Counter(reference) & Counter(text)).values())
    return shared, lcs_length(reference, text)


def pdf_files(arguments: list[str]) -> list[Path]:
    files = list(DEFAULT_FILES)
    for argument in arguments:
        path = Path(argument)
        files.extend(sorted(path.glob("*.pdf")) if path.is_dir() else [path])
    return files


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("pdfs", nargs="*", help="more PDF files or folders of them")
    args = parser.parse_args()
    import markitdown

    converter = markitdown.MarkItDown()
    totals = {"toolwire": [0, 0, 0], "markitdown": [0, 0, 0]}  # reference words, shared, ordered
    files = pdf_files(args.pdfs)
    print(f"pdftotext reference; markitdown {markitdown.__version__}; {len(files)} PDFs\n")
    print(
        "| file | words | toolwire recall | toolwire order | markitdown recall | markitdown order |"
    )
    print("|---|---|---|---|---|---|")
    for path in files:
        reference = words(reference_text(path))
        if not reference:
            print(f"| {path.name} | 0 | (no text layer: not counted) | | | |")
            continue
        cells = []
        outputs = {
            "toolwire": toolwire_text(path),
            "markitdown": markitdown_text(converter, path),
        }
        for tool, text in outputs.items():
            shared, ordered = score(reference, words(text))
            totals[tool][0] += len(reference)
            totals[tool][1] += shared
            totals[tool][2] += ordered
            cells.append(f"{shared / len(reference):.3f} | {ordered / max(shared, 1):.3f}")
        print(f"| {path.name} | {len(reference)} | {cells[0]} | {cells[1]} |")
    print("\n| tool | word recall | reading order |\n|---|---|---|")
    for tool, (count, shared, ordered) in totals.items():
        print(f"| {tool} | {shared / max(count, 1):.3f} | {ordered / max(shared, 1):.3f} |")


if __name__ == "__main__":
    main()
