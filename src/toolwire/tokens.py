"""``estimate_tokens``: what a conversation costs a model, per message and per file.

Files are counted the way the target will receive them: each takes the route ``encode``
would give it (routes.py); an image is measured at the size ``fit_images`` would send
(imagefit.fitted_size, the same rule) and priced with the formula of the model's family
(token_formulas.py: Anthropic, OpenAI tiles or patches with ``detail``, Gemini <= 2.5
tiles, Gemini 3 media resolution; Bedrock as the underlying model; a stated conservative
estimate for unknown models). A file no route can carry is counted as its text fallback,
which is what ``on_unsupported="text"`` sends (``encode`` raises for it by default).

Nothing here decodes pixels or audio (token_measures.py): image sizes come from file headers
(EXIF orientation included), PDF pages from the page objects or pypdfium2's page tree,
durations from WAV headers or mutagen, office text from the document's XML. When those say
nothing, stated guesses lean high and the ``working`` of each FileTokens says so: an image
of unknown size (HEIC, TIFF, a URL) costs the worst of a square and an 8:3 strip at the
target's edge limit (2048 px when it states none); a PDF of unknown pages has one per 16
KiB (10 by URL); an unknown duration is read at 32 kbit/s for audio and 500 kbit/s for
video (60 s by URL); a text document by URL costs 4,000 tokens.

Text uses a fast approximation (``estimate_text``), not a tokenizer. Measured against
OpenAI's o200k_base and cl100k_base on the project's Markdown, Python, TOML, CSV, JSON and
HTML files, it is within -16 % .. +18 % (most within +-10 %, leaning high); on German,
Russian, Chinese and Japanese samples -26 % .. +54 %. Providers' own tokenizers differ
from OpenAI's by similar margins. Each message adds ``MESSAGE_OVERHEAD`` tokens and each
tool call or result ``TOOL_OVERHEAD`` more, plus its id and name.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, Literal, get_args

from . import token_measures as measures
from .capability import Capabilities, Cell
from .capability import capabilities as load_capabilities
from .content import File, Json, ProviderPart, Text, Thinking, ToolCall
from .errors import ConversationError, ToolwireError
from .imagefit import RESIZABLE, fitted_size
from .mediatypes import is_textual
from .messages import Assistant, Message, System, ToolResult, User
from .plan import Decision, OnUnsupported, Plan, Resize, label_see, label_this
from .routes import route
from .token_formulas import PAGE_PX, Family, family

if TYPE_CHECKING:
    from .convert import Converter
    from .uploads import Uploads

#: Role markers and separators around every message (OpenAI's cookbook counts 3-4).
MESSAGE_OVERHEAD = 4
#: Framing of one tool call or tool result, besides its id, name and content.
TOOL_OVERHEAD = 4
#: OpenAI's image detail; "auto" counts as "high".
Detail = Literal["auto", "low", "high"]
DETAILS: tuple[str, ...] = get_args(Detail)

#: A text document that is not local (a URL, a provider file id): assumed this long.
_UNKNOWN_TEXT_TOKENS = 4000

_CJK = r"\u2e80-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef"
_PIECES = re.compile(
    r"[A-Za-z]{1,7}"  # ASCII words: common words are one token, long ones one per 7 letters
    r"|[0-9]{1,3}"  # numbers: tokenizers split digits into groups of up to 3
    r"|[!-/:-@\[-`{-~]{1,3}"  # ASCII punctuation, up to 3 per token
    rf"|[{_CJK}]"  # CJK, kana and hangul: about one token per character
    rf"|[^\x00-\x7f{_CJK}\s]{{1,4}}"  # other scripts: one token per 4 characters
)
_BREAKS = re.compile(r"[ \t]*\n\s*|[ \t]{2,}")  # line breaks and indentation: half a token


def estimate_text(text: str) -> int:
    """Approximate tokens of ``text``, without a tokenizer (error range in the module doc)."""
    if not text:
        return 0
    return math.ceil(len(_PIECES.findall(text)) + len(_BREAKS.findall(text)) / 2)


@dataclass(frozen=True)
class FileTokens:
    """One file's estimate: where it goes (``mode``, ``text`` = its text fallback), its
    tokens, the formula used and the working (sizes, pages, seconds, guesses)."""

    message_index: int
    identifier: str
    media_type: str
    kind: str
    mode: str
    tokens: int
    formula: str
    working: str


@dataclass(frozen=True)
class TokenEstimate:
    """A conversation's estimated input tokens for one model: the total, each message's
    share (files included), and every file with its formula.

    >>> estimate = estimate_tokens(messages, "anthropic:claude-sonnet-4-5")   # doctest: +SKIP
    >>> photo = estimate.files[0]          # examples/photo.png, 640x480, in a tool result
    >>> photo.tokens, photo.formula, photo.working
    (410, 'anthropic w*h/750', '640x480 px / 750')
    """

    model: str
    family: str
    total: int
    per_message: list[int]
    files: list[FileTokens] = field(default_factory=list)

    def for_decisions(self, decisions: Sequence[Decision]) -> list[int | None]:
        """Tokens per ``Request.decisions`` entry (matched by message index and identifier,
        in order), for a tokens column beside the decisions; None where nothing matches."""
        queues: dict[tuple[int, str], list[int]] = {}
        for f in self.files:
            queues.setdefault((f.message_index, f.identifier), []).append(f.tokens)
        found: list[int | None] = []
        for d in decisions:
            queue = queues.get((d.message_index, d.identifier))
            found.append(queue.pop(0) if queue else None)
        return found


def estimate_tokens(
    messages: Sequence[Message],
    model: str,
    *,
    capabilities: Capabilities | Mapping[str, object] | None = None,
    fit_images: bool = True,
    detail: Detail = "auto",
    on_unsupported: OnUnsupported = "text",
    converters: Mapping[str, Converter] | None = None,
    plan: Plan | None = None,
    uploads: Uploads | None = None,
) -> TokenEstimate:
    """Estimate the input tokens of ``messages`` for ``model`` ('provider:model-id').

    ``capabilities`` and ``fit_images`` mean what they mean for ``encode`` (routes and image
    sizes follow them); ``detail`` is OpenAI's image detail ("auto" counts as "high", the
    larger). Each file is priced where the plan of the request puts it (``plan_request``;
    ``plan``: one already made for these messages), so the estimate and the request agree;
    the plan decodes only the images that ``encode`` re-encodes (for a byte budget), else
    headers are read. With ``on_unsupported="convert"`` a file the target cannot take is
    priced as what it is converted to (page images and text, frames, Markdown: the
    conversions ``encode`` makes and keeps, with the same ``converters``); with "text" or
    "error", as its text fallback. With ``uploads`` (``tw.Uploads``, as given to ``encode``)
    the files that go by id are priced at their content's cost, and the files the context
    window leaves out as their descriptions: what ``encode(..., uploads=)`` sends.
    """
    if on_unsupported not in get_args(OnUnsupported):
        policies = ", ".join(repr(p) for p in get_args(OnUnsupported))
        raise ToolwireError(f"on_unsupported must be one of {policies}, not {on_unsupported!r}")
    estimator = Estimator(model, capabilities, fit_images=fit_images, detail=detail)
    estimator.converters = tuple((converters or {}).items())
    if plan is None:
        plan = planned(messages, model, estimator.caps, on_unsupported, estimator.converters,
                       fit_images, uploads)  # fmt: skip
    estimator.follow(plan)
    per_message: list[int] = []
    files: list[FileTokens] = []
    for index, message in enumerate(messages):
        tokens, found = estimator.message(index, message)
        per_message.append(tokens)
        files.extend(found)
    return TokenEstimate(model, estimator.family.name, sum(per_message), per_message, files)


def planned(
    messages: Sequence[Any],
    model: str,
    caps: Capabilities,
    on_unsupported: str = "text",
    converters: tuple[tuple[str, Any], ...] = (),
    fit_images: bool = True,
    uploads: Uploads | None = None,
) -> Plan | None:
    """The plan ``encode(..., on_unsupported="text")`` (or ``"convert"``) makes of
    ``messages``, so per-request limits (the oldest files beyond them become text, images
    re-fitted to the bytes left) are priced as they are sent. Images are fitted (decoded, in
    the read worker) only where the target has a byte budget that their size decides; else
    they are routed as fitted, and priced by their headers. A list that is no whole
    conversation (a lone tool result, priced on its own), or one the plan refuses (a text too
    large, a corrupt image), has no plan (None): its files are routed one by one."""
    from .request import plan_request

    policy: OnUnsupported = "convert" if on_unsupported == "convert" else "text"
    fitted = fit_images and bool(caps.budgets.max_request_bytes)
    routing = caps if fitted or not fit_images else _within_bytes(caps)
    try:
        return plan_request(messages, model, on_unsupported=policy, capabilities=routing,
                            converters=dict(converters), fit_images=fitted,
                            uploads=uploads)  # fmt: skip
    except ToolwireError:
        return None


class Estimator:
    """Counts one message at a time for one model (``estimate_tokens`` and ``fit`` use it)."""

    def __init__(
        self,
        model: str,
        capabilities: Capabilities | Mapping[str, object] | None = None,
        *,
        fit_images: bool = True,
        detail: str = "auto",
    ) -> None:
        if detail not in DETAILS:
            raise ToolwireError(f"detail must be one of {', '.join(DETAILS)}, not {detail!r}")
        if isinstance(capabilities, Capabilities):
            self.caps = capabilities
        else:
            self.caps = load_capabilities(model, capabilities)
        self.family: Family = family(model)
        self.fit_images = fit_images
        self.detail = "high" if detail == "auto" else detail
        #: The capabilities files are routed with: images that fit_images would recompress
        #: are routed as if within max_bytes (encode fits them before it checks the size).
        self.routing = _within_bytes(self.caps) if fit_images else self.caps
        self._planned: dict[tuple[int, str], list[Decision]] | None = None
        #: The caller's converters, for files the plan converts.
        self.converters: tuple[tuple[str, Any], ...] = ()

    def follow(self, laid_out: Plan | None) -> None:
        """Take each file's Decision from a plan (``planned``) instead of routing it alone:
        queued per (message index, identifier) in plan order."""
        queues: dict[tuple[int, str], list[Decision]] = {}
        for decision in laid_out.decisions if laid_out is not None else ():
            queues.setdefault((decision.message_index, decision.identifier), []).append(decision)
        self._planned = queues

    def message(self, index: int, message: Any) -> tuple[int, list[FileTokens]]:
        """The message's tokens (its files included) and the estimate of each file."""
        tokens = MESSAGE_OVERHEAD + (TOOL_OVERHEAD if isinstance(message, ToolResult) else 0)
        files: list[FileTokens] = []
        for part, in_tool_result in sent_parts(index, message):
            if isinstance(part, File):
                files.append(self.file(index, part, in_tool_result))
                tokens += files[-1].tokens
            else:
                tokens += _part_tokens(part)
        return tokens, files

    def file(self, index: int, file: File, in_tool_result: bool) -> FileTokens:
        """One file as the target receives it: natively, labelled after the results, or as
        its text fallback when no route carries it (or a count limit leaves it out)."""
        mode, resize = self._decided(index, file, in_tool_result)
        if mode == "converted":
            return self._converted(index, file, in_tool_result)
        if mode in ("none", "text"):
            text = file.text_fallback()
            return FileTokens(
                index, file.identifier, file.media_type, file.kind, "text",
                estimate_text(text), "text fallback", f"{len(text):,} characters",
            )  # fmt: skip
        tokens, formula, working = self._media(file, resize)
        if in_tool_result and mode in ("fallback", "sibling"):
            tokens += estimate_text(label_see(file).text) + estimate_text(label_this(file).text)
        return FileTokens(
            index, file.identifier, file.media_type, file.kind, mode, tokens, formula, working
        )

    def _converted(self, index: int, file: File, in_tool_result: bool) -> FileTokens:
        """A converted file, priced as its parts: each image by the family's formula (and its
        labels where it travels after the results), each text by ``estimate_text``."""
        from .plan.convert import produced

        parts = produced(file, self.caps, in_tool_result, self.converters)
        images = [p for p in parts if isinstance(p, File)]
        chars = sum(len(p.text) for p in parts if isinstance(p, Text))
        tokens = sum(estimate_text(p.text) for p in parts if isinstance(p, Text))
        for image in images:
            tokens += self.file(index, image, in_tool_result).tokens
        working = f"{len(images)} image(s) and {chars:,} characters of text"
        return FileTokens(
            index, file.identifier, file.media_type, file.kind, "converted", tokens,
            "converted parts", working,
        )  # fmt: skip

    def _decided(self, index: int, file: File, in_tool_result: bool) -> tuple[str, Resize | None]:
        """The file's mode and resize, from the plan's Decision where there is a plan."""
        queue = self._planned.get((index, file.identifier)) if self._planned else None
        if queue:
            decision = queue.pop(0)
            return decision.mode, decision.resize
        return route(file, in_tool_result, self.routing, None, None).mode, None

    def _media(self, file: File, resize: Resize | None = None) -> tuple[int, str, str]:
        if file.kind == "image":
            return self._image(file, resize)
        if file.kind in ("audio", "video"):
            seconds, how = measures.seconds(file)
            rate = getattr(self.family, f"{file.kind}_per_second")
            return math.ceil(seconds * rate), f"{file.kind} seconds", f"{how} x {rate:g}/s"
        if file.media_type == "application/pdf":
            return self._pdf(file)
        return _document(file)

    def _image(self, file: File, resize: Resize | None = None) -> tuple[int, str, str]:
        """The image's tokens at the size it is sent: the plan's resize where it re-encoded
        the image, else its header's size fitted by the cell's rules."""
        rule, cell = self.family.image, self.caps.cell(file.media_type)
        if resize is not None and resize.from_px and resize.to_px:
            (w, h), (sw, sh) = resize.from_px, resize.to_px
            tokens, working = rule.tokens(sw, sh, self.detail)
            return tokens, rule.name, f"fitted {w}x{h} -> {sw}x{sh}; {working}"
        size = measures.image_size(file)
        if size is None:
            edge = (cell and (cell.fit_edge or cell.max_edge)) or 2048
            worst = max(
                rule.tokens(w, h, self.detail)[0] for w, h in ((edge, edge), (edge, edge * 3 // 8))
            )
            return worst, rule.name, f"size unknown: the worst case up to {edge}x{edge} px"
        sent = size
        if self.fit_images and cell is not None and file.media_type in RESIZABLE:
            sent = fitted_size(size[0], size[1], cell)
        tokens, working = rule.tokens(sent[0], sent[1], self.detail)
        if sent != size:
            working = f"fitted {size[0]}x{size[1]} -> {sent[0]}x{sent[1]}; {working}"
        return tokens, rule.name, working

    def _pdf(self, file: File) -> tuple[int, str, str]:
        pages, how = measures.pdf_pages(file)
        fam = self.family
        if fam.pdf_page:
            return pages * fam.pdf_page, "pdf pages", f"{how} x {fam.pdf_page}"
        page_image = fam.image.tokens(*PAGE_PX, self.detail)[0]
        if file.text is not None:
            text, text_how = estimate_text(file.text), "declared text"
        else:
            text, text_how = pages * fam.pdf_text_per_page, f"{fam.pdf_text_per_page}/page text"
        working = f"{how} x {page_image} page image + {text_how} ({text})"
        return pages * page_image + text, "pdf text + page images", working


def sent_parts(index: int, message: Any) -> Iterator[tuple[Any, bool]]:
    """The parts a message sends, and whether they sit in a tool result."""
    if isinstance(message, System):
        yield Text(text=message.text), False
    elif isinstance(message, User):
        yield from ((part, False) for part in message.parts)
    elif isinstance(message, Assistant):
        yield from ((part, False) for part in message.content)
    elif isinstance(message, ToolResult):
        yield Text(text=f"{message.call_id} {message.name}"), True
        yield from ((part, True) for part in message.parts)
    else:
        raise ConversationError(f"message {index} is not a toolwire message: {message!r}")


def _part_tokens(part: Any) -> int:
    if isinstance(part, Text):
        return estimate_text(part.text)
    if isinstance(part, Json):
        return estimate_text(part.compact())
    if isinstance(part, Thinking):  # redacted thinking is opaque data carried in `signature`
        return estimate_text((part.signature or "") if part.redacted else part.text)
    if isinstance(part, ToolCall):
        arguments = part.invalid_arguments or Json(value=part.arguments).compact()
        return TOOL_OVERHEAD + estimate_text(f"{part.id} {part.name} {arguments}")
    if isinstance(part, ProviderPart):  # counted as its JSON: the provider reads it back
        return estimate_text(Json(value=part.data).compact())
    raise ConversationError(f"unexpected part {part!r}")


def _document(file: File) -> tuple[int, str, str]:
    """Text files by their text; others by their declared text, else the text inside the
    office zip, else one token per 4 bytes."""
    if is_textual(file.media_type) and file.source.is_local:
        text = file.read_text()
        return estimate_text(text), "text", f"{len(text):,} characters"
    if file.text is not None:
        return estimate_text(file.text), "text", "declared text"
    if not file.source.is_local:
        return _UNKNOWN_TEXT_TOKENS, "text", "not local: assumed"
    data = file.read()
    inside = measures.office_text(data)
    if inside is not None:
        return estimate_text(inside), "text", f"{len(inside):,} characters in the document's XML"
    return math.ceil(len(data) / 4), "bytes / 4", f"{len(data):,} bytes, no text found"


def _within_bytes(caps: Capabilities) -> Capabilities:
    """``caps`` with no byte cap on the cells of resizable images.

    Cells shared by several media types stay shared (one copy per cell), so per-request count
    limits still count those types together. One copy per ``caps`` (capabilities are memoised
    per model), so that plans of the same model share the plan layer's memo.
    """
    known = _WITHIN_BYTES.get(id(caps))
    if known is not None and known[0] is caps:
        return known[1]
    if len(_WITHIN_BYTES) >= 256:
        _WITHIN_BYTES.clear()
    relaxed = _relax(caps)
    _WITHIN_BYTES[id(caps)] = (caps, relaxed)
    return relaxed


_WITHIN_BYTES: dict[int, tuple[Capabilities, Capabilities]] = {}


def _relax(caps: Capabilities) -> Capabilities:
    copies: dict[int, Cell] = {}
    cells = dict(caps.cells)
    for media_type, cell in caps.cells.items():
        if media_type in RESIZABLE and cell.max_bytes:
            cells[media_type] = copies.setdefault(id(cell), replace(cell, max_bytes=None))
    return replace(caps, cells=cells) if copies else caps
