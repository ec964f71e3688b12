"""A spreadsheet cell as Excel shows it: its cached value written by its number format.

A workbook stores ``0.125`` for a cell that reads ``12.5%``, ``1234.5`` for ``$1,234.50`` and a
day count for a date; a model given the raw value sees numbers nobody saw in the sheet. Here
the format's section for the value (the second for a negative number, the third for zero,
when there are) is read for what a reader sees: a percent sign (the value times 100), the decimal places, a thousands
separator, scientific notation, literal text around the number (currency symbols, quoted
text, ``\\x`` escapes, ``[$€-407]`` locale currencies), and date and time codes. Dates are
written by their format's codes, except Excel's locale short date (``mm-dd-yy``, built-in 14),
which follows the reader's locale in Excel and is written here as an ISO date.

Formats not understood here (fractions, conditions such as ``[<100]``, ``@`` on a number) give
the value as before; no format ever raises.
"""

from __future__ import annotations

import datetime as dt
import re
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

#: Excel's built-in 14, shown in the reader's locale: written as an ISO date.
LOCALE_DATE = "mm-dd-yy"

_LITERALS = re.compile(r'"([^"]*)"|\\(.)|_.|\*.|\[\$([^\]-]*)[^\]]*\]|\[[^\]]*\]')
_DATE_CODES = re.compile(
    r"yyyy|yy|mmmmm|mmmm|mmm|mm|m|dddd|ddd|dd|d|hh|h|ss|s|AM/PM|A/P|\.0+", re.IGNORECASE
)
_NUMBER = re.compile(r"[0#?][0#?,]*(?:\.[0#?]*)?(?:[eE][+-][0#?]+)?|\.[0#?]+")


def shown(value: Any, number_format: str | None) -> Any:
    """``value`` as its ``number_format`` shows it (a string), or ``value`` itself when the
    format is General, text, or not one read here."""
    if not number_format or number_format in ("General", "@") or isinstance(value, str | bool):
        return value
    try:
        if isinstance(value, dt.datetime | dt.date | dt.time):
            return _date(value, number_format)
        if isinstance(value, int | float):
            return _number(value, number_format)
    except (ValueError, OverflowError, ArithmeticError, AttributeError):
        pass
    return value


def general(value: Any) -> Any:
    """A float as Excel's General format shows it: 15 significant digits, so the binary
    noise of ``0.1 + 0.2`` is not shown."""
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e15:
        return int(value)
    if isinstance(value, float):
        return format(value, ".15g")
    return value


def _section(number_format: str, negative: bool, zero: bool = False) -> str:
    """The section that writes the value: the second for a negative number and the third for
    zero, when the format has them, the first otherwise."""
    sections = _split(number_format)
    if zero and len(sections) > 2 and sections[2]:
        return sections[2]
    if negative and len(sections) > 1 and sections[1]:
        return sections[1]
    return sections[0]


def _split(number_format: str) -> list[str]:
    """The format's ``;``-separated sections (a ``;`` inside quotes is text)."""
    sections, current, quoted = [], "", False
    for char in number_format:
        if char == '"':
            quoted = not quoted
        if char == ";" and not quoted:
            sections.append(current)
            current = ""
        else:
            current += char
    return [*sections, current]


def _literal(match: re.Match[str]) -> str:
    quoted, escaped, currency = match.group(1), match.group(2), match.group(3)
    if quoted is not None:
        return quoted
    if escaped is not None:
        return escaped
    if currency is not None:
        return currency
    return " " if match.group(0).startswith("_") else ""


def _number(value: float, number_format: str) -> Any:
    negative = value < 0
    section = _section(number_format, negative, zero=value == 0)
    if re.search(r"\[[<>=]|/|@", section):  # conditions, fractions, text: not read here
        return general(value)
    if negative and len(_split(number_format)) > 1 and _split(number_format)[1]:
        value = -value  # the negative section writes its own sign or parentheses
    pieces = [(m.start(), m.end(), m) for m in _LITERALS.finditer(section)]
    plain = _LITERALS.sub(lambda m: "\0" * len(m.group(0)), section)
    number = _NUMBER.search(plain)
    if number is None:  # "-General" writes General after a sign; text alone ("nil") itself
        text = _text_of(section, pieces, 0, len(section)).strip()
        if not text or text.lower() == "general":
            return general(value)
        return re.sub("(?i)general", str(general(value)), text)
    code = number.group(0)
    exact = Decimal(repr(value))  # the digits Excel stores, rounded half away from zero
    if "%" in plain:
        exact *= 100 ** plain.count("%")
    decimals = len(code.split(".")[1].rstrip(",").split("e")[0].split("E")[0]) if "." in code else 0
    if "e" in code.lower():
        text = format(float(exact), f".{decimals}E")
        mantissa, exponent = text.split("E")
        text = f"{mantissa}E{int(exponent):+03d}"
    else:
        integer = code.split(".")[0].split("e")[0]
        scale = 1000 ** (len(integer) - len(integer.rstrip(",")))  # trailing commas: thousands
        grouped = "," in integer.rstrip(",")
        rounded = (exact / scale).quantize(Decimal(1).scaleb(-decimals), ROUND_HALF_UP)
        text = format(rounded, f"{',' if grouped else ''}.{decimals}f")
        if "0" not in integer and text.startswith("0"):
            text = text[1:]  # only "0" shows a zero integer part: "#.00" writes .50, "??" nothing
    before = _text_of(section, pieces, 0, number.start())
    after = _text_of(section, pieces, number.end(), len(section))
    return f"{before}{text}{after}".strip()


def _text_of(
    section: str, pieces: list[tuple[int, int, re.Match[str]]], start: int, end: int
) -> str:
    """The literal text of ``section[start:end]``: quoted text and escapes read, other
    characters (a currency sign, a percent sign, parentheses) kept."""
    out, index = "", start
    for piece_start, piece_end, match in pieces:
        if piece_end <= start or piece_start >= end:
            continue
        out += section[index:piece_start] + _literal(match)
        index = piece_end
    return out + section[index:end]


def _date(value: dt.datetime | dt.date | dt.time, number_format: str) -> Any:
    section = _section(number_format, False)
    if section.lower() == LOCALE_DATE or section.lower() == "yyyy-mm-dd":
        day = value.date() if isinstance(value, dt.datetime) else value
        return day.isoformat() if isinstance(day, dt.date) else value
    # The section cut into literal text (quoted, escaped, bracketed) and date codes, in order.
    tokens: list[tuple[str, bool]] = []  # (text, is a code)
    index = 0
    while index < len(section):
        literal = _LITERALS.match(section, index)
        code = None if literal else _DATE_CODES.match(section, index)
        match = literal or code
        if match is None or not match.group(0):
            tokens.append((section[index], False))
            index += 1
            continue
        tokens.append((_literal(match), False) if literal else (match.group(0), True))
        index = match.end()
    codes = [text for text, is_code in tokens if is_code]
    if not codes:
        return value
    twelve_hour = any(code.lower() in ("am/pm", "a/p") for code in codes)
    out, position = [], 0
    for text, is_code in tokens:
        if not is_code:
            out.append(text)
            continue
        before = codes[position - 1].lower() if position else ""
        after = codes[position + 1].lower() if position + 1 < len(codes) else ""
        minutes = before in ("h", "hh") or after in ("s", "ss")
        out.append(_date_code(value, text, minutes, twelve_hour))
        position += 1
    return "".join(out)


def _date_code(value: Any, code: str, minutes: bool, twelve_hour: bool) -> str:
    """One date or time code of a format. ``m``/``mm`` are minutes right after an hour code
    or before a seconds code (``minutes``), months otherwise."""
    lower = code.lower()
    if lower in ("m", "mm") and minutes:
        return f"{value.minute:0{len(code)}d}"
    if lower.startswith("y"):
        return str(value.year) if lower == "yyyy" else f"{value.year % 100:02d}"
    if lower.startswith("m"):
        names = {5: value.strftime("%B")[:1], 4: value.strftime("%B"), 3: value.strftime("%b")}
        return names.get(len(code)) or f"{value.month:0{len(code)}d}"
    if lower.startswith("d"):
        names = {4: value.strftime("%A"), 3: value.strftime("%a")}
        return names.get(len(code)) or f"{value.day:0{len(code)}d}"
    if lower.startswith("h"):
        hour = value.hour % 12 or 12 if twelve_hour else value.hour
        return f"{hour:0{len(code)}d}"
    if lower.startswith("s"):
        return f"{value.second:0{len(code)}d}"
    if lower.startswith("."):
        return "." + f"{value.microsecond:06d}"[: len(code) - 1]
    if lower in ("am/pm", "a/p"):
        text = "AM" if value.hour < 12 else "PM"
        return text[: 1 if lower == "a/p" else 2]
    return code
