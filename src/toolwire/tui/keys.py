"""The ``?`` panel: every key of the terminal view and what it does.

Its rows are made from the bindings themselves, so they cannot drift from the keys: the app's
``BINDINGS`` (a row for each group of the footer), the conversation column's (``j``/``k``),
then the keys Textual's own widgets answer (scrolling, ``Tab`` between sections, ``Enter`` on
one), each looked up in that widget's ``BINDINGS``: a key Textual stopped binding fails here,
not silently in the panel.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, ClassVar

from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.content import Content
from textual.screen import ModalScreen, Screen
from textual.widgets import Static
from textual.widgets._collapsible import CollapsibleTitle

#: Keys Textual's widgets answer in this view, in our words: the widget class that binds them
#: (the conversation column is a VerticalScroll, each section's title a CollapsibleTitle).
TEXTUAL_KEYS: tuple[tuple[type[Any], tuple[str, ...], str], ...] = (
    (VerticalScroll, ("up", "down"), "scroll a line"),
    (VerticalScroll, ("pageup", "pagedown"), "scroll a screen"),
    (VerticalScroll, ("home", "end"), "top or end of the turns shown"),
    (Screen, ("tab", "shift+tab"), "next or previous section (a file, a fold)"),
    (CollapsibleTitle, ("enter",), "open or close that section (as o)"),
)


def bindings(owner: type[Any]) -> list[Binding]:
    """``owner.BINDINGS`` as Binding objects (Textual also takes tuples there)."""
    found: Iterable[BindingType] = owner.BINDINGS
    return [b if isinstance(b, Binding) else Binding(*b) for b in found]


def rows(app: App[Any], *owners: type[Any]) -> list[tuple[str, str]]:
    """(keys, what they do) for the bindings of each of ``owners`` (the bindings of a footer
    group on one row), then for ``TEXTUAL_KEYS``."""
    found: list[tuple[str, str]] = []
    for owner in owners:
        group: Binding.Group | None = None
        for binding in bindings(owner):
            key, words = app.get_key_display(binding), binding.tooltip or binding.description
            if group is not None and binding.group == group:
                keys, before = found[-1]
                found[-1] = (f"{keys} {key}", f"{before} · {words}")
            else:
                found.append((key, words))
            group = binding.group
    for widget, bound, said in TEXTUAL_KEYS:
        shown = [app.get_key_display(_bound(widget, key)) for key in bound]
        found.append((" ".join(shown), said))
    return found


def _bound(owner: type[Any], key: str) -> Binding:
    """The binding of ``key`` in ``owner``'s class hierarchy; LookupError if none."""
    for cls in owner.__mro__:
        for binding in bindings(cls) if "BINDINGS" in vars(cls) else []:
            if key in binding.key.split(","):
                return binding
    raise LookupError(f"{owner.__name__} binds no {key!r}: the ? panel would list a dead key")


class KeysScreen(ModalScreen[None]):
    """The list of keys over the conversation; ``?`` or ``esc`` closes it, ``q`` quits. Being
    modal, it takes every other key: a target switched behind it would go unseen."""

    DEFAULT_CSS = """
    KeysScreen { align: center middle; }
    KeysScreen > #keys {
        width: auto; max-width: 100%; height: auto; max-height: 100%;
        border: round $primary; background: $panel; padding: 0 1;
    }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("q", "app.quit", "Quit"),
        Binding("question_mark", "dismiss", "close", group=Binding.Group("Close")),
        Binding("escape", "dismiss", "close", group=Binding.Group("Close")),
    ]

    def __init__(self, listed: list[tuple[str, str]]) -> None:
        super().__init__()
        self.listed = listed

    def compose(self) -> ComposeResult:
        width = max(len(keys) for keys, _ in self.listed) + 3
        lines: list[str | tuple[str, str]] = []
        for keys, words in self.listed:
            lines += ["\n"] if lines else []
            lines += [(keys.ljust(width), "bold $accent"), words]
        panel = Static(Content.assemble(*lines), id="keys")
        panel.border_title, panel.border_subtitle = "Keys", "? or esc closes"
        yield panel
