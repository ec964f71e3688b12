"""PDF page counts for the page budgets: the page tree's ``/Count`` read through the
cross-reference table (``headers.pdf_page_count``) against counting the page objects
(``headers._pages_between_streams``, what it did before), measured in the same run, and the
count each gives against pypdfium2's. Prints; asserts nothing.

    .venv/bin/python bench/pdf_pages.py [--reps 2000]

The files: pypdfium2's own saves of 2, 30 and 300 blank pages, the 300-page one saved again
incrementally with one page deleted (the edit's objects appended after the first save's, as
editors and signing tools write), and a 2-page scan (an embedded JPEG per page, bench/peers.py's).
"""

from __future__ import annotations

import argparse
import io
import sys
import timeit
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import pypdfium2  # noqa: E402
from _peers_data import scanned_pdf  # noqa: E402

from toolwire import headers  # noqa: E402


def saved(pages: int) -> bytes:
    document = pypdfium2.PdfDocument.new()
    for _ in range(pages):
        document.new_page(612, 792)
    buffer = io.BytesIO()
    document.save(buffer)
    return buffer.getvalue()


def edited(data: bytes) -> bytes:
    """``data`` with its fifth page deleted, saved incrementally (FPDF_INCREMENTAL)."""
    document = pypdfium2.PdfDocument(data)
    document.del_page(4)
    buffer = io.BytesIO()
    document.save(buffer, flags=1)
    return buffer.getvalue()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=2000)
    reps = parser.parse_args().reps
    files = {
        "2 pages": saved(2),
        "30 pages": saved(30),
        "300 pages": saved(300),
        "300 pages, one deleted, saved incrementally": edited(saved(300)),
        "2-page scan (JPEG per page)": scanned_pdf(0),
    }
    print(f"{'file':44s} {'pdfium':>6s} {'tree':>5s} {'objects':>7s}   tree µs  objects µs  ratio")
    for name, data in files.items():
        document = pypdfium2.PdfDocument(data)
        pdfium = len(document)
        document.close()
        new, old = headers.pdf_page_count(data), headers._pages_between_streams(data)
        times = [
            min(timeit.repeat(lambda f=f, d=data: f(d), number=reps, repeat=5)) / reps * 1e6
            for f in (headers.pdf_page_count, headers._pages_between_streams)
        ]
        print(
            f"{name:44s} {pdfium:6d} {new!s:>5s} {old!s:>7s}   {times[0]:7.1f}  {times[1]:10.1f}"
            f"  {times[1] / times[0]:4.1f}×"
        )


if __name__ == "__main__":
    main()
