"""Content parts: Text, Json, File, Thinking, ToolCall and ProviderPart — frozen values with a ``type`` tag.

A File is one class for every medium. Its bytes live in its ``source``; everything derived
from them (kind, identifier, text fallback) is computed from the source on demand and cached
there, so parts stay plain values that serialise to JSON and back unchanged.
"""

from __future__ import annotations

import base64
import json
import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, ClassVar, Literal, Never, TypeAlias

from pydantic import (
    ConfigDict,
    ModelWrapValidatorHandler,
    ValidationInfo,
    field_validator,
    model_validator,
)

from . import headers
from .digest import Digested
from .errors import InvalidFileError, ToolwireError
from .mediatypes import check_declared, check_head, is_textual, kind_of, normalise
from .sources import BytesSource, PathSource, ProviderFileSource, Source, UrlSource

_FROZEN = ConfigDict(frozen=True, ser_json_bytes="base64", val_json_bytes="base64")

#: Text fallbacks of text files carry the text itself, up to this many characters.
TEXT_FALLBACK_CHARS = 100_000
#: How much of in-memory bytes a File checks when built directly: as much as sniffing samples.
HEAD_BYTES = 8192
#: Validation context of constructors that already checked the whole bytes.
_CHECKED = {"toolwire.checked": True}

if TYPE_CHECKING:
    #: JSON data: what ``Json.value``, ``ToolCall.arguments`` and JSON tool outputs hold.
    #: Read-only shapes, so that a ``dict[str, int]`` or ``list[dict[str, str]]`` is one too.
    JsonValue: TypeAlias = (
        Mapping[str, "JsonValue"] | Sequence["JsonValue"] | str | int | float | bool | None
    )
else:
    # At run time ``json_data`` checks such values and makes them plain dicts and lists (a
    # tuple becomes a list, as on every wire), so pydantic is given no type to check.
    JsonValue = Annotated[Any, "JSON data"]


class Text(Digested):
    """Plain text."""

    model_config = _FROZEN
    type: Literal["text"] = "text"
    text: str


def text_part(value: str) -> Text:
    """The planner's Text for a string it made (a label, a text fallback, a note)."""
    return Text(text=value)


class FrozenDict(dict[str, Any]):
    """A JSON object inside a message: a dict that refuses changes. A message keeps its
    digest, and the plans and spellings kept for it are found by that digest, so an edit in
    place would be sent as the old content; it raises TypeError instead (build a new part).
    It pickles and copies as itself."""

    def _refuse(self, *args: object, **kwargs: object) -> Never:
        raise TypeError(
            "JSON inside a toolwire message is read-only (the message keeps its digest); "
            "build a new part instead, e.g. tw.ToolCall(id=call.id, name=call.name, "
            "arguments={...})"
        )

    __setitem__ = __delitem__ = __ior__ = _refuse
    clear = pop = popitem = setdefault = update = _refuse

    def __reduce__(self) -> tuple[type[FrozenDict], tuple[dict[str, Any]]]:
        return FrozenDict, (dict(self),)


class FrozenList(list[Any]):
    """A JSON array inside a message: a list that refuses changes (as ``FrozenDict``)."""

    _refuse = FrozenDict._refuse
    __setitem__ = __delitem__ = __iadd__ = __imul__ = _refuse
    append = extend = insert = pop = remove = clear = sort = reverse = _refuse

    def __reduce__(self) -> tuple[type[FrozenList], tuple[list[Any]]]:
        return FrozenList, (list(self),)


def _frozen(value: Any) -> Any:
    """Plain JSON data (``json.loads``'s) with every object and array made read-only."""
    if isinstance(value, dict):
        return FrozenDict((key, _frozen(item)) for key, item in value.items())
    if isinstance(value, list):
        return FrozenList(_frozen(item) for item in value)
    return value


def json_data(value: object, owner: str) -> JsonValue:
    """``value`` as the JSON data it serialises to, so that a JSON round trip is exact, its
    objects and arrays read-only (``FrozenDict``, ``FrozenList``: a dict and a list to every
    reader, the SDKs' included).

    Tuples become lists and non-string keys strings, as on every wire. A value JSON cannot
    carry (a set, bytes, an object, NaN) raises ToolwireError — deliberately not a ValueError,
    so that pydantic passes it through unwrapped from ``Json(...)``, ``JsonOutput(...)`` and
    their ``model_validate*`` alike.
    """
    try:
        data: JsonValue = _frozen(json.loads(json.dumps(value, allow_nan=False)))
    except (TypeError, ValueError, RecursionError) as exc:
        raise ToolwireError(
            f"{owner} value is not JSON data ({exc}). Use str, int, float, bool, None, lists "
            "and dicts; a tool may also return a File, a pydantic model, a dataclass or an "
            "Exception. Wrap bytes with File.from_bytes and convert sets, datetimes and "
            "NaN/Infinity yourself."
        ) from exc
    return data


class Json(Digested):
    """A JSON-serialisable value, kept structured until a wire needs it as text.

    The value is stored as plain JSON data (see ``json_data``); one JSON cannot carry raises
    ToolwireError.
    """

    model_config = _FROZEN
    _json_fields: ClassVar[frozenset[str]] = frozenset(("value",))
    type: Literal["json"] = "json"
    value: JsonValue

    @field_validator("value")
    @classmethod
    def _must_be_json(cls, value: object) -> JsonValue:
        return json_data(value, "Json")

    def compact(self) -> str:
        """The value as compact JSON text, for wires that only carry text."""
        return json.dumps(self.value, separators=(",", ":"), ensure_ascii=False)


class Thinking(Digested):
    """A model's reasoning, with the provider's signature so it can be sent back verbatim.

    ``redacted`` thinking carries only opaque data (in ``signature``); ``provider`` names who
    signed it, so another provider's encoder can drop what it cannot verify. ``id`` keeps the
    provider's item id where replay needs it (OpenAI Responses reasoning items).
    """

    model_config = _FROZEN
    type: Literal["thinking"] = "thinking"
    text: str
    signature: str | None = None
    redacted: bool = False
    provider: str | None = None
    id: str | None = None


class ToolCall(Digested):
    """A model's request to call a tool.

    ``signature`` carries an opaque per-call token (Gemini thought signatures as base64 text,
    OpenAI Responses item ids) and ``provider`` names who issued it, so other providers'
    encoders leave it out.
    ``invalid_arguments`` keeps the model's argument text verbatim when it was not a JSON
    object (``arguments`` is then empty): the call is flagged, not crashed on.
    """

    model_config = _FROZEN
    _json_fields: ClassVar[frozenset[str]] = frozenset(("arguments",))
    type: Literal["tool_call"] = "tool_call"
    id: str
    name: str
    arguments: Mapping[str, JsonValue]
    signature: str | None = None
    provider: str | None = None
    invalid_arguments: str | None = None

    @field_validator("arguments")
    @classmethod
    def _must_be_json(cls, value: Mapping[str, JsonValue]) -> JsonValue:
        return json_data(value, "ToolCall.arguments")


class ProviderPart(Digested):
    """Content a provider sent that toolwire does not interpret (a built-in tool's call and
    result, a generated image, a code-execution part), kept as it came so that it goes back
    unchanged, at the same place, to that provider: a reply that used a provider's built-in
    tool can be continued there.

    ``provider`` names who sent it (as ``Thinking.provider``); ``wire`` the wire whose shape
    ``data`` has (``openai_responses``, ``anthropic``, ``google``); ``kind`` its item, block
    or part type there (``web_search_call``, ``server_tool_use``, ``inlineData``); ``data``
    the item as it came, as JSON data. A target of another provider or wire cannot read it:
    the plan leaves it out there, as it leaves out another provider's thinking.
    """

    model_config = _FROZEN
    _json_fields: ClassVar[frozenset[str]] = frozenset(("data",))
    type: Literal["provider"] = "provider"
    provider: str
    wire: str
    kind: str
    data: Mapping[str, JsonValue]

    @field_validator("data")
    @classmethod
    def _must_be_json(cls, value: object) -> JsonValue:
        data = json_data(value, "ProviderPart")
        if not isinstance(data, dict):
            raise ToolwireError(f"ProviderPart data is a JSON object, not {type(value).__name__}")
        return data

    def file(self) -> File | None:
        """The image the part holds, as a File any target can be sent (in a user message or
        a tool result): a Gemini ``inline_data`` part, a Responses ``image_generation_call``.
        None for a part that holds no file. Raises InvalidFileError for data that is not
        base64 of the declared type."""
        data: Any = self.data
        if self.kind == "inline_data":
            blob = data.get("inline_data") or {}
            encoded, media_type = blob.get("data"), blob.get("mime_type")
        elif self.kind == "image_generation_call":
            encoded = data.get("result")
            media_type = f"image/{data.get('output_format') or 'png'}"
        else:
            return None
        if not isinstance(encoded, str) or not encoded:
            return None
        try:
            raw = base64.b64decode(encoded, validate=True)
        except ValueError as exc:  # binascii.Error is a ValueError
            raise InvalidFileError(f"the {self.kind} part's data is not base64 ({exc})") from exc
        declared = media_type if isinstance(media_type, str) else None
        return File.from_bytes(raw, declared, name=f"{self.kind} from {self.provider}")


class File(Digested):
    """One file of any medium: image, document, audio or video.

    Build it with ``File.from_bytes``, ``from_path``, ``from_url`` or ``from_provider_file``;
    they sniff the media type from the bytes and refuse a declared type the bytes contradict.
    ``text`` is an optional declared text fallback (e.g. a PDF's extracted text).

    >>> File.from_bytes(b"%PDF-1.7 ...", name="report.pdf").kind
    'document'
    """

    model_config = _FROZEN
    _holds_only_json: ClassVar[bool] = False  # by its source's sha256, not its bytes' JSON
    type: Literal["file"] = "file"
    source: Source
    media_type: str
    name: str | None = None
    text: str | None = None

    @field_validator("media_type")
    @classmethod
    def _normalise(cls, value: str) -> str:
        return normalise(value)

    @model_validator(mode="wrap")
    @classmethod
    def _bytes_agree(
        cls, data: Any, handler: ModelWrapValidatorHandler[File], info: ValidationInfo
    ) -> File:
        """In-memory bytes must not contradict the media type however the File was built
        (directly, from JSON), not only through ``from_bytes``.

        Checked once, where the File is built: an existing File placed in a message is not
        sniffed again, nor one ``from_bytes`` already checked in full. Only the head is
        sniffed, to stay cheap; path and blob sources stay lazy and are checked at their
        first read instead. pydantic reports the InvalidFileError as a ValidationError.
        """
        if isinstance(data, File):
            return handler(data)
        file = handler(data)
        checked = isinstance(info.context, dict) and info.context.get("toolwire.checked")
        if isinstance(file.source, BytesSource) and not checked:
            check_head(file.media_type, file.source.data[:HEAD_BYTES], file.name)
        return file

    @classmethod
    def from_bytes(
        cls, data: bytes, media_type: str | None = None, name: str | None = None
    ) -> File:
        """A file held in memory; the media type is sniffed or checked against the bytes."""
        if not data:
            raise InvalidFileError(f"{name or 'file'} is empty (0 bytes)")
        media_type = check_declared(media_type, data, name)
        fields = {"source": BytesSource(data=data), "media_type": media_type, "name": name}
        return cls.model_validate(fields, context=_CHECKED)

    @classmethod
    def from_path(
        cls, path: str | os.PathLike[str], media_type: str | None = None, name: str | None = None
    ) -> File:
        """A file on disk, read lazily, named after its basename unless ``name`` is given.

        The name is what the model sees (``See file dash.png.``); it is stored with the File,
        so a saved session replays with the same label.
        With ``media_type`` given nothing is read now; the bytes are checked against it at the
        first read. Without it, the first 8 KB are read to sniff the type (the whole file for
        zip-based office formats, whose type is in the zip directory).
        """
        path = _checked_path(path)
        source = PathSource(path=str(path))
        name = name if name is not None else path.name
        if media_type is None:
            head = source.read_head()
            if not head:
                raise InvalidFileError(f"{path} is empty (0 bytes)")
            data = source.read() if head.startswith(b"PK\x03\x04") else head
            media_type = check_declared(None, data, name)
        return cls(source=source, media_type=media_type, name=name)

    @classmethod
    def from_url(cls, url: str, media_type: str | None = None, name: str | None = None) -> File:
        """A file by URL (http(s), s3://, gs://); the media type is taken from the URL's
        extension when not given."""
        source = UrlSource(url=url)
        if media_type is None:
            media_type = _type_from_url(url)
        return cls(source=source, media_type=media_type, name=name)

    @classmethod
    def from_provider_file(
        cls, provider: str, file_id: str, media_type: str, name: str | None = None
    ) -> File:
        """A file already uploaded to ``provider`` (usable only with that provider)."""
        source = ProviderFileSource(provider=provider, file_id=file_id)
        return cls(source=source, media_type=media_type, name=name)

    @property
    def kind(self) -> str:
        """'image', 'document', 'audio' or 'video', from the media type (mediatypes.kind_of,
        inline: the planner and encoders read it for every file of every encode)."""
        top = self.media_type.split("/", 1)[0]
        return top if top in ("image", "audio", "video") else "document"

    @property
    def identifier(self) -> str:
        """The name if given, else ``file-`` + 12 hex chars of the sha256 of the bytes
        (of the URL, of the file id)."""
        return self.name or "file-" + self.source.sha256()[:12]

    def read(self) -> bytes:
        """The file's bytes, checked once against the declared media type."""
        source = self.source
        if isinstance(source, BytesSource):
            return source.data
        data = source.read()
        if isinstance(source, PathSource) and not source.sha256_pinned:
            check_declared(self.media_type, data, self.name or source.path)
        return data

    def read_text(self) -> str:
        """The bytes decoded as text (UTF-8 with or without BOM, UTF-16 with BOM, else Latin-1)."""
        return _decode_text(self.read())

    def text_fallback(self) -> str:
        """A short description from headers only, plus the declared or decoded text.

        ``[Image: cat.png, 640x480, 24 KB]``, ``[PDF: report.pdf, 12 pages, 1.2 MB]``.
        """
        head = self.description()
        body = self.text
        if body is None and self.source.is_local and is_textual(self.media_type):
            body = _decode_text(self.read())[:TEXT_FALLBACK_CHARS]
        return f"{head}\n{body}" if body else head

    def description(self, note: str = "") -> str:
        """The file in one bracketed line, from its headers only: ``[Image: cat.png, 640x480,
        24 KB]``; a file by URL or id names its source. ``note`` ends the line inside the
        brackets (``[PDF: report.pdf, 3 pages, 1.2 MB — its text is above]``)."""
        label = self.name or self.identifier
        if not self.source.is_local:
            facts = [label, self.source.describe()]
        else:
            data = self.read()
            facts = [label, *_facts(self.media_type, data), headers.human_size(len(data))]
        return f"[{_kind_label(self.media_type)}: {', '.join(facts)}{f' — {note}' if note else ''}]"


def _checked_path(path: object) -> Path:
    """``path`` as a Path, or InvalidFileError for what no file system call could take."""
    if not isinstance(path, str | os.PathLike) or not isinstance(os.fspath(path), str):
        raise InvalidFileError(
            f"File.from_path takes a str or pathlib.Path, not {type(path).__name__} ({path!r}); "
            "for bytes in memory use File.from_bytes(data, name=...)"
        )
    text = os.fspath(path)
    if "\x00" in text:
        raise InvalidFileError(
            f"{text!r} holds a NUL byte, which no file name can contain; check how the path was built"
        )
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise InvalidFileError(
            f"{text!r} holds an undecodable character (a lone surrogate at position {exc.start}); "
            "rename the file to valid UTF-8, or read it yourself and use "
            "File.from_bytes(data, name=...)"
        ) from exc
    return Path(text)


def _facts(media_type: str, data: bytes) -> list[str]:
    if media_type.startswith("image/"):
        size = headers.image_size(data)
        if size and media_type == "image/jpeg" and headers.jpeg_orientation(data) >= 5:
            size = (size[1], size[0])
        return [f"{size[0]}x{size[1]}"] if size else []
    if media_type == "application/pdf":
        pages = headers.pdf_page_count(data)
        return [f"{pages} page{'s' if pages != 1 else ''}"] if pages else []
    if media_type == "audio/wav":
        seconds = headers.wav_duration(data)
        return [f"{seconds:.1f} s"] if seconds is not None else []
    return []


_KIND_LABELS = {
    "application/pdf": "PDF",
    "text/csv": "CSV",
    "text/markdown": "Markdown",
    "text/html": "HTML",
    "application/json": "JSON",
}


def _kind_label(media_type: str) -> str:
    if media_type in _KIND_LABELS:
        return _KIND_LABELS[media_type]
    kind = kind_of(media_type)
    if kind == "document":
        return "Text" if media_type.startswith("text/") else "Document"
    return kind.capitalize()


def _decode_text(data: bytes) -> str:
    for encoding in ("utf-8-sig", "utf-16"):
        try:
            return data.decode(encoding)
        except UnicodeDecodeError:
            continue
    return data.decode("latin-1")


_URL_TYPES = {
    ".png": "image/png",
    ".jpg": "image/jpeg",
    ".jpeg": "image/jpeg",
    ".gif": "image/gif",
    ".webp": "image/webp",
    ".pdf": "application/pdf",
    ".wav": "audio/wav",
    ".mp3": "audio/mpeg",
    ".mp4": "video/mp4",
    ".mov": "video/quicktime",
    ".webm": "video/webm",
}


def _type_from_url(url: str) -> str:
    from urllib.parse import urlsplit

    from .mediatypes import from_extension

    suffix = Path(urlsplit(url).path).suffix.lower()
    found = _URL_TYPES.get(suffix) or from_extension("x" + suffix)
    if found is None:
        raise InvalidFileError(f"{url}: cannot tell the media type from the URL; pass media_type=…")
    return found
