"""A stored or imported session is data from elsewhere: its text cannot drive the terminal
(escape sequences show as escapes) nor style the screen (rich markup shows as written)."""

from __future__ import annotations

import pytest
from viewer.conversations import png

from toolwire import Assistant, Thinking, ToolCall, ToolResult, User
from toolwire.tui import SessionApp
from toolwire.tui.lines import plain

from .screens import ANTHROPIC, screen_text

pytestmark = pytest.mark.anyio  # the async tests run on asyncio (anyio_backend)

TITLE = "\x1b]0;pwned\x07"  # would retitle the terminal
CLEAR = "\x1b[2J"  # would clear it
MARKUP = "[bold red]not markup[/]"


def test_plain_shows_controls_as_escapes() -> None:
    assert plain(f"a{TITLE}b{CLEAR}\u202ec\td\n") == "a\\x1b]0;pwned\\x07b\\x1b[2J\\u202ec\td\n"


async def test_controls_and_markup_from_the_conversation_show_as_written() -> None:
    call = ToolCall(id=f"c{MARKUP}", name=f"tool{CLEAR}", arguments={"x": TITLE})
    messages = [
        User(f"{TITLE}{MARKUP}{CLEAR}"),
        Assistant([Thinking(text=MARKUP, signature="c2ln", provider="anthropic"), call]),
        ToolResult.of(call.id, call.name, [MARKUP, png(16, 16, name=f"{MARKUP}{CLEAR}.png")]),
    ]
    app = SessionApp.for_messages(messages, [ANTHROPIC], images="off")
    async with app.run_test(size=(160, 48)) as pilot:
        await pilot.press("e")
        await pilot.pause()
        text = screen_text(app)
    assert "\\x1b]0;pwned\\x07[bold red]not markup[/]\\x1b[2J" in text
    assert f"[Image: {MARKUP}\\x1b[2J.png, 16x16," in text
    assert "\x1b" not in text
    assert text.count(MARKUP) >= 4  # the user's text, the thinking, the result, the file
