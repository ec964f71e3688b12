"""The hostile corpus (issue 19): every attack found against read_file, each read in a child
process under a memory cap and a deadline, with its peak memory and wall time asserted.

Each file is built by code (tests/readers/hostile_files.py), scaled so the corpus is made in
seconds while every file still costs the undefended readers minutes or gigabytes. A case
passes when the read ends in time, within the memory bound, with exit status 0 and no
traceback, and with the outcome named: the InvalidFileError of the defence that stops it
(naming the file and the limit), or a correct, bounded output.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from . import hostile_documents as documents
from . import hostile_files as hostile
from .child_read import read_in_child
from .helpers import need_cairosvg

#: CPU time a read may take (the child's and its read worker's), start-up (about 1 s)
#: included: CPU time, unlike wall time, does not grow when other work shares the machine.
#: The undefended readers take 20 s to minutes on the files here, or run out of memory.
CPU_SECONDS = 10.0
#: Wall time after which the child is killed (a hang), however busy the machine is.
DEADLINE = 90.0
#: Peak resident memory of the child (and of the read worker it waits for), in MB. An
#: ordinary read peaks near 70 MB; the undefended readers reach gigabytes.
PEAK_MB = 500.0
#: Peak resident memory of the child alone: the host, which never decodes the file (issue 33).
HOST_PEAK_MB = 300.0
MB = 1024 * 1024
GB = 1024 * MB


@dataclass(frozen=True)
class Case:
    """One hostile file, and the outcome a defended reader gives."""

    name: str
    build: Callable[[], bytes]
    expect: str  # a regex the error message (or the output's header) must match
    error: str | None = "InvalidFileError"  # None: the read succeeds
    environment: dict[str, str] = field(default_factory=dict)


REFUSED = [
    Case(
        "forms-drawing-each-other-25-deep.pdf",
        lambda: documents.pdf_form_recursion(25),
        r"memory limit of 384 MB",
        error="ResourceLimitError",
        # pdfium has no knob for form recursion: the read worker's memory limit stops it.
        environment={"TOOLWIRE_READ_MEMORY_MB": "384"},
    ),
    Case(
        "content-stream-inflating-to-4-GB.pdf",
        lambda: documents.pdf_inflating_stream(4 * GB),
        r"a stream at byte \d+ inflates to more than 256 MB",
    ),
    Case(
        "4-GB-stream-after-a-line-of-junk-and-cr.pdf",
        lambda: documents.pdf_inflating_stream(4 * GB, b" " * 5000 + b"\r"),
        r"a stream at byte \d+ inflates to more than 256 MB",
    ),
    Case(
        "flate-inside-flate-to-4-GB.pdf",
        lambda: documents.pdf_nested_flate(4 * GB),
        r"a stream at byte \d+ inflates to more than 256 MB",
    ),
    Case(
        "20-pages-sharing-a-million-text-operators.pdf",
        lambda: documents.pdf_text_operators(1_000_000, 20),
        r"page 1 alone draws 1,000,000 objects; one read covers at most 500,000",
    ),
    Case(
        "3-pages-of-300000-text-operators.pdf",
        lambda: documents.pdf_text_operators(300_000, 3),
        r"pages 1-2 draw more than 500,000 objects, .*\(page_start=0, page_end=1\)",
    ),
    Case(
        "120000-compressed-streams.pdf",
        lambda: documents.pdf_many_streams(120_000),
        r"holds more than 100,000 compressed streams",
    ),
    Case(
        "progressive-5000-scans.jpg",
        lambda: hostile.jpeg_many_scans(8000, 5000),
        r"5001 scans of 64\.0 megapixels; .*more than 500 scans",
    ),
    Case(
        "60000-one-pixel-pages.tif",
        lambda: hostile.tiff_many_pages(60_000),
        r"more than 1000 frames; images with more than 1000 frames are refused",
    ),
    Case(
        "600000-txxx-frames.mp3",
        lambda: hostile.mp3_many_txxx(600_000),
        r"more than 2,000 ID3 tag frames",
    ),
    Case(
        "4-million-chunks.wav",
        lambda: hostile.wav_many_chunks(4_000_000),
        r"more than 10,000 RIFF chunks",
    ),
    Case(
        "id3-chunk-of-500000-frames.wav",
        lambda: hostile.wav_id3_many_txxx(500_000),
        r"more than 2,000 ID3 tag frames",
    ),
    Case(
        "4-million-metadata-blocks.flac",
        lambda: hostile.flac_many_blocks(4_000_000),
        r"more than 10,000 FLAC metadata blocks",
    ),
    Case(
        "a-million-ilst-tags.mp4",
        lambda: hostile.mp4_many_ilst_items(1_000_000),
        r"more than 100,000 MP4 boxes",
    ),
    Case(
        "5-million-atoms.mp4",
        lambda: hostile.mp4_many_atoms(5_000_000),
        r"more than 100,000 MP4 boxes",
    ),
    Case(
        "6-million-shared-strings.xlsx",
        lambda: documents.xlsx_shared_strings(6_000_000),
        r"shared strings table holds more than 250,000 entries",
    ),
    Case(
        "240-headers-of-1-MB.docx",
        lambda: documents.docx_many_headers(240, 1_000_000),
        r"XML parts unpack to 230 MB; .*more than 40 MB of XML is refused",
    ),
    Case(
        "240-headers-named-bin.docx",
        lambda: documents.docx_many_headers(240, 1_000_000, ".bin"),
        r"XML parts unpack to 230 MB; .*more than 40 MB of XML is refused",
    ),
    Case(
        "200-MB-of-empty-paragraphs.docx",
        lambda: documents.docx_huge_document(200 * MB),
        r"XML parts unpack to 2\d\d MB; .*more than 40 MB of XML is refused",
    ),
]


NOT_RASTERISED = [
    Case(
        "gzip-bomb-in-an-image-data-url.svg",
        lambda: hostile.svg_gzip_bomb_image(3 * GB),
        r"not rasterised \(a data: URL unpacks to more than 8 MB\)",
        error=None,
    ),
    Case(
        "use-bomb-in-an-image-data-url.svg",
        hostile.svg_nested_use_bomb,
        r"not rasterised \(in an SVG in a data: URL, its <use> references expand past "
        r"100000 elements\)",
        error=None,
    ),
    Case(
        "20000-by-20000-png-in-a-data-url.svg",
        lambda: hostile.svg_png_bomb_image(20_000),
        r"not rasterised \(its embedded images hold more than 32,000,000 pixels\)",
        error=None,
    ),
    Case(
        "svg-in-svg-5-deep.svg",
        lambda: hostile.svg_nested(5),
        r"not rasterised \(.*it embeds SVGs more than 3 levels deep\)",
        error=None,
    ),
    Case(
        "use-bomb-of-embedded-svgs.svg",
        hostile.svg_use_bomb_of_embedded_svgs,
        r"not rasterised \(its <use> references expand past 100000 elements\)",
        error=None,
    ),
    Case(
        "40000-finely-dashed-lines.svg",
        lambda: hostile.svg_dashed_lines(40_000),
        r"not rasterised \(about [0-9.e+]+ dashes to draw, over the limit of 2,000,000\)",
        error=None,
    ),
    Case(
        "width-1e400.svg",
        hostile.svg_infinite_width,
        r"not rasterised \(its size infx10 is over 1e\+07 px or infinite\)",
        error=None,
    ),
]


@pytest.mark.parametrize("case", REFUSED, ids=lambda case: case.name)
@pytest.mark.slow
def test_hostile_file_ends_in_a_named_error_within_time_and_memory(
    case: Case, tmp_path: Path
) -> None:
    path = tmp_path / case.name
    path.write_bytes(case.build())
    read = read_in_child(path, DEADLINE, environment=case.environment)
    assert read.status == 0, f"the read was killed or crashed ({read.status}): {read.stderr}"
    assert "Traceback" not in read.stderr
    assert read.cpu_seconds < CPU_SECONDS, f"{read.cpu_seconds:.1f} s of CPU"
    assert read.peak_mb < PEAK_MB, f"peak memory {read.peak_mb:.0f} MB"
    assert read.host_mb < HOST_PEAK_MB, f"host peak memory {read.host_mb:.0f} MB"
    assert read.result.get("error") == case.error, read.result
    assert read.message.startswith(case.name), read.message
    assert re.search(case.expect, read.message), read.message
    assert "MemoryError" not in read.message


@pytest.mark.parametrize("case", NOT_RASTERISED, ids=lambda case: case.name)
@pytest.mark.slow
def test_hostile_svg_is_returned_as_source_without_a_png_within_time_and_memory(
    case: Case, tmp_path: Path
) -> None:
    need_cairosvg()  # without it nothing is rasterised, hostile or not
    path = tmp_path / case.name
    source = case.build()
    path.write_bytes(source)
    read = read_in_child(path, DEADLINE)
    assert read.status == 0, f"the read was killed or crashed ({read.status}): {read.stderr}"
    assert "Traceback" not in read.stderr
    assert read.cpu_seconds < CPU_SECONDS, f"{read.cpu_seconds:.1f} s of CPU"
    assert read.peak_mb < PEAK_MB, f"peak memory {read.peak_mb:.0f} MB"
    assert read.host_mb < HOST_PEAK_MB, f"host peak memory {read.host_mb:.0f} MB"
    assert "error" not in read.result, read.result
    assert read.message.startswith(f"{case.name}: SVG image, "), read.message
    assert re.search(case.expect, read.message), read.message
    assert read.result["parts"] == [], "no PNG"
    assert source.decode()[:200] in read.result["text"], "the source is returned"


def test_a_large_jpeg_reports_its_stored_size_not_the_draft_decode_size(tmp_path: Path) -> None:
    path = tmp_path / "photo-4000x3000.jpg"
    path.write_bytes(hostile.jpeg_photo(4000, 3000))
    read = read_in_child(path, DEADLINE)
    assert read.status == 0, read.stderr
    assert read.message.startswith("photo-4000x3000.jpg: JPEG image, 4000x3000, "), read.message
    assert read.result["parts"] == ["image/jpeg"]
    assert read.cpu_seconds < CPU_SECONDS
    assert read.peak_mb < PEAK_MB
