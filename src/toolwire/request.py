"""``encode``: a neutral conversation → the keyword arguments of one provider SDK call."""

from __future__ import annotations

import base64
from collections.abc import Callable, Mapping, Sequence
from copy import deepcopy
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, cast

from .capability import Capabilities
from .capability import capabilities as load_capabilities
from .content import JsonValue
from .imagefit import fit_image
from .memo import MEMO
from .messages import Message
from .plan import Decision, OnBudget, OnUnsupported, Plan, plan
from .plan.budgets import HEADROOM, too_large
from .plan.cache import CachePoint
from .plan.context import left_for_context
from .plan.files import EVICT_TO
from .plan.ids import has_lone_surrogate, wire_kwargs, wire_text
from .plan.values import Limit, budgets_bound
from .providers import wire_named
from .wire_size import wire_bytes

if TYPE_CHECKING:
    from .convert import Converter
    from .plan.provider_parts import PartLeftOut
    from .tools import Tool, ToolChoice
    from .tools.repair import PreparedTool, ToolNote
    from .uploads import Uploads


@dataclass(frozen=True)
class Request:
    """What to send: ``kwargs`` for the official SDK call, and a Decision per file.

    >>> request = encode(messages, "anthropic:claude-sonnet-4-6")      # doctest: +SKIP
    >>> client.messages.create(model="claude-sonnet-4-6", max_tokens=1024, **request.kwargs)
    """

    model: str
    #: ``Any`` values: each SDK types its call's parameters its own way (TypedDicts, models),
    #: and a ``dict[str, object]`` could not be splatted into that call under a type checker.
    kwargs: dict[str, Any]
    decisions: list[Decision] = field(default_factory=list)
    #: Where the prompt-cache marks went, in request order (``encode(..., cache=True)``).
    cache_points: list[CachePoint] = field(default_factory=list)
    #: The wire format the kwargs are spelled in (how its SDK serialises them).
    wire: str = field(default="", repr=False)
    size: int | None = field(default=None, repr=False, compare=False)
    #: The plan the kwargs spell (``plan_request``): every decision, as data.
    plan: Plan | None = field(default=None, repr=False, compare=False)
    #: What was changed in the tools' schemas for this target, each with its rule and source
    #: (``tools=``: a parameter renamed, a root anyOf merged, …).
    tool_notes: list[ToolNote] = field(default_factory=list)
    #: The provider parts of the conversation (a built-in tool's blocks, a Gemini image) this
    #: target does not receive, each with its ``reason``: only the API that sent one reads it.
    parts_left_out: list[PartLeftOut] = field(default_factory=list)

    def to_json(self) -> dict[str, JsonValue]:
        """The same payload as JSON-safe data: raw bytes become base64 text."""
        return {key: _json_safe(value) for key, value in self.kwargs.items()}

    @property
    def wire_bytes(self) -> int:
        """The size in bytes of the JSON body the SDK serialises from ``kwargs``, raw bytes as
        base64, with the SDK's separators and escaping (``toolwire.wire_size``); the caller's
        own arguments (model, max_tokens) add to it. Computed without serialising."""
        if self.size is None:
            object.__setattr__(self, "size", wire_bytes(self.kwargs, wire_named(self.wire).size))
        return self.size  # type: ignore[return-value]

    @property
    def budgets_bound(self) -> dict[str, int]:
        """Per request budget that changed a file (left it out, re-fitted it or shrank its
        conversion: ``Decision.limit``), how many files it changed; empty when none did."""
        return budgets_bound(self.decisions)


def encode(
    messages: Sequence[Message],
    model: str,
    *,
    on_unsupported: OnUnsupported = "error",
    on_budget: OnBudget = "evict",
    evict_to: float = EVICT_TO,
    fit_images: bool = True,
    fetch_urls: bool | Callable[[str], bytes] | None = None,
    capabilities: Capabilities | Mapping[str, object] | None = None,
    tools: Sequence[Tool] = (),
    tool_choice: ToolChoice | None = None,
    uploads: Uploads | None = None,
    converters: Mapping[str, Converter] | None = None,
    cache: bool = False,
) -> Request:
    """Encode ``messages`` for ``model`` ('provider:model-id'): ``spell(plan_request(...))``.

    Files go natively where the target takes them, else in a labelled fallback user message;
    a file nothing can carry raises UnsupportedContentError (or, with
    ``on_unsupported="text"``, becomes its text fallback). See DESIGN.md §3.
    Where the conversation breaks a request budget of the target (bytes, images, pages,
    documents), the oldest files are left out and described instead (``on_budget="evict"``;
    ``"error"`` raises BudgetError), the newest always kept; once a budget binds, files are
    left out until it is down to ``evict_to`` of it, so that the next requests start alike
    and the provider's prompt cache keeps serving them.
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
    return spell(
        plan_request(
            messages,
            model,
            on_unsupported=on_unsupported,
            on_budget=on_budget,
            evict_to=evict_to,
            fit_images=fit_images,
            fetch_urls=fetch_urls,
            capabilities=capabilities,
            tools=tools,
            tool_choice=tool_choice,
            uploads=uploads,
            converters=converters,
            cache=cache,
        )  # fmt: skip
    )


def plan_request(
    messages: Sequence[Message],
    model: str,
    *,
    on_unsupported: OnUnsupported = "error",
    on_budget: OnBudget = "evict",
    evict_to: float = EVICT_TO,
    fit_images: bool = True,
    fetch_urls: bool | Callable[[str], bytes] | None = None,
    capabilities: Capabilities | Mapping[str, object] | None = None,
    tools: Sequence[Tool] = (),
    tool_choice: ToolChoice | None = None,
    uploads: Uploads | None = None,
    converters: Mapping[str, Converter] | None = None,
    cache: bool = False,
) -> Plan:
    """Every decision ``encode`` makes for this request, as one value (DESIGN.md §6.1): the
    settings mean what they mean for ``encode``, and ``spell(plan)`` is its Request.

    ``estimate_tokens``, ``fit``, the view and ``render`` read this same plan, so what they
    show is what is sent. The byte budget is the last pass: where the plan's upper bound
    (``Plan.bound``) does not prove the body within ``max_request_bytes``, the body is
    measured as the SDK sends it (``wire_size``) and, while it is too large, planned again
    with the overshoot kept free, the oldest media going first.
    """
    if isinstance(capabilities, Capabilities):
        caps = capabilities
    else:
        caps = load_capabilities(model, capabilities)
    fit = MEMO.fitted(fit_image) if fit_images else None
    fetch = _fetcher(fetch_urls)
    sent_tools: tuple[PreparedTool, ...] = ()
    if tools:  # the tools as the target takes them (tools.repair), kept by content
        from .tools.repair import forced, prepared_tools

        sent_tools = forced(prepared_tools(tools, caps, MEMO.tools), tool_choice, caps)
    notes = [note for tool in sent_tools for note in tool.notes]

    def within_bytes(
        messages: Sequence[Message], evicted: Mapping[tuple[int, int], Limit] | None = None
    ) -> Plan:
        """The plan, within the byte budget as the SDK sends it: planned again, with the
        overshoot kept free, while the spelled body is too large (the text estimate was
        short); ``evicted``: files the context window leaves out as well."""
        reserve, before = 0, None
        while True:
            laid_out = plan(
                messages, caps, on_unsupported=on_unsupported, on_budget=on_budget,
                evict_to=evict_to, fetch=fetch, fit=fit, memo=MEMO, cache=cache,
                tools=bool(sent_tools), converters=converters, reserve=reserve, evicted=evicted,
            )  # fmt: skip
            if sent_tools or tool_choice is not None:
                laid_out = replace(
                    laid_out, tools=sent_tools, tool_choice=tool_choice, tool_notes=tuple(notes)
                )
            size, over, spelled = _over_budget(laid_out)
            if not over:  # the body measured (where the bound did not do): its size, its kwargs
                return laid_out if size is None else replace(laid_out, size=size, spelled=spelled)
            if not laid_out.decisions or (laid_out.decisions, size) == before:
                raise too_large(caps, size or 0)  # nothing left to leave out: text too large
            before = (laid_out.decisions, size)
            reserve += over + HEADROOM

    if uploads is None:
        return within_bytes(messages)
    originals = messages
    messages = uploads.resolve(messages, model, capabilities=capabilities)
    evicted: dict[tuple[int, int], Limit] = {}
    laid_out = within_bytes(messages)
    for _ in range(_CONTEXT_PASSES):  # files by id: the context window binds, not the bytes
        more = left_for_context(messages, originals, laid_out, model, evict_to)
        if not more.keys() - evicted.keys():
            break
        evicted.update(more)
        laid_out = within_bytes(messages, evicted)
    return laid_out


#: How many times the context window is measured and more files left out (each pass
#: prices the descriptions that replaced the files left out by the one before).
_CONTEXT_PASSES = 3


def spell(plan: Plan) -> Request:
    """The Request that ``plan`` describes: its steps spelled by the target's wire, with the
    tool definitions and cache marks it holds. Decides nothing; where the byte budget already
    spelled the plan to measure it, those keyword arguments are the request's."""
    caps = plan.caps
    request = Request(
        f"{caps.provider}:{caps.model}",
        cast(dict[str, Any], plan.spelled) if plan.spelled is not None else _kwargs(plan),
        list(plan.decisions),
        wire=caps.wire,
        size=plan.size,
        plan=plan,
        tool_notes=list(plan.tool_notes),
        parts_left_out=list(plan.parts_left_out),
    )
    if plan.cache is not None:
        return replace(request, cache_points=plan.cache.describe(plan.steps))
    return request


def _kwargs(plan: Plan, sizes: dict[int, int] | None = None) -> dict[str, Any]:
    """The SDK call's keyword arguments for ``plan`` (``sizes``: see ``Wire.spell``)."""
    kwargs: dict[str, Any] = wire_kwargs(plan.wire.spell(plan, MEMO.spelled, sizes), plan)
    if plan.tools or plan.tool_choice is not None:
        kwargs = _with_tools(kwargs, _tools(plan))
    return kwargs


def _tools(plan: Plan) -> dict[str, Any]:
    """The tools fragment of ``plan``, with the cache mark after the last tool where the plan
    put one: a copy of the kept one (``_kept_tools``), so a caller may edit it."""
    fragment: dict[str, Any] = deepcopy(_kept_tools(plan)[0])
    return fragment


def _kept_tools(plan: Plan) -> tuple[dict[str, Any], int]:
    """The tools fragment of ``plan`` and its size on the wire: spelled and measured once per
    tools, choice, wire and mark (``MEMO.tool_fragments``, keyed by the prepared tools' own
    keys). The kept fragment itself: read it, or copy it (``_tools``)."""
    from .tools.spell import mark_tools, spell_prepared

    cache, tools, caps = plan.cache, plan.tools, plan.caps
    marked = cache.marks if cache is not None and cache.tools else None
    keys = tuple(tool.key for tool in tools)
    key = (keys, plan.tool_choice, caps.wire, marked) if None not in keys else None
    kept: tuple[dict[str, Any], int] | None = (
        MEMO.tool_fragments.get(key) if key is not None else None
    )
    if kept is not None:
        return kept
    fragment = spell_prepared(tools, plan.tool_choice, caps)
    if any(tool.scrub for tool in tools) or has_lone_surrogate(plan.tool_choice):
        fragment = wire_text(fragment)  # lone surrogates in a tool's text too
    if marked is not None:
        fragment = mark_tools(fragment, marked)
    size = wire_bytes(fragment, plan.wire.size)
    if key is not None:
        MEMO.tool_fragments.keep(key, (fragment, size), size)
    return fragment, size


def _over_budget(laid_out: Plan) -> tuple[int | None, int, dict[str, Any] | None]:
    """The body's size (when a byte budget applies), by how much it breaks the budget, and
    the keyword arguments spelled to measure it; not measured when an upper bound of it is
    within the budget (``Plan.bound``, plan.tally: every file as routed, no text fallback or
    conversion of unknown size; with the tools fragment's own size and ``TOOLS_JOIN``)."""
    caps = laid_out.caps
    limit = caps.budgets.max_request_bytes
    if not limit:
        return None, 0, None
    bound = laid_out.bound
    if bound is not None and laid_out.tools:
        bound += _kept_tools(laid_out)[1] + TOOLS_JOIN
    if bound is not None and bound + HEADROOM <= limit:
        return None, 0, None
    sizes: dict[int, int] = {}  # each item's size, measured when it was first spelled
    kwargs = _kwargs(laid_out, sizes)
    size = wire_bytes(kwargs, laid_out.wire.size, sizes)
    return size, max(0, size + HEADROOM - limit), kwargs


#: At most how many bytes joining the tools fragment to the body adds beyond the fragment's
#: own JSON (a comma and a key's separator, or none where it merges into Gemini's config).
TOOLS_JOIN = 8


def _with_tools(kwargs: dict[str, Any], fragment: dict[str, Any]) -> dict[str, Any]:
    """``kwargs`` with the tools fragment merged in (Gemini's into the existing ``config``)."""
    merged = {**kwargs, **fragment}
    if "config" in fragment:
        merged["config"] = {**kwargs.get("config", {}), **fragment["config"]}
    return merged


def _fetcher(fetch_urls: bool | Callable[[str], bytes] | None) -> Callable[[str], bytes] | None:
    """The fetcher of one request: the built-in one or the caller's, each URL once and within
    the request's download budget (``fetch.for_one_request``)."""
    if fetch_urls is not True and not callable(fetch_urls):
        return None
    from .fetch import fetch_url, for_one_request

    return for_one_request(fetch_url if fetch_urls is True else fetch_urls)


def _json_safe(value: object) -> JsonValue:
    if isinstance(value, bytes | bytearray | memoryview):
        return base64.b64encode(bytes(value)).decode("ascii")
    if isinstance(value, dict):
        return {k: _json_safe(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_json_safe(v) for v in value]
    return cast(JsonValue, value)  # the encoders' kwargs hold JSON data and bytes only
