"""Benchmark read_file's two hot paths against their baselines, measured in the same run.

1. PDF text extraction: pypdfium2 (what toolwire uses) against pypdf (pure Python) on the same
   100-page PDF, made here with reportlab; pages per second for each, and the ratio.
2. fit_image on a 12-megapixel JPEG, to a 1568-pixel long side: with Pillow's JPEG draft
   mode (libjpeg decodes at 1/2, 1/4 or 1/8 scale), as toolwire fits, and without it.
3. What parsing in the read worker (readers/isolation.py) costs per read of an ordinary file
   (PNG, 3-page PDF, DOCX from examples/) and of a 40 MB WAV: read_file with isolation
   against read_file in-process, once the worker runs; and the worker's start (first read).

Run: .venv/bin/python bench/read.py [--repeat N]
Needs the dev environment; pypdf (bench/requirements.txt) only for the pypdf baseline, which
is skipped, saying so, when it is missing. No timing is asserted.
"""

from __future__ import annotations

import argparse
import io
import random
import time
from pathlib import Path
from tempfile import TemporaryDirectory

from _timing import alternating, timed

PAGES = 100
EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
LONG_SIDE = 1568  # the long side Anthropic recommends; other providers are similar


def make_pdf(pages: int = PAGES) -> bytes:
    """A text PDF: a title and 40 lines of prose per page."""
    from reportlab.lib.pagesizes import letter
    from reportlab.pdfgen import canvas

    rng = random.Random(42)
    words = [
        "revenue",
        "quarter",
        "growth",
        "region",
        "plan",
        "market",
        "product",
        "team",
        "cost",
        "margin",
    ]
    buffer = io.BytesIO()
    pdf = canvas.Canvas(buffer, pagesize=letter, invariant=True)
    for number in range(1, pages + 1):
        pdf.setFont("Helvetica-Bold", 16)
        pdf.drawString(72, 740, f"Section {number}")
        pdf.setFont("Helvetica", 10)
        for line in range(40):
            text = " ".join(rng.choice(words) for _ in range(14))
            pdf.drawString(72, 710 - 15 * line, text)
        pdf.showPage()
    pdf.save()
    return buffer.getvalue()


def make_jpeg(width: int = 4000, height: int = 3000) -> bytes:
    """A 12-megapixel photo-like JPEG: smooth gradients with light noise, quality 90."""
    from PIL import Image, ImageFilter

    gradient = Image.linear_gradient("L").resize((width, height))
    noise = Image.effect_noise((width, height), 24).filter(ImageFilter.GaussianBlur(1))
    image = Image.merge(
        "RGB", (gradient, noise, gradient.transpose(Image.Transpose.FLIP_LEFT_RIGHT))
    )
    buffer = io.BytesIO()
    image.save(buffer, "JPEG", quality=90)
    return buffer.getvalue()


def make_wav(size: int) -> bytes:
    """A silent 16-bit stereo WAV with ``size`` bytes of samples (large files cross the
    worker's pipes twice: the bytes in, the File out)."""
    import wave

    buffer = io.BytesIO()
    with wave.open(buffer, "wb") as out:
        out.setnchannels(2)
        out.setsampwidth(2)
        out.setframerate(44100)
        out.writeframes(bytes(size))
    return buffer.getvalue()


def pdfium_text(data: bytes) -> int:
    import pypdfium2

    document = pypdfium2.PdfDocument(data)
    try:
        chars = 0
        for index in range(len(document)):
            page = document[index]
            textpage = page.get_textpage()
            chars += len(textpage.get_text_bounded())
            textpage.close()
            page.close()
        return chars
    finally:
        document.close()


def pypdf_text(data: bytes) -> int:
    from pypdf import PdfReader

    reader = PdfReader(io.BytesIO(data))
    return sum(len(page.extract_text() or "") for page in reader.pages)


def pypdf_baseline(data: bytes, repeat: int) -> float | None:
    """Median seconds for pypdf to extract ``data``'s text; None when pypdf is missing, so
    the rest of the benchmark still runs."""
    try:
        import pypdf  # noqa: F401
    except ImportError:
        return None
    assert pypdf_text(data) > 0
    return timed(lambda: pypdf_text(data), max(1, repeat // 2))


def bench_pdf(repeat: int) -> None:
    from toolwire.readers import read_file

    data = make_pdf()
    assert pdfium_text(data) > 0
    pdfium = timed(lambda: pdfium_text(data), repeat)
    pypdf = pypdf_baseline(data, repeat)
    with TemporaryDirectory() as folder:
        path = Path(folder) / "long.pdf"
        path.write_bytes(data)
        reads = timed(lambda: [read_file(path, page_start=s) for s in range(0, PAGES, 20)], repeat)
    print(f"PDF text extraction, {PAGES} pages ({len(data) / 1024:.0f} KB):")
    print(f"  pypdfium2            {PAGES / pdfium:8.0f} pages/s  ({pdfium * 1000:.1f} ms)")
    if pypdf is None:
        print("  pypdf                baseline skipped: pypdf is not installed")
        print("                       (pip install -r bench/requirements.txt)")
    else:
        print(f"  pypdf                {PAGES / pypdf:8.0f} pages/s  ({pypdf * 1000:.1f} ms)")
        print(f"  ratio pypdfium2/pypdf {pypdf / pdfium:7.1f}x")
    print(
        f"  toolwire read_file   {PAGES / reads:8.0f} pages/s  (5 reads of 20 pages, "
        "with subset PDFs)"
    )


def bench_image(repeat: int) -> None:
    from toolwire.capability import Cell
    from toolwire.content import File
    from toolwire.imagefit import clear_cache, fit_image
    from toolwire.readers import read_file

    data = make_jpeg()
    photo = File.from_bytes(data, "image/jpeg", "photo.jpg")
    cell = Cell(("image/jpeg",), "native", fit_edge=LONG_SIDE)

    def fit() -> None:
        clear_cache()  # fit_image keeps its results: time the fitting, not the cache
        fit_image(photo, cell)

    draft = timed(fit, repeat)
    full = timed(lambda: fit_without_draft(data), repeat)
    with TemporaryDirectory() as folder:
        path = Path(folder) / "photo.jpg"
        path.write_bytes(data)
        validate = timed(lambda: read_file(path), repeat)
    print(
        f"12-megapixel JPEG (4000x3000, {len(data) / 1024 / 1024:.1f} MB), "
        f"validate + fit to {LONG_SIDE} px:"
    )
    print(f"  fit_image (draft)    {draft * 1000:8.1f} ms")
    print(f"  without draft mode   {full * 1000:8.1f} ms")
    print(f"  ratio                {full / draft:8.1f}x")
    print(f"  read_file (validate only, bytes unchanged) {validate * 1000:.1f} ms")


def fit_without_draft(data: bytes) -> bytes:
    """The baseline: fit_image's resize and encoding, after decoding every pixel."""
    from PIL import Image, ImageOps

    with Image.open(io.BytesIO(data)) as image:
        upright = ImageOps.exif_transpose(image)
        scale = LONG_SIDE / max(upright.size)
        size = (round(upright.width * scale), round(upright.height * scale))
        buffer = io.BytesIO()
        upright.resize(size, Image.Resampling.LANCZOS).save(buffer, "JPEG", quality=85)
    return buffer.getvalue()


def bench_isolation(repeat: int) -> None:
    from toolwire.readers import isolation, read_file

    saved = isolation.settings()
    isolation.shutdown()
    try:
        start = time.perf_counter()
        read_file(EXAMPLES / "notes.md")
        first = time.perf_counter() - start
        print("Isolation: read_file in the read worker against in-process, per read (median):")
        with TemporaryDirectory() as folder:
            large = Path(folder) / "40mb.wav"
            large.write_bytes(make_wav(40 * 1024 * 1024))
            files = [EXAMPLES / "photo.png", EXAMPLES / "report.pdf", EXAMPLES / "memo.docx"]
            for path in [*files, large]:
                isolated, inline = _isolated_and_inline(path, max(repeat, 10))
                print(
                    f"  {path.name:<12} {isolated * 1000:7.1f} ms isolated  "
                    f"{inline * 1000:7.1f} ms in-process  {(isolated - inline) * 1000:+6.1f} ms  "
                    f"ratio {isolated / inline:.2f}x"
                )
        print(f"  first read, starting the worker: {first * 1000:.0f} ms (notes.md)")
    finally:
        isolation.configure(**vars(saved))
        isolation.shutdown()


def _isolated_and_inline(path: Path, repeat: int) -> tuple[float, float]:
    """Median seconds per read with and without isolation, alternating runs so both see the
    same machine load."""
    from toolwire.readers import isolation, read_file

    def read() -> None:
        read_file(path)

    switches = (
        lambda: isolation.configure(enabled=True),
        lambda: isolation.configure(enabled=False),
    )
    return alternating(read, read, repeat, setups=switches)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5, help="timed runs per case (median)")
    args = parser.parse_args()
    bench_pdf(args.repeat)
    bench_image(args.repeat)
    bench_isolation(args.repeat)


if __name__ == "__main__":
    main()
