"""Gemini Files API: ``client.files.upload(file=..., config={"mime_type", "display_name"})``.

https://ai.google.dev/gemini-api/docs/files: a resumable upload; the file is kept 48 hours
(``expiration_time``) and may be ``PROCESSING`` (video, large audio) before it is ``ACTIVE``
and usable in ``file_data``; ``FAILED`` means it never will be. We poll ``files.get`` with a
growing interval until ACTIVE, within ``Settings.processing_timeout`` seconds. The id kept is
the file's ``uri`` (what ``file_data.file_uri`` takes). Vertex AI has no Files API.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

from ..errors import UploadError
from .transfer import Body, Settings, Uploaded, unix_time

BETAS: tuple[str, ...] = ()
#: Polling interval: starts here, doubles, never above POLL_MAX_S.
POLL_START_S = 0.05
POLL_MAX_S = 2.0


def _config(body: Body) -> dict[str, Any]:
    body.seek(0)
    return {"mime_type": body.media_type, "display_name": body.filename}


def _state(file: Any) -> str:
    state = getattr(file, "state", None)
    return str(getattr(state, "value", state) or "ACTIVE").upper()


def _settled(file: Any, body: Body, started: float, settings: Settings) -> Uploaded | None:
    """The answer once ACTIVE; None while PROCESSING; UploadError if FAILED or too slow."""
    state = _state(file)
    if state == "ACTIVE" or state == "STATE_UNSPECIFIED":
        return Uploaded(file.uri or file.name, unix_time(file.expiration_time))
    if state == "FAILED":
        detail = getattr(getattr(file, "error", None), "message", None) or "no detail given"
        raise UploadError(f"google could not process {body.identifier} ({file.name}): {detail}")
    if time.monotonic() - started > settings.processing_timeout:
        raise UploadError(
            f"google was still processing {body.identifier} ({file.name}) after "
            f"{settings.processing_timeout:.0f} s; raise Uploads(processing_timeout=...) "
            "or try again later"
        )
    return None


def upload(client: Any, body: Body, settings: Settings) -> Uploaded:
    """Upload through a sync ``google.genai.Client`` and wait until the file is ACTIVE."""
    file = client.files.upload(file=body, config=_config(body))
    started, delay = time.monotonic(), POLL_START_S
    while (done := _settled(file, body, started, settings)) is None:
        time.sleep(delay)
        delay = min(delay * 2, POLL_MAX_S)
        file = client.files.get(name=file.name)
    return done


async def aupload(client: Any, body: Body, settings: Settings) -> Uploaded:
    """Upload through ``client.aio`` (or a ``google.genai`` AsyncClient), waiting for ACTIVE."""
    files = getattr(client, "aio", client).files
    file = await files.upload(file=body, config=_config(body))
    started, delay = time.monotonic(), POLL_START_S
    while (done := _settled(file, body, started, settings)) is None:
        await asyncio.sleep(delay)
        delay = min(delay * 2, POLL_MAX_S)
        file = await files.get(name=file.name)
    return done
