"""OpenAI Files API: ``client.files.create(file=..., purpose="user_data", expires_after=...)``.

https://platform.openai.com/docs/api-reference/files/create: ``user_data`` files are kept
until deleted unless ``expires_after`` (anchor ``created_at``, 3600 s to 30 days) is given;
the answer's ``expires_at`` says when. Responses and Chat Completions reference the id as
``file_id`` in ``input_image``/``input_file`` (``file``) parts; no header is needed.
"""

from __future__ import annotations

from typing import Any

from .transfer import Body, Settings, Uploaded, unix_time

BETAS: tuple[str, ...] = ()
PURPOSE = "user_data"


def arguments(body: Body, settings: Settings, purpose: str = PURPOSE) -> dict[str, Any]:
    """The keyword arguments of ``files.create`` (shared with xai.py)."""
    found: dict[str, Any] = {"file": body.as_tuple(), "purpose": purpose}
    if settings.expires_after is not None:
        seconds = min(max(settings.expires_after, 3600), 2_592_000)
        found["expires_after"] = {"anchor": "created_at", "seconds": seconds}
    return found


def answer(file: Any) -> Uploaded:
    """The id and expiry of an OpenAI ``FileObject``."""
    return Uploaded(file.id, unix_time(getattr(file, "expires_at", None)))


def upload(client: Any, body: Body, settings: Settings) -> Uploaded:
    """Upload through a sync ``openai.OpenAI`` client."""
    return answer(client.files.create(**arguments(body, settings)))


async def aupload(client: Any, body: Body, settings: Settings) -> Uploaded:
    """Upload through an ``openai.AsyncOpenAI`` client."""
    return answer(await client.files.create(**arguments(body, settings)))
