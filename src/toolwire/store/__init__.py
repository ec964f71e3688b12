"""Storage: SessionStore (SQLite conversations) and BlobStore (content-addressed file bytes)."""

from __future__ import annotations

from .blobs import BlobStore
from .sessions import SessionInfo, SessionStore

__all__ = ["BlobStore", "SessionInfo", "SessionStore"]
