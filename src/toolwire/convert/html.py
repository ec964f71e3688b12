"""HTML as Markdown for conversions: the same Markdown read_file gives (readers/html.py)."""

from __future__ import annotations

from ..readers.html import markdown

__all__ = ["markdown"]
