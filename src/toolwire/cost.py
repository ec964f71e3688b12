"""Billed input tokens of an agent loop: cache writes, cache reads and uncached (issue 16).

A provider bills a request's input in three parts: tokens written to its prompt cache, tokens
read from it, and the rest. The multipliers are the target's ``cache`` facts in
capabilities.toml (``write``, ``read``, each with its evidence), never constants here.

``PromptCache`` simulates the provider's cache over one session, request after request, as
an agent loop sends them (each request extends the one before: tests/test_prefix_stability.py):

- targets with marks (Anthropic, Bedrock): a request reads the longest prefix an earlier
  request wrote at one of its marks, if it ends at or before this request's last mark (the
  provider looks back from each mark; the simulator assumes the lookback reaches); it writes
  from there up to its last mark; the rest is uncached;
- targets that cache automatically (marks "none" with a ``read`` discount: OpenAI, Gemini;
  OpenAI gpt-5.6 and later without explicit breakpoints, its implicit mode):
  the prefix an earlier request sent is read, in 128-token steps once at least 1024 tokens
  long (docs "Prompt caching"); nothing is billed extra for writes;
- a target without cache facts, or ``cache=False`` on a target with marks: all uncached.

Token counts are ``estimate_tokens``' per-message estimates, plus each tool definition's
JSON text. ``BilledTokens.price`` turns a split into money from the ``genai-prices`` dataset.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from .capability import Capabilities
from .capability import capabilities as load_capabilities
from .errors import MissingDependencyError, ToolwireError
from .messages import Assistant, System, ToolResult
from .tokens import estimate_text, estimate_tokens

if TYPE_CHECKING:
    from .request import Request
    from .tools import Tool

#: Automatic caching (OpenAI "Prompt caching"): prefixes of 1024+ tokens, in 128-token steps.
_AUTO_MIN, _AUTO_STEP = 1024, 128


@dataclass(frozen=True)
class BilledTokens:
    """One request's input tokens as billed: ``uncached``, ``cache_write``, ``cache_read``,
    with the target's multipliers (``write_rate``, ``read_rate``: cost of one token against an
    uncached one)."""

    uncached: int
    cache_write: int = 0
    cache_read: int = 0
    write_rate: float = 1.0
    read_rate: float = 1.0

    @property
    def total(self) -> int:
        """Every input token, however billed."""
        return self.uncached + self.cache_write + self.cache_read

    @property
    def equivalents(self) -> float:
        """What the input costs, in uncached-token equivalents."""
        return self.uncached + self.cache_write * self.write_rate + self.cache_read * self.read_rate

    def price(self, model: str) -> Decimal:
        """The input's price in USD for ``model`` ('provider:model-id') from the
        ``genai-prices`` dataset (``pip install "toolwire[prices]"``)."""
        try:
            from genai_prices import Usage, calc_price
        except ImportError as exc:
            raise MissingDependencyError(
                "BilledTokens.price needs the genai-prices price dataset: pip install 'toolwire[prices]'"
            ) from exc
        provider, _, model_id = model.partition(":")
        usage = Usage(
            input_tokens=self.total,  # genai-prices: input includes cache reads and writes
            cache_write_tokens=self.cache_write,
            cache_read_tokens=self.cache_read,
            output_tokens=0,
        )
        try:
            found = calc_price(
                usage, model_id, provider_id=_PRICE_PROVIDERS.get(provider, provider)
            )
        except LookupError as exc:
            raise ToolwireError(
                f"genai-prices has no price for {model} ({exc}); pass a model id its dataset "
                "names, e.g. bedrock:us.anthropic.claude-sonnet-4-5-20250929-v1:0"
            ) from exc
        return Decimal(found.input_price)


#: toolwire target -> genai-prices provider id, where the names differ.
_PRICE_PROVIDERS = {"bedrock": "aws", "openai-chat": "openai", "google-vertex": "google"}


@dataclass
class PromptCache:
    """A simulated prompt cache of ``model``'s provider over one agent session.

    A provider reads a cached prefix only where the request starts with exactly what was
    written: the simulator keys what it writes by the content before each message boundary
    (the messages' digests and what the request's plan does with their files), so a file the
    request budgets left out since (issue 37) ends the prefix that is read there.

    >>> cache = PromptCache("anthropic:claude-sonnet-4-6")              # doctest: +SKIP
    >>> request = encode(messages, cache.model, tools=tools, cache=True)
    >>> cache.send(messages, request, tools=tools).equivalents
    """

    model: str
    capabilities: Capabilities | None = None
    #: (message boundary, tokens before it, the content before it) of each prefix written.
    written: set[tuple[int, int, bytes]] = field(default_factory=set)

    def __post_init__(self) -> None:
        if self.capabilities is None:
            self.capabilities = load_capabilities(self.model)

    def send(
        self, messages: Sequence[Any], request: Request, *, tools: Sequence[Tool] = ()
    ) -> BilledTokens:
        """Bill ``request`` (encoded from ``messages`` and ``tools``) and remember what it
        leaves in the cache."""
        assert self.capabilities is not None
        facts = self.capabilities.cache
        ends = _tokens(messages, self.model, tools, request.plan)
        if facts is None:
            return BilledTokens(ends[-1])
        total = ends[-1]
        prefixes = _prefixes(messages, request, tools)
        marks = [_boundary(p, messages, ends) for p in request.cache_points]
        if facts.marks == "none" or (facts.marks == "openai" and not marks):
            # openai ResponseCreateParams.prompt_cache_options.mode defaults to "implicit":
            # without explicit breakpoints the service still caches the sent prefix.
            return self._automatic(ends, prefixes, facts.read)
        if not marks:
            return BilledTokens(total, write_rate=facts.write, read_rate=facts.read)
        last = ends[max(marks)]
        read = self._read(ends, prefixes, max(marks))
        self.written.update((k, ends[k], prefixes[k]) for k in marks)
        return BilledTokens(total - last, last - read, read, facts.write, facts.read)

    def _read(self, ends: list[int], prefixes: list[bytes], upto: int) -> int:
        """The longest prefix written before, up to boundary ``upto``, that this request
        starts with: its tokens."""
        same = [w for k, w, fp in self.written if k <= upto and w == ends[k] and fp == prefixes[k]]
        return max(same, default=0)

    def _automatic(self, ends: list[int], prefixes: list[bytes], read_rate: float) -> BilledTokens:
        total = ends[-1]
        sent = self._read(ends, prefixes, len(ends) - 1)
        read = 0 if sent < _AUTO_MIN else sent - sent % _AUTO_STEP
        self.written.add((len(ends) - 1, total, prefixes[-1]))
        return BilledTokens(total - read, 0, read, 1.0, read_rate)


def _tokens(
    messages: Sequence[Any], model: str, tools: Sequence[Tool], plan: Any = None
) -> list[int]:
    """Token offsets: ``[tools, end of message 0, end of message 1, …]``, each file priced
    as ``plan`` sends it (a file left out, as its description)."""
    defined = sum(estimate_text(json.dumps(_spec(t))) for t in tools)
    ends = [defined]
    for count in estimate_tokens(messages, model, plan=plan).per_message:
        ends.append(ends[-1] + count)
    return ends


def _prefixes(messages: Sequence[Any], request: Request, tools: Sequence[Tool]) -> list[bytes]:
    """Per message boundary (as ``_tokens``), a digest of what the request holds before it:
    the tools, each message's content digest and the decisions of its files."""
    decided: dict[int, list[Any]] = {}
    for d in request.decisions:
        how = (d.identifier, d.mode, d.converted_to, d.position, d.limit is not None, d.resize)
        decided.setdefault(d.message_index, []).append(how)
    running = hashlib.sha256(json.dumps([_spec(t) for t in tools], sort_keys=True).encode())
    prefixes = [running.digest()]
    for index, message in enumerate(messages):
        running.update(message.digest)
        running.update(repr(decided.get(index, ())).encode())
        prefixes.append(running.copy().digest())
    return prefixes


def _spec(tool: Tool) -> dict[str, Any]:
    return {"name": tool.name, "description": tool.description, "parameters": tool.parameters}


def _boundary(point: Any, messages: Sequence[Any], ends: list[int]) -> int:
    """Where a ``CachePoint`` falls: the message boundary it follows (an index of ``ends``)."""
    if point.where == "tools":
        return 0
    if point.where == "system":
        systems = [i for i, m in enumerate(messages) if isinstance(m, System)]
        return systems[-1] + 1 if systems else 0
    if point.where == "automatic":
        return len(ends) - 1
    return _group_end(messages, point.turn) + 1


def _group_end(messages: Sequence[Any], turn: int) -> int:
    """The last message of the ``turn``-th tool turn's group (its results and the messages up
    to the next assistant message)."""
    seen, end = 0, len(messages) - 1
    for index, message in enumerate(messages):
        starts = isinstance(message, ToolResult) and not isinstance(messages[index - 1], ToolResult)
        seen += starts
        if seen == turn and isinstance(message, Assistant):
            return index - 1
    return end
