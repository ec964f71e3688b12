"""Reading files into tool outputs: images, PDFs, office documents, text, SVG, audio, video.

``read_file(path)`` returns a ContentOutput: a Text (a one-line header plus the extracted
text) followed by File parts; ``read_file_tool`` is the same as a tool definition for a model,
confined to a root directory. Heavy libraries (Pillow, pypdfium2, python-docx, …) load only
when a file of their kind is read.

Modules: ``paths`` (root confinement, regular-file checks, capped reads), ``core``
(identification and dispatch), one reader per medium (``image``, ``pdf``, ``office``,
``tables``, ``text``, ``svg``, ``media``), ``limits`` (every cap), ``isolation`` (the
worker process readers run in, under a memory and a time limit), ``tool``.
"""

from __future__ import annotations

from .core import read_file
from .tool import ReadFileTool, read_file_tool

__all__ = ["ReadFileTool", "read_file", "read_file_tool"]
