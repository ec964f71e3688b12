"""Downscale images that exceed a target's limits, deterministically (placeholder)."""

from __future__ import annotations

from .capabilities import Cell
from .content import File


def fit_image(file: File, cell: Cell) -> tuple[File, str | None]:
    """The image as the target should receive it, and a note when it was changed."""
    return file, None
