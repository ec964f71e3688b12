"""Text files (readers/text.py): encodings, binary refused, paging, caps on huge files."""

from __future__ import annotations

import pytest

from toolwire.errors import InvalidFileError
from toolwire.readers import limits, read_file

from .helpers import copy_example, outcome


def test_a_markdown_file_is_returned_as_text_only(tmp_path):
    path = copy_example("notes.md", tmp_path)
    result = read_file(path)
    assert len(result.value) == 1
    text = result.value[0].text
    assert text.startswith("notes.md: Markdown text, UTF-8, 274 B. Lines 1-")
    assert text.split("\n\n", 1)[1].startswith("# Release notes")


def test_lines_are_paged_with_offset_and_limit(tmp_path):
    path = tmp_path / "count.txt"
    path.write_text("".join(f"line {n}\n" for n in range(1, 5001)))
    first = read_file(path).value[0].text
    assert "Lines 1-2000 of 5000. Use offset=2000 to continue." in first
    assert first.endswith("line 2000")
    middle = read_file(path, offset=2000, limit=10).value[0].text
    assert "Lines 2001-2010 of 5000. Use offset=2010 to continue." in middle
    assert middle.split("\n\n", 1)[1].splitlines() == [f"line {n}" for n in range(2001, 2011)]


def test_an_offset_past_the_end_is_explained(tmp_path):
    path = tmp_path / "short.txt"
    path.write_text("one\ntwo\n")
    with pytest.raises(InvalidFileError, match=r"offset=2 is past the end \(2 lines\)"):
        read_file(path, offset=2)


@pytest.mark.parametrize(
    ("encoding", "label"),
    [("utf-8-sig", "UTF-8 with BOM"), ("utf-16", "UTF-16"), ("cp1252", "cp1252")],
)
def test_the_encoding_is_detected_and_named(tmp_path, encoding, label):
    path = tmp_path / "letter.txt"
    content = "Grüße aus Köln — schöne Straße.\nÇa va très bien, merci à tous.\n"
    path.write_bytes(content.encode(encoding))
    text = read_file(path).value[0].text
    assert f"letter.txt: text, {label}," in text
    assert "Grüße aus Köln" in text and "merci à tous" in text


def test_cyrillic_in_a_legacy_code_page_is_decoded(tmp_path):
    path = tmp_path / "ru.txt"
    content = (
        "Привет, как дела? Это проверка кодировки текста. Москва — столица России, а "
        "Санкт-Петербург — культурная столица. Здесь много музеев, театров и парков.\n"
    )
    path.write_bytes(content.encode("cp1251"))
    text = read_file(path).value[0].text
    assert "ru.txt: text, cp1251," in text and content.strip() in text


def test_a_binary_file_named_txt_is_refused(tmp_path):
    path = tmp_path / "data.txt"
    path.write_bytes(bytes(range(256)) * 40)
    error = outcome(lambda: read_file(path))
    assert isinstance(error, InvalidFileError)
    assert str(error).startswith("data.txt: its bytes match no format read_file reads")


def test_a_huge_text_file_is_read_only_up_to_the_cap(tmp_path):
    path = tmp_path / "huge.log"
    line = "x" * 99 + "\n"
    with path.open("w") as fh:
        for _ in range(3):
            fh.write(line * (limits.MAX_TEXT_BYTES // len(line)))  # 30 MB in all
    result = outcome(lambda: read_file(path))
    header = result.value[0].text.splitlines()[0]
    assert "only the first 10 MB are read" in header
    assert "Lines 1-2000 of the first 104857. Use offset=2000 to continue." in header


def test_overlong_lines_are_cut_and_say_how_much_was_left_out(tmp_path):
    path = tmp_path / "minified.json"
    path.write_text('{"k": "' + "v" * (limits.MAX_LINE_CHARS + 500) + '"}\n')
    text = read_file(path).value[0].text
    assert "… [line cut: 509 more characters]" in text


def test_a_read_stops_at_the_character_cap_and_says_where_to_continue(tmp_path):
    path = tmp_path / "wide.txt"
    path.write_text(("y" * 9000 + "\n") * 100)
    text = read_file(path).value[0].text
    shown = limits.MAX_TEXT_CHARS // 9001
    assert f"Lines 1-{shown} of 100. Use offset={shown} to continue." in text
