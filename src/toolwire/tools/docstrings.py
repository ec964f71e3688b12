"""A function's docstring → its description and per-parameter docs (simple cases only).

The first paragraph is the description. Parameter docs are read from a Google-style
``Args:`` section, a NumPy-style ``Parameters`` section (underlined with dashes) or Sphinx
``:param name:`` lines; anything fancier is left as it is in the description.
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Callable
from typing import Any

_GOOGLE_HEAD = re.compile(r"^(Args|Arguments|Parameters|Params):\s*$")
_GOOGLE_ITEM = re.compile(r"^(\*{0,2}\w+)\s*(\([^)]*\))?\s*:\s*(.*)$")
_NUMPY_ITEM = re.compile(r"^(\w+)\s*(:.*)?$")
_SPHINX = re.compile(r"^:param\s+(?:[^:]*\s)?(\w+):\s*(.*)$")
_SECTION = re.compile(r"^(Returns?|Raises|Yields?|Examples?|Notes?|See Also|Attributes):?\s*$")


def parse(fn: Callable[..., Any]) -> tuple[str, dict[str, str]]:
    """(description, {parameter: its doc}) from ``fn``'s docstring ('' and {} without one)."""
    doc = inspect.getdoc(fn) or ""
    lines = doc.splitlines()
    first: list[str] = []
    for line in lines:
        if not line.strip() or _GOOGLE_HEAD.match(line) or line.startswith(":"):
            break
        first.append(line.strip())
    params = _google(lines) or _numpy(lines) or _sphinx(lines)
    return " ".join(first), params


def _google(lines: list[str]) -> dict[str, str]:
    found: dict[str, str] = {}
    inside, indent, name = False, 0, ""
    for line in lines:
        if _GOOGLE_HEAD.match(line.strip()) and not line.startswith(" "):
            inside, indent = True, -1
            continue
        if not inside or not line.strip():
            continue
        depth = len(line) - len(line.lstrip())
        if depth == 0:
            break
        if indent < 0:
            indent = depth
        item = _GOOGLE_ITEM.match(line.strip())
        if depth == indent and item:
            name = item.group(1).lstrip("*")
            found[name] = item.group(3).strip()
        elif name:
            found[name] = f"{found[name]} {line.strip()}".strip()
    return found


def _numpy(lines: list[str]) -> dict[str, str]:
    found: dict[str, str] = {}
    start = next(
        (
            i + 2
            for i, line in enumerate(lines[:-1])
            if line.strip() == "Parameters" and set(lines[i + 1].strip()) == {"-"}
        ),
        None,
    )
    if start is None:
        return found
    name = ""
    for line in lines[start:]:
        if _SECTION.match(line.strip()) or set(line.strip()) == {"-"}:
            break
        item = _NUMPY_ITEM.match(line)
        if item and not line.startswith(" "):
            name = item.group(1)
            found[name] = ""
        elif name and line.strip():
            found[name] = f"{found[name]} {line.strip()}".strip()
    found.pop(_last_section_title(lines, start), None)
    return found


def _last_section_title(lines: list[str], start: int) -> str:
    """A following section's title read as a parameter (it is underlined with dashes)."""
    for i in range(start, len(lines) - 1):
        if set(lines[i + 1].strip()) == {"-"}:
            return lines[i].strip()
    return ""


def _sphinx(lines: list[str]) -> dict[str, str]:
    found: dict[str, str] = {}
    for line in lines:
        item = _SPHINX.match(line.strip())
        if item:
            found[item.group(1)] = item.group(2).strip()
    return found
