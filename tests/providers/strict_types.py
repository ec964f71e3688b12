"""Strict pydantic validators built from an SDK's request TypedDicts.

Under pydantic the SDKs' TypedDicts are lenient: unknown keys pass, and ``Iterable[...]``
fields are validated lazily (a wrong item fails only when someone iterates, and a union
may pick the wrong member first). ``strict`` rebuilds a type with every TypedDict set to
``extra="forbid"`` and every ``Iterable`` / ``SequenceNotStr`` materialised as a ``list``,
and drops the SDK's response models from unions (encoders emit plain dicts; a model there
would let any extra key through), so a payload either validates completely or fails. ``KwargsValidator`` checks a whole
``**kwargs`` dict against the SDK's ``…CreateParams`` TypedDict, key by key.
"""

from __future__ import annotations

import collections.abc
import types
from typing import Any, Literal, Union

import typing_extensions
from pydantic import BaseModel, ConfigDict, TypeAdapter

_CONFIG = ConfigDict(extra="forbid", arbitrary_types_allowed=True, strict=True)
_LISTLIKE = (collections.abc.Iterable, collections.abc.Sequence, list)
_MAPPINGS = (dict, collections.abc.Mapping)
_WRAPPERS = (typing_extensions.Required, typing_extensions.NotRequired, typing_extensions.ReadOnly)
_built: dict[Any, Any] = {}
_NOTHING: Any = typing_extensions.Never  # what a union of response models strictifies to


def strict(tp: Any) -> Any:
    """``tp`` with every TypedDict forbidding unknown keys and every Iterable a list."""
    if typing_extensions.is_typeddict(tp):
        return _typeddict(tp)
    origin, args = typing_extensions.get_origin(tp), typing_extensions.get_args(tp)
    if origin is typing_extensions.Annotated:
        return strict(args[0])  # the SDKs' PropertyInfo metadata means nothing to pydantic
    if origin in (Union, types.UnionType):
        members = tuple(m for m in (strict(a) for a in args) if m is not _NOTHING)
        return Union[members] if members else _NOTHING  # noqa: UP007
    if _is_model(tp):
        return _NOTHING
    if origin is Literal or not args:
        return tp
    if origin in _LISTLIKE or getattr(origin, "__name__", "") == "SequenceNotStr":
        return list[strict(args[0])]  # type: ignore[misc]
    if origin in _MAPPINGS:
        return dict[args[0], strict(args[1])]  # type: ignore[misc]
    return tp  # other generics (IO[bytes], …) are validated as the SDK declares them


def _is_model(tp: Any) -> bool:
    """SDK response models (accepted back by some SDKs) — our encoders only emit dicts."""
    return isinstance(tp, type) and issubclass(tp, BaseModel)


def _typeddict(td: Any) -> Any:
    if td in _built:
        return _built[td]
    _built[td] = td  # a recursive reference stays as the SDK wrote it instead of looping
    fields = {}
    for key, hint in typing_extensions.get_type_hints(td, include_extras=True).items():
        # Requiredness from the hint itself: with postponed annotations the SDK classes'
        # __required_keys__ can be empty although the field says Required[...].
        wrapper = typing_extensions.get_origin(hint)
        if wrapper not in _WRAPPERS[:2]:
            wrapper = _WRAPPERS[0] if key in td.__required_keys__ else _WRAPPERS[1]
        member = strict(_unwrap(hint))
        fields[key] = wrapper[member]
    built = typing_extensions.TypedDict(td.__name__, fields, total=False)  # type: ignore[operator]
    built.__pydantic_config__ = _CONFIG  # type: ignore[attr-defined]
    _built[td] = built
    return built


def _unwrap(hint: Any) -> Any:
    while typing_extensions.get_origin(hint) in _WRAPPERS:
        hint = typing_extensions.get_args(hint)[0]
    return hint


class KwargsValidator:
    """Validates SDK call kwargs against the SDK's create-params TypedDict, strictly.

    Only the keys present are checked (the caller adds ``model`` and friends); a key the
    params do not declare fails, and so does any value its strict type rejects.
    """

    def __init__(self, params: Any) -> None:
        self.name = params.__name__
        self._hints = typing_extensions.get_type_hints(params, include_extras=True)
        self._adapters: dict[str, TypeAdapter[Any]] = {}

    def __call__(self, kwargs: dict[str, Any]) -> None:
        unknown = sorted(set(kwargs) - set(self._hints))
        if unknown:
            raise ValueError(f"{self.name} has no parameter(s) {unknown}")
        for key, value in kwargs.items():
            if key not in self._adapters:
                self._adapters[key] = TypeAdapter(strict(_unwrap(self._hints[key])))
            self._adapters[key].validate_python(value)
