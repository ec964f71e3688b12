"""A real Wikipedia infobox read as Markdown (readers/html.py), by convert and by read_file.

The file is listed in corpus/README.md.
"""

from __future__ import annotations

import pytest

from toolwire.errors import InvalidFileError
from toolwire.readers.core import read_file
from toolwire.readers.tool import read_file_tool

from .test_docx_corpus import CORPUS, body

INFOBOX = "wikipedia-microsoft-infobox.html"


def test_links_in_table_cells_stay_in_their_cells():
    text = body(INFOBOX)
    assert "[](" not in text
    assert "| Website | [microsoft.com](https://www.microsoft.com/) |" in text
    assert "| Company type | [Public](/wiki/Public_company) |" in text


def test_list_items_and_line_breaks_in_a_cell_do_not_glue_words():
    text = body(INFOBOX)
    assert (
        "| Founders | - [Bill Gates](/wiki/Bill_Gates)<br>- [Paul Allen](/wiki/Paul_Allen) |"
        in (text)
    )
    headquarters = "| Headquarters | [One Microsoft Way](/wiki/One_Microsoft_Way),<br>[Redmond,"
    assert headquarters in text


def test_images_keep_their_alt_text_and_the_caption_comes_before_the_table():
    text = body(INFOBOX)
    assert text.startswith("Microsoft Corporation\n\n| [![A square divided into four sub-squares")
    assert "| Revenue | ![Increase](//upload.wikimedia.org/" in text


def test_read_file_gives_html_as_its_markdown():
    result = read_file(CORPUS / INFOBOX)
    text = result.value[0].text
    assert text.startswith(f"{INFOBOX}: HTML text, UTF-8, 20 KB, converted to Markdown")
    assert "| Founders | - [Bill Gates](/wiki/Bill_Gates)<br>" in text
    assert "<td" not in text and "class=" not in text


def test_read_file_gives_the_source_on_request():
    text = read_file(CORPUS / INFOBOX, raw=True).value[0].text
    assert text.startswith(f"{INFOBOX}: HTML text, UTF-8, 20 KB. Lines 1-")
    assert '<table class="infobox vcard">' in text


def test_the_markdown_is_much_shorter_than_the_source():
    markdown = read_file(CORPUS / INFOBOX).value[0].text
    source = read_file(CORPUS / INFOBOX, raw=True).value[0].text
    assert len(markdown) * 2 < len(source)


def test_the_read_file_tool_takes_raw_and_refuses_a_non_boolean():
    tool = read_file_tool.bind(CORPUS)
    assert "<table" in tool(path=INFOBOX, raw=True).value[0].text
    with pytest.raises(InvalidFileError, match="raw='yes' is not allowed"):
        read_file(CORPUS / INFOBOX, raw="yes")  # type: ignore[arg-type]
