"""The Textual application: one target's conversation at a time, a status bar, a footer.

The conversation is a column of ``widgets.TurnView``, one per turn of the target's plan, a
page of them at a time (``window``: a long session mounts one page, ``[``/``]`` turn it).
``t`` plans the next target (once: plans are kept until the feed changes); ``--follow`` polls
the feed in a thread and mounts only the turns that changed, the ones shown stay as they are.

Only the app's message loop changes the screen: the follow thread posts what it found (a
``Polled`` message), so a poll's turns are mounted between two keys, never while a key is
rebuilding the screen, and never after the app quit. A test's ``run_test`` closes the app from
outside that loop, so what awaits checks ``is_running`` before it touches the screen again.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar, Literal

from rich.text import Text as RichText
from textual import on, work
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.message import Message as ScreenMessage
from textual.widgets import Collapsible, Footer, Static

from ..errors import ToolwireError
from ..messages import Message
from ..plan import OnUnsupported
from ..viewer.targets import Target, target
from . import lines
from .feed import Conversation, Feed
from .keys import KeysScreen, rows
from .widgets import Column, FileView, Images, PictureView, TurnView
from .window import Window

__all__ = ["FileView", "Images", "PictureView", "Polled", "SessionApp", "TurnView"]


class Polled(ScreenMessage):
    """(Posted by the follow thread.) One poll's answer: the session again, planned for the
    target that was shown when the poll began (``messages`` None: nothing new), or why the
    poll failed."""

    def __init__(
        self,
        messages: list[Message] | None,
        position: int,
        planned: Target | None,
        failure: str = "",
    ) -> None:
        super().__init__()
        self.messages, self.position, self.planned = messages, position, planned
        self.failure = failure


class SessionApp(App[None]):
    """What each target model receives, turn by turn, in the terminal (``toolwire show``).

    ``feed`` gives the messages (``Conversation`` or a ``StoredSession``); ``models`` are
    the targets ``t`` switches between; ``follow`` polls the feed every ``interval`` s.
    The first target is planned here, so a conversation no target can take fails before the
    screen opens.
    """

    TITLE = "toolwire show"
    ENABLE_COMMAND_PALETTE = False  # every action has its key in the footer
    CSS = """
    #conversation { height: 1fr; }
    #status {
        height: 3; background: $panel; color: $text; padding: 0 1;
        text-wrap: nowrap; text-overflow: ellipsis;
    }
    .more { color: $text-muted; text-style: italic; padding: 0 1; }
    TurnView { height: auto; margin: 0 0 1 0; border-top: solid $primary; }
    .part { padding-left: 2; }
    .tag { padding-left: 2; color: $warning; }
    .tagged { height: auto; }
    Collapsible { padding: 0 0 0 2; border-top: none; background: $surface; }
    Collapsible.thinking { opacity: 60%; text-style: dim italic; }
    .detail { color: $text-muted; }
    .picture-note { color: $text-muted; }
    PictureView { height: auto; }
    PictureView > .picture { width: auto; height: auto; max-width: 64; }
    """
    #: Every action in the footer, paired keys under one word (it fits 80 columns); ``?``
    #: lists them with their words (a grouped key's description, or else its tooltip), with
    #: ``j``/``k`` and Textual's own keys (``keys.rows``).
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("q", "quit", "Quit", tooltip="quit"),
        Binding("t", "switch_target(1)", "next target", group=Binding.Group("Target")),
        Binding("T", "switch_target(-1)", "previous target", group=Binding.Group("Target")),
        Binding("o", "toggle_section", "open or close one", group=Binding.Group("Fold")),
        Binding("e", "expand_all(True)", "expand all", group=Binding.Group("Fold")),
        Binding("c", "expand_all(False)", "collapse all", group=Binding.Group("Fold")),
        Binding("n", "page(1)", "next PDF page", group=Binding.Group("Page")),
        Binding("p", "page(-1)", "previous PDF page", group=Binding.Group("Page")),
        Binding("[", "turns(-1)", "earlier turns", group=Binding.Group("Turns")),
        Binding("]", "turns(1)", "later turns", group=Binding.Group("Turns")),
        Binding("g", "top", "first turn", group=Binding.Group("Ends")),
        Binding("G", "bottom", "last turn", group=Binding.Group("Ends")),
        Binding("d", "light_dark", "Theme", tooltip="light or dark theme"),
        Binding("question_mark", "keys", "Help", tooltip="this list of keys (esc closes it)"),
    ]

    def __init__(
        self,
        feed: Feed,
        models: Sequence[str],
        *,
        images: Images = "auto",
        follow: bool = False,
        interval: float = 1.0,
        on_unsupported: OnUnsupported = "text",
    ) -> None:
        super().__init__()
        if not models:
            raise ToolwireError("show needs at least one model, e.g. 'anthropic:claude-sonnet-4-5'")
        self.feed, self.models = feed, list(models)
        self.images, self.follow, self.interval = images, follow, interval
        self.on_unsupported: OnUnsupported = on_unsupported
        self.messages: list[Message] = feed.messages()
        self.position = 0
        self._targets: dict[int, Target] = {0: self._plan(self.messages, 0)}
        self.window = self._opening(len(self._targets[0].turns))
        self._follow_note = ""
        self._polling = False  # a poll's answer is on its way: the next tick waits (_poll)
        self._scroll_wish: Literal["home", "end"] | None = None  # waiting for the layout

    @classmethod
    def for_messages(
        cls, messages: Sequence[Message], models: Sequence[str], **options: Any
    ) -> SessionApp:
        """The app over a conversation given whole (it does not follow anything)."""
        return cls(Conversation(messages), models, **options)

    @property
    def target(self) -> Target:
        """The target shown now, planned on first use."""
        if self.position not in self._targets:
            self._targets[self.position] = self._plan(self.messages, self.position)
        return self._targets[self.position]

    def _plan(self, messages: list[Message], position: int) -> Target:
        return target(messages, self.models[position], self.on_unsupported)

    # --- layout ---------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        with Column(id="conversation"):
            yield Static(id="earlier", classes="more")
            yield Static(id="later", classes="more")
        yield Static(id="status")
        yield Footer()

    async def on_mount(self) -> None:
        self.sub_title = self.feed.name
        await self._show(self.window, at_end=self.follow)
        if self.follow:
            self._follow_note = self._following
            self.set_interval(self.interval, self._poll)
        self._update_status()

    def _opening(self, total: int) -> Window:
        """The first page a target opens on; a followed session opens on its last, as
        ``tail -f`` does."""
        return Window.last(total) if self.follow else Window.first(total)

    async def _show(self, window: Window, *, at_end: bool) -> None:
        """Mount the turns of ``window`` (and only those), then scroll to its top or end."""
        conversation = self.query_one("#conversation", VerticalScroll)
        await conversation.remove_children(TurnView)
        self.window = window
        await conversation.mount_all(
            self._turn_views(self.target, window.start, window.stop), before="#later"
        )
        if not self.is_running:  # closing: its screen may be gone
            return
        self._update_notes()
        self._scroll("end" if at_end else "home")

    def _scroll(self, where: Literal["home", "end"]) -> None:
        """Scroll the conversation to its first or last line once what was just mounted is
        laid out. The last wish wins: an end a followed turn asked for, still waiting for the
        layout on a busy machine, is dropped when ``g`` asked for the top since."""
        self._scroll_wish = where
        conversation = self.query_one("#conversation", VerticalScroll)
        conversation.call_after_refresh(self._scroll_now, conversation)

    def _scroll_now(self, conversation: VerticalScroll) -> None:
        """(After a refresh.) The last scroll wished for, if another call did not do it."""
        where, self._scroll_wish = self._scroll_wish, None
        if where == "end":
            conversation.scroll_end(animate=False, immediate=True)
        elif where == "home":
            conversation.scroll_home(animate=False, immediate=True)

    @property
    def _at_end(self) -> bool:
        """Whether the view is at its end, or on its way there (a poll then keeps following)."""
        if self._scroll_wish is not None:
            return self._scroll_wish == "end"
        conversation = self.query_one("#conversation", VerticalScroll)
        return conversation.scroll_y >= conversation.max_scroll_y

    def _update_notes(self) -> None:
        """The lines above and below the page that count the turns not mounted."""
        for name, note in (
            ("#earlier", self.window.earlier_note()),
            ("#later", self.window.later_note()),
        ):
            line = self.query_one(name, Static)
            line.update(RichText(note))
            line.display = bool(note)

    def _turn_views(self, shown: Target, start: int, stop: int) -> list[TurnView]:
        tokens = sum(shown.turn_tokens[:start])
        size = sum(shown.turn_bytes[:start])
        views = []
        for index in range(start, stop):
            tokens += shown.turn_tokens[index]
            size += shown.turn_bytes[index]
            heading = lines.turn_heading(shown, index, (tokens, size))
            views.append(TurnView(shown, index, heading, self.images))
        return views

    def _update_status(self) -> None:
        text = lines.status(self.target, self.position, len(self.models), self._follow_note)
        self.query_one("#status", Static).update(RichText(text))

    # --- actions --------------------------------------------------------------------------

    async def action_switch_target(self, step: int) -> None:
        """Show the next (or previous) target given with ``--model``."""
        if len(self.models) < 2:
            self.notify("one target: give --model again to compare", timeout=3)
            return
        self.position = (self.position + step) % len(self.models)
        window = self.window  # every target groups the same messages: the same turns
        if window.total != len(self.target.turns):
            window = self._opening(len(self.target.turns))
        await self._show(window, at_end=self.follow)
        self._update_status()

    def action_toggle_section(self) -> None:
        """Open or close the section whose title has the focus (``Tab`` moves between them)."""
        node: Any = self.focused
        while node is not None and not isinstance(node, Collapsible):
            node = node.parent
        if node is None:
            self.notify("Tab to a file or a folded section, then o (or Enter) opens it", timeout=3)
            return
        node.collapsed = not node.collapsed

    def action_expand_all(self, expand: bool) -> None:
        for section in self.query(Collapsible):
            section.collapsed = not expand

    def action_page(self, step: int) -> None:
        """Turn the page of the PDF whose section has the focus (or the only one expanded)."""
        view = self._focused_file() or next(
            (f for f in self.query(FileView) if f.is_pdf and not f.collapsed), None
        )
        if view is None or not view.is_pdf:
            self.notify("n/p turn the pages of a PDF: expand one first", timeout=3)
            return
        view.turn_page(step)

    def _focused_file(self) -> FileView | None:
        node: Any = self.focused
        while node is not None and not isinstance(node, FileView):
            node = node.parent
        return node

    def action_keys(self) -> None:
        """Open the list of every key (``?``; the list's own keys close it)."""
        self.push_screen(KeysScreen(rows(self, type(self), Column)))

    def action_light_dark(self) -> None:
        """Switch between Textual's light and dark themes (the colours are the theme's)."""
        self.theme = "textual-dark" if self.theme == "textual-light" else "textual-light"

    async def action_turns(self, step: int) -> None:
        """Show the page of turns before (``[``) or after (``]``) the one shown."""
        window = self.window.earlier() if step < 0 else self.window.later()
        if window == self.window:
            self.notify("no earlier turns" if step < 0 else "no later turns", timeout=2)
            return
        await self._show(window, at_end=step < 0)  # reading back: from the page's end

    async def action_top(self) -> None:
        """The first turn (its page mounted if another is shown)."""
        if self.window.start:
            await self._show(Window.first(self.window.total), at_end=False)
        self._scroll("home")

    async def action_bottom(self) -> None:
        """The last turn (its page mounted if another is shown)."""
        if not self.window.is_last:
            await self._show(Window.last(self.window.total), at_end=True)
        self._scroll("end")

    # --- following ------------------------------------------------------------------------

    def _poll(self) -> None:
        """(The follow timer.) Ask the feed again, unless the last poll's answer has not been
        shown yet: polls never overlap, and their answers reach the screen in order."""
        if self._polling:
            return
        self._polling = True
        self._read_feed(self.position)

    @work(thread=True, group="follow")
    def _read_feed(self, position: int) -> None:
        """(In a thread.) New messages, planned for target ``position``, posted to the app."""
        try:
            messages = self.feed.poll()
            planned = None if messages is None else self._plan(messages, position)
        except ToolwireError as exc:
            self.post_message(Polled(None, position, None, lines.plain(str(exc))))
            return
        self.post_message(Polled(messages, position, planned))

    @on(Polled)
    async def _polled(self, answer: Polled) -> None:
        """Show a poll's answer (in the app's message loop, between two keys)."""
        if not self.is_running:  # closing: its screen may be gone
            return
        try:
            if answer.failure:
                self._follow_failed(answer.failure)
            elif answer.messages is not None and answer.planned is not None:
                await self._grown(answer.messages, answer.position, answer.planned)
            elif self._follow_note != self._following:  # the store answers again
                self._follow_note = self._following
                self._update_status()
        finally:
            self._polling = False

    @property
    def _following(self) -> str:
        return f" · following {lines.plain(self.feed.name)}"

    async def _grown(self, messages: list[Message], position: int, planned: Target) -> None:
        """Mount the turns that changed; the ones already shown stay as they are."""
        old = self.target
        self.messages, self._targets = messages, {position: planned}
        self._follow_note = self._following
        if position != self.position:
            await self._show(self._opening(len(planned.turns)), at_end=True)
            self._update_status()
            return
        same = 0
        while same < min(len(old.turns), len(planned.turns)) and _signature(
            old, same
        ) == _signature(planned, same):
            same += 1
        window = self.window.grown(len(planned.turns))
        conversation = self.query_one("#conversation", VerticalScroll)
        at_end = self._at_end
        await conversation.remove_children(
            [
                v
                for v in conversation.query(TurnView)
                if not window.start <= v.index < min(same, window.stop)
            ]
        )
        self.window = window
        mounted = self._turn_views(planned, max(same, window.start), window.stop)
        await conversation.mount_all(mounted, before="#later")
        if not self.is_running:  # closing: its screen may be gone
            return
        self._update_notes()
        if at_end:
            self._scroll("end")
        self._update_status()

    def _follow_failed(self, why: str) -> None:
        """Say what went wrong (once per cause) and keep polling: a store may come back."""
        note = f" · follow: {why} (retrying)"
        if note != self._follow_note:
            self.notify(why, title="follow", severity="error")
        self._follow_note = note
        self._update_status()


def _signature(shown: Target, index: int) -> tuple[Any, ...]:
    """What a turn shows, to tell a turn a new plan changed from one it left as it was."""
    turn = shown.turns[index]
    sizes = tuple(len(b.parts) for s in turn.steps for b in s.blocks)
    return (turn.first, turn.last, turn.decisions, sizes, shown.turn_tokens[index])
