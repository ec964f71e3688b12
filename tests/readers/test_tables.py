"""CSV/TSV and table paging (readers/tables.py)."""

from __future__ import annotations

import pytest

from toolwire.errors import InvalidFileError
from toolwire.readers import limits, read_file
from toolwire.readers.tables import markdown_table

from .helpers import copy_example


def test_a_csv_becomes_a_markdown_table_and_keeps_the_original_file(tmp_path):
    path = copy_example("data.csv", tmp_path)
    result = read_file(path)
    text = result.value[0].text
    assert text.startswith("data.csv: CSV table, UTF-8, 402 B. Rows 1-10 of 10.")
    assert (
        "| Date | Region | Product | Units | Unit price | Total |\n|---|---|---|---|---|---|"
        in text
    )
    original = result.value[1]
    assert (original.name, original.media_type) == ("data.csv", "text/csv")
    assert original.read() == path.read_bytes()
    assert original.text is not None and original.text.startswith("| Date |")


def test_csv_rows_are_paged_and_the_header_row_is_repeated(tmp_path):
    path = copy_example("data.csv", tmp_path)
    text = read_file(path, offset=8).value[0].text
    assert "Rows 9-10 of 10." in text
    assert "| Date | Region |" in text
    first = read_file(path, limit=4).value[0].text
    assert "Rows 1-4 of 10. Use offset=4 to continue." in first


def test_an_offset_past_the_last_row_is_explained(tmp_path):
    path = copy_example("data.csv", tmp_path)
    with pytest.raises(InvalidFileError, match=r"offset=10 is past the last row \(10 rows"):
        read_file(path, offset=10)


def test_a_long_csv_shows_the_default_row_cap(tmp_path):
    path = tmp_path / "long.csv"
    path.write_text("n,square\n" + "".join(f"{i},{i * i}\n" for i in range(1200)))
    text = read_file(path).value[0].text
    rows = limits.TABLE_ROWS_PER_READ
    assert f"Rows 1-{rows} of 1200. Use offset={rows} to continue." in text


def test_semicolon_separated_values_are_detected(tmp_path):
    path = tmp_path / "euro.csv"
    path.write_text("name;price\nTee;4,50\nMug;9,00\n")
    text = read_file(path).value[0].text
    assert "| name | price |" in text and "| Tee | 4,50 |" in text


def test_a_latin_1_csv_is_decoded(tmp_path):
    path = tmp_path / "cities.csv"
    path.write_bytes(
        "city,country\nZürich,Schweiz\nMálaga,España\nKöln,Deutschland\n".encode("latin-1")
    )
    text = read_file(path).value[0].text
    assert "| Zürich | Schweiz |" in text and "| Málaga | España |" in text


def test_a_tsv_is_read_with_tabs(tmp_path):
    path = tmp_path / "data.tsv"
    path.write_text("a\tb\n1\t2, 3\n")
    assert "| 1 | 2, 3 |" in read_file(path).value[0].text


def test_markdown_cells_escape_pipes_and_newlines():
    table = markdown_table([["a|b", "c"], ["line 1\nline 2", None]])
    assert table == "| a\\|b | c |\n|---|---|\n| line 1<br>line 2 |  |"


def test_wide_tables_are_cut_and_the_summary_says_so(tmp_path):
    path = tmp_path / "wide.csv"
    columns = limits.MAX_TABLE_COLUMNS + 5
    path.write_text(
        ",".join(f"c{i}" for i in range(columns)) + "\n" + ",".join("1" * columns) + "\n"
    )
    text = read_file(path).value[0].text
    assert f"5 columns beyond {limits.MAX_TABLE_COLUMNS} left out." in text
    assert f"c{columns - 1}" not in text
