"""Pictures through each way of drawing them: Kitty's graphics protocol, Sixel, half blocks,
and none. Each is forced (``images=``), a thumbnail opened, and what the app writes to the
terminal read back: the protocol's escape sequences, made from the read worker's RGB samples
(the host decodes no image file)."""

from __future__ import annotations

import io
from typing import Any

import pytest
from PIL import Image
from rich.console import Console

from toolwire.tui import SessionApp, widgets
from toolwire.tui.app import FileView, PictureView
from toolwire.tui.halfblocks import HalfBlocks

from .screens import ANTHROPIC, opened, screen_text, session

pytestmark = pytest.mark.anyio  # the async tests run on asyncio (anyio_backend)

#: Kitty's graphics protocol: an APC command (ESC _ G … ESC \\); Unicode placeholders
#: (U+10EEEE) mark the cells the image covers (textual-image's TGP renderable).
KITTY_COMMAND, KITTY_PLACEHOLDER = "\x1b_G", chr(0x10EEEE)
#: Sixel: a DCS string (ESC P … q, the raster size "1;1;width;height, … ESC \\).
SIXEL_START, STRING_END = "\x1bP0;0;0q", "\x1b\\"


def terminal_output(app: SessionApp) -> str:
    """What the app writes to a terminal for its whole screen, escape sequences and all."""
    width, height = app.size
    out = io.StringIO()
    console = Console(
        file=out, force_terminal=True, color_system="truecolor", width=width, height=height
    )
    console.print(app.screen._compositor.render_update(full=True))
    return out.getvalue()


@pytest.fixture
def host_decodes_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    """Image.open refuses in this process: only the read worker may decode a file."""

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("the host decoded an image")

    monkeypatch.setattr(Image, "open", refuse)


async def open_photo(pilot: Any) -> Any:
    view = next(v for v in pilot.app.query(FileView) if v.file.identifier == "photo.png")
    await opened(pilot, view)
    await pilot.pause(0.1)
    return view


async def test_kitty_sends_the_thumbnail_and_marks_its_cells(
    monkeypatch: pytest.MonkeyPatch, host_decodes_nothing: None
) -> None:
    sent = io.StringIO()  # textual-image sends the image itself straight to the terminal
    monkeypatch.setattr("sys.__stdout__", sent)
    app = SessionApp.for_messages(session(), [ANTHROPIC], images="kitty")
    async with app.run_test(size=(120, 40)) as pilot:
        view = await open_photo(pilot)
        picture = view.query_one(PictureView).query_one(".picture")
        assert isinstance(picture, widgets.PROTOCOLS["kitty"])
        assert (picture.image.mode, picture.image.size) == ("RGB", (320, 240))  # the samples
        shown = terminal_output(app)
    commands = sent.getvalue()
    assert commands.startswith(KITTY_COMMAND) and commands.endswith(STRING_END)
    assert "f=100" in commands  # the samples, sent as PNG
    assert ",U=1," in commands  # a virtual placement, drawn where the placeholders are
    assert KITTY_PLACEHOLDER in shown
    assert SIXEL_START not in shown


async def test_sixel_draws_the_thumbnail_in_the_screen_output(host_decodes_nothing: None) -> None:
    app = SessionApp.for_messages(session(), [ANTHROPIC], images="sixel")
    async with app.run_test(size=(120, 40)) as pilot:
        view = await open_photo(pilot)
        picture = view.query_one(PictureView).query_one(".picture")
        assert isinstance(picture, widgets.PROTOCOLS["sixel"])
        shown = terminal_output(app)
    start = shown.index(SIXEL_START)
    sixels = shown[start : shown.index(STRING_END, start) + 2]
    assert sixels.startswith(f'{SIXEL_START}"1;1;')  # its raster size follows
    assert "#" in sixels and len(sixels) > 1000  # colour registers, pixel rows
    assert KITTY_PLACEHOLDER not in shown


async def test_half_blocks_draw_in_any_terminal(host_decodes_nothing: None) -> None:
    app = SessionApp.for_messages(session(), [ANTHROPIC], images="halfblock")
    async with app.run_test(size=(120, 40)) as pilot:
        view = await open_photo(pilot)
        assert view.query_one(PictureView).query(HalfBlocks)
        shown = terminal_output(app)
    assert "▀" in shown and "\x1b[38;2;" in shown  # upper pixel as a truecolor foreground
    assert SIXEL_START not in shown and KITTY_PLACEHOLDER not in shown


async def test_no_images_shows_the_text_preview_only(host_decodes_nothing: None) -> None:
    app = SessionApp.for_messages(session(), [ANTHROPIC], images="off")
    async with app.run_test(size=(120, 40)) as pilot:
        view = await open_photo(pilot)
        assert not view.query(".picture")
        text = screen_text(app)
        shown = terminal_output(app)
    assert "[Image: photo.png, 640x480, 245 KB]" in text
    assert "images off (--no-images)" in text
    assert "▀" not in shown and SIXEL_START not in shown and KITTY_PLACEHOLDER not in shown


def test_auto_draws_with_the_protocol_the_terminal_speaks(monkeypatch: pytest.MonkeyPatch) -> None:
    from toolwire.tui.pixels import Pixels

    found = Pixels(2, 1, bytes(6))
    for spoken in ("kitty", "sixel"):
        monkeypatch.setattr(widgets, "DETECTED", spoken)
        assert isinstance(widgets._terminal_image(found, "auto"), widgets.PROTOCOLS[spoken])
    monkeypatch.setattr(widgets, "DETECTED", None)  # a terminal without one (or a test)
    assert isinstance(widgets._terminal_image(found, "auto"), HalfBlocks)
