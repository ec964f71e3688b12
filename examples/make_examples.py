"""Generate the small, real example files in this directory.

Run from anywhere with the project's virtualenv:

    .venv/bin/python examples/make_examples.py

Needs: pillow, reportlab, pypdfium2, python-docx, python-pptx, openpyxl, av (PyAV).
Optional: pillow-heif (only for formats/image.heic; skipped when it is missing,
and an existing image.heic is then left as it is).

Everything is deterministic: fixed random seeds, fixed dates in document
metadata, fixed timestamps inside the Office zip files, and FFmpeg's
"bitexact" flags so the containers carry no random ids or version strings.
Re-running the script with the same library versions gives byte-identical files.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import json
import math
import random
import re
import struct
import sys
import wave
import zipfile
from fractions import Fraction
from pathlib import Path

import av
from PIL import Image, ImageChops, ImageDraw, ImageFilter, ImageFont, ImageOps

HERE = Path(__file__).resolve().parent
FORMATS = HERE / "formats"

# One fixed moment used for every "created"/"modified" date we can set.
FIXED_DATE = dt.datetime(2024, 1, 15, 9, 30, 0)
FIXED_ZIP_TIME = (2024, 1, 15, 9, 30, 0)

# FFmpeg flags: no random stream serials/UIDs, no "Lavf..." version strings.
BITEXACT_CONTAINER = {"fflags": "+bitexact"}
BITEXACT_CODEC = {"flags": "+bitexact"}

TONE_HZ = 440
TONE_RATE = 16_000
TONE_SECONDS = 1.0


def font(size: int) -> ImageFont.FreeTypeFont:
    """Pillow's bundled font (needs Pillow >= 10.1 with FreeType)."""
    return ImageFont.load_default(size=size)


def tone_samples(rate: int = TONE_RATE, seconds: float = TONE_SECONDS) -> bytes:
    """A 440 Hz sine as signed 16-bit little-endian mono PCM."""
    n = int(rate * seconds)
    amp = 0.5 * 32767
    values = (int(round(amp * math.sin(2 * math.pi * TONE_HZ * i / rate))) for i in range(n))
    return struct.pack(f"<{n}h", *values)


# ---------------------------------------------------------------------------
# Images
# ---------------------------------------------------------------------------


def make_photo_png(path: Path) -> None:
    """A photo-like landscape: gradient sky, sun, hills, a house, soft noise."""
    w, h = 640, 480
    # Sky: vertical gradient from deep blue to pale orange.
    grad = Image.linear_gradient("L").resize((w, h))  # 0 at top, 255 at bottom
    r = grad.point(lambda v: 40 + v * 200 // 255)
    g = grad.point(lambda v: 90 + v * 110 // 255)
    b = grad.point(lambda v: 200 - v * 80 // 255)
    img = Image.merge("RGB", (r, g, b))

    draw = ImageDraw.Draw(img)
    # Sun with a glow.
    glow = Image.radial_gradient("L").resize((260, 260))
    glow = glow.point(lambda v: max(0, 255 - v * 2))
    img.paste((255, 230, 160), (390, 20), glow)
    draw.ellipse((470, 100, 550, 180), fill=(255, 240, 190))
    # Hills.
    draw.polygon(
        [(0, 330), (120, 260), (260, 320), (400, 240), (640, 310), (640, 480), (0, 480)],
        fill=(60, 120, 60),
    )
    draw.polygon(
        [(0, 400), (200, 330), (420, 390), (640, 350), (640, 480), (0, 480)], fill=(40, 95, 45)
    )
    # A small house.
    draw.rectangle((120, 340, 200, 400), fill=(170, 90, 60))
    draw.polygon([(110, 340), (160, 300), (210, 340)], fill=(110, 40, 40))
    draw.rectangle((150, 365, 170, 400), fill=(70, 45, 30))
    draw.rectangle((178, 352, 194, 366), fill=(240, 220, 140))
    # A tree.
    draw.rectangle((300, 350, 310, 395), fill=(80, 55, 35))
    draw.ellipse((275, 300, 335, 360), fill=(30, 110, 50))

    img = img.filter(ImageFilter.GaussianBlur(1.5))

    # Gentle luminance noise, generated at half resolution and scaled up so
    # the file stays small; seeded so the output is reproducible.
    rng = random.Random(1234)
    nw, nh = w // 2, h // 2
    noise = Image.frombytes("L", (nw, nh), bytes(rng.randrange(120, 137) for _ in range(nw * nh)))
    noise = noise.resize((w, h), Image.Resampling.BICUBIC)
    noise_rgb = Image.merge("RGB", (noise, noise, noise))
    img = ImageChops.add(img, noise_rgb, scale=1.0, offset=-128)
    img.save(path, optimize=True)


def make_rotated_jpg(path: Path) -> None:
    """Stored 400x300, EXIF Orientation=6: viewers must rotate 90° clockwise.

    We draw the upright picture (300x400, "UP" and an arrow at the top), then
    store it rotated 90° counter-clockwise, which is what a camera held
    sideways would write.
    """
    upright = Image.new("RGB", (300, 400), (245, 245, 235))
    draw = ImageDraw.Draw(upright)
    # Red arrow pointing up at the top.
    draw.polygon(
        [(150, 20), (90, 100), (130, 100), (130, 190), (170, 190), (170, 100), (210, 100)],
        fill=(210, 30, 30),
    )
    draw.text((150, 240), "UP", font=font(72), fill=(20, 20, 120), anchor="mm")
    # A green bar at the bottom to make the orientation doubly obvious.
    draw.rectangle((0, 360, 300, 400), fill=(30, 150, 60))
    draw.text((150, 380), "bottom", font=font(24), fill=(255, 255, 255), anchor="mm")

    stored = upright.transpose(Image.Transpose.ROTATE_90)  # counter-clockwise -> 400x300
    exif = Image.Exif()
    exif[0x0112] = 6  # Orientation: rotate 90 CW to display
    stored.save(path, quality=85, exif=exif.tobytes())


def make_sample_webp(path: Path) -> None:
    """A 320x240 WebP: colour bands and a circle."""
    img = Image.new("RGB", (320, 240), (255, 255, 255))
    draw = ImageDraw.Draw(img)
    colors = [(230, 60, 60), (240, 170, 40), (60, 170, 80), (50, 110, 200)]
    for i, c in enumerate(colors):
        draw.rectangle((i * 80, 0, i * 80 + 79, 120), fill=c)
    draw.ellipse((110, 110, 210, 210), fill=(120, 60, 160))
    draw.text((160, 225), "sample.webp", font=font(16), fill=(0, 0, 0), anchor="mm")
    img.save(path, "WEBP", quality=80, method=6)


def make_image_gif(path: Path) -> None:
    """Animated GIF, 3 frames, 64x48: a dot moving left to right."""
    frames = []
    for i, color in enumerate([(220, 40, 40), (40, 160, 60), (40, 80, 220)]):
        f = Image.new("RGB", (64, 48), (250, 250, 250))
        ImageDraw.Draw(f).ellipse((4 + i * 20, 14, 24 + i * 20, 34), fill=color)
        frames.append(f.convert("P", palette=Image.Palette.ADAPTIVE, colors=8))
    frames[0].save(path, save_all=True, append_images=frames[1:], duration=200, loop=0)


def small_picture(w: int = 64, h: int = 48) -> Image.Image:
    img = Image.new("RGB", (w, h), (240, 240, 240))
    draw = ImageDraw.Draw(img)
    draw.rectangle((4, 4, w // 2, h - 4), fill=(200, 50, 50))
    draw.ellipse((w // 2 - 4, 8, w - 4, h - 8), fill=(50, 90, 200))
    return img


def make_image_bmp(path: Path) -> None:
    small_picture().save(path, "BMP")


def make_image_tiff(path: Path) -> None:
    small_picture().save(path, "TIFF", compression="tiff_deflate")


def make_image_heic(path: Path) -> bool:
    """HEIC needs pillow-heif (HEVC encoder). Returns False when unavailable."""
    try:
        import pillow_heif
    except ImportError:
        return False
    pillow_heif.register_heif_opener()
    small_picture().save(path, "HEIF", quality=60)
    return True


# ---------------------------------------------------------------------------
# Documents
# ---------------------------------------------------------------------------


def scanned_page_image() -> Image.Image:
    """Text rendered to pixels, slightly tilted and grey: a fake scan."""
    img = Image.new("L", (850, 1100), 255)
    draw = ImageDraw.Draw(img)
    draw.text((80, 90), "Appendix: signed approval", font=font(40), fill=0)
    lines = [
        "This page was scanned from paper.",
        "It has no text layer; only OCR can read it.",
        "",
        "Approved by the finance committee",
        "on 12 January 2024.",
        "",
        "Signature: ____________________",
    ]
    y = 200
    for line in lines:
        draw.text((80, y), line, font=font(28), fill=30)
        y += 48
    img = img.rotate(0.8, resample=Image.Resampling.BICUBIC, fillcolor=255)
    return img.point(lambda v: 235 if v > 235 else v)  # scanner-grey paper


def make_report_pdf(path: Path) -> None:
    """3 pages: two with a text layer, the third an image-only "scan"."""
    from reportlab.lib.pagesizes import letter
    from reportlab.lib.utils import ImageReader
    from reportlab.pdfgen import canvas

    width, height = letter
    c = canvas.Canvas(str(path), pagesize=letter, invariant=1, pageCompression=1)
    c.setTitle("Quarterly report")
    c.setAuthor("Toolwire examples")
    c.setSubject("Example PDF for toolwire tests")
    c.setCreator("examples/make_examples.py")
    c.setKeywords("example, report")
    c.setDateFormatter(lambda *a: FIXED_DATE.strftime("D:%Y%m%d%H%M%S+00'00'"))

    # Page 1: title and paragraphs.
    c.setFont("Helvetica-Bold", 24)
    c.drawString(72, height - 90, "Quarterly report")
    c.setFont("Helvetica", 12)
    paragraphs = [
        [
            "Revenue grew 12% over the previous quarter, driven by the new",
            "subscription plans and a strong month of December.",
        ],
        [
            "Operating costs stayed flat. Hiring was paused in October and",
            "resumed in December with two engineers and one designer.",
        ],
        [
            "The outlook for next quarter is cautious but positive; the",
            "details by region are on the next page.",
        ],
    ]
    y = height - 130
    for para in paragraphs:
        for line in para:
            c.drawString(72, y, line)
            y -= 16
        y -= 10
    c.setFont("Helvetica-Oblique", 9)
    c.drawString(72, 50, "Page 1 of 3")
    c.showPage()

    # Page 2: a small table as text lines.
    c.setFont("Helvetica-Bold", 16)
    c.drawString(72, height - 90, "Revenue by region")
    c.setFont("Courier", 11)
    rows = [
        ("Region", "Q3", "Q4", "Change"),
        ("North", "120,000", "134,000", "+11.7%"),
        ("South", "98,000", "110,500", "+12.8%"),
        ("East", "75,250", "83,900", "+11.5%"),
        ("West", "143,100", "161,000", "+12.5%"),
    ]
    y = height - 130
    for row in rows:
        c.drawString(72, y, f"{row[0]:<10}{row[1]:>10}{row[2]:>10}{row[3]:>10}")
        y -= 16
    c.setFont("Helvetica", 12)
    c.drawString(72, y - 20, "All figures in US dollars.")
    c.setFont("Helvetica-Oblique", 9)
    c.drawString(72, 50, "Page 2 of 3")
    c.showPage()

    # Page 3: image only, no text operators at all.
    c.drawImage(ImageReader(scanned_page_image()), 0, 0, width=width, height=height)
    c.showPage()
    c.save()


def normalize_ooxml(path: Path) -> None:
    """Make an Office zip reproducible: fixed entry times and core.xml dates.

    python-docx/python-pptx/openpyxl stamp zip entries with the current time,
    and openpyxl always sets dcterms:modified to "now" when saving.
    """
    stamp = FIXED_DATE.strftime("%Y-%m-%dT%H:%M:%SZ")
    with zipfile.ZipFile(path) as zin:
        entries = [(info, zin.read(info.filename)) for info in zin.infolist()]
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as zout:
        for info, data in entries:
            if info.filename == "docProps/core.xml":
                text = data.decode("utf-8")
                for tag in ("dcterms:created", "dcterms:modified"):
                    text = re.sub(rf"(<{tag}[^>]*>)[^<]*(</{tag}>)", rf"\g<1>{stamp}\g<2>", text)
                data = text.encode("utf-8")
            new = zipfile.ZipInfo(info.filename, date_time=FIXED_ZIP_TIME)
            new.compress_type = zipfile.ZIP_DEFLATED
            new.external_attr = 0o644 << 16
            zout.writestr(new, data)
    path.write_bytes(out.getvalue())


def set_core_properties(props, title: str) -> None:
    props.title = title
    props.author = "Toolwire examples"
    props.last_modified_by = "Toolwire examples"
    props.created = FIXED_DATE
    props.modified = FIXED_DATE
    props.last_printed = FIXED_DATE
    props.revision = 1


def make_memo_docx(path: Path) -> None:
    import docx

    d = docx.Document()
    set_core_properties(d.core_properties, "Memo")
    d.add_heading("Team memo", level=1)
    d.add_paragraph("This memo summarises the decisions from Monday's planning meeting.")
    d.add_paragraph(
        "We agreed to ship the new importer before the end of the month and to "
        "freeze features one week earlier."
    )
    d.add_heading("Action items", level=2)
    for item in ["Alice: finish the importer", "Bob: update the docs", "Carol: plan the release"]:
        d.add_paragraph(item, style="List Bullet")
    table = d.add_table(rows=3, cols=3)
    table.style = "Table Grid"
    cells = [("Owner", "Task", "Due"), ("Alice", "Importer", "Jan 26"), ("Bob", "Docs", "Jan 29")]
    for r, row in enumerate(cells):
        for col, value in enumerate(row):
            table.cell(r, col).text = value
    for cell in table.rows[0].cells:
        for run in cell.paragraphs[0].runs:
            run.bold = True
    d.save(path)
    normalize_ooxml(path)


def make_deck_pptx(path: Path) -> None:
    from pptx import Presentation

    prs = Presentation()
    set_core_properties(prs.core_properties, "Deck")
    slides = [
        (
            "Project update",
            ["Importer is 80% done", "Docs rewrite started"],
            "Open with the good news, then ask for questions.",
        ),
        (
            "Next steps",
            ["Feature freeze on Jan 19", "Release on Jan 31"],
            "Remind everyone about the freeze date.",
        ),
    ]
    layout = prs.slide_layouts[1]  # Title and Content
    for title, bullets, notes in slides:
        slide = prs.slides.add_slide(layout)
        slide.shapes.title.text = title
        body = slide.placeholders[1].text_frame
        body.text = bullets[0]
        for b in bullets[1:]:
            body.add_paragraph().text = b
        slide.notes_slide.notes_text_frame.text = notes
    prs.save(path)
    normalize_ooxml(path)


SALES_HEADER = ["Date", "Region", "Product", "Units", "Unit price", "Total"]


def sales_rows() -> list[list]:
    rng = random.Random(42)
    regions = ["North", "South", "East", "West"]
    products = ["Widget", "Gadget", "Gizmo"]
    rows = []
    for i in range(10):
        units = rng.randint(1, 50)
        price = rng.choice([4.5, 9.99, 19.0])
        rows.append(
            [
                dt.date(2024, 1, 2 + i).isoformat(),
                regions[i % 4],
                products[i % 3],
                units,
                price,
                round(units * price, 2),
            ]
        )
    return rows


def make_sheet_xlsx(path: Path) -> None:
    from openpyxl import Workbook

    wb = Workbook()
    ws = wb.active
    ws.title = "Sales"
    ws.append(SALES_HEADER)
    for row in sales_rows():
        ws.append(row)
    wb.properties.creator = "Toolwire examples"
    wb.properties.title = "Sales"
    wb.properties.created = FIXED_DATE
    wb.properties.modified = FIXED_DATE
    wb.save(path)
    normalize_ooxml(path)


def make_data_csv(path: Path) -> None:
    with path.open("w", newline="", encoding="utf-8") as f:
        writer = csv.writer(f, lineterminator="\n")
        writer.writerow(SALES_HEADER)
        writer.writerows(sales_rows())


def make_notes_md(path: Path) -> None:
    path.write_text(
        "# Release notes\n"
        "\n"
        "Short notes for the **January** release.\n"
        "\n"
        "## Changes\n"
        "\n"
        "- New importer for CSV and Excel files\n"
        "- Faster PDF text extraction\n"
        "- Fixed rotated JPEG previews\n"
        "\n"
        "## Example\n"
        "\n"
        "```python\n"
        "from toolwire import load\n"
        "\n"
        'result = load("examples/report.pdf")\n'
        "print(result)\n"
        "```\n",
        encoding="utf-8",
    )


DIAGRAM_SVG = """\
<svg xmlns="http://www.w3.org/2000/svg" width="240" height="120" viewBox="0 0 240 120">
  <title>Tool result flowing to an LLM</title>
  <rect x="10" y="30" width="80" height="50" rx="6" fill="#cfe3ff" stroke="#2a5db0"/>
  <line x1="90" y1="55" x2="145" y2="55" stroke="#333" stroke-width="2"/>
  <polygon points="145,49 157,55 145,61" fill="#333"/>
  <circle cx="195" cy="55" r="35" fill="#ffe1b3" stroke="#b06a00"/>
  <g font-family="sans-serif" font-size="14" text-anchor="middle">
    <text x="50" y="60">Tool</text>
    <text x="195" y="60">LLM</text>
  </g>
</svg>
"""


def make_diagram_svg(path: Path) -> None:
    path.write_text(DIAGRAM_SVG, encoding="utf-8")


def make_page_html(path: Path) -> None:
    path.write_text(
        "<!DOCTYPE html>\n"
        '<html lang="en">\n'
        '<head><meta charset="utf-8"><title>Example page</title></head>\n'
        "<body>\n"
        "  <h1>Example page</h1>\n"
        "  <p>A tiny HTML document for media-type sniffing tests.</p>\n"
        "</body>\n"
        "</html>\n",
        encoding="utf-8",
    )


def make_plain_txt(path: Path) -> None:
    path.write_text(
        "Plain text example.\nTwo short lines, UTF-8: caf\u00e9, na\u00efve.\n", encoding="utf-8"
    )


def make_data_json(path: Path) -> None:
    data = {
        "name": "toolwire example",
        "version": 1,
        "tags": ["json", "example"],
        "values": [1, 2.5, None, True],
    }
    path.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")


# ---------------------------------------------------------------------------
# Audio and video (PyAV)
# ---------------------------------------------------------------------------


def add_audio_stream(container, codec: str, rate: int = TONE_RATE, options: dict | None = None):
    stream = container.add_stream(codec, rate=rate, options={**BITEXACT_CODEC, **(options or {})})
    stream.layout = "mono"
    return stream


def encode_tone(container, stream) -> None:
    """Encode the 1 s tone into `stream` (frames sized for the encoder)."""
    ctx = stream.codec_context
    rate = ctx.sample_rate
    frame_size = ctx.frame_size or 1024  # 0 means "any size" (flac, pcm)
    src = av.AudioFrame(format="s16", layout="mono", samples=int(rate * TONE_SECONDS))
    src.planes[0].update(tone_samples(rate))
    src.sample_rate = rate
    src.pts = 0
    src.time_base = Fraction(1, rate)
    resampler = av.AudioResampler(
        format=ctx.format, layout="mono", rate=rate, frame_size=frame_size
    )
    pts = 0
    for frame in [*resampler.resample(src), *resampler.resample(None)]:
        frame.pts = pts
        frame.time_base = Fraction(1, rate)
        pts += frame.samples
        container.mux(stream.encode(frame))
    container.mux(stream.encode(None))


def write_tone(container, codec: str, rate: int = TONE_RATE, options: dict | None = None) -> None:
    """Add one audio stream to an open output container and encode the tone."""
    encode_tone(container, add_audio_stream(container, codec, rate, options))


def open_output(path: Path, fmt: str | None = None):
    return av.open(str(path), "w", format=fmt, container_options=BITEXACT_CONTAINER)


def make_tone_wav(path: Path) -> None:
    with wave.open(str(path), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(TONE_RATE)
        w.writeframes(tone_samples())


def make_tone_mp3(path: Path) -> None:
    # "mp3" resolves to libmp3lame in PyAV's bundled FFmpeg.
    with open_output(path, "mp3") as c:
        write_tone(c, "libmp3lame", options={"b": "32k"})


def make_audio_flac(path: Path) -> None:
    with open_output(path, "flac") as c:
        write_tone(c, "flac")


def make_audio_ogg(path: Path) -> None:
    # Opus in Ogg (libopus). libvorbis is not in PyAV's build; FFmpeg's native
    # "vorbis" encoder is experimental, so Opus is the better choice.
    with open_output(path, "ogg") as c:
        write_tone(c, "libopus", options={"b": "24k"})


def make_audio_m4a(path: Path) -> None:
    # AAC (FFmpeg's native encoder) in an MP4/M4A ("ipod") container.
    with open_output(path, "ipod") as c:
        write_tone(c, "aac", options={"b": "32k"})


def square_frames(w: int, h: int, count: int):
    """Frames with a red square moving left to right over a blue gradient."""
    bg = Image.linear_gradient("L").rotate(90).resize((w, h))
    bg = Image.merge(
        "RGB",
        (bg.point(lambda v: v // 4), bg.point(lambda v: v // 3), bg.point(lambda v: 120 + v // 3)),
    )
    side = h // 3
    for i in range(count):
        img = bg.copy()
        x = int((w - side) * i / max(1, count - 1))
        ImageDraw.Draw(img).rectangle((x, h // 3, x + side, h // 3 + side), fill=(230, 40, 40))
        yield img


def add_video_stream(
    container,
    codec: str,
    w: int,
    h: int,
    fps: int,
    options: dict | None = None,
    pix_fmt: str = "yuv420p",
):
    stream = container.add_stream(codec, rate=fps, options={**BITEXACT_CODEC, **(options or {})})
    stream.width, stream.height = w, h
    stream.pix_fmt = pix_fmt
    stream.codec_context.thread_count = 1  # single thread => reproducible output
    return stream


def encode_squares(container, stream, seconds: float = 1.0) -> None:
    ctx = stream.codec_context
    fps = int(ctx.framerate)
    for i, img in enumerate(square_frames(ctx.width, ctx.height, int(fps * seconds))):
        frame = av.VideoFrame.from_image(img).reformat(format=ctx.pix_fmt)
        frame.pts = i
        frame.time_base = Fraction(1, fps)
        container.mux(stream.encode(frame))
    container.mux(stream.encode(None))


def write_video(
    container, codec: str, w: int, h: int, fps: int, options: dict | None = None
) -> None:
    """Add one video stream to an open output container and encode 1 s of frames."""
    encode_squares(container, add_video_stream(container, codec, w, h, fps, options))


X264_SMALL = {"preset": "veryslow", "crf": "32", "tune": "animation"}


def make_clip_mp4(path: Path) -> None:
    # H.264 via libx264, plus a 1 s AAC track (the tone).
    with open_output(path, "mp4") as c:
        # Both streams must exist before the first packet is written.
        video = add_video_stream(c, "libx264", 160, 120, 10, options=X264_SMALL)
        audio = add_audio_stream(c, "aac", options={"b": "24k"})
        encode_squares(c, video)
        encode_tone(c, audio)


def make_video_mov(path: Path) -> None:
    # H.264 (libx264) in QuickTime.
    with open_output(path, "mov") as c:
        write_video(c, "libx264", 96, 64, 5, options=X264_SMALL)


def make_video_webm(path: Path) -> None:
    # VP9 (libvpx-vp9) in WebM.
    with open_output(path, "webm") as c:
        write_video(
            c,
            "libvpx-vp9",
            96,
            64,
            5,
            options={"crf": "40", "b": "0", "deadline": "good", "cpu-used": "4"},
        )


# ---------------------------------------------------------------------------
# Verification
# ---------------------------------------------------------------------------


class CheckFailed(Exception):
    pass


def check(cond: bool, message: str) -> None:
    if not cond:
        raise CheckFailed(message)


def media_duration(path: Path) -> float:
    with av.open(str(path)) as c:
        if c.duration is not None:
            return c.duration / av.time_base
        s = c.streams[0]
        return float(s.duration * s.time_base)


def verify(heic_made: bool) -> None:
    import docx
    import openpyxl
    import pypdfium2 as pdfium
    from pptx import Presentation

    # Images.
    expected_images = {
        HERE / "photo.png": ("PNG", (640, 480)),
        HERE / "rotated.jpg": ("JPEG", (400, 300)),
        HERE / "sample.webp": ("WEBP", (320, 240)),
        FORMATS / "image.gif": ("GIF", (64, 48)),
        FORMATS / "image.bmp": ("BMP", (64, 48)),
        FORMATS / "image.tiff": ("TIFF", (64, 48)),
    }
    for p, (fmt, size) in expected_images.items():
        with Image.open(p) as im:
            im.load()
            check(im.format == fmt, f"{p.name}: format {im.format} != {fmt}")
            check(im.size == size, f"{p.name}: size {im.size} != {size}")
    with Image.open(HERE / "photo.png") as im:
        check(im.mode == "RGB", "photo.png must be RGB")
    with Image.open(FORMATS / "image.gif") as im:
        check(getattr(im, "n_frames", 1) == 3, "image.gif must have 3 frames")
    with Image.open(HERE / "rotated.jpg") as im:
        check(im.getexif().get(0x0112) == 6, "rotated.jpg: EXIF orientation must be 6")
        upright = ImageOps.exif_transpose(im)
        check(upright.size == (300, 400), f"rotated.jpg displays as {upright.size}")
        # The red arrow tip must be at the top once rotated.
        r, g, b = upright.getpixel((150, 80))
        check(r > 150 and g < 100 and b < 100, "rotated.jpg: arrow not at the top once rotated")
    heic = FORMATS / "image.heic"
    if heic_made:
        import pillow_heif

        pillow_heif.register_heif_opener()
        with Image.open(heic) as im:
            check(im.size == (64, 48), "image.heic size")
    if heic.exists():
        check(heic.read_bytes()[4:12] == b"ftypheic", "image.heic: missing ftypheic brand")

    # PDF.
    pdf = pdfium.PdfDocument(str(HERE / "report.pdf"))
    try:
        check(len(pdf) == 3, f"report.pdf has {len(pdf)} pages")
        texts = [pdf[i].get_textpage().get_text_range() for i in range(3)]
    finally:
        pdf.close()
    check("Quarterly report" in texts[0], "report.pdf page 1 lacks the title text")
    check("North" in texts[1] and "Region" in texts[1], "report.pdf page 2 lacks the table text")
    check(texts[2].strip() == "", f"report.pdf page 3 must have no text, got {texts[2]!r}")

    # Office.
    d = docx.Document(str(HERE / "memo.docx"))
    styles = [p.style.name for p in d.paragraphs]
    check("Heading 1" in styles and "Heading 2" in styles, "memo.docx headings")
    check(styles.count("List Bullet") == 3, "memo.docx bullet list")
    check(
        len(d.tables) == 1 and len(d.tables[0].rows) == 3 and len(d.tables[0].columns) == 3,
        "memo.docx 3x3 table",
    )
    prs = Presentation(str(HERE / "deck.pptx"))
    check(len(prs.slides) == 2, "deck.pptx must have 2 slides")
    for s in prs.slides:
        check(s.shapes.title.text != "", "deck.pptx slide title")
        check(s.has_notes_slide and s.notes_slide.notes_text_frame.text != "", "deck.pptx notes")
    wb = openpyxl.load_workbook(str(HERE / "sheet.xlsx"))
    check(wb.sheetnames == ["Sales"], "sheet.xlsx sheet name")
    check(wb["Sales"].max_row == 11, "sheet.xlsx must have header + 10 rows")
    with (HERE / "data.csv").open(newline="", encoding="utf-8") as f:
        check(len(list(csv.reader(f))) == 11, "data.csv must have header + 10 rows")
    json.loads((FORMATS / "data.json").read_text(encoding="utf-8"))

    # Audio and video.
    with wave.open(str(HERE / "tone.wav")) as w:
        check(
            (w.getnchannels(), w.getsampwidth(), w.getframerate(), w.getnframes())
            == (1, 2, TONE_RATE, TONE_RATE),
            "tone.wav parameters",
        )
    media = {
        HERE / "tone.wav": ("audio", "pcm_s16le"),
        HERE / "tone.mp3": ("audio", "mp3"),
        HERE / "clip.mp4": ("video", "h264"),
        FORMATS / "audio.flac": ("audio", "flac"),
        FORMATS / "audio.ogg": ("audio", "opus"),
        FORMATS / "audio.m4a": ("audio", "aac"),
        FORMATS / "video.mov": ("video", "h264"),
        FORMATS / "video.webm": ("video", "vp9"),
    }
    for p, (kind, codec) in media.items():
        with av.open(str(p)) as c:
            streams = c.streams.video if kind == "video" else c.streams.audio
            check(len(streams) == 1, f"{p.name}: expected one {kind} stream")
            name = streams[0].codec.canonical_name
            check(name == codec, f"{p.name}: codec {name} != {codec}")
        duration = media_duration(p)
        check(0.8 <= duration <= 1.3, f"{p.name}: duration {duration:.3f}s")
    with av.open(str(HERE / "clip.mp4")) as c:
        v = c.streams.video[0]
        check((v.width, v.height) == (160, 120), "clip.mp4 size")
        check(sum(1 for _ in c.decode(video=0)) == 10, "clip.mp4 must have 10 frames")

    # SVG is XML with a <text>.
    import xml.etree.ElementTree as ET

    root = ET.fromstring((HERE / "diagram.svg").read_text(encoding="utf-8"))
    check(root.find(".//{http://www.w3.org/2000/svg}text") is not None, "diagram.svg <text>")


# ---------------------------------------------------------------------------


def main() -> int:
    FORMATS.mkdir(exist_ok=True)
    makers = [
        (HERE / "photo.png", make_photo_png),
        (HERE / "rotated.jpg", make_rotated_jpg),
        (HERE / "sample.webp", make_sample_webp),
        (HERE / "report.pdf", make_report_pdf),
        (HERE / "memo.docx", make_memo_docx),
        (HERE / "deck.pptx", make_deck_pptx),
        (HERE / "sheet.xlsx", make_sheet_xlsx),
        (HERE / "data.csv", make_data_csv),
        (HERE / "notes.md", make_notes_md),
        (HERE / "tone.wav", make_tone_wav),
        (HERE / "tone.mp3", make_tone_mp3),
        (HERE / "clip.mp4", make_clip_mp4),
        (HERE / "diagram.svg", make_diagram_svg),
        (FORMATS / "image.gif", make_image_gif),
        (FORMATS / "image.bmp", make_image_bmp),
        (FORMATS / "image.tiff", make_image_tiff),
        (FORMATS / "audio.flac", make_audio_flac),
        (FORMATS / "audio.ogg", make_audio_ogg),
        (FORMATS / "audio.m4a", make_audio_m4a),
        (FORMATS / "video.mov", make_video_mov),
        (FORMATS / "video.webm", make_video_webm),
        (FORMATS / "page.html", make_page_html),
        (FORMATS / "plain.txt", make_plain_txt),
        (FORMATS / "data.json", make_data_json),
    ]
    for path, make in makers:
        make(path)

    heic = FORMATS / "image.heic"
    heic_made = make_image_heic(heic)
    if not heic_made:
        print(
            "note: pillow-heif not installed; image.heic "
            + ("left unchanged" if heic.exists() else "skipped"),
            file=sys.stderr,
        )

    paths = [p for p, _ in makers] + ([heic] if heic.exists() else [])
    total = 0
    for p in paths:
        size = p.stat().st_size
        total += size
        print(f"{size:>9,}  {p.relative_to(HERE)}")
    print(f"{total:>9,}  total")

    check(total < 2 * 1024 * 1024, f"examples total {total:,} bytes exceeds 2 MiB")
    check((HERE / "photo.png").stat().st_size < 300 * 1024, "photo.png over 300 KiB")
    verify(heic_made)
    print("verified: all files open and look right")
    return 0


if __name__ == "__main__":
    sys.exit(main())
