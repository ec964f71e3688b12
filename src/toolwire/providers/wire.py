"""``Wire``: every fact of one wire format, and the functions that speak it (DESIGN.md §6.2).

A wire is the shape of one SDK call (Messages API, Chat Completions, Converse, …); several
targets of capabilities.toml may speak one (groq, xai, openrouter and openai-compatible
speak ``openai_chat``). Its facts are the same for every model on it: the ids and tool names
it accepts, its layout rules, how its SDK serialises the body, its tool-definition dialect.
The planner applies them; ``spell`` only writes the plan in the wire's shape.

Each built-in wire declares its ``Wire`` once, in ``toolwire/providers/<name>.py`` beside
its ``step`` and ``finish`` functions, and registers it (``providers.register``). A wire of your own:

>>> register(Wire("toy", step=toy_step, finish=toy_finish, decoder=Decoder(decode_toy, str),
...     ids=id_rule(None, None, "call_", 24, "toy API"),
...     names=name_rule(ANY_TEXT, None, SURROGATES, "toy API"),
...     tools=openai_chat_tools, size=HTTPX))                              # doctest: +SKIP

then name it in a target (``wire = "toy"`` in capabilities.toml, TOOLWIRE_CAPABILITIES or
``encode(..., capabilities={"wire": "toy", ...})``).
"""

from __future__ import annotations

import importlib
import json
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from ..errors import CapabilityError
from ..wire_size import Style, wire_bytes

if TYPE_CHECKING:
    from ..decoders.streams import Assembler
    from ..messages import Assistant
    from ..plan.ids import ToolNames
    from ..plan.values import Plan, Step
    from ..tools.repair import PreparedTool
    from .bedrock_names import DocumentNames

#: A wire's tool-definition dialect: the tools prepared for the target (tools.repair) and the
#: normalised tool_choice ("auto", "none", "required", ("tool", name) or None) → the
#: keyword-argument fragment that carries them.
ToolSpeller = Callable[["list[PreparedTool]", "str | tuple[str, str] | None"], dict[str, Any]]
#: Every tool_choice toolwire spells; ``Wire.tool_choices`` says which a wire takes.
TOOL_CHOICES = frozenset(("auto", "none", "required", "tool"))


@dataclass(frozen=True)
class Rule:
    """What one wire accepts for one kind of value (tool-call ids, tool names), and how a
    rejected value is rewritten (plan.ids).

    ``pattern`` must match the whole value (None: any text), ``max_length`` bounds it (None:
    unbounded); every value must also be encodable as UTF-8. A rewritten value is ``prefix``
    + ``digits`` hex digits of its sha256, or, when ``forbidden`` is set (names), the original
    with every run of ``forbidden`` characters replaced by ``_``, then ``_`` and 8 hex digits
    (``prefix`` + digits again where that still breaks the rule). ``source``: the evidence.
    """

    pattern: str | None
    max_length: int | None
    prefix: str
    digits: int
    source: str
    forbidden: str | None = None
    #: Values already checked (an agent re-encodes the same ids every turn), bounded.
    seen: dict[str, bool] = field(default_factory=dict, compare=False, repr=False)


def id_rule(
    pattern: str | None, max_length: int | None, prefix: str, digits: int, source: str
) -> Rule:
    """A rule for tool-call ids: a rejected id becomes ``prefix`` + ``digits`` hex digits."""
    return Rule(pattern, max_length, prefix, digits, source)


def name_rule(pattern: str, max_length: int | None, forbidden: str, source: str) -> Rule:
    """A rule for tool names: a rejected name keeps its allowed characters (``forbidden``
    runs become ``_``) and gains 8 hex digits, so the model can still read it."""
    return Rule(pattern, max_length, "tool_", 24, source, forbidden)


#: The tool-name rule most wires publish: letters, digits, ``_`` and ``-``, 1 to 64.
NAME_64 = r"[a-zA-Z0-9_-]{1,64}"
NOT_NAME_64 = r"[^a-zA-Z0-9_-]+"
#: Any UTF-8 text but the empty name (for wires that publish no rule).
ANY_TEXT = r"(?s).+"
SURROGATES = "[\ud800-\udfff]+"


@dataclass(frozen=True)
class Decoder:
    """How a wire's reply is read back: ``decode(data, issuer) -> Assistant`` and
    ``describe_stop(data) -> str`` (why a reply ended, for the empty-reply error);
    ``stream(issuer)``: an assembler that rebuilds that reply from its stream events
    (``tw.StreamDecoder``), None where the wire has none."""

    decode: Callable[[dict[str, Any], str], Assistant]
    describe_stop: Callable[[dict[str, Any]], str]
    stream: Callable[[str], Assembler] | None = None

    @classmethod
    def of_module(cls, module: str) -> Decoder:
        """The ``decode`` and ``describe_stop`` of ``module``, and the ``Stream`` of its
        namesake in ``toolwire.decoders.streams``, imported on first use."""
        stream = module.replace(".decoders.", ".decoders.streams.", 1)
        return cls(
            _imported(module, "decode"), _imported(module, "describe_stop"),
            _imported(stream, "Stream"),
        )  # fmt: skip


def _imported(module: str, name: str) -> Callable[..., Any]:
    def call(*args: Any) -> Any:
        return getattr(importlib.import_module(module), name)(*args)

    call.__qualname__ = call.__name__ = f"{module}.{name}"
    return call


@dataclass(frozen=True)
class Wire:
    """Every fact of one wire format, and the functions that speak it.

    ``spell(plan)`` returns the SDK call's keyword arguments and decides nothing: every fact
    below is applied by the planner before it runs (plan.wire_rules, plan.ids, the budgets).
    """

    #: The name targets give in capabilities.toml (``wire = "bedrock"``).
    name: str
    #: ``step(step, spelling) -> items``: one step of a plan in the wire's shape (its
    #: messages, contents or input items), reading nothing but the step and ``spelling``.
    step: Callable[[Step, Spelling], list[dict[str, Any]]]
    #: ``finish(plan, items) -> kwargs``: the SDK call's keyword arguments around the items:
    #: the system text, and cache marks made for the whole request.
    finish: Callable[[Plan, list[dict[str, Any]]], dict[str, Any]]
    #: The reply read back (``tw.decode``).
    decoder: Decoder
    #: Tool-call ids the wire accepts; others are rewritten stably (plan.ids).
    ids: Rule
    #: Tool names the wire accepts, in calls and in tool definitions (plan.ids, tools.spell).
    names: Rule
    #: The tool-definition dialect (tools.spell): ``encode(..., tools=…)``.
    tools: ToolSpeller
    #: How its SDK serialises the body (separators, ASCII escapes): ``Request.wire_bytes`` and
    #: the request-bytes budget.
    size: Style
    #: The tool_choice values the dialect has a spelling for ("tool": a tool's name).
    tool_choices: frozenset[str] = TOOL_CHOICES
    #: How the wire's own models write call arguments as JSON text (item and key separators),
    #: where it takes them as text: a replayed call is byte-identical.
    separators: tuple[str, str] = (",", ":")
    #: Consecutive messages of one role are rejected: the plan merges them.
    roles_alternate: bool = False
    #: Text blocks of white space only are rejected: the plan leaves them out.
    rejects_blank_text: bool = False
    #: A message holding a document must hold a text block too: the plan labels it.
    documents_need_text: bool = False
    #: The system text goes in a parameter of its own, not among the messages: the plan
    #: refuses a conversation with no other message (ConversationError), as the request
    #: would hold none.
    system_apart: bool = False
    #: The first message must be a user message: the plan refuses a conversation that starts
    #: otherwise (ConversationError).
    starts_with_user: bool = False
    #: A user message may follow tool results directly (in the same provider message or the
    #: next); where not, the plan refuses a layout that puts parts beside tool results.
    user_follows_tool: bool = True
    #: The media types the wire has a content block for, each with the wire's own name for its
    #: format; None: every type the table routes. The plan refuses a file of another type
    #: (only a capabilities override routes one).
    formats: Mapping[str, str] | None = None
    #: Thinking has a place of its own in the wire's messages. Where not (Chat Completions), it
    #: goes back only where the target's table says the server takes it (``reasoning_replay``):
    #: the plan leaves the rest out, and an assistant message of thinking alone with it.
    takes_thinking: bool = True
    #: Thinking goes back only with its signature: the plan leaves unsigned thinking out
    #: (replay by issuer, plan.layout.verifiable).
    thinking_needs_signature: bool = False
    #: Thinking goes back only with its text (Converse's ``reasoningText.text``, Ollama's
    #: ``thinking``): the plan leaves out thinking with none.
    thinking_needs_text: bool = False
    #: Redacted thinking has a place of its own; where not, the plan leaves it out.
    takes_redacted_thinking: bool = True
    #: A signature with no thought (a Thinking of no text) stands on the part after it, which
    #: may be an empty text part of its own (Gemini's): the plan keeps that empty text.
    signature_on_next_part: bool = False
    #: The signatures the wire sends as bytes, which toolwire keeps as base64 text: of
    #: "thinking", "call" (a tool call's) and "redacted" (redacted thinking's data). The plan
    #: refuses one that is not base64 (ConversationError), so spelling a signature never
    #: fails.
    base64_signatures: frozenset[str] = frozenset()
    #: The fields of the wire's own provider parts that hold base64 text the wire sends as
    #: bytes, each a path of keys (Gemini: ``("inline_data", "data")``); the plan refuses a
    #: value there that is not base64, as it does signatures.
    base64_part_fields: tuple[tuple[str, ...], ...] = ()
    #: ``mark(item) -> item``: a copy of a marked step's last item closed by a cache mark
    #: (plan.cache); None where the wire's marks are placed by ``finish``.
    mark: Callable[[dict[str, Any]], dict[str, Any]] | None = None

    def spell(
        self,
        plan: Plan,
        kept: KeptSpellings | None = None,
        sizes: dict[int, int] | None = None,
    ) -> dict[str, Any]:
        """``plan`` in this wire's shape: each step spelled, then ``finish``. With ``kept``
        (memo.SpelledSteps), what was spelled before for this wire is used again: the items
        of the longest run of first steps an earlier request had (an agent's history only
        grows), then each step's own kept items by its content digest. With ``sizes``, each
        item's size as its SDK sends it (``wire_size``) is filled in by the item's id, so
        the body is measured without walking what was measured before (it holds the items,
        so the ids stand for them while it lives). Lone surrogates are left in:
        ``plan.ids.wire_kwargs`` replaces them where the plan found any (``Plan.scrub``)."""
        spelling = Spelling(
            plan.names, plan.sign_first_call, plan.pdf_citations, plan.reasoning_replay,
            plan.text_parts, plan.steps,
        )  # fmt: skip
        steps, measure = plan.steps, sizes is not None
        start, items, ends, keep, measured = 0, [], [], [], []
        found = kept.take_run(self.name, spelling.variant, steps) if kept is not None else None
        renamed = found[1].lineage if found is not None else None
        if renamed is not None and renamed is not plan.names.lineage():
            found = None  # spelled with ids and names this request gives other values
        if found is not None and (not measure or None not in found[1].sizes):
            start, run = found  # handed over: this request goes on in its lists
            end = run.ends[start - 1]
            ends, keep, measured = run.ends, run.items, run.sizes
            del ends[start:], keep[end:], measured[end:]
            items = keep[:end]  # the caller's own list
            spelling.replay(run.documents, start)
        for index in range(start, len(steps)):
            spelling.at = index
            try:
                spelled = self._step(steps[index], spelling, kept, measure)
            except CannotSpell as exc:
                raise CapabilityError(
                    f"{plan.target}: the capabilities route {exc}, but the {self.name} wire "
                    "cannot carry it there. Remove or correct the capabilities override for "
                    f"{plan.caps.provider}."
                ) from None
            if spelled is None:  # a kept spelling answered another request's names: afresh
                return self.spell(plan, sizes=sizes)
            given, kept_items, item_sizes = spelled
            items += given
            keep += kept_items
            measured += item_sizes
            ends.append(len(items))
        lineage = plan.names.lineage() if spelling.renamed else None
        run = Run(steps, ends, keep, spelling.documents, measured, lineage)
        if plan.cache is not None and self.mark is not None:
            measured = list(measured)  # marked below: the run's sizes stay as measured
            for index in plan.cache.steps:  # the plan's cache points (plan.cache)
                if ends[index] > (ends[index - 1] if index else 0):
                    items[ends[index] - 1] = self.mark(items[ends[index] - 1])
                    measured[ends[index] - 1] = None
        if sizes is not None:
            if None in measured:  # a marked item: the others are known
                sizes.update((id(i), n) for i, n in zip(items, measured, strict=True) if n)
            else:  # the whole list at once: a JSON array of the items
                style = len(self.size.item) * (len(items) - 1) if items else 0
                sizes[id(items)] = 2 + style + sum(measured)  # type: ignore[arg-type]
        if kept is not None:  # last: a later request may take it
            kept.keep_run(self.name, spelling.variant, run)
        return self.finish(plan, items)

    def _step(
        self, step: Step, spelling: Spelling, kept: KeptSpellings | None, measure: bool
    ) -> tuple[list[dict[str, Any]], list[dict[str, Any]], list[int | None]] | None:
        """One step's items for the request, the items kept for later requests and each
        item's size (None: not measured): kept ones where the names they were spelled with
        are this request's too (None where not), else spelled now (and a copy kept)."""
        if kept is None:
            items = self.step(step, spelling)
            return items, items, self._sizes(items, measure)
        key = (self.name, step.digest, spelling.variant)
        found = kept.get(key)
        if found is not None and (not measure or None not in found[2]):
            items, asked, item_sizes = found
            return (items, items, list(item_sizes)) if spelling.answers(asked) else None
        spelling.asked = []
        items = self.step(step, spelling)
        item_sizes = self._sizes(items, measure)
        copy = kept.keep(key, items, tuple(spelling.asked), item_sizes)
        spelling.asked = None
        return items, copy, item_sizes

    def _sizes(self, items: list[dict[str, Any]], measure: bool) -> list[int | None]:
        """Each item's size as the wire's SDK sends it, where asked (else None each)."""
        if not measure:
            return [None] * len(items)
        return [wire_bytes(item, self.size) for item in items]


@dataclass(frozen=True)
class Run:
    """The spelling of a plan's steps, kept for the next request of the same history: the
    items (as kept: copies, never those given to a caller), where each step's items end, and
    the document names asked for (at which step). The request that takes it over
    (``KeptSpellings.take_run``) cuts its lists to the steps it shares and goes on in them."""

    steps: tuple[Step, ...]
    ends: list[int]
    items: list[dict[str, Any]]
    documents: list[tuple[int, tuple[str, str, str]]] = field(default_factory=list)
    #: Each item's size as the wire's SDK sends it (None: not measured).
    sizes: list[int | None] = field(default_factory=list)
    #: Where an id or name was rewritten: the lineage of the names it was spelled with
    #: (plan.ids.ToolNames.lineage); a request whose names share it gives every call the same
    #: values. None where every value passed through as it was.
    lineage: object | None = None


class CannotSpell(Exception):
    """A file the plan routed where this wire has no shape for it: only a capabilities
    override claims more than a wire can carry. ``Wire.spell`` makes it a CapabilityError
    naming the target and the file."""


class KeptSpellings(Protocol):
    """Where spellings are kept between requests (``memo.SpelledSteps``)."""

    def get(
        self, key: tuple[str, bytes, Hashable]
    ) -> tuple[list[dict[str, Any]], Asked, list[int | None]] | None:
        """The items kept for a step (wire, content digest, ``Spelling.variant``), what it asked, and each
        item's size (None: not measured)."""

    def keep(
        self,
        key: tuple[str, bytes, Hashable],
        items: list[dict[str, Any]],
        asked: Asked,
        sizes: list[int | None],
    ) -> list[dict[str, Any]]:
        """Keep a copy of a step's items; the copy."""

    def take_run(
        self, wire: str, sign: Hashable, steps: tuple[Step, ...]
    ) -> tuple[int, Run] | None:
        """The kept run sharing the most first steps with ``steps``, and how many: no longer
        kept (its lists are the taker's to cut and grow)."""

    def keep_run(self, wire: str, sign: Hashable, run: Run) -> None:
        """Keep a request's run."""


#: What a step's spelling asked of its request (``Spelling``): (question, value, answer).
Asked = tuple[tuple[str, str, str], ...]


class Spelling:
    """What spelling one step may read besides the step: the request's tool-call ids and
    tool names (plan.ids), the document names handed out so far (Bedrock: unique within a
    request), and whether a model turn's first call must carry a thought signature.

    While ``asked`` is a list, every answer is noted in it, so that a step's kept spelling
    is reused only where this request answers the same (``answers``).
    """

    def __init__(
        self,
        names: ToolNames,
        sign_first_call: bool,
        pdf_citations: bool = False,
        reasoning_replay: tuple[str, str] | None = None,
        text_parts: bool = False,
        steps: tuple[Step, ...] = (),
    ) -> None:
        self.names = names
        #: The request's steps, read for the calls a model made as client-side items.
        self.steps = steps
        self.sign_first_call = sign_first_call
        self.pdf_citations = pdf_citations
        #: The field the model's reasoning goes back in and on which messages (plan).
        self.reasoning_replay = reasoning_replay
        #: A message's texts go as a list of parts (else joined into one string).
        self.text_parts = text_parts
        self.asked: list[tuple[str, str, str]] | None = None
        #: A tool-call id or tool name was rewritten for this request (plan.ids).
        self.renamed = False
        #: Every document name handed out, with the index of the step it went to (``at``).
        self.documents: list[tuple[int, tuple[str, str, str]]] = []
        self.at = 0
        self._taken: DocumentNames | None = None

    @property
    def variant(self) -> tuple[bool, bool, tuple[str, str] | None, bool]:
        """What besides a step changes its spelling (kept spellings are keyed by it)."""
        return self.sign_first_call, self.pdf_citations, self.reasoning_replay, self.text_parts

    def call_id(self, original: str) -> str:
        """The tool-call id this request sends for ``original``."""
        return self._noted("call_id", original, self.names.call_id(original))

    def name(self, original: str) -> str:
        """The tool name this request sends for ``original``."""
        return self._noted("name", original, self.names.name(original))

    def call_item(self, call_id: str) -> str:
        """The item type the model made the call ``call_id`` as, where it was a client-side
        item sent back as it came (a call whose signature is the item's JSON:
        decoders.openai_responses.CLIENT_CALLS); "function_call" for any other call. Its
        answer is spelled as that item's output."""
        return self._noted("call_item", call_id, _item_of(self.steps, self.at, call_id))

    def document_name(self, identifier: str) -> str:
        """The next free document name for ``identifier`` in this request (Bedrock's rule:
        providers.bedrock_names)."""
        if self._taken is None:
            from .bedrock_names import DocumentNames

            self._taken = DocumentNames()
        answer = self._taken.take(identifier)
        self.documents.append((self.at, ("document_name", identifier, answer)))
        return self._noted("document_name", identifier, answer)

    def answers(self, asked: Asked) -> bool:
        """Whether this request answers each question of ``asked`` as it was answered (the
        document names asked are taken here too, in order, as spelling the step would)."""
        return all(getattr(self, question)(value) == answer for question, value, answer in asked)

    def replay(self, documents: Sequence[tuple[int, tuple[str, str, str]]], before: int) -> None:
        """Hand out again the document names a kept run gave its steps before ``before``."""
        for at, asked in documents:
            if at < before:
                self.at = at
                self.answers((asked,))

    def _noted(self, question: str, value: str, answer: str) -> str:
        if answer != value and question in ("call_id", "name"):
            self.renamed = True
        if self.asked is not None:
            self.asked.append((question, value, answer))
        return answer


def _item_of(steps: tuple[Step, ...], before: int, call_id: str) -> str:
    """The item type of the call ``call_id`` as the nearest assistant step before step
    ``before`` made it: a client-side item's, where the call carries that item as JSON in its
    signature (decoders.openai_responses), else "function_call". Its result is the step
    after it, most often: the search seldom goes further back."""
    from ..content import ToolCall
    from ..messages import Assistant

    for index in range(before - 1, -1, -1):
        step = steps[index]
        if not isinstance(step, Assistant):
            continue
        for part in step.content:
            if isinstance(part, ToolCall) and part.id == call_id:
                signature = part.signature
                if signature and signature[0] == "{":
                    return str(json.loads(signature)["type"])
                return "function_call"
    return "function_call"
