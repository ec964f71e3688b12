"""The layout pinned at 80x24 and 160x48 (pytest-textual-snapshot): each screen as an SVG
under __snapshots__/, compared whole, colours and all. The screens are fixed: a set size and
theme, half blocks for pictures (no graphics protocol), no clock on screen. After a
deliberate change, look at the report a failure writes (snapshot_report.html), then rewrite
the pins with ``pytest tests/tui/test_snapshots.py --snapshot-update`` and read the diff."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from toolwire.tui import SessionApp
from toolwire.tui.app import FileView

from .screens import ANTHROPIC, GROQ, opened, session

SIZES = [(80, 24), (160, 48)]
Compare = Callable[..., bool]


def shown(models: list[str], theme: str = "textual-dark", **options: Any) -> SessionApp:
    app = SessionApp.for_messages(session(), models, images="halfblock", **options)
    app.theme = theme
    return app


@pytest.mark.parametrize("size", SIZES, ids=["80x24", "160x48"])
def test_the_first_screen(snap_compare: Compare, size: tuple[int, int]) -> None:
    assert snap_compare(shown([ANTHROPIC, GROQ]), terminal_size=size)


@pytest.mark.parametrize("size", SIZES, ids=["80x24", "160x48"])
def test_a_pdf_opened_on_the_second_target(snap_compare: Compare, size: tuple[int, int]) -> None:
    """Its detail, its first page in half blocks (few colours: a small pin) and its text."""

    async def open_the_pdf(pilot: Any) -> None:
        await pilot.press("t")
        await pilot.pause()
        view = next(v for v in pilot.app.query(FileView) if v.file.identifier == "report.pdf")
        await opened(pilot, view)

    app = shown([GROQ, ANTHROPIC])
    assert snap_compare(app, terminal_size=size, run_before=open_the_pdf)


def test_the_light_theme_at_80x24(snap_compare: Compare) -> None:
    assert snap_compare(shown([ANTHROPIC], theme="textual-light"), terminal_size=(80, 24))


def test_the_end_of_a_session_at_80x24(snap_compare: Compare) -> None:
    """The last turns (G), evicted images as text, the status bar with its budget bound."""
    assert snap_compare(shown([GROQ]), terminal_size=(80, 24), press=["G"])


def test_the_keys_at_80x24(snap_compare: Compare) -> None:
    """The ? panel over the first screen: every key, with Textual's own, and how to close it."""
    assert snap_compare(shown([ANTHROPIC, GROQ]), terminal_size=(80, 24), press=["question_mark"])
