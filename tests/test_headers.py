"""Header facts: image sizes, JPEG orientation, PDF page count, WAV duration, human sizes."""

from __future__ import annotations

import io
import struct
import wave
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from PIL import Image

from toolwire import headers
from toolwire.headers import human_size, image_size, jpeg_orientation, pdf_page_count, wav_duration

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def example(name: str) -> bytes:
    return (EXAMPLES / name).read_bytes()


def pillow_bytes(fmt: str, size: tuple[int, int] = (37, 23), mode: str = "RGB", **options) -> bytes:
    buffer = io.BytesIO()
    Image.new(mode, size, "red").save(buffer, fmt, **options)
    return buffer.getvalue()


@pytest.mark.parametrize(
    ("name", "size"),
    [
        ("photo.png", (640, 480)),
        ("rotated.jpg", (400, 300)),  # as stored; the EXIF orientation is a separate fact
        ("sample.webp", (320, 240)),
        ("formats/image.gif", (64, 48)),
        ("formats/image.bmp", (64, 48)),
    ],
)
def test_image_size_of_example_files(name, size):
    assert image_size(example(name)) == size


@pytest.mark.parametrize(
    ("fmt", "options", "chunk"),
    [
        ("WEBP", {}, b"VP8 "),
        ("WEBP", {"lossless": True}, b"VP8L"),
        ("WEBP", {"exif": Image.Exif().tobytes()}, b"VP8X"),
    ],
)
def test_image_size_reads_every_webp_chunk_layout(fmt, options, chunk):
    data = pillow_bytes(fmt, **options)
    assert data[12:16] == chunk
    assert image_size(data) == (37, 23)


@pytest.mark.parametrize(
    ("fmt", "options"),
    [("JPEG", {}), ("JPEG", {"progressive": True}), ("GIF", {}), ("PNG", {}), ("BMP", {})],
)
def test_image_size_of_baseline_progressive_and_other_pillow_images(fmt, options):
    assert image_size(pillow_bytes(fmt, **options)) == (37, 23)


def test_image_size_of_a_top_down_bmp_is_positive():
    data = bytearray(pillow_bytes("BMP"))
    data[22:26] = struct.pack("<i", -23)  # negative height = rows stored top-down
    assert image_size(bytes(data)) == (37, 23)


@pytest.mark.parametrize("name", ["formats/image.tiff", "formats/image.heic", "report.pdf"])
def test_image_size_is_none_where_no_header_parser_exists(name):
    assert image_size(example(name)) is None


@pytest.mark.parametrize(
    "data",
    [
        b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR",
        b"RIFF\x00\x00\x00\x00WEBPVP8X",
        b"RIFF\x00\x00\x00\x00WEBPVP8L\x00\x00",
        b"RIFF\x00\x00\x00\x00WEBPVP8 ",
        b"GIF89a\x01",
        b"BM\x00\x00",
        b"\xff\xd8\xff\xe0\x00\x10JFIF",
    ],
)
def test_truncated_headers_give_none_not_a_made_up_size(data):
    assert image_size(data) is None


def _with_exif(jpeg: bytes, tiff: bytes) -> bytes:
    """The JPEG with an APP1 Exif segment holding ``tiff`` right after its SOI marker."""
    payload = b"Exif\x00\x00" + tiff
    return jpeg[:2] + b"\xff\xe1" + struct.pack(">H", len(payload) + 2) + payload + jpeg[2:]


def _tiff_orientation(endian: str, value: int) -> bytes:
    order = b"II" if endian == "<" else b"MM"
    header = order + struct.pack(endian + "HI", 42, 8)
    entry = struct.pack(endian + "HHIHH", 0x0112, 3, 1, value, 0)
    return header + struct.pack(endian + "H", 1) + entry + struct.pack(endian + "I", 0)


def test_jpeg_orientation_of_the_rotated_example_is_6():
    assert jpeg_orientation(example("rotated.jpg")) == 6


@pytest.mark.parametrize("endian", ["<", ">"])
@pytest.mark.parametrize("value", [1, 3, 6, 8])
def test_jpeg_orientation_reads_both_byte_orders(endian, value):
    data = _with_exif(pillow_bytes("JPEG"), _tiff_orientation(endian, value))
    assert image_size(data) == (37, 23)
    assert jpeg_orientation(data) == value


@pytest.mark.parametrize(
    "data",
    [
        pillow_bytes("JPEG"),  # no EXIF at all
        _with_exif(pillow_bytes("JPEG"), _tiff_orientation("<", 9)),  # out of range
        _with_exif(pillow_bytes("JPEG"), b"II*\x00\xff\xff\x00\x00"),  # IFD offset past the end
        example("photo.png"),
    ],
)
def test_jpeg_orientation_defaults_to_1(data):
    assert jpeg_orientation(data) == 1


def test_pdf_page_count_of_the_example_report_is_read_from_its_page_tree():
    assert headers._tree_count(example("report.pdf")) == pdf_page_count(example("report.pdf")) == 3


def test_pdf_page_count_counts_page_objects_where_there_is_no_table():
    assert pdf_page_count(b"%PDF-1.7\n1 0 obj << /Type /Pages /Count 0 >> endobj") is None
    assert pdf_page_count(b"<< /Type/Page >> << /Type /Page>>") == 2


def _pdf(pages: int, image: bytes = b"", length: str | None = None) -> bytes:
    """A PDF of ``pages`` pages whose first page draws a stream of ``image`` bytes; ``length``
    replaces the stream's /Length entry (an indirect reference, a wrong figure)."""
    stream = b"q 10 0 0 10 0 0 cm /Im0 Do Q % /Type /Page said inside a stream\n" + image
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [%s] /Count %d >>"
        % (b" ".join(b"%d 0 R" % (4 + n) for n in range(pages)), pages),
        b"<< /Length "
        + (length or str(len(stream))).encode()
        + b" >>\nstream\n"
        + stream
        + b"\nendstream",
        *(b"<< /Type /Page /Parent 2 0 R /Contents 3 0 R >>" for _ in range(pages)),
    ]
    out = b"%PDF-1.7\n"
    for n, body in enumerate(objects, 1):
        out += b"%d 0 obj\n" % n + body + b"\nendobj\n"
    return out + b"trailer << /Root 1 0 R >>\n%%EOF\n"


@pytest.mark.parametrize("pages", [1, 3, 40])
def test_pdf_page_count_steps_over_streams(pages: int) -> None:
    """A page object is never inside a stream: text that looks like one there is not counted,
    and a scanned page's image bytes are stepped over, not searched."""
    assert pdf_page_count(_pdf(pages, image=b"\xff" * 100_000)) == pages


@pytest.mark.parametrize("length", ["3 0 R", "5", "999999"])
def test_a_stream_that_cannot_be_stepped_over_sends_the_count_to_the_whole_file(
    length: str,
) -> None:
    """An indirect or wrong /Length: every page object in the file is counted, as before
    (the one said inside the content stream too)."""
    assert pdf_page_count(_pdf(3, length=length)) == 4


def test_pdf_page_count_agrees_with_pdfium_on_pdfs_made_by_a_library() -> None:
    for pages in (1, 2, 7):
        assert pdf_page_count(_pdfium_file(pages)) == pages


def _pdfium_pages(data: bytes) -> int:
    import pypdfium2

    document = pypdfium2.PdfDocument(data)
    try:
        return len(document)
    finally:
        document.close()


def _pdfium_file(pages: int) -> bytes:
    import pypdfium2

    document = pypdfium2.PdfDocument.new()
    for _ in range(pages):
        document.new_page(200, 300)
    buffer = io.BytesIO()
    document.save(buffer)
    return buffer.getvalue()


def test_a_page_an_edit_removed_is_not_counted() -> None:
    """An incremental save appends the edited objects and a new table: the page objects of
    the first save stay in the file, so counting them says 2 × 12 - 1; the page tree says 11,
    as a PDF reader does."""
    import pypdfium2

    document = pypdfium2.PdfDocument(_pdfium_file(12))
    document.del_page(4)
    buffer = io.BytesIO()
    document.save(buffer, flags=1)  # FPDF_INCREMENTAL
    data = buffer.getvalue()
    assert data.count(b"startxref") == 2
    assert pdf_page_count(data) == _pdfium_pages(data) == 11


def _with_table(objects: list[bytes], trailer: bytes = b"/Root 1 0 R") -> bytes:
    """A PDF of ``objects`` (numbered from 1) with a cross-reference table and a trailer."""
    out, offsets = b"%PDF-1.4\n", []
    for number, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n%s\nendobj\n" % (number, body)
    rows = b"".join(b"%010d 00000 n\r\n" % offset for offset in offsets)
    table = b"xref\n0 %d\n0000000000 65535 f\r\n%s" % (len(objects) + 1, rows)
    return out + table + b"trailer\n<<%s>>\nstartxref\n%d\n%%%%EOF\n" % (trailer, len(out))


def _tree(count: bytes, pages: int = 3, kids: int | None = None) -> list[bytes]:
    """A catalog, a page tree that says ``count`` of its first ``kids`` pages, and ``pages``
    page objects."""
    listed = b" ".join(b"%d 0 R" % (3 + n) for n in range(pages if kids is None else kids))
    return [
        b"<</Type/Catalog/PageLabels 9 0 R/Pages2 9 0 R/Pages 2 0 R>>",
        b"<</Type/Pages/Kids[%s]/Count %s>>" % (listed, count),
        *(b"<</Type/Page/Parent 2 0 R>>" for _ in range(pages)),
    ]


@pytest.mark.parametrize(
    "objects",
    [
        _tree(b"3"),
        _tree(b"3\n/Resources<<>>"),
        _tree(b"2", pages=3, kids=2),
        _tree(b"7", 7),
        [b"<</Type/Catalog/Pages 2 0 R>>", b"<</Count 2/Kids[3 0 R 4 0 R]>>", *_tree(b"2")[2:]],
    ],
)
def test_pdf_page_count_reads_the_count_of_the_page_tree(objects: list[bytes]) -> None:
    """``/Count`` as written, compact (``/Count 3>>``, ``/Count 2/Kids[3 0 R``) too, as a PDF
    reader counts: a page object the tree does not hold (one an edit left behind) is not a
    page; a longer name that starts as the key does (``/Pages2``) is not the key."""
    data = _with_table(objects)
    assert headers._tree_count(data) == pdf_page_count(data) == _pdfium_pages(data)


def test_an_update_that_lists_only_what_it_changed_is_read_through_prev() -> None:
    """The update's table lists only the page tree it rewrote: the catalog is in the table
    before it (``/Prev``)."""
    first = _with_table(_tree(b"3"))
    update = b"2 0 obj\n<</Type/Pages/Kids[3 0 R 4 0 R]/Count 2>>\nendobj\n"
    table = b"xref\n2 1\n%010d 00000 n\r\n" % len(first)
    prev = first.index(b"\nxref\n") + 1
    tail = b"trailer\n<</Root 1 0 R/Prev %d>>\nstartxref\n%d\n%%%%EOF\n" % (
        prev,
        len(first) + len(update),
    )
    data = first + update + table + tail
    assert headers._tree_count(data) == pdf_page_count(data) == _pdfium_pages(data) == 2
    # A line in the update's table that is neither a subsection nor the trailer: the tree is
    # not read (following /Prev from there would find the page tree the update replaced).
    damaged = data.replace(b"xref\n2 1\n", b"xref\n% edited\n2 1\n")
    assert headers._tree_count(damaged) is None


@pytest.mark.parametrize(
    "broken",
    [
        lambda data: data.replace(b"%PDF-1.4\n", b"%PDF-1.4\n% a line an editor added\n"),
        lambda data: data.replace(b"/Root 1 0 R", b"/Root 77 0 R"),  # not in the table
        lambda data: data.replace(
            b"/Root 1 0 R", b"/Root 77 0 R/Prev %d" % (data.index(b"\nxref\n") + 1)
        ),  # an object in no table, and a /Prev that points back at its own table
        lambda data: data.replace(b"/Kids", b"/Kidz"),  # the catalog points at no tree
        lambda data: data.replace(b"xref\n0 6", b"xref\n0 6\n7 0"),  # a row out of place
        lambda data: data[: data.rindex(b"startxref")] + b"startxref\n5\n%%EOF\n",  # no table
        lambda data: data.replace(b"/Root 1 0 R", b"/Root 1 0 R/XRefStm 9"),  # a hybrid file
        lambda data: data.replace(b" 00000 n\r\n", b" 00000 f\r\n", 1),  # the catalog freed
        lambda data: data.replace(b"/Root 1 0 R", b"/Root 1 1 R"),  # another generation
        lambda data: data.replace(b"\r\n", b"\n"),  # rows of 19 bytes
        lambda data: data.replace(b" 00000 n", b"\t00000 n"),  # not a space: not the standard
        lambda _: _with_table(_tree(b"9 0 R", pages=3)),  # an indirect count
        lambda _: _with_table(_tree(b"2000000", pages=3)),  # pdfium counts the kids instead
    ],
)
def test_a_table_not_as_the_standard_writes_it_sends_the_count_to_the_page_objects(
    broken,
) -> None:
    """The tree says 5 (read where the table is whole), the file holds 3 page objects."""
    whole = _with_table(_tree(b"5", pages=3))
    assert pdf_page_count(whole) == 5
    data = broken(whole)
    assert data != whole
    assert headers._tree_count(data) is None
    assert pdf_page_count(data) == 3


class _Scanned(bytes):
    """Bytes that add up how many bytes each ``find`` and ``rfind`` searches."""

    searched = 0

    def find(self, sub, start=0, end=None):  # type: ignore[override]
        _Scanned.searched += (len(self) if end is None else min(end, len(self))) - start
        return super().find(sub, start, end)

    def rfind(self, sub, start=0, end=None):  # type: ignore[override]
        _Scanned.searched += (len(self) if end is None else min(end, len(self))) - start
        return super().rfind(sub, start, end)


def test_a_prev_that_loops_past_a_large_trailer_is_not_searched_again_and_again() -> None:
    """Each trailer is searched within a few KB, and a /Prev back to its own table ends: the
    tree's read searches about the file once, not once per loop."""
    head = b"%PDF-1.4\n1 0 obj\n<</Type/Catalog/Pages 2 0 R>>\nendobj\n"
    for pad in (100, 1_000_000):
        xref = len(head)
        table = b"xref\n0 2\n0000000000 65535 f\r\n0000000009 00000 n\r\n"
        trailer = b"trailer\n<</Root 9 0 R%s/Prev %d>>\n" % (b" " * pad, xref)
        data = _Scanned(head + table + trailer + b"startxref\n%d\n%%%%EOF\n" % xref)
        _Scanned.searched = 0
        assert headers._tree_count(data) is None
        assert _Scanned.searched < 64 * 10_000


def test_the_subsections_read_are_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    """A table of endless empty subsections is not walked to its end: the count of the page
    objects takes over."""
    data = _with_table(_tree(b"5", pages=3)).replace(b"\nxref\n", b"\nxref\n" + b"1 0\n" * 20)
    assert pdf_page_count(data) == 5
    monkeypatch.setattr(headers, "_MAX_SUBSECTIONS", 10)
    assert pdf_page_count(data) == 3


def _wav(seconds: float, rate: int, channels: int, width: int) -> bytes:
    buffer = io.BytesIO()
    with wave.open(buffer, "wb") as out:
        out.setnchannels(channels)
        out.setsampwidth(width)
        out.setframerate(rate)
        out.writeframes(b"\x00" * int(seconds * rate) * channels * width)
    return buffer.getvalue()


def test_wav_duration_of_the_example_tone_is_one_second():
    assert wav_duration(example("tone.wav")) == pytest.approx(1.0)


@pytest.mark.parametrize(
    ("rate", "channels", "width"), [(8000, 1, 1), (44100, 2, 2), (48000, 2, 3)]
)
def test_wav_duration_uses_the_byte_rate(rate, channels, width):
    assert wav_duration(_wav(0.5, rate, channels, width)) == pytest.approx(0.5)


def test_wav_duration_skips_chunks_before_data_including_odd_sized_ones():
    data = _wav(0.25, 16000, 1, 2)
    data_at = data.index(b"data")
    extra = b"LIST" + struct.pack("<I", 3) + b"abc" + b"\x00"  # odd size + pad byte
    assert wav_duration(data[:data_at] + extra + data[data_at:]) == pytest.approx(0.25)


@pytest.mark.parametrize("data", [example("tone.mp3"), b"RIFF\x00\x00\x00\x00WAVE", b""])
def test_wav_duration_is_none_when_there_is_no_data_chunk(data):
    assert wav_duration(data) is None


@pytest.mark.parametrize(
    ("n", "text"),
    [
        (0, "0 B"),
        (1023, "1023 B"),
        (1024, "1.0 KB"),
        (1536, "1.5 KB"),
        (24 * 1024 + 300, "24 KB"),
        (1_258_291, "1.2 MB"),
        (3 * 1024**3, "3.0 GB"),
        (5 * 1024**4, "5120 GB"),
    ],
)
def test_human_size(n, text):
    assert human_size(n) == text


SIGNATURES = [b"", b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", b"\xff\xd8", b"RIFF\x00\x00\x00\x00WEBP"]
SIGNATURES += [
    b"RIFF\x00\x00\x00\x00WAVE",
    b"GIF89a",
    b"BM",
    b"\xff\xd8\xff\xe1\x00\x10Exif\x00\x00",
]


@given(st.sampled_from(SIGNATURES), st.binary(max_size=300))
def test_header_readers_never_raise_on_malformed_input(signature, tail):
    data = signature + tail
    size = image_size(data)
    assert size is None or len(size) == 2
    assert 1 <= jpeg_orientation(data) <= 8
    assert pdf_page_count(data) is None or pdf_page_count(data) >= 1
    assert wav_duration(data) is None or wav_duration(data) >= 0


def test_pages_in_an_object_stream_are_counted_as_before() -> None:
    """An uncompressed object stream (/ObjStm) may hold the page objects: it is searched, not
    stepped over (the audit's case: two pages, both inside one)."""
    import pypdfium2

    pages = b"<</Type/Page/Parent 2 0 R/MediaBox[0 0 10 10]>>" * 2
    head = b"3 0 4 %d " % (len(pages) // 2)
    body = head + pages
    stream = b"<</Type/ObjStm/N 2/First %d/Length %d>>\nstream\n" % (len(head), len(body))
    out, offsets = b"%PDF-1.5\n", []
    for n, obj in enumerate(
        [b"<</Type/Catalog/Pages 2 0 R>>", b"<</Type/Pages/Kids[3 0 R 4 0 R]/Count 2>>",
         stream + body + b"\nendstream"],
        start=1,
    ):  # fmt: skip
        offsets.append(len(out))
        out += b"%d 0 obj\n" % (n if n < 3 else 5) + obj + b"\nendobj\n"
    rows = [(0, 0, 65535), (1, offsets[0], 0), (1, offsets[1], 0), (2, 5, 0), (2, 5, 1)]
    rows += [(1, offsets[2], 0), (1, len(out), 0)]
    xref = b"".join(struct.pack(">BIH", *row) for row in rows)
    trailer = b"<</Type/XRef/Size 7/W[1 4 2]/Root 1 0 R/Length %d>>\nstream\n" % len(xref)
    start = len(out)
    out += b"6 0 obj\n" + trailer + xref + b"\nendstream\nendobj\nstartxref\n%d\n%%%%EOF\n" % start
    assert len(pypdfium2.PdfDocument(out)) == 2
    assert pdf_page_count(out) == 2


def test_a_font_files_length1_after_its_length_does_not_stop_the_step_over_streams() -> None:
    """``/Length1`` (a font file's) after ``/Length``: the stream is still stepped over, so a
    page object said inside it is not counted."""
    pdf = _pdf(2).replace(b"<< /Length ", b"<< /Length1 7 /Length ", 1)
    pdf = pdf.replace(b" >>\nstream\n", b" /Length2 9 >>\nstream\n", 1)
    assert pdf_page_count(pdf) == 2
