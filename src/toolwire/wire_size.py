"""The size of a request body as the provider's SDK serialises it, without serialising it.

Each SDK posts ``json.dumps`` of its body with its own separators and escaping:

- httpx-based SDKs (anthropic, openai, groq, cohere, ollama): ``separators=(",", ":")``,
  ``ensure_ascii=False``, UTF-8 (httpx ``_content.encode_json``; anthropic/openai
  ``_utils/_json.openapi_dumps`` "uses the same defaults as httpx");
- mistralai: ``separators=(",", ":")`` with ASCII escapes (``utils/serializers.marshal_json``);
- botocore (Bedrock) and google-genai: ``json.dumps`` defaults (``", "``, ``": "``, ASCII
  escapes); raw bytes travel as base64 text in both.

``wire_bytes`` walks the JSON-safe value once: raw bytes count as their base64 length
(4·⌈n/3⌉) without being encoded, long ASCII strings (base64 data) by two C-level scans.
Gemini's keyword arguments are measured as given, in snake_case: google-genai renames the
keys to camelCase (shorter) and wraps the system instruction, so there the size is close to
the body posted, not exact.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Style:
    """How one SDK spells JSON: its separators and whether non-ASCII is escaped."""

    item: str
    key: str
    ascii: bool


#: The styles of the SDKs above; each wire names its own (``Wire.size``, providers/<wire>.py).
HTTPX = Style(",", ":", ascii=False)
MISTRAL = Style(",", ":", ascii=True)
DEFAULT = Style(", ", ": ", ascii=True)
_SHORT = 256  # strings shorter than this are measured by json.dumps itself


def b64_length(n: int) -> int:
    """The length of the base64 text of ``n`` bytes (padded)."""
    return 4 * ((n + 2) // 3)


def wire_bytes(value: Any, style: Style, known: Mapping[int, int] | None = None) -> int:
    """The UTF-8 length of ``json.dumps(value)`` in ``style`` (bytes as base64 text);
    ``known``: the sizes of dicts and lists inside ``value`` measured before, by their id
    (while ``value`` holds them: ``Wire.spell``)."""
    if known and isinstance(value, dict | list | tuple):
        size = known.get(id(value))
        if size is not None:
            return size
    match value:
        case str():
            return string_bytes(value, style)
        case dict():
            if not value:
                return 2
            size = 2 + len(style.item) * (len(value) - 1) + len(style.key) * len(value)
            for key, item in value.items():
                size += (
                    string_bytes(key, style) if isinstance(key, str) else len(json.dumps(key)) + 2
                )
                size += wire_bytes(item, style, known)
            return size
        case list() | tuple():
            if not value:
                return 2
            size = 2 + len(style.item) * (len(value) - 1)
            return size + sum(wire_bytes(item, style, known) for item in value)
        case bytes() | bytearray() | memoryview():
            return b64_length(len(value)) + 2
    return len(json.dumps(value))


def string_bytes(text: str, style: Style) -> int:
    """The UTF-8 length of ``text`` as a JSON string literal in ``style``."""
    return _measured(text, style)


def _measured(text: str, style: Style) -> int:
    if len(text) >= _SHORT and text.isascii() and text.isprintable():
        return len(text) + 2 + text.count('"') + text.count("\\")
    dumped = json.dumps(text, ensure_ascii=style.ascii)
    return len(dumped) if style.ascii else len(dumped.encode("utf-8", "surrogatepass"))
