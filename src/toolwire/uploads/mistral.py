"""Mistral Files API: ``client.files.upload(file={"file_name", "content", "content_type"}, purpose="ocr")``.

mistralai 3.7 ``Files.upload`` / ``upload_async`` (``POST /v1/files``, 512 MB). Documents for
chat and OCR are uploaded with purpose ``ocr``; the answer's ``expires_at`` (Unix seconds,
optional) says when the file goes. No header is needed to reference the id.
"""

from __future__ import annotations

from typing import Any

from .transfer import Body, Settings, Uploaded, unix_time

BETAS: tuple[str, ...] = ()
PURPOSE = "ocr"


def _arguments(body: Body) -> dict[str, Any]:
    body.seek(0)
    file = {"file_name": body.filename, "content": body, "content_type": body.media_type}
    return {"file": file, "purpose": PURPOSE}


def _answer(created: Any) -> Uploaded:
    expires = getattr(created, "expires_at", None)
    return Uploaded(created.id, unix_time(expires if isinstance(expires, int) else None))


def upload(client: Any, body: Body, settings: Settings) -> Uploaded:
    """Upload through a ``mistralai.Mistral`` client."""
    return _answer(client.files.upload(**_arguments(body)))


async def aupload(client: Any, body: Body, settings: Settings) -> Uploaded:
    """Upload through a ``mistralai.Mistral`` client's ``upload_async``."""
    return _answer(await client.files.upload_async(**_arguments(body)))
