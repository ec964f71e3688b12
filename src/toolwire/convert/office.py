"""DOCX, PPTX, XLSX, CSV/TSV and HTML as Markdown text, through read_file's readers.

For a target that reads images, a DOCX's or PPTX's pictures follow the text as images
(convert/pictures.py), within the conversion's image budget.

Runs in the read worker. The readers' own caps apply (``MAX_TEXT_CHARS`` of text, the first
``TABLE_ROWS_PER_READ`` rows of each table, ``MAX_SHEETS`` sheets); their header line is kept,
so the model reads what the file is and how much of it follows
(``memo.docx: Word document (DOCX), 36 KB. Lines 1-40 of 40.``).
"""

from __future__ import annotations

import re

from ..content import Text
from ..headers import human_size
from ..mediatypes import DOCX, PPTX, XLSX
from ..messages import ContentOutput
from ..readers.common import Job, Reader, header, label
from ..readers.office import read_office
from ..readers.tables import read_csv
from ..readers.text import decode, page_lines, split_lines
from . import html
from .jobs import ConvertJob, Outcome, reply
from .pictures import pictures

#: Media types converted to Markdown, and the reader that does it.
READERS: dict[str, Reader] = {
    DOCX: read_office,
    PPTX: read_office,
    XLSX: read_office,
    "text/csv": read_csv,
    "text/tab-separated-values": read_csv,
}
MARKDOWN_TYPES = frozenset({*READERS, "text/html"})
#: read_file's paging hint names its own arguments, which mean nothing after a conversion.
_CONTINUE = re.compile(r" Use offset=\d+ to continue\.")


def to_markdown(job: ConvertJob) -> ContentOutput:
    """The document as one Text: the reader's header line, then its Markdown."""
    if job.media_type == "text/html":
        text = _html(job)
    else:
        first = READERS[job.media_type](job).value[0]
        assert isinstance(first, Text)
        text = _CONTINUE.sub(" The rest is left out.", first.text)
    images, note = pictures(job) if job.budget else ([], "")
    reason = f"converted {label(job.media_type)} to Markdown text ({len(text):,} characters)"
    return reply(Outcome((Text(text=text), *images), "text", reason + note))


def _html(job: Job) -> str:
    source, _encoding = decode(job.data, job.name)
    lines = split_lines(html.markdown(source))
    body, summary = page_lines(lines, 0, job.options.limit, job.name)
    summary = _CONTINUE.sub(" The rest is left out.", summary)
    head = header(job, human_size(job.size), "converted to Markdown")
    return f"{head} {summary}\n\n{body}" if body else head
