"""What one upload carries (the bytes as a stream that reports progress) and what it returns.

Each provider module (anthropic.py, openai.py, google.py, mistral.py, xai.py) has the same
three names: ``upload(client, body, settings)``, ``async aupload(client, body, settings)`` and
``BETAS`` (what a messages call referencing its ids needs). They differ only in the SDK
call; building the arguments and reading the answer are shared between the sync and async
function of a module.
"""

from __future__ import annotations

import io
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

#: progress(identifier, bytes done, bytes total) — called from worker threads during sync.
Progress = Callable[[str, int, int], None]


@dataclass(frozen=True)
class Settings:
    """How uploads are made: expiry asked for, how long to wait for Gemini's processing."""

    expires_after: int | None
    processing_timeout: float


@dataclass(frozen=True)
class Uploaded:
    """The provider's answer: the id to send, and when it expires (Unix time, None: never)."""

    file_id: str
    expires_at: float | None = None


class Body(io.BytesIO):
    """The bytes of one file as a seekable stream; each read reports how far the SDK got.

    An SDK that retries seeks back and reads again: progress reports the position, so it
    goes back too rather than counting bytes twice.
    """

    def __init__(
        self,
        data: bytes,
        filename: str,
        media_type: str,
        identifier: str,
        progress: Progress | None,
    ) -> None:
        super().__init__(data)
        self.size = len(data)
        self.filename = filename
        self.media_type = media_type
        self.identifier = identifier
        self._progress = progress
        self.name = filename  # what SDKs read as the multipart filename of a file object

    def read(self, size: int | None = -1) -> bytes:
        chunk = super().read(size)
        if self._progress is not None and chunk:
            self._progress(self.identifier, self.tell(), self.size)
        return chunk

    def as_tuple(self) -> tuple[str, Body, str]:
        """The (filename, stream, content type) form the Stainless SDKs take as ``file``."""
        self.seek(0)
        return (self.filename, self, self.media_type)


def unix_time(value: Any) -> float | None:
    """A provider timestamp (datetime, Unix seconds, RFC 3339 text, None) as Unix time."""
    if value is None or value == "":
        return None
    if isinstance(value, datetime):
        return value.timestamp()
    if isinstance(value, int | float):
        return float(value)
    if isinstance(value, str):
        return datetime.fromisoformat(value.replace("Z", "+00:00")).timestamp()
    return None
