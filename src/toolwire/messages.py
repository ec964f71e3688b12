"""Messages, tool outputs, and the coercion of whatever a tool returned into a ToolOutput.

A conversation is a plain list of System, User, Assistant and ToolResult. Every model is
frozen, tagged (``role`` for messages, ``type`` for parts and outputs) and round-trips through
JSON exactly, so a stored conversation reloads as the same objects. The parts a message holds
are a tuple (constructors take any sequence, JSON an array), so a message cannot change after
it is made: the encoder's caches (``memo``) rely on that. Build a new message instead.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Collection, Mapping, Sequence
from functools import cached_property
from typing import TYPE_CHECKING, Annotated, Any, ClassVar, Literal, Self, TypeAlias

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError, field_validator

from .content import (
    File,
    Json,
    JsonValue,
    ProviderPart,
    Text,
    Thinking,
    ToolCall,
    json_data,
    text_part,
)
from .digest import Digested
from .errors import ConversationError, ToolwireError
from .foreign import Trust, check

_FROZEN = ConfigDict(frozen=True, ser_json_bytes="base64", val_json_bytes="base64")

Part = Annotated[Text | Json | File, Field(discriminator="type")]
UserPart = Annotated[Text | File, Field(discriminator="type")]
AssistantPart = Annotated[Text | Thinking | ToolCall | ProviderPart, Field(discriminator="type")]


class _HoldsParts(Digested):
    """A model whose parts are a tuple, kept so by ``model_copy`` too."""

    _holds_only_json: ClassVar[bool] = False  # its digest is built from its parts' digests

    def model_copy(self, *, update: Mapping[str, Any] | None = None, deep: bool = False) -> Self:
        """A copy with ``update`` applied and checked as the constructor checks its arguments
        (pydantic's own copy takes the update unchecked): parts given as a list are stored as
        a tuple, so no copy holds a list that could change after it was encoded."""
        copied = super().model_copy(update=update, deep=deep)
        return type(self)(**dict(copied)) if update else copied


class TextOutput(Digested):
    """A tool returned a string."""

    model_config = _FROZEN
    type: Literal["text"] = "text"
    value: str


class JsonOutput(Digested):
    """A tool returned structured data."""

    model_config = _FROZEN
    _json_fields: ClassVar[frozenset[str]] = frozenset(("value",))
    type: Literal["json"] = "json"
    value: JsonValue

    @field_validator("value")
    @classmethod
    def _must_be_json(cls, value: object) -> JsonValue:
        return json_data(value, "JsonOutput")


class ContentOutput(_HoldsParts):
    """A tool returned a mix of text, JSON and files, in this order (a tuple)."""

    model_config = _FROZEN
    type: Literal["content"] = "content"
    value: tuple[Part, ...]


class ErrorTextOutput(Digested):
    """A tool failed, with a message."""

    model_config = _FROZEN
    type: Literal["error-text"] = "error-text"
    value: str


class ErrorJsonOutput(Digested):
    """A tool failed, with structured details."""

    model_config = _FROZEN
    _json_fields: ClassVar[frozenset[str]] = frozenset(("value",))
    type: Literal["error-json"] = "error-json"
    value: JsonValue

    @field_validator("value")
    @classmethod
    def _must_be_json(cls, value: object) -> JsonValue:
        return json_data(value, "ErrorJsonOutput")


class ExecutionDeniedOutput(Digested):
    """The tool was not run (a user or policy refused it)."""

    model_config = _FROZEN
    type: Literal["execution-denied"] = "execution-denied"
    reason: str | None = None


#: What an empty tool result says instead (providers reject empty tool results).
EMPTY_RESULT_TEXT = "(no output)"


#: What a tool returned: one of the six outputs (``isinstance(x, ToolOutput)`` works).
ToolOutput: TypeAlias = (
    TextOutput
    | JsonOutput
    | ContentOutput
    | ErrorTextOutput
    | ErrorJsonOutput
    | ExecutionDeniedOutput
)
#: A ToolOutput as pydantic reads it: chosen by its ``type`` tag.
TaggedOutput = Annotated[ToolOutput, Field(discriminator="type")]

_OUTPUT_CLASSES = (
    TextOutput,
    JsonOutput,
    ContentOutput,
    ErrorTextOutput,
    ErrorJsonOutput,
    ExecutionDeniedOutput,
)
#: Each output's tag -> (the fields it requires, the fields it allows).
_OUTPUT_SHAPES = {
    cls.model_fields["type"].default: (
        {name for name, field in cls.model_fields.items() if field.is_required()},
        set(cls.model_fields),
    )
    for cls in _OUTPUT_CLASSES
}
_output_adapter: TypeAdapter[ToolOutput] = TypeAdapter(TaggedOutput)


def to_output(value: object) -> ToolOutput:
    """Coerce what a tool returned into a ToolOutput.

    str → text; a File (or Text, Json part) → content; a list/tuple holding any such part →
    content (str → Text, other items → Json, order kept); dict, list, number, bool, None,
    pydantic model, dataclass → json; Exception → error-text; a ToolOutput → itself.

    Parts count only at the top level: a File nested deeper (``[[file]]``, ``{"img": file}``)
    raises ToolwireError rather than being sent as a JSON dump of itself. A value JSON cannot
    carry raises ToolwireError too.

    >>> to_output("done")
    TextOutput(type='text', value='done')
    """
    if isinstance(value, _OUTPUT_CLASSES):
        return value
    if isinstance(value, str):
        return TextOutput(value=value)
    if isinstance(value, Text | Json | File):
        return ContentOutput(value=(value,))
    if isinstance(value, BaseException):
        message = str(value)
        name = type(value).__name__
        return ErrorTextOutput(value=f"{name}: {message}" if message else name)
    if isinstance(value, list | tuple) and any(isinstance(v, Text | Json | File) for v in value):
        return ContentOutput(value=tuple(_to_part(v) for v in value))
    return JsonOutput(value=_to_json_value(value))


def _to_part(value: Any) -> Text | Json | File:
    if isinstance(value, Text | Json | File):
        return value
    if isinstance(value, str):
        return Text(text=value)
    return Json(value=_to_json_value(value))


def _to_json_value(value: Any) -> Any:
    """Plain JSON data from pydantic models and dataclasses, recursively."""
    if isinstance(value, Text | Json | File):
        raise ToolwireError(
            f"a {type(value).__name__} part nested inside a list or dict cannot be carried as "
            "content (it would be sent as a JSON dump of itself); return parts at the top "
            "level, e.g. [text, file1, file2]"
        )
    if isinstance(value, BaseModel):
        return value.model_dump(mode="json")
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return _to_json_value(dataclasses.asdict(value))
    if isinstance(value, dict):
        return {str(k): _to_json_value(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_to_json_value(v) for v in value]
    return value


def _coerce_stored_output(value: Any) -> Any:
    """Accept legacy stored values: a dict shaped like an output is one, anything else
    (a bare string, a dict such as ``{"type": "text", "text": …}`` or ``{"type": "json"}``)
    is coerced.

    Shaped means the tag's required fields present and no others. A dict of that shape whose
    value is broken is left to fail validation: it is a damaged output, not a legacy one, and
    must not be sent on silently as JSON.
    """
    if isinstance(value, dict):
        tag = value.get("type")
        if isinstance(tag, str) and tag in _OUTPUT_SHAPES:
            required, allowed = _OUTPUT_SHAPES[tag]
            if required <= set(value) <= allowed:
                return value
    return to_output(value)


def _texts(parts: Sequence[Any]) -> Any:
    """Plain strings in a part list become Text, so ``User(["Look:", file])`` works; anything
    that is no list or tuple is left for validation to refuse (a stored ``"content": 5``)."""
    if not isinstance(parts, list | tuple):
        return parts
    return tuple(Text(text=p) if isinstance(p, str) else p for p in parts)


class System(Digested):
    """System instructions."""

    model_config = _FROZEN
    role: Literal["system"] = "system"
    text: str

    # Type checkers see how a program builds one; pydantic also calls ``__init__`` with a
    # stored message's fields (``role`` included), which the run-time signature takes.
    if TYPE_CHECKING:

        def __init__(self, text: str) -> None: ...

    else:

        def __init__(self, text: str | None = None, **data: object) -> None:
            super().__init__(**({"text": text} if text is not None else {}), **data)


class User(_HoldsParts):
    """A user message: a string or a tuple of Text and File parts (any sequence is accepted)."""

    model_config = _FROZEN
    role: Literal["user"] = "user"
    content: str | tuple[UserPart, ...]

    if TYPE_CHECKING:  # as System's

        def __init__(self, content: str | Sequence[str | Text | File]) -> None: ...

    else:

        def __init__(self, content: str | Sequence[object] | None = None, **data: object) -> None:
            if content is not None:
                data["content"] = content if isinstance(content, str) else _texts(content)
            super().__init__(**data)

    @property
    def parts(self) -> tuple[Text | File, ...]:
        """The content as a tuple of parts (a string becomes one Text)."""
        return (Text(text=self.content),) if isinstance(self.content, str) else self.content


class Assistant(_HoldsParts):
    """A model's turn: a tuple of text, thinking, tool calls and provider parts, in the order
    the model produced them."""

    model_config = _FROZEN
    role: Literal["assistant"] = "assistant"
    content: tuple[AssistantPart, ...]

    if TYPE_CHECKING:  # as System's

        def __init__(
            self, content: str | Sequence[str | Text | Thinking | ToolCall | ProviderPart]
        ) -> None: ...

    else:

        def __init__(self, content: str | Sequence[object] | None = None, **data: object) -> None:
            if content is not None:
                data["content"] = (
                    (Text(text=content),) if isinstance(content, str) else _texts(content)
                )
            super().__init__(**data)

    @property
    def tool_calls(self) -> tuple[ToolCall, ...]:
        """The tool calls among the parts, in order."""
        return tuple(p for p in self.content if isinstance(p, ToolCall))


class ToolResult(Digested):
    """The result of one tool call, answered by ``call_id``."""

    model_config = _FROZEN
    _holds_only_json: ClassVar[bool] = False  # its output's digest, not its files' JSON
    role: Literal["tool"] = "tool"
    call_id: str
    name: str
    output: TaggedOutput

    @field_validator("output", mode="before")
    @classmethod
    def _coerce(cls, value: Any) -> Any:
        return _coerce_stored_output(value)

    @classmethod
    def of(cls, call_id: str, name: str, value: object) -> ToolResult:
        """A ToolResult from whatever the tool returned (see ``to_output``)."""
        return cls(call_id=call_id, name=name, output=to_output(value))

    @property
    def is_error(self) -> bool:
        return isinstance(self.output, ErrorTextOutput | ErrorJsonOutput)

    @cached_property
    def parts(self) -> tuple[Text | Json | File, ...]:
        """The parts its output stands for, never none: made once (a result is frozen), as
        the budgets' measures, the token estimate and the layout each read them."""
        parts: list[Text | Json | File]
        match self.output:
            case ContentOutput(value=given):  # empty text left out
                parts = [p for p in given if not isinstance(p, Text) or p.text]
            case TextOutput(value=text) | ErrorTextOutput(value=text):
                parts = [text_part(text)] if text else []
            case JsonOutput(value=value) | ErrorJsonOutput(value=value):
                parts = [Json(value=value)]
            case ExecutionDeniedOutput(reason=reason):
                said = f" Reason: {reason}" if reason else ""
                parts = [text_part(f"The tool was not run: execution was denied.{said}")]
        return tuple(parts) or (text_part(EMPTY_RESULT_TEXT),)


#: One message of a conversation; a conversation is a ``Sequence[Message]`` (a plain list).
#: A union of the four classes, so ``isinstance(x, Message)`` works too.
Message: TypeAlias = System | User | Assistant | ToolResult
#: A Message as pydantic reads it: chosen by its ``role`` tag (conversations, the store).
TaggedMessage = Annotated[Message, Field(discriminator="role")]
_conversation: TypeAdapter[list[Message]] = TypeAdapter(list[TaggedMessage])


def load_conversation(
    data: str | bytes | Sequence[object], *, trust: Collection[Trust] = ()
) -> list[Message]:
    """A conversation from its JSON text (or already-parsed JSON data).

    It is data from elsewhere: a File whose source is read with *your* access — a local path
    or blob root, a cloud object (s3://, gs://), a provider file id — is refused
    (UntrustedSourceError naming the message and file) unless ``trust`` names that kind:
    ``trust=("paths",)`` to reload a conversation you dumped with ``File.from_path`` files
    (``foreign`` is the rule, the same as ``SessionStore.import_`` and the CLI's ``--trust``).
    """
    try:
        messages = conversation(data)
    except ValidationError as exc:
        raise ConversationError(first_problem(exc, data)) from exc
    check(messages, "the conversation", trust)
    return messages


def conversation(data: str | bytes | Sequence[object]) -> list[Message]:
    """The messages ``data`` holds, validated, with no trust rule applied (``foreign.check``
    is the caller's to apply)."""
    if isinstance(data, str | bytes):
        return _conversation.validate_json(data)
    return _conversation.validate_python(data)


def first_problem(exc: ValidationError, data: str | bytes | Sequence[object]) -> str:
    """One line: where the most specific error of a conversation's validation is (message
    index and field) and what it is."""
    errors = exc.errors(include_url=False)
    error = max(errors, key=lambda e: len(e["loc"]))
    more = len(errors) - 1
    tail = f" (and {more} more error{'s' if more > 1 else ''})" if more else ""
    if error["type"] == "json_invalid":
        return f"{error['msg']}{tail}"
    loc = error["loc"]
    if not loc:
        return f"not a toolwire conversation (a JSON list of messages): {error['msg']}{tail}"
    field = _field(data, loc, missing=error["type"] == "missing")
    where = f"message {loc[0]}" + (f", field {field}" if field else "")
    return f"not a toolwire conversation: {where}: {error['msg']}{tail}"


def _field(data: str | bytes | Sequence[object], loc: tuple[Any, ...], missing: bool) -> str:
    """``content[0].source.data``: the loc's keys that are places in the file, without the
    union tags pydantic puts between them (and with the key of a missing field)."""
    node: Any = (json.loads(data) if isinstance(data, str | bytes) else data)[loc[0]]
    path = ""
    for position, key in enumerate(loc[1:], start=2):
        if isinstance(node, list) and isinstance(key, int) and key < len(node):
            path, node = f"{path}[{key}]", node[key]
        elif isinstance(node, dict) and key in node:
            path, node = f"{path}.{key}", node[key]
        elif missing and position == len(loc):
            path += f".{key}"
    return path.lstrip(".")


def dump_conversation(messages: Sequence[Message], *, indent: int | None = None) -> str:
    """A conversation as JSON text (bytes as base64); ``load_conversation`` reverses it."""
    return _conversation.dump_json(list(messages), indent=indent).decode()
