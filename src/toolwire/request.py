"""``encode``: a neutral conversation → the keyword arguments of one provider SDK call."""

from __future__ import annotations

import base64
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from .capability import Capabilities
from .capability import capabilities as load_capabilities
from .imagefit import fit_image
from .memo import MEMO
from .plan import CachePoints, Decision, OnUnsupported, Plan, plan
from .plan.budgets import HEADROOM, too_large
from .plan.cache import CachePoint
from .plan.ids import wire_text
from .providers import wire_module
from .wire_size import STYLES, wire_bytes

if TYPE_CHECKING:
    from .tools import Tool, ToolChoice
    from .uploads import Uploads


@dataclass(frozen=True)
class Request:
    """What to send: ``kwargs`` for the official SDK call, and a Decision per file.

    >>> request = encode(messages, "anthropic:claude-sonnet-4-5")      # doctest: +SKIP
    >>> client.messages.create(model="claude-sonnet-4-5", max_tokens=1024, **request.kwargs)
    """

    model: str
    kwargs: dict[str, Any]
    decisions: list[Decision] = field(default_factory=list)
    #: Where the prompt-cache marks went, in request order (``encode(..., cache=True)``).
    cache_points: list[CachePoint] = field(default_factory=list)
    #: The wire format the kwargs are spelled in (how its SDK serialises them).
    wire: str = field(default="", repr=False)
    size: int | None = field(default=None, repr=False, compare=False)

    def to_json(self) -> dict[str, Any]:
        """The same payload as JSON-safe data: raw bytes become base64 text."""
        return _json_safe(self.kwargs)

    @property
    def wire_bytes(self) -> int:
        """The size in bytes of the JSON body the SDK serialises from ``kwargs``, raw bytes as
        base64, with the SDK's separators and escaping (``toolwire.wire_size``); the caller's
        own arguments (model, max_tokens) add to it. Computed without serialising."""
        if self.size is None:
            object.__setattr__(self, "size", wire_bytes(self.kwargs, STYLES[self.wire]))
        return self.size  # type: ignore[return-value]

    @property
    def budgets_bound(self) -> dict[str, int]:
        """Per request budget that bound (``max_request_bytes``, ``max_images_per_request``,
        …), how many files it left out; empty when every file fits."""
        from .plan.budgets import bound

        return bound(self.decisions)


def encode(
    messages: Sequence[Any],
    model: str,
    *,
    on_unsupported: OnUnsupported = "error",
    fit_images: bool = True,
    fetch_urls: bool | Callable[[str], bytes] | None = None,
    capabilities: Capabilities | dict[str, Any] | None = None,
    tools: Sequence[Tool] = (),
    tool_choice: ToolChoice | None = None,
    uploads: Uploads | None = None,
    converters: Mapping[str, Callable[[Any], list[Any]]] | None = None,
    cache: bool = False,
) -> Request:
    """Encode ``messages`` for ``model`` ('provider:model-id').

    Files go natively where the target takes them, else in a labelled fallback user message;
    a file nothing can carry raises UnsupportedContentError (or, with
    ``on_unsupported="text"``, becomes its text fallback). See DESIGN.md §3.
    ``on_unsupported="convert"`` converts it to what the model reads (PDF pages and text,
    Markdown, video frames, PNG/JPEG; DESIGN.md §5.2); ``converters={"audio/*": fn}`` adds
    the caller's own, ``fn(File) -> list[Text | File]``, taking precedence.
    ``tools`` (``tw.Tool``) and ``tool_choice`` ("auto", "none", "required" or a tool's name)
    are spelled in the target's own dialect (``toolwire.tools.spell``; DESIGN.md §5.5).
    With ``uploads`` (``tw.Uploads``, after its ``sync``), each file the target takes by id
    where it sits goes by its cached id, and its Decision says ``via file id …``.
    ``cache=True`` places the target's prompt-cache marks (``toolwire.plan.cache``): after the
    tools and system prompt, and at the end of the latest tool turn; ``Request.cache_points``
    says where they went.
    """
    if isinstance(capabilities, Capabilities):
        caps = capabilities
    else:
        caps = load_capabilities(model, capabilities)
    fit = MEMO.fitted(fit_image) if fit_images else None
    fetch = _fetcher(fetch_urls)
    if uploads is not None:
        messages = uploads.resolve(messages, model, capabilities=capabilities)
    reserve, size = 0, None
    while True:  # budgets (plan.budgets): plan again, the overshoot kept free, while too large
        laid_out = plan(
            messages, caps, on_unsupported=on_unsupported, fetch=fetch, fit=fit, memo=MEMO,
            cache=cache, tools=bool(tools), converters=converters, reserve=reserve,
        )  # fmt: skip
        kwargs = wire_module(caps.wire).encode(laid_out)
        if tools or tool_choice is not None:
            kwargs = _with_tools(kwargs, _tools(tools, tool_choice, caps, laid_out.cache))
        size, over = _over_budget(kwargs, caps, laid_out, bool(tools))
        if not over:
            break
        if not laid_out.decisions:  # no file to leave out: the text alone is too large
            raise too_large(caps, size or 0)
        reserve += over + HEADROOM
    request = Request(model, kwargs, list(laid_out.decisions), wire=caps.wire, size=size)
    if laid_out.cache is not None:
        return replace(request, cache_points=laid_out.cache.describe(laid_out.steps))
    return request


def _tools(
    tools: Sequence[Tool], choice: ToolChoice | None, caps: Capabilities, cache: CachePoints | None
) -> dict[str, Any]:
    """The tools fragment, with the cache mark after the last tool where the plan put one."""
    from .tools import spell
    from .tools.spell import mark_tools

    fragment = wire_text(spell(tools, choice, caps))  # lone surrogates in a tool's text too
    return mark_tools(fragment, cache.marks) if cache is not None and cache.tools else fragment


def _over_budget(
    kwargs: dict[str, Any], caps: Capabilities, laid_out: Plan, tools: bool
) -> tuple[int | None, int]:
    """The body's size (when a byte budget applies) and by how much it breaks the budget;
    not measured when an upper bound of it is within the budget (``Plan.bound``, plan.tally:
    every file as routed, no text fallback or conversion of unknown size, no tools)."""
    limit = caps.budgets.max_request_bytes
    if not limit:
        return None, 0
    bound = laid_out.bound
    if bound is not None and not tools and bound + HEADROOM <= limit:  # noqa: SIM102
        if _ROUTED.issuperset([d.mode for d in laid_out.decisions]):  # no text of unknown size
            return None, 0
    size = wire_bytes(kwargs, STYLES[caps.wire]) + HEADROOM
    return size - HEADROOM, max(0, size - limit)


#: Decision modes whose files ``Plan.bound`` measures as sent.
_ROUTED = frozenset(("native", "sibling", "fallback"))


def _with_tools(kwargs: dict[str, Any], fragment: dict[str, Any]) -> dict[str, Any]:
    """``kwargs`` with the tools fragment merged in (Gemini's into the existing ``config``)."""
    merged = {**kwargs, **fragment}
    if "config" in fragment:
        merged["config"] = {**kwargs.get("config", {}), **fragment["config"]}
    return merged


def _fetcher(fetch_urls: bool | Callable[[str], bytes] | None) -> Callable[[str], bytes] | None:
    if fetch_urls is True:
        from .fetch import fetch_url

        return fetch_url
    if callable(fetch_urls):
        return fetch_urls
    return None


def _json_safe(value: Any) -> Any:
    if isinstance(value, bytes | bytearray | memoryview):
        return base64.b64encode(bytes(value)).decode("ascii")
    if isinstance(value, dict):
        return {k: _json_safe(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_json_safe(v) for v in value]
    return value
