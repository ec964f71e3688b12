"""The layout pinned at 80x24 and 160x48: the screen as text, against the files in
snapshots/. pytest-textual-snapshot's syrupy pins pytest below 9, so the pins are plain text
(what a terminal shows, without colours); after a deliberate change, rewrite them with
``TOOLWIRE_UPDATE_SNAPSHOTS=1`` and read the diff."""

from __future__ import annotations

import os
from pathlib import Path

from toolwire.tui import SessionApp
from toolwire.tui.app import FileView

from .screens import ANTHROPIC, GROQ, opened, screen_text, session

PINS = Path(__file__).parent / "snapshots"


#: The glyphs a scrollbar's thumb ends are drawn with (eighths of a cell).
THUMB = str.maketrans("▁▂▃▄▅▆▇█", "        ")


def without_scrollbar(text: str) -> str:
    """The screen with the scrollbar's two columns blanked: where its thumb ends depends on
    the height of everything below, which settles a frame later than what is on screen."""
    return "\n".join(line[:-2] + line[-2:].translate(THUMB) for line in text.split("\n"))


def pinned(name: str, text: str) -> None:
    text = without_scrollbar(text)
    path = PINS / f"{name}.txt"
    if os.environ.get("TOOLWIRE_UPDATE_SNAPSHOTS") == "1":
        path.write_text(text, encoding="utf-8")
    assert text == path.read_text(encoding="utf-8"), f"{name}: the screen changed"


async def first_screen(size: tuple[int, int]) -> None:
    app = SessionApp.for_messages(session(), [ANTHROPIC, GROQ], images="halfblock")
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        pinned(f"first-{size[0]}x{size[1]}", screen_text(app))


async def image_on_the_second_target(size: tuple[int, int]) -> None:
    app = SessionApp.for_messages(session(), [GROQ, ANTHROPIC], images="halfblock")
    async with app.run_test(size=size) as pilot:
        await pilot.press("t")
        await pilot.pause()
        view = next(v for v in app.query(FileView) if v.file.identifier == "photo.png")
        await opened(pilot, view)
        pinned(f"image-{size[0]}x{size[1]}", screen_text(app))


# (anyio's plugin parametrizes these tests by backend, so sizes are tests of their own)
async def test_the_first_screen_at_80x24() -> None:
    await first_screen((80, 24))


async def test_the_first_screen_at_160x48() -> None:
    await first_screen((160, 48))


async def test_an_image_opened_on_the_second_target_at_80x24() -> None:
    await image_on_the_second_target((80, 24))


async def test_an_image_opened_on_the_second_target_at_160x48() -> None:
    await image_on_the_second_target((160, 48))
