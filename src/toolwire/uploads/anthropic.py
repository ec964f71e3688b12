"""Anthropic Files API: ``client.beta.files.upload(file=..., betas=["files-api-2025-04-14"])``.

https://platform.claude.com/docs/en/build-with-claude/files: upload once, reference the id as
``{"type": "file", "file_id": ...}`` in image and document blocks. Both the upload and every
messages call that references an id need the beta: ``client.beta.messages.create(...,
betas=["files-api-2025-04-14"])`` or the ``anthropic-beta`` header. The anthropic SDK's
``expires_in_seconds`` (3600 s to 90 days) asks the provider to delete the file itself.
"""

from __future__ import annotations

from typing import Any

from .transfer import Body, Settings, Uploaded, unix_time

#: The beta a messages call must name to reference uploaded file ids.
BETAS = ("files-api-2025-04-14",)


def _arguments(body: Body, settings: Settings) -> dict[str, Any]:
    arguments: dict[str, Any] = {"file": body.as_tuple(), "betas": list(BETAS)}
    if settings.expires_after is not None:
        arguments["expires_in_seconds"] = min(max(settings.expires_after, 3600), 7_776_000)
    return arguments


def _answer(metadata: Any) -> Uploaded:
    return Uploaded(metadata.id, unix_time(getattr(metadata, "expires_at", None)))


def upload(client: Any, body: Body, settings: Settings) -> Uploaded:
    """Upload through a sync ``anthropic.Anthropic`` client."""
    return _answer(client.beta.files.upload(**_arguments(body, settings)))


async def aupload(client: Any, body: Body, settings: Settings) -> Uploaded:
    """Upload through an ``anthropic.AsyncAnthropic`` client."""
    return _answer(await client.beta.files.upload(**_arguments(body, settings)))
