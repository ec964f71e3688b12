"""Content digests: what every cache that serves re-encoding is keyed by (DESIGN.md §6.3).

An agent re-encodes its whole history after every reply, and a server may load that history
from storage every turn: the same content, new objects. So the caches of ``toolwire.memo``
key by what a message *holds*, never by which object it is. Messages and parts are frozen and
hold tuples, so each computes its digest once, on first use, and keeps it
(``Digested.digest``); a container's digest is built from its members' digests, so a
history's digests cost one pass over what is new.

A digest is a sha256 over a typed, length-prefixed rendering of every field: two values have
the same digest only when every field is equal (a File by its source's sha256 and, for a
file on disk, its path). JSON data (call arguments, Json parts, JSON outputs) is rendered
in its own key order, since the wire keeps that order. JSON data is the one thing inside a
message that can still be edited in place: edit a copy and build a new message.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import json
from collections.abc import Mapping
from functools import cached_property
from typing import Any, ClassVar, Self

from pydantic import BaseModel

from .sources import _Source


class Digested(BaseModel):
    """A frozen model that knows its content digest (``digest``, computed once)."""

    @cached_property
    def digest(self) -> bytes:
        """The sha256 of every field's content (``toolwire.digest``)."""
        if self._holds_only_json:
            try:  # pydantic's own JSON of the model: every field, in a few microseconds
                data = self.__pydantic_serializer__.to_json(self, round_trip=True)
            except ValueError:  # a lone surrogate: walked field by field instead
                return digest_of(self)
            return hashlib.sha256(type(self).__qualname__.encode() + b":" + data).digest()
        return digest_of(self)

    #: Every field is JSON data (no File, no other Digested inside): its JSON is its content.
    _holds_only_json: ClassVar[bool] = True

    #: The fields that hold JSON data, kept read-only (content.json_data) in a copy too.
    _json_fields: ClassVar[frozenset[str]] = frozenset()

    def model_copy(self, *, update: Mapping[str, Any] | None = None, deep: bool = False) -> Self:
        """pydantic's copy, without the original's digest where ``update`` changes a field;
        JSON given for a JSON field is made read-only as the constructor makes it (pydantic's
        copy runs no validator)."""
        if update and not self._json_fields.isdisjoint(update):
            from .content import json_data

            name = type(self).__name__
            update = {
                key: json_data(value, f"{name}.{key}") if key in self._json_fields else value
                for key, value in update.items()
            }
        copied = super().model_copy(update=update, deep=deep)
        if update:
            for name in _made_once(type(self)):
                with contextlib.suppress(AttributeError):  # not computed yet: nothing to forget
                    delattr(copied, name)  # a cached_property's own way to forget its value
        return copied


@functools.cache
def _made_once(cls: type) -> tuple[str, ...]:
    """The cached properties of ``cls`` (the digest, ``ToolResult.parts``): values made once
    from the fields, which a copy that changes a field must forget."""
    return tuple(
        name
        for klass in cls.__mro__
        for name, value in vars(klass).items()
        if isinstance(value, cached_property)
    )


def digest_of(value: object) -> bytes:
    """The content digest of ``value``: a model's fields, a dataclass's, or plain data. The
    values inside it that keep a digest of their own (``Digested``, the plan's steps) are
    taken by that digest."""
    hasher = hashlib.sha256()
    if isinstance(value, BaseModel) and not isinstance(value, _Source):
        _feed_fields(hasher, value, type(value).model_fields)
    elif hasattr(value, "__dataclass_fields__"):
        _feed_fields(hasher, value, value.__dataclass_fields__)
    else:
        _feed(hasher, value)
    return hasher.digest()


def _feed(hasher: Any, value: object) -> None:
    """Add ``value`` to ``hasher``, tagged by type and prefixed by length, so that no two
    different values feed the same bytes."""
    update = hasher.update
    match value:  # plain data first: the tests against pydantic's and abc's classes cost more
        case str():
            data = value.encode("utf-8", "surrogatepass")
            update(b"s%d:" % len(data))
            update(data)
        case tuple() | list():
            update(b"[%d" % len(value))
            for item in value:
                _feed(hasher, item)
        case None | bool() | int() | float():
            update(b"v%r;" % (value,))
        case bytes():
            update(b"b%d:" % len(value))
            update(value)
        case Digested():
            update(b"d")
            update(value.digest)
        case _Source():
            _feed_source(hasher, value)
        case dict() | Mapping():
            _feed(hasher, json.dumps(value, ensure_ascii=False, allow_nan=True, default=repr))
        case _ if isinstance(getattr(type(value), "digest", None), cached_property):
            update(b"d")
            update(value.digest)  # type: ignore[attr-defined]
        case _:
            update(b"d")
            update(digest_of(value))


def _feed_fields(hasher: Any, value: object, fields: Mapping[str, object]) -> None:
    hasher.update(type(value).__qualname__.encode())
    for name in fields:
        hasher.update(b"." + name.encode())
        _feed(hasher, getattr(value, name))


def _feed_source(hasher: Any, source: Any) -> None:
    """A source by its bytes' sha256 (or its reference's); a file on disk by its path too."""
    hasher.update(b"@" + type(source).__name__.encode())
    _feed(hasher, getattr(source, "path", None))
    _feed(hasher, source.sha256())
