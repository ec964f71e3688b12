"""Running uploads: a thread pool for sync clients, an asyncio semaphore for async ones.

Both drivers share everything but the I/O: ``_claim`` decides whether a job uploads, reuses
a cached id or waits for another worker; ``_body`` builds the stream; ``_recorded`` and
``_failed`` write the outcome. A failed upload releases its claim and records nothing.
"""

from __future__ import annotations

import asyncio
import time
import uuid
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from ..content import File
from ..errors import ToolwireError, UploadError
from ..headers import human_size
from .cache import Cache, Entry, Key
from .transfer import Body, Progress, Settings, Uploaded

#: Waiting for another worker's upload: first pause, doubling up to WAIT_MAX_S.
WAIT_START_S = 0.02
WAIT_MAX_S = 0.5


@dataclass(frozen=True)
class Job:
    """One content to have an id for: its cache key and the bytes that would be uploaded."""

    key: Key
    form: File
    filename: str
    identifier: str
    size: int


@dataclass(frozen=True)
class Outcome:
    """What ``sync`` did for one content: the id, and whether this call uploaded it."""

    identifier: str
    file_id: str
    uploaded: bool
    size: int


@dataclass(frozen=True)
class Context:
    """Everything a driver needs besides the client and the jobs."""

    cache: Cache
    adapter: ModuleType
    settings: Settings
    until: float  # ids must stay usable until then (Unix time)
    workers: int
    progress: Progress | None


def run(ctx: Context, jobs: Sequence[Job], client: Any) -> list[Outcome]:
    """Every job through a sync client, at most ``ctx.workers`` at a time."""
    if not jobs:
        return []
    with ThreadPoolExecutor(max_workers=min(ctx.workers, len(jobs))) as pool:
        futures = [pool.submit(_one, ctx, job, client) for job in jobs]
        results: list[Outcome | BaseException] = []
        for future in futures:
            error = future.exception()
            results.append(error if error is not None else future.result())
    return _collected(results)


async def arun(ctx: Context, jobs: Sequence[Job], client: Any) -> list[Outcome]:
    """Every job through an async client, at most ``ctx.workers`` at a time."""
    gate = asyncio.Semaphore(ctx.workers)

    async def gated(job: Job) -> Outcome:
        async with gate:
            return await _aone(ctx, job, client)

    results = await asyncio.gather(*(gated(job) for job in jobs), return_exceptions=True)
    return _collected(results)


def _one(ctx: Context, job: Job, client: Any) -> Outcome:
    owner, delay = uuid.uuid4().hex, WAIT_START_S
    while (state := _claim(ctx, job, owner)) == "wait":
        time.sleep(delay)
        delay = min(delay * 2, WAIT_MAX_S)
    if isinstance(state, Outcome):
        return state
    try:
        uploaded = ctx.adapter.upload(client, _body(ctx, job), ctx.settings)
    except BaseException as exc:
        error = _failed(ctx, job, owner, exc)
        if error is exc:
            raise
        raise error from exc
    return _recorded(ctx, job, owner, uploaded)


async def _aone(ctx: Context, job: Job, client: Any) -> Outcome:
    owner, delay = uuid.uuid4().hex, WAIT_START_S
    while (state := _claim(ctx, job, owner)) == "wait":
        await asyncio.sleep(delay)
        delay = min(delay * 2, WAIT_MAX_S)
    if isinstance(state, Outcome):
        return state
    try:
        uploaded = await ctx.adapter.aupload(client, _body(ctx, job), ctx.settings)
    except BaseException as exc:
        error = _failed(ctx, job, owner, exc)
        if error is exc:
            raise
        raise error from exc
    return _recorded(ctx, job, owner, uploaded)


def _claim(ctx: Context, job: Job, owner: str) -> Outcome | str:
    """A cached id as an Outcome, "mine" (upload it now) or "wait" (another worker does)."""
    state = ctx.cache.claim(job.key, owner, ctx.until)
    if isinstance(state, Entry):
        return Outcome(job.identifier, state.file_id, False, job.size)
    return state


def _body(ctx: Context, job: Job) -> Body:
    data = job.form.read()
    return Body(data, job.filename, job.form.media_type, job.identifier, ctx.progress)


def _recorded(ctx: Context, job: Job, owner: str, uploaded: Uploaded) -> Outcome:
    if not isinstance(uploaded, Uploaded) or not uploaded.file_id:
        raise _failed(ctx, job, owner, ToolwireError(f"the SDK answered {uploaded!r}"))
    ctx.cache.record(job.key, owner, Entry(uploaded.file_id, uploaded.expires_at))
    if ctx.progress is not None:
        ctx.progress(job.identifier, job.size, job.size)
    return Outcome(job.identifier, uploaded.file_id, True, job.size)


def _failed(ctx: Context, job: Job, owner: str, exc: BaseException) -> BaseException:
    """Release the claim; an upload error names the file, the provider and the SDK's words."""
    ctx.cache.release(job.key, owner)
    if not isinstance(exc, Exception):
        return exc  # KeyboardInterrupt, CancelledError: not an upload failure
    provider = job.key.provider
    said = str(exc) or type(exc).__name__
    if isinstance(exc, UploadError):
        return exc
    return UploadError(
        f"uploading {job.identifier} ({job.form.media_type}, {human_size(job.size)}) to "
        f"{provider} failed: {type(exc).__name__}: {said}. Nothing was cached for it; check "
        f"the client's key and base URL, or send this file inline (leave it out of sync)."
    )


def _collected(results: Sequence[Outcome | BaseException]) -> list[Outcome]:
    errors = [r for r in results if isinstance(r, BaseException)]
    for error in errors:
        if not isinstance(error, UploadError):
            raise error
    if errors:
        first = errors[0]
        if len(errors) > 1:
            raise UploadError(f"{first} (and {len(errors) - 1} more upload(s) failed)") from first
        raise first
    return [r for r in results if isinstance(r, Outcome)]
