"""The providers' published token formulas for media, one family of rules per group of models.

Every rule is a frozen value whose constants come from the provider's documentation (cited
per rule); ``FAMILIES`` names the families. Which family counts a model is a column of the
capability table (``token_family`` on a target or a model row of capabilities.toml, matched
like every other row); models it names none for get ``CONSERVATIVE``: the largest of the
capped image formulas.

PDFs that declare no text are charged ``_PDF_TEXT`` = 1,500 text tokens a page on the
Anthropic and OpenAI families, on top of each page as an image: Anthropic's "PDF support" doc
puts a page at 1,500-3,000 text tokens (platform.claude.com/docs/en/build-with-claude/pdf-support).
The lower bound is taken because an undeclared page is as likely a scan or a chart
as dense prose, and the page image already charged for it is the larger share of its cost.

Each ``tokens`` method returns ``(tokens, working)``: the count and a short account of how it
was reached (``"85 + 170 x 4 tiles at 768x576"``), for ``toolwire tokens``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from .capability import capabilities
from .errors import CapabilityError, suggest

#: A PDF page as an image, for the formulas that charge each page as one: US Letter at 150 dpi.
PAGE_PX = (1275, 1650)


def _scale_to(width: int, height: int, factor: float) -> tuple[int, int]:
    """Both sides scaled and floored; the epsilon keeps 1535.9999… from becoming 1535."""
    return max(1, math.floor(width * factor + 1e-6)), max(1, math.floor(height * factor + 1e-6))


@dataclass(frozen=True)
class AreaImages:
    """Anthropic: tokens = w·h/750 after the long edge is fitted to 1568 px and the area to
    about 1.15 MP (docs "Vision": "If your image's long edge is more than 1568 pixels, or your
    image is more than ~1,600 tokens, it will first be scaled down"). ``max_pixels`` is
    784x1568, the largest size the docs list as sent unresized; the docs round up."""

    name: str = "anthropic w*h/750"
    divisor: int = 750
    max_edge: int = 1568
    max_pixels: int = 784 * 1568

    def tokens(self, width: int, height: int, detail: str) -> tuple[int, str]:
        """(tokens, working) for a ``width`` x ``height`` image as sent."""
        factor = min(1.0, self.max_edge / max(width, height))
        if width * height * factor * factor > self.max_pixels:
            factor = math.sqrt(self.max_pixels / (width * height))
        w, h = _scale_to(width, height, factor) if factor < 1 else (width, height)
        return math.ceil(w * h / self.divisor), f"{w}x{h} px / {self.divisor}"


@dataclass(frozen=True)
class TileImages:
    """OpenAI tile models: fit in 2048x2048, shortest side down to 768, then ``base`` +
    ``tile`` per 512-px tile; ``detail: "low"`` costs ``base`` only (docs "Images and vision",
    calculating costs; "auto" is counted as "high")."""

    base: int
    tile: int
    name: str = "openai tiles"

    def tokens(self, width: int, height: int, detail: str) -> tuple[int, str]:
        """(tokens, working) for a ``width`` x ``height`` image as sent."""
        if detail == "low":
            return self.base, f"{self.base} (detail low)"
        w, h = width, height
        if max(w, h) > 2048:
            w, h = _scale_to(w, h, 2048 / max(w, h))
        if min(w, h) > 768:
            w, h = _scale_to(w, h, 768 / min(w, h))
        tiles = math.ceil(w / 512) * math.ceil(h / 512)
        return (
            self.base + self.tile * tiles,
            f"{self.base} + {self.tile} x {tiles} tiles at {w}x{h}",
        )


@dataclass(frozen=True)
class PatchImages:
    """OpenAI patch models: 32-px patches, at most 1536 (the image shrunk to fit, whole
    patches along its tighter side), times a per-model multiplier (docs "Images and vision").
    ``detail: "low"`` is counted as the 512x512 image the vision guide describes for it."""

    multiplier: float
    name: str = "openai patches"
    patch: int = 32
    budget: int = 1536

    def tokens(self, width: int, height: int, detail: str) -> tuple[int, str]:
        """(tokens, working) for a ``width`` x ``height`` image as sent."""
        w, h = (min(width, 512), min(height, 512)) if detail == "low" else (width, height)
        p = self.patch
        patches = math.ceil(w / p) * math.ceil(h / p)
        if patches > self.budget:
            shrink = math.sqrt(self.budget * p * p / (w * h))
            sw, sh = w * shrink / p, h * shrink / p
            shrink *= min(math.floor(sw) / sw, math.floor(sh) / sh)
            w, h = _scale_to(w, h, shrink)
            patches = min(self.budget, math.ceil(w / p) * math.ceil(h / p))
        tokens = math.ceil(patches * self.multiplier)
        return tokens, f"{patches} patches at {w}x{h} x {self.multiplier}"


@dataclass(frozen=True)
class GeminiTiles:
    """Gemini 2.5 and earlier: 258 tokens when both sides are at most 384 px, else 258 per
    768x768 tile (docs "Understand and count tokens", multimodal tokens)."""

    name: str = "gemini tiles"
    per_tile: int = 258
    small: int = 384
    tile: int = 768

    def tokens(self, width: int, height: int, detail: str) -> tuple[int, str]:
        """(tokens, working) for a ``width`` x ``height`` image as sent."""
        if width <= self.small and height <= self.small:
            return self.per_tile, f"{self.per_tile} (both sides <= {self.small} px)"
        tiles = math.ceil(width / self.tile) * math.ceil(height / self.tile)
        return self.per_tile * tiles, f"{self.per_tile} x {tiles} tiles of {self.tile} px"


@dataclass(frozen=True)
class FlatImages:
    """Gemini 3: a fixed count per image set by ``media_resolution`` (docs "Media resolution":
    low 280, medium 560, high 1120; images default to high). toolwire sets no resolution."""

    name: str = "gemini 3 media resolution"
    resolution: str = "high"
    by_resolution: tuple[tuple[str, int], ...] = (("low", 280), ("medium", 560), ("high", 1120))

    def tokens(self, width: int, height: int, detail: str) -> tuple[int, str]:
        """(tokens, working) for a ``width`` x ``height`` image as sent."""
        tokens = dict(self.by_resolution)[self.resolution]
        return tokens, f"{tokens} (media_resolution {self.resolution})"


@dataclass(frozen=True)
class LargestOf:
    """The largest of several rules: the stated conservative estimate for unknown models."""

    rules: tuple[AreaImages | TileImages | FlatImages, ...]
    name: str = "conservative"

    def tokens(self, width: int, height: int, detail: str) -> tuple[int, str]:
        """(tokens, working) for a ``width`` x ``height`` image as sent."""
        counts = [(rule.tokens(width, height, detail)[0], rule.name) for rule in self.rules]
        tokens, name = max(counts)
        return tokens, f"largest of {len(counts)} formulas ({name})"


ImageRule = AreaImages | TileImages | PatchImages | GeminiTiles | FlatImages | LargestOf


@dataclass(frozen=True)
class Family:
    """How one group of models counts media. PDFs cost ``pdf_page`` per page when set (Gemini),
    else ``pdf_text_per_page`` text tokens (when the file declares no text) plus each page as
    a ``PAGE_PX`` image through ``image`` (Anthropic, OpenAI)."""

    name: str
    image: ImageRule
    pdf_page: int = 0
    pdf_text_per_page: int = 0
    audio_per_second: float = 32.0
    video_per_second: float = 263.0
    evidence: str = ""


#: Text tokens per page of a PDF that declares no text: the lower bound of Anthropic's
#: documented 1,500-3,000 (PDF support; see the module docstring for why the lower bound).
_PDF_TEXT = 1500
#: Unknown audio rates take the largest published one (Gemini's 32 tokens/s).
_AUDIO = 32.0


CONSERVATIVE = Family(
    name="unknown model (conservative)",
    image=LargestOf((AreaImages(), TileImages(85, 170), FlatImages())),
    pdf_text_per_page=_PDF_TEXT,
    evidence="no published formula: the largest of the capped image formulas, Gemini's rates",
)

_RULES = (
    Family(
        "anthropic",
        AreaImages(),
        pdf_text_per_page=_PDF_TEXT,
        evidence="Anthropic docs: Vision (image costs), PDF support (text plus each page as an image)",
    ),
    Family(
        "openai gpt-4o/4.1",
        TileImages(85, 170),
        pdf_text_per_page=_PDF_TEXT,
        evidence="OpenAI docs: Images and vision, calculating costs (85/170)",
    ),
    Family("openai gpt-4o-mini", TileImages(2833, 5667), pdf_text_per_page=_PDF_TEXT),
    Family("openai o1/o3", TileImages(75, 150), pdf_text_per_page=_PDF_TEXT),
    Family("openai gpt-5", TileImages(70, 140), pdf_text_per_page=_PDF_TEXT),
    Family("openai computer-use", TileImages(65, 129), pdf_text_per_page=_PDF_TEXT),
    Family("openai patches 1.62", PatchImages(1.62), pdf_text_per_page=_PDF_TEXT),
    Family("openai patches 2.46", PatchImages(2.46), pdf_text_per_page=_PDF_TEXT),
    Family("openai patches 1.72", PatchImages(1.72), pdf_text_per_page=_PDF_TEXT),
    Family(
        "openai gpt-5.2+",
        PatchImages(1.2),
        pdf_text_per_page=_PDF_TEXT,
    ),
    Family(
        "gemini <= 2.5",
        GeminiTiles(),
        pdf_page=258,
        audio_per_second=32.0,
        video_per_second=263.0,
        evidence="Gemini docs: Understand and count tokens (258 per tile or page, 263/s video, 32/s audio)",
    ),
    Family(
        "gemini 3",
        FlatImages(),
        pdf_page=560,
        audio_per_second=32.0,
        video_per_second=70.0 + _AUDIO,
        evidence="Gemini docs: Media resolution (images 1120, PDF pages 560, video 70 per frame at 1 fps) + 32/s audio",
    ),
)  # fmt: skip


#: Family name -> its rules; capabilities.toml names a family per model (``token_family``).
FAMILIES: dict[str, Family] = {f.name: f for f in _RULES}


def family(model: str) -> Family:
    """The family whose formulas apply to ``model`` ('provider:model-id'): the table's
    ``token_family`` for it, or ``CONSERVATIVE`` when it names none."""
    name = capabilities(model).token_family
    if name is None:
        return CONSERVATIVE
    if name not in FAMILIES:
        raise CapabilityError(
            f"token_family {name!r} for {model!r} is not one of {', '.join(FAMILIES)}."
            f"{suggest(name, FAMILIES)}"
        )
    return FAMILIES[name]
