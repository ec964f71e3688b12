"""The widgets of the terminal view: a turn, a file's section, a picture.

A ``TurnView`` is one turn of the plan (``viewer.layout``): its figures, then its provider
messages, each part as the target receives it. Files are ``FileView`` sections titled with
their one-line preview and Decision; opening one builds its detail and loads its picture (a
thumbnail, or a PDF page that ``n``/``p`` turn) and its text in a thread, from the read worker
(``pixels``, ``text``); the thread posts what it read to the section (``TextRead``,
``PictureRead``), which Textual drops once the section is gone, and a page read after the next
one was asked for is dropped too. Thinking is a folded, dim section. Everything from the
conversation is shown as written (``lines.plain``, titles as Content, not markup).
"""

from __future__ import annotations

import logging
from typing import Any, ClassVar, Literal

from rich.text import Text as RichText
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.content import Content
from textual.message import Message
from textual.widget import Widget
from textual.widgets import Collapsible, Static

from ..content import File, Thinking
from ..plan import Decision
from ..viewer.html import made_from
from ..viewer.layout import Shown, Step, Turn
from ..viewer.targets import Target
from . import lines, pixels
from .halfblocks import HalfBlocks
from .text import file_text

#: How pictures are drawn: the terminal's graphics protocol where it has one (else half
#: blocks), Kitty's graphics protocol or Sixel whatever the terminal says (a terminal
#: multiplexer may hide what it passes through), half blocks always, or not at all (a text
#: preview instead).
Images = Literal["auto", "kitty", "sixel", "halfblock", "off"]


def _protocols() -> tuple[dict[str, Any], str | None]:
    """textual-image's widget for each graphics protocol ("kitty", "sixel"), and the one the
    terminal speaks (None: half blocks). Importing textual-image asks the terminal, which
    must happen before Textual takes the terminal over; a terminal that answers oddly (no
    size) gets half blocks. A terminal that does not answer makes textual-image log a
    traceback: with no logging set up, Python would print it over the screen, so its logger
    gets a NullHandler."""
    logging.getLogger("textual_image").addHandler(logging.NullHandler())
    try:
        from textual_image import renderable
        from textual_image.widget import SixelImage, TGPImage
    except Exception:  # textual-image raises what it meets (ZeroDivisionError for 0 columns)
        return {}, None
    spoken = {renderable.TGPImage: "kitty", renderable.SixelImage: "sixel"}
    return {"kitty": TGPImage, "sixel": SixelImage}, spoken.get(renderable.Image)


PROTOCOLS, DETECTED = _protocols()


class Column(VerticalScroll):
    """The conversation's scrolling column: the arrow keys scroll it, and ``j``/``k`` do what
    ``↓``/``↑`` do (as in less, vim, htop and lazygit); listed in the ``?`` panel, not the
    footer, which has no room for them at 80 columns."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("j", "scroll_down", "down, as ↓", show=False, group=Binding.Group("Move")),
        Binding("k", "scroll_up", "up, as ↑", show=False, group=Binding.Group("Move")),
    ]


class TurnView(Vertical):
    """One turn: its figures, then each provider message it becomes."""

    def __init__(self, shown: Target, index: int, heading: str, images: Images) -> None:
        super().__init__()
        self.shown, self.index, self.heading, self.images = shown, index, heading, images

    def compose(self) -> ComposeResult:
        turn: Turn = self.shown.turns[self.index]
        for position, step in enumerate(turn.steps):
            yield from self._step(step, self.heading if position == 0 else "")

    def _step(self, step: Step, heading: str) -> ComposeResult:
        """The step's heading lines in one Static (the turn's figures, its role, its first
        block's heading: a long session mounts a third of the widgets), then its parts."""
        added = f" — {step.added}" if step.added else ""
        role = "bold $warning" if step.added.startswith("added") else "bold $accent"
        head: list[str | tuple[str, str]] = [(heading, "bold $text-muted"), "\n"] if heading else []
        head.append((f"{step.role}{added}", role))
        for block in step.blocks:
            if block.heading:
                flag = f" [{block.flag}]" if block.flag else ""
                head += [
                    "\n" if head else "",
                    (f" {lines.plain(block.heading)}{flag}", "$secondary"),
                ]
            if head:
                yield Static(Content.assemble(*head), classes="head")
                head = []
            for shown in block.parts:
                yield self._part(shown)
        if head:
            yield Static(Content.assemble(*head), classes="head")

    def _part(self, shown: Shown) -> Widget:
        part, tag = shown.part, lines.shown_tag(shown)
        if tag:
            if shown.decision is not None:
                tag = f"{tag} {lines.verdict(shown.decision)}"
            return Vertical(
                Static(RichText(f"({tag})"), classes="tag"), _text(part), classes="tagged"
            )
        if isinstance(part, File):
            made = made_from(shown)  # its Decision (and tokens) are the converted file's
            tokens = self.shown.decision_tokens.get(id(shown.decision)) if shown.decision else None
            return FileView(part, shown.decision, None if made else tokens, self.images, made)
        if isinstance(part, Thinking):
            body = Static(RichText(lines.thinking_body(part)), classes="detail")
            return Collapsible(
                body,
                title=plain_title(lines.thinking_title(part)),
                collapsed=True,
                classes="thinking",
            )
        return _text(part)


def _text(part: object) -> Widget:
    """A text part: its first ``lines.SHOWN_LINES`` lines, the rest folded under a line
    that counts them (a tool's long output does not bury the turns after it)."""
    head, rest = lines.split_long(lines.part_text(part))
    if not rest:
        return Static(RichText(head), classes="part")
    more = Collapsible(
        Static(RichText(rest), classes="part"),
        title=plain_title(f"… {rest.count(chr(10)) + 1:,} more lines"),
        collapsed=True,
    )
    return Vertical(Static(RichText(head), classes="part"), more, classes="tagged")


class TextRead(Message, bubble=False):
    """(Posted by a reading thread to its FileView.) The file's text."""

    def __init__(self, text: str) -> None:
        super().__init__()
        self.text = text


class PictureRead(Message, bubble=False):
    """(Posted by a reading thread to its FileView.) What the read worker made of ``page``."""

    def __init__(self, page: int, shot: pixels.Shot) -> None:
        super().__init__()
        self.page, self.shot = page, shot


class FileView(Collapsible):
    """A file: its preview and Decision as the title; detail, picture and text inside, made
    when the section first opens (a long session mounts one line per file, not a dozen)."""

    def __init__(
        self,
        file: File,
        decision: Decision | None,
        tokens: int | None,
        images: Images,
        made: str = "",
    ) -> None:
        self.file, self.decision, self.tokens, self.images = file, decision, tokens, images
        self.made = made  # an image a conversion made: which (viewer.html.made_from)
        self.is_pdf = file.media_type == "application/pdf" and file.source.is_local
        self.page, self.pages, self.loaded = 0, 0, False
        super().__init__(title=plain_title(lines.preview(file, decision, made)), collapsed=True)

    def _body(self) -> list[Widget]:
        facts = "\n".join(lines.file_detail(self.file, self.decision, self.tokens, self.made))
        body: list[Widget] = [Static(RichText(facts), classes="detail")]
        if self._has_picture():
            body.append(PictureView(self.images))
        body.append(Static("", classes="file-text detail"))
        return body

    def _has_picture(self) -> bool:
        return self.file.source.is_local and (self.file.kind == "image" or self.is_pdf)

    @on(Collapsible.Expanded)
    async def _expanded(self, event: Collapsible.Expanded) -> None:
        if event.collapsible is self and not self.loaded:
            self.loaded = True
            await self.query_one(Collapsible.Contents).mount_all(self._body())
            self._load_text()
            if self._has_picture() and self.images == "off":
                self._set_picture(None, "images off (--no-images)")
            elif self._has_picture():
                self._load_picture(self.page)

    @work(thread=True, group="text")
    def _load_text(self) -> None:
        """(In a thread.) The file's text, posted to this section."""
        text = file_text(self.file)
        if text:
            self.post_message(TextRead(text))

    @on(TextRead)
    def _text_read(self, read: TextRead) -> None:
        self._set_text(read.text)

    def _set_text(self, text: str) -> None:
        # The section may be on its way out (the target switched, the window moved): then
        # there is nothing to fill, and nothing to raise.
        for shown in self.query(".file-text").results(Static):
            shown.update(RichText(text))

    @work(thread=True, exclusive=True, group="picture")
    def _load_picture(self, page: int) -> None:
        """(In a thread.) Page ``page`` (an image: its only one) from the read worker, posted
        to this section."""
        self.post_message(PictureRead(page, pixels.shot(self.file, page)))

    @on(PictureRead)
    def _picture_read(self, read: PictureRead) -> None:
        if read.page != self.page:  # n or p turned past it while it was read
            return
        found = read.shot
        self.pages, note = found.pages, found.why
        if self.is_pdf and found.pages:
            note = f"page {self.page + 1} of {found.pages}" + (
                " · n/p turn the page" if found.pages > 1 else ""
            )
        self._set_picture(found.pixels, note)

    def _set_picture(self, found: pixels.Pixels | None, note: str) -> None:
        for view in self.query(PictureView):  # none once the section was removed
            view.show(found, note)

    def turn_page(self, step: int) -> None:
        """Show the next (or previous) page of the PDF, if it has one."""
        if self.pages <= 1 or not 0 <= self.page + step < self.pages:
            self.notify(
                f"{lines.plain(self.file.identifier)}: no page {self.page + step + 1}", timeout=2
            )
            return
        self.page += step
        self._load_picture(self.page)


class PictureView(Vertical):
    """A picture from the worker's samples (graphics protocol or half blocks), and its note."""

    def __init__(self, images: Images) -> None:
        super().__init__()
        self.images = images

    def compose(self) -> ComposeResult:
        yield Static(RichText("loading…"), classes="picture-note")

    def show(self, found: pixels.Pixels | None, note: str) -> None:
        for old in self.query(".picture"):
            old.remove()
        self.query_one(".picture-note", Static).update(RichText(note))
        if found is not None:
            self.mount(_terminal_image(found, self.images), before=0)


def _terminal_image(found: pixels.Pixels, images: Images) -> Widget:
    """A graphics protocol (textual-image: Kitty's, or Sixel) where one was asked for or the
    terminal speaks one, else half blocks; both over the worker's samples (a picture made
    from raw RGB, no file format decoded here)."""
    name = DETECTED if images == "auto" else images
    protocol = PROTOCOLS.get(name) if name else None
    if protocol is None:
        return HalfBlocks(found, classes="picture")
    from PIL import Image as PILImage

    picture = PILImage.frombytes("RGB", (found.width, found.height), found.rgb)
    widget: Widget = protocol(picture, classes="picture")
    return widget


def plain_title(text: str) -> str:
    """A Collapsible title shown as written: a str title is parsed as Textual markup (a file
    named ``[b]x[/]`` would be bold, or break the screen), a Content is taken as it is.
    Textual's annotation says str; its ``Content.from_text`` takes Content too."""
    return Content(text)  # type: ignore[return-value]
