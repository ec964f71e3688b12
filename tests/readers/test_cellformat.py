"""Spreadsheet cells as their number formats show them (readers/cellformat.py)."""

from __future__ import annotations

import datetime as dt

import pytest

from toolwire.readers.cellformat import general, shown

ACCOUNTING = '_("$"* #,##0.00_);_("$"* \\(#,##0.00\\);_("$"* "-"??_);_(@_)'


@pytest.mark.parametrize(
    ("value", "number_format", "expected"),
    [
        (0.125, "0%", "13%"),  # Excel rounds half away from zero
        (0.0575, "0.00%", "5.75%"),
        (2.675, "0.00", "2.68"),  # the stored decimal digits, not the binary float's
        (1234567.891, "#,##0", "1,234,568"),
        (-1234.5, "#,##0;(#,##0)", "(1,235)"),
        (-1234.5, "#,##0.00;[Red]-#,##0.00", "-1,234.50"),
        (-2.5, "0.0", "-2.5"),
        (1234.5, ACCOUNTING, "$1,234.50"),
        (-1234.5, ACCOUNTING, "$(1,234.50)"),
        (0, ACCOUNTING, "$-"),  # the zero section
        (0, '#,##0.00;(#,##0.00);"nil"', "nil"),
        (0.4, "#", ""),
        (-5, "General;-General", "-5"),  # no 0 placeholder: no zero integer part
        (1234.5, "#,##0.00 [$€-407]", "1,234.50 €"),
        (3, '0 "units"', "3 units"),
        (1500000, '#,##0,"K"', "1,500K"),
        (12345.678, "0.00E+00", "1.23E+04"),
        (0.5, "#.00", ".50"),
        (dt.datetime(2024, 1, 15), "mm-dd-yy", "2024-01-15"),
        (dt.datetime(2024, 1, 15), "m/d/yyyy", "1/15/2024"),
        (dt.datetime(2024, 3, 5), "dddd, mmmm d, yyyy", "Tuesday, March 5, 2024"),
        (dt.datetime(2024, 1, 15, 14, 5, 9), "yyyy-mm-dd hh:mm:ss", "2024-01-15 14:05:09"),
        (dt.datetime(2024, 1, 15, 14, 5), "h:mm AM/PM", "2:05 PM"),
        (dt.time(14, 5, 9), "h:mm:ss", "14:05:09"),
        (dt.datetime(2024, 1, 15), 'd "days in" mmm', "15 days in Jan"),  # quoted text kept
        (dt.datetime(2024, 1, 15, 9, 30), "[$-409]DD/MM/YYYY H:MM", "15/01/2024 9:30"),
    ],
)
def test_a_value_is_written_as_its_format_shows_it(value, number_format, expected):
    assert shown(value, number_format) == expected


@pytest.mark.parametrize(
    ("value", "number_format"),
    [(0.3333, "# ?/?"), (5, "[<100]0;0.0"), ("text", "0.00"), (True, "0"), (dt.time(1), "yyyy")],
)
def test_a_format_not_read_here_keeps_the_value_and_never_raises(value, number_format):
    assert shown(value, number_format) in (value, general(value))


def test_general_hides_binary_noise_but_keeps_real_digits():
    assert general(0.1 + 0.2) == "0.3"
    assert general(2.0) == 2
    assert general(1 / 3) == "0.333333333333333"
