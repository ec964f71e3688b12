"""Real files for the conversion tests, made here: PDFs, office documents, video, images.

Every maker is deterministic (fixed content, invariant PDFs, fixed encoder settings), so a
file made twice has the same bytes.
"""

from __future__ import annotations

import io
import wave
import zipfile
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path

#: The colour of the video in each whole second (frame counter drawn on top).
SECOND_COLOURS = [(220, 30, 30), (30, 200, 30), (30, 30, 220), (230, 230, 40)]
FPS = 10


def pdf(pages: list[str | None]) -> bytes:
    """A letter-size PDF: each str a page of text with that content, None a scanned page
    (an image with no text layer)."""
    from PIL import Image, ImageDraw
    from reportlab.lib.pagesizes import letter
    from reportlab.lib.utils import ImageReader
    from reportlab.pdfgen import canvas

    buffer = io.BytesIO()
    sheet = canvas.Canvas(buffer, pagesize=letter, invariant=True)
    for number, text in enumerate(pages, 1):
        if text is None:
            scan = Image.new("L", (425, 550), 235)
            ImageDraw.Draw(scan).rectangle((40, 60, 380, 120), fill=20)
            sheet.drawImage(ImageReader(scan), 0, 0, *letter)
        else:
            sheet.setFont("Helvetica", 14)
            sheet.drawString(72, 720, f"Section {number}")
            for row, line in enumerate(text.split("\n")):
                sheet.drawString(72, 690 - 18 * row, line)
        sheet.showPage()
    sheet.save()
    return buffer.getvalue()


def docx() -> bytes:
    """A Word document with a heading, a paragraph and a 2x3 table."""
    import docx as python_docx

    document = python_docx.Document()
    document.add_heading("Quarterly memo", level=1)
    document.add_paragraph("Revenue grew in every region this quarter.")
    table = document.add_table(rows=3, cols=2)
    for row, (region, amount) in enumerate(
        [("Region", "Revenue"), ("North", "120"), ("South", "95")]
    ):
        table.cell(row, 0).text = region
        table.cell(row, 1).text = amount
    buffer = io.BytesIO()
    document.save(buffer)
    return buffer.getvalue()


def pptx() -> bytes:
    """A one-slide deck with a title and a bullet."""
    from pptx import Presentation

    deck = Presentation()
    slide = deck.slides.add_slide(deck.slide_layouts[1])
    slide.shapes.title.text = "Roadmap"
    slide.placeholders[1].text = "Ship conversions in March"
    buffer = io.BytesIO()
    deck.save(buffer)
    return buffer.getvalue()


def xlsx() -> bytes:
    """A workbook with one sheet of three rows."""
    import openpyxl

    book = openpyxl.Workbook()
    sheet = book.active
    sheet.title = "Sales"
    for row in [("Product", "Units"), ("Widget", 42), ("Gadget", 7)]:
        sheet.append(row)
    buffer = io.BytesIO()
    book.save(buffer)
    return buffer.getvalue()


def video(seconds: int = 4, codec: str = "libx264", size: tuple[int, int] = (160, 120)) -> bytes:
    """An MP4 of ``seconds`` s at ``FPS`` frames a second: second k is ``SECOND_COLOURS[k]``,
    with the frame number drawn in the corner."""
    import av
    from PIL import Image, ImageDraw

    buffer = io.BytesIO()
    with av.open(buffer, mode="w", format="mp4") as container:
        stream = container.add_stream(codec, rate=FPS)
        stream.width, stream.height = size
        stream.pix_fmt = "yuv420p"
        stream.time_base = Fraction(1, FPS)
        stream.codec_context.thread_count = 1
        for index in range(seconds * FPS):
            image = Image.new("RGB", size, SECOND_COLOURS[index // FPS % len(SECOND_COLOURS)])
            ImageDraw.Draw(image).text((4, 4), str(index), fill=(255, 255, 255))
            frame = av.VideoFrame.from_image(image)
            frame.pts = index
            container.mux(stream.encode(frame))
        container.mux(stream.encode(None))
    return buffer.getvalue()


def mp3(seconds: float = 2.0) -> bytes:
    """An MP3 of silence, ``seconds`` long, encoded by PyAV (libmp3lame)."""
    import av

    buffer = io.BytesIO()
    with av.open(buffer, mode="w", format="mp3") as container:
        stream = container.add_stream("libmp3lame", rate=44100)
        stream.layout = "mono"
        samples = int(44100 * seconds)
        for start in range(0, samples, 1152):
            count = min(1152, samples - start)
            frame = av.AudioFrame(format="s16", layout="mono", samples=count)
            frame.planes[0].update(bytes(frame.planes[0].buffer_size))
            frame.sample_rate = 44100
            frame.pts = start
            container.mux(stream.encode(frame))
        container.mux(stream.encode(None))
    return buffer.getvalue()


def wav(seconds: float = 1.0, rate: int = 8000) -> bytes:
    """A mono 16-bit WAV of silence."""
    buffer = io.BytesIO()
    with wave.open(buffer, "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(rate)
        out.writeframes(b"\x00\x00" * int(rate * seconds))
    return buffer.getvalue()


SVG = (
    b'<svg xmlns="http://www.w3.org/2000/svg" width="120" height="80">'
    b'<rect width="120" height="80" fill="#ff0000"/><circle cx="60" cy="40" r="20" fill="#0000ff"/>'
    b"</svg>"
)


def photo(width: int = 96, height: int = 64) -> object:
    """A PIL image with smooth gradients (many colours, no alpha): a photo."""
    from PIL import Image

    image = Image.new("RGB", (width, height))
    image.putdata(
        [
            (x * 255 // width, y * 255 // height, (x + y) % 256)
            for y in range(height)
            for x in range(width)
        ]
    )
    return image


def image_bytes(fmt: str, *, alpha: bool = False) -> bytes:
    """A photo (or, with ``alpha``, a flat drawing with transparency) saved as ``fmt``."""
    from PIL import Image

    if alpha:
        image = Image.new("RGBA", (64, 48), (0, 0, 0, 0))
        image.paste((10, 120, 200, 255), (8, 8, 40, 40))
    else:
        image = photo()
    if fmt == "HEIF":
        import pillow_heif

        pillow_heif.register_heif_opener()
    buffer = io.BytesIO()
    image.save(buffer, fmt)
    return buffer.getvalue()


def _pdf_objects(objects: list[bytes]) -> bytes:
    """A PDF of these numbered objects (1 is the catalog), with its cross-reference table."""
    out, offsets = bytearray(b"%PDF-1.4\n"), []
    for number, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n%s\nendobj\n" % (number, body)
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (
        len(objects) + 1,
        xref,
    )
    return bytes(out)


def pdf_bomb(depth: int = 25) -> bytes:
    """A 6 KB PDF whose form XObjects each draw the next one twice, ``depth`` levels deep:
    rendering it makes pdfium allocate without bound, then abort."""
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] "
        b"/Resources << /XObject << /X 5 0 R >> >> /Contents 4 0 R >>",
        b"<< /Length 4 >>\nstream\n/X Do\nendstream",
    ]
    for level in range(depth):
        body, resources = b"0 0 m 200 200 l S", b""
        if level < depth - 1:
            body = b"q .5 0 0 .5 0 0 cm /X Do Q q .5 0 0 .5 100 100 cm /X Do Q"
            resources = b"/Resources << /XObject << /X %d 0 R >> >>" % (6 + level)
        objects.append(
            b"<< /Type /XObject /Subtype /Form /BBox [0 0 200 200] %s /Length %d >>\n"
            b"stream\n%s\nendstream" % (resources, len(body), body)
        )
    return _pdf_objects(objects)


def pdf_inflating_stream(megabytes: int) -> bytes:
    """A one-page PDF whose Flate content stream inflates to ``megabytes`` MB of spaces."""
    import zlib

    packer = zlib.compressobj(9)
    chunk = b" " * (1024 * 1024)
    stream = b"".join(packer.compress(chunk) for _ in range(megabytes)) + packer.flush()
    return _pdf_objects(
        [
            b"<< /Type /Catalog /Pages 2 0 R >>",
            b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] /Contents 4 0 R >>",
            b"<< /Length %d /Filter /FlateDecode >>\nstream\n%s\nendstream" % (len(stream), stream),
        ]
    )


def raw_pdf(content: bytes) -> bytes:
    """A one-page letter PDF written byte by byte: ``content`` is its content stream, and
    ``/F1`` is Helvetica with no encoding and no Unicode map (so pdfium gives the text's
    character codes back as they are)."""
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R "
        b"/Resources << /Font << /F1 5 0 R >> >> >>",
        b"<< /Length %d >>\nstream\n" % len(content) + content + b"\nendstream",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    ]
    return _pdf_objects(objects)


def soup_pdf() -> bytes:
    """A page whose text layer is glyph codes 1-30 (control characters), three times over:
    what a font without a Unicode map gives."""
    codes = bytes(code for code in range(1, 31) if code not in (10, 13))
    return raw_pdf(b"BT /F1 14 Tf 72 700 Td (" + codes * 3 + b") Tj ET")


def blank_pdf() -> bytes:
    """A page that draws only a white rectangle: something drawn, nothing visible."""
    return raw_pdf(b"1 1 1 rg 100 100 200 200 re f")


def docx_with_pictures() -> bytes:
    """A Word document with a paragraph and two pictures (a red square with alt text, then a
    blue one without), made with python-docx."""
    import docx as python_docx
    from docx.shared import Inches
    from PIL import Image

    document = python_docx.Document()
    document.add_paragraph("The logo, then the badge.")
    for colour in ((200, 30, 30), (30, 30, 200)):
        buffer = io.BytesIO()
        Image.new("RGB", (120, 80), colour).save(buffer, "PNG")
        document.add_picture(io.BytesIO(buffer.getvalue()), width=Inches(1))
    first = document.inline_shapes[0]._inline.docPr
    first.set("descr", "A red square")
    for picture in document.element.body.iter(
        "{http://schemas.openxmlformats.org/drawingml/2006/picture}cNvPr"
    ):
        picture.set("descr", "A red square")
        break
    buffer = io.BytesIO()
    document.save(buffer)
    return buffer.getvalue()


def pdf_with_picture(share: float) -> bytes:
    """A letter page with a line of text and a grey picture covering ``share`` of the page."""
    from PIL import Image
    from reportlab.lib.pagesizes import letter
    from reportlab.lib.utils import ImageReader
    from reportlab.pdfgen import canvas

    buffer = io.BytesIO()
    sheet = canvas.Canvas(buffer, pagesize=letter, invariant=True)
    sheet.setFont("Helvetica", 14)
    sheet.drawString(72, 740, "Figure 1 shows the quarterly revenue.")
    width, height = letter
    side = (share * width * height) ** 0.5
    picture = Image.new("L", (100, 100), 90)
    sheet.drawImage(ImageReader(picture), 40, 40, side, side)
    sheet.showPage()
    sheet.save()
    return buffer.getvalue()


def rewritten(path: Path, member: str, change: Callable[[bytes], bytes]) -> bytes:
    """The office file at ``path`` with its zip ``member`` changed by ``change``."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(path) as source, zipfile.ZipFile(buffer, "w") as target:
        for info in source.infolist():
            data = source.read(info)
            target.writestr(info, change(data) if info.filename == member else data)
    return buffer.getvalue()
