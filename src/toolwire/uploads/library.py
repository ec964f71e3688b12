"""``Uploads``: provider file ids by (provider, account, content), uploaded once, renewed on expiry."""

from __future__ import annotations

import importlib
import mimetypes
import time
import weakref
from collections.abc import Mapping, Sequence
from datetime import datetime
from types import ModuleType
from typing import TYPE_CHECKING, Any

from ..capability import Capabilities, Cell
from ..capability import capabilities as load_capabilities
from ..capability_schema import FILE_LIMITS
from ..content import File
from ..errors import ToolwireError
from ..messages import Message
from ..sources import ProviderFileSource
from .account import account_of
from .cache import Cache, Key, open_cache
from .sync import Context, Job, Outcome, arun, run
from .transfer import Progress, Settings
from .wanted import as_messages, files, id_cell, replace_files, upload_form

if TYPE_CHECKING:
    from ..store import SessionStore

#: Files smaller than this are sent inline: an upload round trip costs more than the bytes.
DEFAULT_MIN_BYTES = 64 * 1024

#: Provider (the table's ``file_ids``) -> the module that speaks its Files API.
ADAPTERS = {
    "anthropic": "toolwire.uploads.anthropic",
    "openai": "toolwire.uploads.openai",
    "google": "toolwire.uploads.google",
    "mistral": "toolwire.uploads.mistral",
    "xai": "toolwire.uploads.xai",
}


class Uploads:
    """Provider file ids, cached by (provider, account, sha256 of the content), with expiry.

    ``sync`` uploads, through your official SDK client, the files the target takes by id and
    that have no fresh id yet; ``resolve`` then swaps those files for their ids, so ``encode``
    sends a short reference instead of the bytes::

        uploads = tw.Uploads(store=tw.SessionStore("agent-store"))   # or Uploads() in memory
        uploads.sync(history, "anthropic:claude-sonnet-4-6", client)
        request = tw.encode(uploads.resolve(history, "anthropic:claude-sonnet-4-6"), ...)
        client.beta.messages.create(..., betas=uploads.betas(model), **request.kwargs)

    With a SQLite SessionStore the ids live in ``<store dir>/uploads.sqlite``, with a
    PostgreSQL one in its database (tables ``upload_ids``, ``upload_claims``), shared by every
    process using that store; two processes never upload the same content twice (one waits
    for the other's id).
    ``account`` overrides the account derived from the client (base URL + a hash of the key).
    ``expires_after`` (seconds) asks Anthropic, OpenAI and xAI to delete uploads themselves;
    an id is renewed once it would expire within ``margin`` seconds.
    """

    def __init__(
        self,
        store: SessionStore | None = None,
        *,
        account: str | None = None,
        expires_after: int | None = 7 * 24 * 3600,
        margin: float = 600.0,
        max_workers: int = 4,
        processing_timeout: float = 600.0,
    ) -> None:
        self._cache: Cache = _open_cache(store)
        self._account = account
        self._accounts: dict[str, str] = {}
        self._settings = Settings(expires_after, processing_timeout)
        self.margin = margin
        self.max_workers = max_workers
        self._forms: dict[tuple[Any, ...], tuple[str, str]] = {}
        self._resolved: dict[tuple[int, tuple[str, ...]], tuple[Any, Any]] = {}

    # --- uploading ------------------------------------------------------------------------

    def sync(
        self,
        messages: Sequence[Message],
        model: str,
        client: object,
        *,
        min_bytes: int = DEFAULT_MIN_BYTES,
        account: str | None = None,
        progress: Progress | None = None,
        capabilities: Capabilities | Mapping[str, object] | None = None,
    ) -> list[Outcome]:
        """Upload (through a sync SDK client) what ``model`` takes by id and has no fresh id for.

        Returns one Outcome per distinct content: its id and whether this call uploaded it.
        ``progress(identifier, done, total)`` is called from worker threads as bytes go out.
        A failed upload raises UploadError after the others finish; nothing is cached for it.
        """
        if type(client).__name__.startswith("Async"):
            raise ToolwireError(
                f"{type(client).__name__} is an async client: use await uploads.async_sync(...)"
            )
        caps, adapter = _target(model, capabilities)
        jobs = self._jobs(messages, caps, self._account_of(caps, client, account), min_bytes)
        return run(self._context(adapter, progress), jobs, client)

    async def async_sync(
        self,
        messages: Sequence[Message],
        model: str,
        client: object,
        *,
        min_bytes: int = DEFAULT_MIN_BYTES,
        account: str | None = None,
        progress: Progress | None = None,
        capabilities: Capabilities | Mapping[str, object] | None = None,
    ) -> list[Outcome]:
        """``sync`` through an async SDK client (AsyncAnthropic, AsyncOpenAI, genai ``Client.aio``,
        Mistral's ``upload_async``), at most ``max_workers`` uploads at a time."""
        if not _is_async_capable(client):
            raise ToolwireError(
                f"{type(client).__name__} is a sync client: use uploads.sync(...), or pass "
                "the SDK's async client (AsyncAnthropic, AsyncOpenAI, genai Client.aio)"
            )
        caps, adapter = _target(model, capabilities)
        jobs = self._jobs(messages, caps, self._account_of(caps, client, account), min_bytes)
        return await arun(self._context(adapter, progress), jobs, client)

    # --- using ids --------------------------------------------------------------------------

    def resolve(
        self,
        messages: Sequence[Message],
        model: str,
        *,
        account: str | None = None,
        capabilities: Capabilities | Mapping[str, object] | None = None,
    ) -> list[Message]:
        """The conversation with each file ``model`` takes by id, and has a fresh id for,
        replaced by ``File.from_provider_file`` (same name and text); the rest unchanged.

        A message without such files is returned as is, and a resolved message is reused
        from turn to turn while its ids stay the same (so the planner's turn cache holds).
        The account is ``account``, else ``Uploads(account=...)``, else the one the last
        ``sync`` for this provider used: sync before resolving. ``capabilities`` are the
        overrides given to ``encode``, if any.
        """
        caps, _ = _target(model, capabilities)
        found = as_messages(messages)
        replaced: dict[int, File] = {}
        touched: dict[int, list[str]] = {}
        for index, in_tool_result, file in files(found):
            cell = id_cell(file, in_tool_result, caps)
            file_id = self._lookup(caps, file, cell, account) if cell else None
            if cell is not None and file_id is not None:
                replaced[id(file)] = _by_id(caps, file, file_id, self._form_type(file, cell))
                touched.setdefault(index, []).append(file_id)
        return [
            self._replaced(m, replaced, tuple(touched[i])) if i in touched else m
            for i, m in enumerate(found)
        ]

    def file_id_for(
        self,
        model: str,
        file: File,
        *,
        account: str | None = None,
        capabilities: Capabilities | None = None,
    ) -> str | None:
        """The fresh cached id of ``file``'s content for ``model``'s provider, or None.

        For a planner routing one file (it passes its ``Capabilities``): the planner decides
        whether the position takes an id (``file_id`` in the cell's sources); this only
        answers which id. Images are looked up as fitted to the cell, as they were uploaded.
        """
        caps, _ = _target(model, capabilities)
        cell = caps.cell(file.media_type)
        if cell is None or not file.source.is_local:
            return None
        return self._lookup(caps, file, cell, account)

    def remember(
        self,
        model: str,
        file: File,
        file_id: str,
        expires_at: datetime | float | None = None,
        *,
        account: str | None = None,
    ) -> None:
        """Record an upload made elsewhere: ``file``'s content is ``file_id`` at the provider."""
        from .cache import Entry

        caps, _ = _target(model)
        cell = caps.cell(file.media_type) or Cell((file.media_type,), tool_result="error")
        when = expires_at.timestamp() if isinstance(expires_at, datetime) else expires_at
        key = Key(str(caps.file_ids), self._account_for(caps, account), self._form(file, cell)[0])
        self._cache.record(key, None, Entry(file_id, when))

    def forget(self, model: str, file_id: str, *, account: str | None = None) -> int:
        """Drop ``file_id`` (the provider answered 404 for it): the next ``sync`` re-uploads.

        Returns how many cached entries held it (every account, unless ``account`` is given).
        """
        caps, _ = _target(model)
        return self._cache.forget(str(caps.file_ids), file_id, account)

    def betas(self, model: str) -> list[str]:
        """The betas a messages call referencing uploaded ids needs (Anthropic's Files API)."""
        caps, adapter = _target(model)
        return list(adapter.BETAS)

    def request_headers(self, model: str) -> dict[str, str]:
        """The same as HTTP headers, for ``extra_headers=`` (``{}`` when none is needed)."""
        betas = self.betas(model)
        return {"anthropic-beta": ",".join(betas)} if betas else {}

    # --- internals --------------------------------------------------------------------------

    def _jobs(
        self, messages: Sequence[Any], caps: Capabilities, account: str, min_bytes: int
    ) -> list[Job]:
        jobs: dict[Key, Job] = {}
        for _, in_tool_result, file in files(as_messages(messages)):
            cell = id_cell(file, in_tool_result, caps)
            if cell is None:
                continue
            form = upload_form(file, cell)
            size = len(form.read())
            if size < min_bytes or (cell.max_bytes and size > cell.max_bytes):
                continue  # small: inline is cheaper; too large: the planner reports it
            digest, _ = self._form(file, cell, form)
            key = Key(str(caps.file_ids), account, digest)
            jobs.setdefault(key, Job(key, form, _filename(file, form), file.identifier, size))
        return list(jobs.values())

    def _context(self, adapter: ModuleType, progress: Progress | None) -> Context:
        until = time.time() + self.margin
        return Context(self._cache, adapter, self._settings, until, self.max_workers, progress)

    def _lookup(
        self, caps: Capabilities, file: File, cell: Cell, account: str | None
    ) -> str | None:
        key = Key(str(caps.file_ids), self._account_for(caps, account), self._form(file, cell)[0])
        entry = self._cache.get(key, time.time() + self.margin)
        return entry.file_id if entry else None

    def _form(self, file: File, cell: Cell, form: File | None = None) -> tuple[str, str]:
        """(sha256, media type) of what would be uploaded for ``file`` under ``cell``, memoised."""
        limits = tuple(getattr(cell, k) for k in FILE_LIMITS)  # what fit_image depends on
        memo = (file.source.sha256(), file.media_type, *limits)
        known = self._forms.get(memo)
        if known is None:
            form = form or upload_form(file, cell)
            known = self._forms[memo] = (form.source.sha256(), form.media_type)
        return known

    def _form_type(self, file: File, cell: Cell) -> str:
        return self._form(file, cell)[1]

    def _account_of(self, caps: Capabilities, client: Any, account: str | None) -> str:
        found = account or self._account or account_of(client)
        self._accounts[str(caps.file_ids)] = found
        return found

    def _account_for(self, caps: Capabilities, account: str | None) -> str:
        return account or self._account or self._accounts.get(str(caps.file_ids), "")

    def _replaced(self, message: Any, replaced: dict[int, File], ids: tuple[str, ...]) -> Any:
        key = (id(message), ids)
        hit = self._resolved.get(key)
        if hit is not None and hit[0]() is message:
            return hit[1]
        new = replace_files(message, replaced)
        self._resolved[key] = (weakref.ref(message), new)
        weakref.finalize(message, self._resolved.pop, key, None)
        return new


def _target(
    model: str, capabilities: Capabilities | Mapping[str, object] | None = None
) -> tuple[Capabilities, ModuleType]:
    if isinstance(capabilities, Capabilities):
        caps = capabilities
    else:
        caps = load_capabilities(model, capabilities)
    by_id = any(
        "file_id" in cell.tool_sources or "file_id" in cell.user_sources
        for cell in caps.cells.values()
    )
    if caps.file_ids is None or caps.file_ids not in ADAPTERS or not by_id:
        with_ids = ", ".join(sorted(ADAPTERS))
        raise ToolwireError(
            f"{model} cannot reference uploaded files (its target has no Files API toolwire "
            f"knows, or none of its models' positions takes a file id); uploads work for "
            f"{with_ids}. Send the files inline: skip Uploads for it."
        )
    return caps, importlib.import_module(ADAPTERS[caps.file_ids])


def _is_async_capable(client: Any) -> bool:
    """Async SDK clients, google-genai's Client (``.aio``) and Mistral (``upload_async``)."""
    if type(client).__name__.startswith("Async") or hasattr(client, "aio"):
        return True
    return hasattr(getattr(client, "files", None), "upload_async")


def _open_cache(store: Any) -> Cache:
    return open_cache(store)


def _by_id(caps: Capabilities, file: File, file_id: str, media_type: str) -> File:
    source = ProviderFileSource(provider=str(caps.file_ids), file_id=file_id)
    return File(
        source=source, media_type=media_type, name=file.name or file.identifier, text=file.text
    )


def _filename(file: File, form: File) -> str:
    name = file.name or file.identifier
    if "." not in name.rsplit("/", 1)[-1]:
        name += mimetypes.guess_extension(form.media_type) or ""
    return name
