"""The one schema of the capability table: the runtime ``Cell`` and the shape of capabilities.toml.

``Cell`` is what the planner, imagefit, the token estimate and ``toolwire matrix`` read; the
TOML's cells (``CellSpec``) are derived from its fields, so a field is declared once. Every
model is frozen and refuses unknown keys; ``explain`` turns pydantic's errors into one
``CapabilityError`` line that names the file, the target/row/cell path, the key, what is
allowed and a close match.
"""

from __future__ import annotations

import re
from functools import cached_property
from typing import Annotated, Any, Literal, Optional, get_args, get_origin

from pydantic import BaseModel, ConfigDict, Field, Strict, ValidationError, create_model
from pydantic import field_validator as validates
from pydantic.dataclasses import dataclass
from pydantic.fields import FieldInfo

from .errors import CapabilityError, suggest

Mode = Literal["native", "sibling", "fallback", "error"]
Source = Literal["bytes", "url", "s3", "gcs", "file_id"]
Placement = Literal["merge", "message", "turn"]
Signatures = Literal["optional", "required"]
MODES: tuple[str, ...] = get_args(Mode)
SOURCES: tuple[str, ...] = get_args(Source)
PLACEMENTS: tuple[str, ...] = get_args(Placement)

_Positive = Annotated[int, Strict(), Field(gt=0)]
_Str = Annotated[str, Strict()]
_LIMIT = "a positive integer"
_Limit = Field(default=None, description=_LIMIT)
_FROZEN = ConfigDict(frozen=True, extra="forbid")


@dataclass(frozen=True, config=ConfigDict(extra="forbid"))
class Cell:
    """What a target does with one group of media types (its types share this one object, so
    a per-request ``max_count`` counts them together)."""

    media_types: tuple[str, ...]
    tool_result: Mode = Field(description="one of native, sibling, fallback, error")
    tool_sources: tuple[Source, ...] = Field(default=("bytes",), description="a list of sources")
    user_sources: tuple[Source, ...] = Field(default=(), description="a list of sources")
    max_bytes: _Positive | None = _Limit
    max_edge: _Positive | None = _Limit
    fit_edge: _Positive | None = _Limit
    fit_short_edge: _Positive | None = _Limit  # OpenAI tile models: the short side to 768 px
    max_pixels: _Positive | None = _Limit
    #: Most files of this cell's types in one request (Bedrock: 20 images, 5 documents).
    max_count: _Positive | None = _Limit
    evidence: _Str = Field(default="", description="a string")

    @property
    def accepts_in_user_message(self) -> bool:
        return bool(self.user_sources)

    @cached_property
    def fit_bounds(
        self,
    ) -> tuple[int | None, int | None, int | None, tuple[int | None, ...]] | None:
        """The long edge a fitted image keeps within (the smaller of ``fit_edge`` and
        ``max_edge``), its short edge and area limits, and the cell's file limits
        (``FILE_LIMITS``); None when it has none. Read once per cell (imagefit.fit_image)."""
        limits = tuple(getattr(self, k) for k in FILE_LIMITS)
        if not any(limits):
            return None
        edge = min((e for e in (self.fit_edge, self.max_edge) if e), default=None)
        return edge, self.fit_short_edge, self.max_pixels, limits


#: Cell's fields but media_types: name -> pydantic FieldInfo (type, default, wording).
CELL_FIELDS: dict[str, FieldInfo] = {
    k: f
    for k, f in Cell.__pydantic_fields__.items()  # type: ignore[attr-defined]
    if k != "media_types"
}
#: The limit fields, in the table's order; ``FILE_LIMITS`` bound one file (imagefit fits
#: images to them), ``max_count`` a request.
LIMITS: tuple[str, ...] = tuple(k for k, f in CELL_FIELDS.items() if f.description == _LIMIT)
FILE_LIMITS: tuple[str, ...] = tuple(k for k in LIMITS if k != "max_count")
#: What a whole cell's unnamed fields are.
CELL_DEFAULTS = {k: f.default for k, f in CELL_FIELDS.items() if not f.is_required()}

#: A cell of the TOML: ``types`` (media types or group names) and any of Cell's fields; in a
#: model row only the fields it names change, and ``clear`` removes limits.
CellSpec: type[BaseModel] = create_model(
    "CellSpec",
    __config__=_FROZEN,
    types=(
        tuple[_Str, ...],
        Field(min_length=1, description="a non-empty list of media types or group names"),
    ),
    clear=(tuple[Literal[LIMITS], ...], Field(default=(), description="a list of limit names")),  # type: ignore[valid-type]
    **{
        k: (Optional[f.annotation], Field(None, description=f.description))  # noqa: UP045
        for k, f in CELL_FIELDS.items()
    },  # type: ignore[call-overload]
)


#: How a target's prompt cache is addressed: "anthropic" (``cache_control`` marks and the
#: request-level automatic mark), "bedrock" (``cachePoint`` blocks), "openai"
#: (``prompt_cache_breakpoint`` on content parts), "none" (automatic prefix caching, or no
#: cache: no marks).
CacheMarks = Literal["anthropic", "bedrock", "openai", "none"]


class Cache(BaseModel):
    """A target's prompt cache (issue 16): how it is marked, how many marks one request may
    carry, and what a cached input token is billed, as a multiple of an uncached one."""

    model_config = _FROZEN

    marks: CacheMarks = "none"
    max_points: Annotated[int, Strict(), Field(ge=0)] = 0
    write: Annotated[float, Strict(), Field(ge=0)] = 1.0
    read: Annotated[float, Strict(), Field(ge=0)] = 1.0
    #: A mark may follow the tool definitions (Nova takes checkpoints in system and messages
    #: only: its evidence says so).
    tools: Annotated[bool, Strict()] = True
    evidence: _Str = Field(min_length=1, description="a string naming the source")


class Citations(BaseModel):
    """Whether a target's PDFs go with document citations enabled, and why: Claude on Bedrock
    Converse reads a PDF's pages as images only with citations on (else its text alone)."""

    model_config = _FROZEN

    enabled: Annotated[bool, Strict()] = Field(description="true or false")
    evidence: _Str = Field(min_length=1, description="a string naming the source")


class ReasoningReplay(BaseModel):
    """How a chat-wire server takes a model's reasoning back (issue 32): in which field of
    the assistant message (``reasoning_content`` or ``reasoning``: the text;
    ``reasoning_details``: OpenRouter's list of detail objects, verbatim and in order), on
    which messages (those that made tool calls: the reasoning of a tool loop; or all), and
    the source."""

    model_config = _FROZEN

    field: Literal["reasoning_content", "reasoning", "reasoning_details"]
    on: Literal["tool_calls", "all"] = "tool_calls"
    evidence: _Str = Field(min_length=1, description="a string naming the source")


class Layout(BaseModel):
    """Facts of a target that a model row may change (unset: the target's, then the default)."""

    model_config = _FROZEN

    followup: Placement | None = None
    user_after_tool: Placement | None = None
    error_status: Annotated[bool, Strict()] | None = Field(None, description="true or false")
    thought_signatures: Signatures | None = None
    thinking_issuer: _Str | None = Field(None, description="a string")
    #: The token formulas' family (a name in token_formulas.FAMILIES).
    token_family: _Str | None = Field(None, description="a token family name")
    #: The prompt cache's marks and billing (a row's table replaces the target's whole).
    cache: Cache | None = None
    #: PDFs sent with document citations enabled (Claude on Bedrock: read visually then).
    pdf_citations: Citations | None = None
    #: The rules its tools' schemas are repaired to (a name in tools.rules.RULES).
    tool_schema: _Str | None = Field(None, description="a name of tools.rules.RULES")
    #: Where the model's reasoning goes back on the chat wire (None: it does not).
    reasoning_replay: ReasoningReplay | None = None
    #: The chat server takes a tool or assistant message's text as a list of text parts
    #: (unset: one string, which every OpenAI-compatible server takes).
    text_parts: Annotated[bool, Strict()] | None = Field(None, description="true or false")


class Budgets(BaseModel):
    """Per-request limits of a target or model row (DESIGN.md §5.3): what one request may hold
    in all. Unset: no documented limit. A row changes only the fields it names."""

    model_config = _FROZEN

    #: The body as the SDK sends it (base64 and JSON included), in bytes.
    max_request_bytes: _Positive | None = _Limit
    max_images_per_request: _Positive | None = _Limit
    max_pdf_pages_per_request: _Positive | None = _Limit
    max_documents_per_request: _Positive | None = _Limit
    #: Beyond ``many_images_count`` images in one request, no image edge may exceed
    #: ``many_images_edge`` px (Anthropic: 20 and 2000).
    many_images_count: _Positive | None = _Limit
    many_images_edge: _Positive | None = _Limit
    #: The input tokens one request may hold (unset: models.dev's context window less the
    #: model's output limit). Applied where files go by id (``encode(..., uploads=)``), as
    #: the byte budgets no longer bound them.
    max_context_tokens: _Positive | None = _Limit
    budget_evidence: _Str | None = Field(default=None, description="a string")


#: The budget fields a row may set (budget_evidence included).
BUDGET_FIELDS: tuple[str, ...] = tuple(Budgets.model_fields)


class Row(Layout, Budgets):
    """Model ids matching a glob in ``match`` (and, with ``min_version``, at least that version)."""

    label: _Str | None = Field(None, description="a string")
    match: tuple[_Str, ...] = Field(min_length=1, description="a non-empty list of glob patterns")
    min_version: Annotated[float, Strict()] | None = Field(None, description="a number")
    media: tuple[CellSpec, ...] = Field((), description="an array of tables ([[...media]])")  # type: ignore[valid-type]


class Target(Layout, Budgets):
    """One provider: its wire, facts, default cells and model rows."""

    #: The name of a registered wire (toolwire.providers: the built-in ones and your own).
    wire: _Str | None = Field(None, description="a wire name")
    extra: _Str | None = Field(None, description="a pip extra name")
    file_ids: _Str | None = Field(None, description="a provider name")
    version_pattern: _Str | None = Field(None, description="a regular expression")
    known_models: tuple[_Str, ...] = Field((), description="a list of glob patterns")
    media: tuple[CellSpec, ...] = Field((), description="an array of tables ([[...media]])")  # type: ignore[valid-type]
    models: tuple[Row, ...] = Field((), description="an array of tables ([[...models]])")

    @validates("wire", mode="before")
    @classmethod
    def _registered(cls, wire: Any) -> Any:
        if wire is not None and wire not in wire_names():
            raise ValueError(f"wire = {wire!r} is not {one_of_wires(str(wire))}")
        return wire

    @validates("version_pattern")
    @classmethod
    def _one_group(cls, pattern: str | None) -> str | None:
        if pattern is not None:
            try:
                groups = re.compile(pattern).groups
            except re.error as exc:
                raise ValueError(f"version_pattern is not a regex ({exc})") from exc
            if groups < 1:
                raise ValueError("version_pattern needs a group around the version")
        return pattern


class Table(BaseModel):
    """A whole file: media-type groups named once, and the targets."""

    model_config = _FROZEN

    groups: dict[str, tuple[_Str, ...]] = Field({}, description="a table of name = [media types]")
    targets: dict[str, Target] = Field(description="[targets.NAME] tables")


def wire_names() -> tuple[str, ...]:
    """The names a target's ``wire`` may take: the wires registered in toolwire.providers
    (imported here, on first use, so that loading the table imports no encoder)."""
    from .providers import wire_names as registered

    return registered()


def one_of_wires(name: str | None = None) -> str:
    """``one of`` the registered wires; for a ``name`` that is none of them, its close matches
    and how to register a wire of your own."""
    names = wire_names()
    listed = f"one of {', '.join(names)}"
    if name is None:
        return listed
    return (
        f"{listed}.{suggest(name, names)} A wire of your own is registered with "
        "toolwire.providers.register(Wire(...)) before a target names it."
    )


def explain(where: str, error: ValidationError, root: type[BaseModel]) -> CapabilityError:
    """The first of pydantic's errors as a CapabilityError: file, path, key, what is allowed."""
    errors = error.errors()
    e = next((e for e in errors if e["type"] == "extra_forbidden"), errors[0])  # typos first
    loc, value = e["loc"], e.get("input")
    keyed = [i for i, item in enumerate(loc) if isinstance(item, str)]
    if e["type"] in ("model_type", "dict_type", "model_attributes_type") and (
        not loc or isinstance(loc[-1], int) or _is_key(root, loc)
    ):
        return CapabilityError(
            f"{where}{_path(loc)}: expected a table, found {type(value).__name__}"
        )
    last = keyed[-1]
    key, path = str(loc[last]), _path(loc[:last])
    model = _model_at(root, loc[:last])
    field = model.model_fields.get(key) if model else None
    wording = field.description if field else None
    if e["type"] == "extra_forbidden":
        allowed = list(model.model_fields) if model else []
        return CapabilityError(f"{where}{path}: unknown key {key!r}.{suggest(key, allowed)}")
    if e["type"] == "missing":
        return CapabilityError(
            f"{where}{path}: missing {key!r}" + (f" ({wording})" if wording else "")
        )
    if e["type"] == "literal_error":
        choices = _choices(field.annotation if field else None)
        return CapabilityError(
            f"{where}{path}: {key} = {value!r} is not one of {', '.join(choices)}."
            f"{suggest(str(value), choices)}"
        )
    if e["type"] == "value_error":
        return CapabilityError(f"{where}{path}: {e['ctx']['error']}")
    return CapabilityError(f"{where}{path}: {key!r} must be {wording or 'valid'}, not {value!r}")


def _path(loc: tuple[int | str, ...]) -> str:
    out, previous = "", None
    for item in loc:
        out += (
            f"[{item}]"
            if isinstance(item, int)
            else (f".{item}" if previous == "targets" else f" {item}")
        )
        previous = item
    return out


def _is_key(root: type[BaseModel], loc: tuple[int | str, ...]) -> bool:
    """Whether the last item of ``loc`` is a name in a mapping (a target), not a field."""
    return len(loc) >= 2 and loc[-2] == "targets" and root is Table


def _model_at(root: type[BaseModel], loc: tuple[int | str, ...]) -> type[BaseModel] | None:
    model: type[BaseModel] | None = root
    for i, item in enumerate(loc):
        if isinstance(item, int) or model is None or (i and loc[i - 1] == "targets"):
            continue
        field = model.model_fields.get(item)
        model = _inner_model(field.annotation) if field else None
    return model


def _inner_model(annotation: Any) -> type[BaseModel] | None:
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    for arg in get_args(annotation):
        found = _inner_model(arg)
        if found:
            return found
    return None


def _choices(annotation: Any) -> tuple[str, ...]:
    if get_origin(annotation) is Literal:
        return tuple(str(a) for a in get_args(annotation))
    for arg in get_args(annotation):
        found = _choices(arg)
        if found:
            return found
    return ()


# --- loading: validate, expand groups -------------------------------------------------------


def load_table(where: str, data: Any, groups: dict[str, tuple[str, ...]] | None = None) -> Table:
    """A whole file validated, its groups (added to ``groups``) expanded in every cell; the
    package file (no ``groups`` given) must name every target's wire."""
    table: Table = validate(where, data, Table, {})
    known = {**(groups or {}), **table.groups}
    targets = {n: _expand(f"{where} targets.{n}", t, known) for n, t in table.targets.items()}
    for name, target in targets.items():
        if groups is None and target.wire is None:
            raise CapabilityError(f"{where} targets.{name}: missing 'wire' ({one_of_wires()})")
    return table.model_copy(update={"targets": targets, "groups": known})


def validate(
    where: str, data: Any, model: type[BaseModel], groups: dict[str, tuple[str, ...]]
) -> Any:
    """``data`` as ``model`` (a Table or a Target), or a CapabilityError saying where."""
    try:
        found = model.model_validate(data)
    except ValidationError as exc:
        raise explain(where, exc, model) from None
    return _expand(where, found, groups) if isinstance(found, Target) else found


def _expand(where: str, target: Target, groups: dict[str, tuple[str, ...]]) -> Target:
    """Group names in ``types`` replaced by their media types; a target's own cells are whole."""
    for i, spec in enumerate(target.media):
        if spec.tool_result is None:  # type: ignore[attr-defined]
            raise CapabilityError(
                f"{where} media[{i}]: missing 'tool_result' (one of {', '.join(MODES)})"
            )
    media = tuple(_types(f"{where} media[{i}]", s, groups) for i, s in enumerate(target.media))
    rows = tuple(
        row.model_copy(
            update={
                "media": tuple(
                    _types(f"{where} models[{i}] media[{j}]", s, groups)
                    for j, s in enumerate(row.media)
                )
            }
        )
        for i, row in enumerate(target.models)
    )
    return target.model_copy(update={"media": media, "models": rows})


def _types(where: str, spec: Any, groups: dict[str, tuple[str, ...]]) -> Any:
    types: list[str] = []
    for name in spec.types:
        if "/" in name:
            types.append(name)
        elif name in groups:
            types.extend(groups[name])
        else:
            raise CapabilityError(
                f"{where}: {name!r} is neither a media type nor a group "
                f"({', '.join(sorted(groups))}).{suggest(name, groups)}"
            )
    return spec.model_copy(update={"types": tuple(types)})


def whole_cell(spec: Any) -> Any:
    """A target's cell as a row's: the fields it leaves out take their defaults."""
    unset = {k: v for k, v in CELL_DEFAULTS.items() if getattr(spec, k) is None}
    cleared = tuple(k for k in LIMITS if getattr(spec, k) is None)
    return spec.model_copy(update={**unset, "clear": cleared})
