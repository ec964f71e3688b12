"""`toolwire sessions` (not yet written)."""

from __future__ import annotations

from .app import app  # noqa: F401
