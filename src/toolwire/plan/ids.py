"""Tool-call ids and tool names each wire accepts, and text every SDK can encode as UTF-8.

A conversation's tool calls may come from another provider: Kimi on Groq answers
``functions.screenshot:0``, an MCP host stores ``srv.read file``, a JSON history holds a lone
surrogate (``"\\ud800"`` is valid JSON). Each wire's published rules are data of its ``Wire``
(``Wire.ids``, ``Wire.names``: providers/<wire>.py); the ids pass of the plan (``ToolNames.of``) decides the ids and names
a request's calls and results get, and encoders spell ``plan.names``, so a call and its
result always get the same value.

- A value the wire accepts passes through byte-identical (replay to the same provider
  does not change it).
- A value it rejects is rewritten from a sha256 of the original (never a counter or a random
  seed): the same history gives the same ids in every process. Ids become ``prefix`` + hex
  digits; names keep their allowed characters (``get.weather`` → ``get_weather_3f1c9a2b``),
  since the model reads them.
- Within one request, no two different originals share a value, and a rewritten value never
  equals one that passed through: on a clash the hash is taken again with a counter appended
  to the original (``\\x00`` + n), so only a contrived history sees that second form.

Names are rewritten rather than refused: a name a wire rejects cannot be among the request's
tool definitions either, so the caller has renamed that tool for this target anyway. To give
the definitions the same names, pass them through ``accepted_name(wire, name)``.

The lone-surrogate scrub is the last *spelling* step (``wire_kwargs``), not a plan
decision: it must reach every string of the payload, including strings the encoder writes
itself (JSON keys of call arguments, joined texts), and only the spelled payload has them all.
The plan decides only whether it is needed (``Plan.scrub``: no step holds a lone
surrogate → the payload is returned without a walk). Where a byte budget measures every
string of the messages (plan.measure), that pass answers; else ``needs_scrub`` walks the
steps. Lone surrogates (which no
SDK can encode as UTF-8) become U+FFFD in every string of the payload, dictionary keys
included, and a surrogate pair stored as two code points becomes the character it encodes.
Thought signatures are bytes on some wires: one holding a surrogate is not base64, and the
plan refuses it (ConversationError: ``Wire.base64_signatures``).
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import re
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel

from ..messages import Assistant
from ..providers import Rule, Wire, wire_named
from .values import ToolTurn

if TYPE_CHECKING:
    from .values import Plan

_LONE = re.compile("[\ud800-\udfff]")
_SEEN_LIMIT = 65536


def accepts(rule: Rule, value: str) -> bool:
    """Whether ``value`` satisfies ``rule`` (and is encodable as UTF-8)."""
    found = rule.seen.get(value)
    if found is None:
        if len(rule.seen) >= _SEEN_LIMIT:
            rule.seen.clear()
        found = rule.seen[value] = _accepts(rule, value)
    return found


def _accepts(rule: Rule, value: str) -> bool:
    if rule.max_length is not None and len(value) > rule.max_length:
        return False
    if rule.pattern is not None and not _compiled(rule.pattern).fullmatch(value):
        return False
    return value.isascii() or _LONE.search(value) is None


@functools.cache
def _compiled(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern)


def rewrite(rule: Rule, original: str, attempt: int = 0) -> str:
    """The stable replacement for a value ``rule`` rejects (``attempt`` > 0 after a clash)."""
    data = original.encode("utf-8", "surrogatepass")
    if attempt:
        data += b"\x00%d" % attempt
    digest = hashlib.sha256(data).hexdigest()
    if rule.forbidden is None:
        return rule.prefix + digest[: rule.digits]
    head = re.sub(rule.forbidden, "_", original).strip("_")
    room = (rule.max_length or 128) - 9
    readable = f"{head[:room]}_{digest[:8]}"
    return readable if head and accepts(rule, readable) else rule.prefix + digest[: rule.digits]


def accepted_id(wire: str, original: str) -> str:
    """The tool-call id the wire named ``wire`` gets for ``original`` (alone in its request)."""
    rule = wire_named(wire).ids
    return original if accepts(rule, original) else rewrite(rule, original)


def accepted_name(wire: str, original: str) -> str:
    """The tool name the wire named ``wire`` gets for ``original`` (alone in its request)."""
    rule = wire_named(wire).names
    return original if accepts(rule, original) else rewrite(rule, original)


class _Mapping(dict[str, str]):
    """One request's values of one kind, original → spelled: kept where accepted, else
    rewritten without clashes. Called like a function (a dict lookup: encoders call it for
    every call and result of every encode).

    Made as the encoder asks: while each value asked for is accepted (almost every request),
    it is kept as it is, and no step is walked. The first value the rule rejects completes
    the mapping from every original of the request (``_originals``), the accepted first, so
    that a rewrite never takes an original: the very mapping a full walk beforehand made.
    """

    def __init__(
        self, rule: Rule, steps: Sequence[Any], which: int, grown_from: _Mapping | None = None
    ) -> None:
        self.rule = rule  # (dict.__new__ made it empty: no dict.__init__ to call)
        self._steps, self._which = steps, which  # _originals(steps)[which], when complete
        self._taken: set[str] | None = None  # every value given out, once complete
        #: The complete mapping of an earlier request of the same history, whose originals
        #: are the first of these steps' (a history that grew): completed from it.
        self._grown_from = grown_from if grown_from is not None and grown_from.complete else None
        self._clashed = False  # a value of ``_grown_from`` had to change: mapped afresh

    @property
    def complete(self) -> bool:
        """Whether every original of the request is mapped."""
        return self._taken is not None

    def settle(self) -> bool:
        """Map every original; whether every value of the mapping it grew from kept its
        value (a new original that passes through as one of its rewritten values changes
        them)."""
        if self._taken is None:
            self._complete()
        return not self._clashed

    def __missing__(self, original: str) -> str:
        rule, taken = self.rule, self._taken
        if taken is None:
            found = rule.seen.get(original)  # ``accepts``' own memo, read here: most values
            if found is None:
                found = accepts(rule, original)
            if found:
                self[original] = original
                return original
            taken = self._complete()
            if original in self:
                return self[original]
        attempt = 0
        value = original if accepts(rule, original) else rewrite(rule, original)
        while value in taken and value != original:
            attempt += 1
            value = rewrite(rule, original, attempt)
        taken.add(value)
        self[original] = value
        return value

    def _complete(self) -> set[str]:
        """Every original of the request mapped: each value once (a result repeats its
        call's id; most calls share a few names), the accepted first. Grown from an earlier
        request's complete mapping, only the originals it lacks are walked: its values stay
        as they were, unless one of the new that passes through is a value it rewrote one
        to (then every original is mapped afresh, as a full walk would)."""
        grown = self._grown_from
        if grown is not None:
            self._grown_from = None
            taken = self._grown_onto(grown)
            if taken is not None:
                return taken
            self._clashed = True
        rule, rejected = self.rule, []
        for value in dict.fromkeys(_originals(self._steps)[self._which]):
            if value not in self:
                if accepts(rule, value):
                    self[value] = value
                else:
                    rejected.append(value)
        taken = self._taken = set(self)
        for value in rejected:
            if value not in self:
                self.__missing__(value)
        return taken

    def _grown_onto(self, grown: _Mapping) -> set[str] | None:
        """Completed from ``grown`` (complete): its values, then the originals it lacks, met in
        the steps after its own (its last step may have grown: walked again); None where one
        of those passes through as a value ``grown`` rewrote another original to."""
        rule = self.rule
        rewritten = {value for original, value in grown.items() if value != original}
        after = self._steps[max(len(grown._steps) - 1, 0) :]
        new = [v for v in dict.fromkeys(_originals(after)[self._which]) if v not in grown]
        accepted = [value for value in new if accepts(rule, value)]
        if not rewritten.isdisjoint(accepted):
            return None
        self.update(grown)  # the values asked so far passed through: the same in ``grown``
        self.update((value, value) for value in accepted)
        taken = self._taken = {*grown.values(), *accepted}
        for value in new:
            if value not in self:
                self.__missing__(value)
        return taken

    __call__ = dict.__getitem__


class ToolNames:
    """The ids and names one request's tool calls and results go with on its wire."""

    def __init__(
        self, wire: Wire, steps: Sequence[Any], grown_from: ToolNames | None = None
    ) -> None:
        ids, names = (grown_from.call_id, grown_from.name) if grown_from else (None, None)
        self.call_id: _Mapping = _Mapping(wire.ids, steps, 0, ids)
        self.name: _Mapping = _Mapping(wire.names, steps, 1, names)
        #: Shared by the names of the requests of one growing history while each keeps the
        #: values of the one before (``lineage``): their spelled steps hold the same ids.
        self._lineage: object = grown_from._lineage if grown_from is not None else object()

    def lineage(self) -> object:
        """Every original mapped, and a token shared with the names it grew from where every
        value they had kept its value (a request spelled with either gives its calls and
        results the same ids and names); a token of its own otherwise."""
        if not all([self.call_id.settle(), self.name.settle()]):
            self._lineage = object()
        return self._lineage

    @classmethod
    def of(cls, steps: Sequence[Any], wire: Wire, grown_from: ToolNames | None = None) -> ToolNames:
        """The ids pass: the mapping for every tool call and result of ``steps`` on ``wire``
        (made as the encoder asks for each value: ``_Mapping``); ``grown_from``: the names of
        an earlier request whose steps are the first of ``steps`` (an agent's history that
        grew), whose mapping is carried on rather than made again from every step."""
        return cls(wire, steps, grown_from)


def _originals(steps: Sequence[Any]) -> tuple[list[str], list[str]]:
    """The call ids and the tool names of every tool call and result of ``steps``, in order."""
    call_ids: list[str] = []
    names: list[str] = []
    for step in steps:
        match step:
            case ToolTurn(results=results):
                for result in results:
                    call_ids.append(result.call_id)
                    names.append(result.name)
            case Assistant(tool_calls=calls):
                for call in calls:
                    call_ids.append(call.id)
                    names.append(call.name)
    return call_ids, names


def wire_text(value: Any) -> Any:
    """``value`` with lone surrogates replaced by U+FFFD in every string and key; the same
    object (nothing copied) when it has none. Lists, tuples and dicts are walked."""
    return _cleaned(value) if has_lone_surrogate(value) else value


def wire_kwargs(kwargs: dict[str, Any], plan: Plan) -> dict[str, Any]:
    """An encoder's keyword arguments with every string encodable as UTF-8 (``wire_text``).

    Every string of a payload comes from the plan's steps, or is ASCII, or is text decoded
    from bytes (which holds no surrogates); so when the plan says no step holds a lone
    surrogate, the payload is returned as it is without walking it.
    """
    if plan.scrub:
        cleaned: dict[str, Any] = _cleaned(kwargs)
        return cleaned
    return kwargs


def needs_scrub(steps: Sequence[Any]) -> bool:
    """Whether any step holds a lone surrogate."""
    return has_lone_surrogate(steps)


def has_lone_surrogate(value: object) -> bool:
    """Whether any string reachable from ``value`` holds a surrogate: through dicts, lists,
    tuples and sets, the fields of pydantic models and dataclasses (messages, parts, the plan's
    steps), and the attributes of other objects; ASCII strings cost O(1). A walk with a stack,
    not recursion: a hostile JSON value may nest deeper than Python's recursion limit."""
    stack: list[object] = [value]
    seen: set[int] = set()
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if _lone(item):
                return True
            continue
        if isinstance(item, _HOLDS_NO_TEXT) or callable(item) or id(item) in seen:
            continue
        seen.add(id(item))
        stack.extend(_members(item))
    return False


#: Values that hold no string (bytes are data, never sent as text).
_HOLDS_NO_TEXT = (bytes, bytearray, memoryview, int, float, type(None))


def _members(item: object) -> Iterable[object]:
    """The values ``item`` holds, for the walk."""
    match item:
        case dict():
            return [*item.keys(), *item.values()]
        case list() | tuple() | set() | frozenset():
            return item
        case BaseModel():
            return [getattr(item, name) for name in type(item).model_fields]
        case _ if dataclasses.is_dataclass(item):
            return [getattr(item, field.name) for field in dataclasses.fields(item)]
        case _:
            return list(getattr(item, "__dict__", {}).values())


def _lone(text: str | None) -> bool:
    return text is not None and not text.isascii() and _LONE.search(text) is not None


def _cleaned(value: Any) -> Any:
    if isinstance(value, str):
        if value.isascii() or _LONE.search(value) is None:
            return value
        return value.encode("utf-16", "surrogatepass").decode("utf-16", "replace")
    if isinstance(value, dict):
        if not has_lone_surrogate(value):
            return value
        return {_cleaned(k): _cleaned(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        if not has_lone_surrogate(value):
            return value
        return type(value)(_cleaned(item) for item in value)
    return value
