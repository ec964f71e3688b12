"""``Wire``: every fact of one wire format, and the functions that speak it (DESIGN.md §6.2).

A wire is the shape of one SDK call (Messages API, Chat Completions, Converse, …); several
targets of capabilities.toml may speak one (groq, xai, openrouter and openai-compatible
speak ``openai_chat``). Its facts are the same for every model on it: the ids and tool names
it accepts, its layout rules, how its SDK serialises the body, its tool-definition dialect.
The planner applies them; ``spell`` only writes the plan in the wire's shape.

Each built-in wire declares its ``Wire`` once, in ``toolwire/providers/<name>.py`` beside
its ``encode`` function, and registers it (``providers.register``). A wire of your own:

>>> register(Wire("toy", spell=spell_toy, decoder=Decoder(decode_toy, lambda data: "end"),
...     ids=id_rule(None, None, "call_", 24, "toy API"),
...     names=name_rule(ANY_TEXT, None, SURROGATES, "toy API"),
...     tools=openai_chat_tools, size=HTTPX))                              # doctest: +SKIP

then name it in a target (``wire = "toy"`` in capabilities.toml, TOOLWIRE_CAPABILITIES or
``encode(..., capabilities={"wire": "toy", ...})``).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..wire_size import Style

if TYPE_CHECKING:
    from ..messages import Assistant
    from ..plan.values import Plan
    from ..tools.tool import Tool

#: A wire's tool-definition dialect: the tools and the normalised tool_choice ("auto", "none",
#: "required", ("tool", name) or None) → the keyword-argument fragment that carries them.
ToolSpeller = Callable[["list[Tool]", "str | tuple[str, str] | None"], dict[str, Any]]
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
    ``describe_stop(data) -> str`` (why a reply ended, for the empty-reply error)."""

    decode: Callable[[dict[str, Any], str], Assistant]
    describe_stop: Callable[[dict[str, Any]], str]

    @classmethod
    def of_module(cls, module: str) -> Decoder:
        """The ``decode`` and ``describe_stop`` of ``module``, imported on first use."""
        return cls(_imported(module, "decode"), _imported(module, "describe_stop"))


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
    #: ``spell(plan) -> dict``: the plan in the wire's shape.
    spell: Callable[[Plan], dict[str, Any]]
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
