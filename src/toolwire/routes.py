"""The route of one file to one target: native, sibling, fallback, or none — and why.

This is the only place that reads a capability cell to decide where a file goes. The planner's
first pass (plan.files) calls ``route`` for every file. ``fit`` comes memoised from the
``encode`` boundary (memo.Memo.fitted): nothing is cached here.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Literal, NamedTuple, cast

from .capability import Capabilities, Cell
from .content import File
from .errors import FetchError, ToolwireError
from .headers import human_size
from .sources import BytesSource, ProviderFileSource, UrlSource

if TYPE_CHECKING:
    from .plan.values import Limit

Fetcher = Callable[[str], bytes]
#: The routes that carry a file; "none" means no route does (its reason says why).
Carrier = Literal["native", "sibling", "fallback"]


class Route(NamedTuple):
    """Where a file goes (``mode``), the file as it will be sent, and the reasons (a tuple:
    one is made per file of every encode); ``cell``: the table's cell for the file's media
    type, where it has one (the budgets' tally reads it: plan.tally); ``limit``: the request
    budget that closed the route or re-fitted the file (plan.files.Budget)."""

    mode: Carrier | Literal["none"]
    file: File
    reason: str
    notes: tuple[str, ...] = ()
    cell: Cell | None = None
    limit: Limit | None = None


def source_kind(file: File, caps: Capabilities) -> str:
    """The capability vocabulary for a file's source: bytes, url, s3, gcs, file_id, foreign."""
    source = file.source
    if isinstance(source, BytesSource):
        return "bytes"
    if isinstance(source, UrlSource):
        return source.scheme
    if isinstance(source, ProviderFileSource):
        return "file_id" if source.provider == caps.file_ids else "foreign"
    return "bytes"


def route(
    file: File,
    in_tool_result: bool,
    caps: Capabilities,
    fetch: Fetcher | None,
    fit: Callable[[File, Cell], tuple[File, str | None]] | None,
) -> Route:
    """Pick the best route for ``file``; mode 'none' carries the reason nothing fits."""
    cell = caps.cell(file.media_type)
    if cell is None:
        return Route("none", file, f"{_target(caps)} has no route for {file.media_type}")
    if cell.tool_result == "error" and not (cell.user_sources and not in_tool_result):
        return Route("none", file, f"{cell.evidence}", (), cell)
    if isinstance(file.source, BytesSource):  # the first position taking bytes
        mode: Any
        accepted: tuple[str, ...]
        if in_tool_result and cell.tool_result in ("native", "sibling"):
            mode, accepted = cell.tool_result, cell.tool_sources
        else:
            mode, accepted = ("fallback" if in_tool_result else "native"), cell.user_sources
        if "bytes" in accepted:
            where = _WHERE[mode] if in_tool_result else "in the user message"
            return _finish(mode, file, cell, fit, "", where)
    attempts: list[tuple[Carrier, tuple[str, ...]]] = []
    if in_tool_result and cell.tool_result in ("native", "sibling"):
        attempts.append((cast(Carrier, cell.tool_result), cell.tool_sources))
    if cell.user_sources:
        attempts.append(("fallback" if in_tool_result else "native", cell.user_sources))
    if not attempts:
        where = "a tool result or a user message" if in_tool_result else "a user message"
        reason = f"{_target(caps)} lists no source for {file.media_type} in {where}"
        return Route("none", file, reason, (), cell)
    problems = []
    for mode, accepted in attempts:
        sent, problem = _deliverable(file, accepted, caps, fetch)
        if sent is None:
            problems.append(problem)
            continue
        where = _WHERE[mode] if in_tool_result else "in the user message"
        return _finish(mode, sent, cell, fit, problem, where)
    return Route("none", file, "; ".join(dict.fromkeys(problems)), (), cell)


def _target(caps: Capabilities) -> str:
    return f"{caps.provider}:{caps.model}"


def _deliverable(
    file: File, accepted: tuple[str, ...], caps: Capabilities, fetch: Fetcher | None
) -> tuple[File | None, str]:
    """The file in a form this position accepts (maybe downloaded), or None and why not."""
    kind = source_kind(file, caps)
    if kind in accepted:
        return file, ""
    if kind == "url" and "bytes" in accepted:
        if fetch is None:
            return None, (
                f"its URL source is not accepted there ({', '.join(accepted)} only); "
                "pass fetch_urls=True (or a fetcher) to download it"
            )
        url = file.source.url  # type: ignore[union-attr]
        try:
            data = fetch(url)
        except ToolwireError:
            raise
        except Exception as exc:  # a user-supplied fetcher may raise anything
            raise FetchError(f"fetching {url} failed: {exc}") from exc
        _check_fetched(url, data)
        fetched = File.from_bytes(data, file.media_type, name=file.name or file.identifier)
        return fetched, f"downloaded from {url}"
    if kind == "foreign":
        owner = file.source.provider  # type: ignore[union-attr]
        return None, f"it is a {owner} file id, which {caps.provider} cannot reference"
    return None, f"its {kind} source is not accepted there ({', '.join(accepted) or 'nothing'})"


def _check_fetched(url: str, data: Any) -> None:
    """The built-in fetcher caps its downloads; a caller's fetcher gets the same cap here."""
    from .fetch import MAX_FETCH_BYTES

    if not isinstance(data, bytes | bytearray):
        raise FetchError(f"the fetcher returned {type(data).__name__} for {url}, not bytes")
    if len(data) > MAX_FETCH_BYTES:
        raise FetchError(
            f"the fetcher returned {human_size(len(data))} for {url}, over the "
            f"{human_size(MAX_FETCH_BYTES)} cap on downloaded files"
        )


def _finish(
    mode: Carrier,
    file: File,
    cell: Cell,
    fit: Callable[[File, Cell], tuple[File, str | None]] | None,
    fetched_note: str,
    where: str,
) -> Route:
    notes: tuple[str, ...] = (fetched_note,) if fetched_note else ()
    source = file.source
    local = source.is_local
    if fit is not None and local and file.media_type.startswith("image/"):  # File.kind
        file, note = fit(file, cell)
        if note:
            notes += (note,)
        source = file.source
    if cell.max_bytes and local:
        size = len(file.read())
        if size > cell.max_bytes:
            limit = f"it is {human_size(size)}; the limit there is {human_size(cell.max_bytes)}"
            return Route("none", file, limit, (), cell)
    if isinstance(source, ProviderFileSource):
        where = f"{where}, via file id {source.file_id}"
    return Route(mode, file, f"{where} ({cell.evidence})", notes, cell)


_WHERE = {
    "native": "inside the tool result",
    "sibling": "beside the tool results, in the same message",
    "fallback": "in a labelled user message after the tool results",
}
