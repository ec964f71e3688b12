"""The caps read_file enforces, in one place, so each limit is a fact that can be looked up.

Every cap bounds either memory or time on hostile input: a file that exceeds a hard cap is
refused with an InvalidFileError naming the cap; text-like files over their read cap are read
up to it and the output says so.
"""

from __future__ import annotations

MB = 1024 * 1024

#: Images: larger files are refused before decoding.
MAX_IMAGE_BYTES = 50 * MB
#: Pixel count above which an image is a decompression bomb (set as Pillow's MAX_IMAGE_PIXELS).
MAX_IMAGE_PIXELS = 64_000_000
#: Animated images with more frames than this are refused (each frame is a decode).
MAX_IMAGE_FRAMES = 1000
#: JPEG quality used when an EXIF-rotated JPEG has to be re-encoded (fixed: deterministic).
JPEG_QUALITY = 90

#: PDFs: larger files are refused (Anthropic's and OpenAI's own request limit is 32 MB).
MAX_PDF_BYTES = 32 * MB
#: Pages extracted by one read when page_end is not given.
PDF_PAGES_PER_READ = 20
#: Pages one read extracts at most, even when a wider range is asked for.
PDF_MAX_PAGES_PER_READ = 100
#: Image-only pages rendered per read; further ones are named so the caller can page to them.
PDF_MAX_RENDERED_PAGES = 10
#: Resolution of rendered page images, and the cap on their long side in pixels.
PDF_RENDER_DPI = 150
PDF_RENDER_MAX_SIDE = 2000

#: Office documents (zip containers): compressed size, total uncompressed size, member count,
#: and the compression ratio a large member may have before it is treated as a zip bomb.
MAX_OFFICE_BYTES = 50 * MB
MAX_UNZIPPED_BYTES = 256 * MB
MAX_ZIP_MEMBERS = 10_000
MAX_ZIP_RATIO = 200
#: Members smaller than this are exempt from the ratio check (tiny XML parts compress well).
ZIP_RATIO_MIN_BYTES = 1 * MB
#: Bytes at the start of each .xml/.rels member searched for a DTD (Office Open XML needs
#: none; a DTD is how an entity bomb gets in); the root element must begin within them.
XML_PROLOG_BYTES = 4 * 1024
#: Table rows shown per sheet (XLSX) or file (CSV) when no limit is given; columns are capped too.
TABLE_ROWS_PER_READ = 500
MAX_TABLE_COLUMNS = 50
#: Sheets of a workbook that are read.
MAX_SHEETS = 20

#: Text files: bytes read (the rest of a larger file is not read), lines per read by default,
#: characters per line before it is cut, and characters per read.
MAX_TEXT_BYTES = 10 * MB
TEXT_LINES_PER_READ = 2000
MAX_LINE_CHARS = 10_000
MAX_TEXT_CHARS = 400_000
#: Bytes sampled to tell text from binary and to detect a legacy encoding.
TEXT_SAMPLE_BYTES = 64 * 1024

#: SVG: larger files are refused; a rasterised PNG's long side is at most this many pixels.
MAX_SVG_BYTES = 5 * MB
SVG_RASTER_MAX_SIDE = 2048

#: Audio and video: larger files are refused (no provider takes more inline).
MAX_MEDIA_BYTES = 100 * MB

#: The read worker (readers/isolation.py) every file is parsed in: its address-space limit
#: (RLIMIT_AS, POSIX only; 0 means none), the wall-clock limit per file after which it is
#: killed and restarted, and how many workers concurrent reads may use. Change them with
#: ``toolwire.readers.isolation.configure(...)`` or TOOLWIRE_READ_MEMORY_MB,
#: TOOLWIRE_READ_SECONDS, TOOLWIRE_READ_WORKERS; TOOLWIRE_READ_ISOLATION=0 parses in-process.
READ_MEMORY_BYTES = 2048 * MB
READ_SECONDS = 30.0
READ_WORKERS = 2
#: The longest a read waits for a free worker (all of them busy with other files) before it
#: is refused: a few hostile files must not hold up an unrelated read for minutes.
READ_QUEUE_SECONDS = 30.0
