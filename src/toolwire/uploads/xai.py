"""xAI Files API through the openai SDK: ``OpenAI(base_url="https://api.x.ai/v1").files.create``.

https://docs.x.ai/developers/rest-api-reference/files/upload: ``POST /v1/files`` (50 MB),
kept until deleted or until ``expires_after`` (the OpenAI SDK's anchor + seconds form is
accepted); ``purpose`` is not interpreted, ``assistants`` is the conventional value. Chat
messages attach documents by this id.
"""

from __future__ import annotations

from typing import Any

from .openai import answer, arguments
from .transfer import Body, Settings, Uploaded

BETAS: tuple[str, ...] = ()
PURPOSE = "assistants"


def upload(client: Any, body: Body, settings: Settings) -> Uploaded:
    """Upload through a sync ``openai.OpenAI`` client whose base URL is xAI's."""
    return answer(client.files.create(**arguments(body, settings, PURPOSE)))


async def aupload(client: Any, body: Body, settings: Settings) -> Uploaded:
    """Upload through an ``openai.AsyncOpenAI`` client whose base URL is xAI's."""
    return answer(await client.files.create(**arguments(body, settings, PURPOSE)))
