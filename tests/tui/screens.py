"""What the terminal view puts on screen, for the tests, and the conversations they show."""

from __future__ import annotations

import io
from typing import Any

from rich.console import Console
from textual.app import App
from viewer.conversations import png, tour

from toolwire import Assistant, ToolCall, ToolResult

ANTHROPIC = "anthropic:claude-sonnet-4-5"
#: Groq's Llama 4 takes at most 5 images a request: the oldest of this session are evicted.
GROQ = "groq:meta-llama/llama-4-scout-17b-16e-instruct"


def session() -> list[Any]:
    """The viewer's tour (an image, a 3-page PDF, WAV audio, signed thinking) and then six
    screenshots, more images than Groq takes in one request."""
    messages = tour()
    for index in range(6):
        call = ToolCall(id=f"shot_{index}", name="screenshot", arguments={"n": index})
        shot = png(64, 48, seed=index, name=f"shot-{index}.png")
        messages += [Assistant([call]), ToolResult.of(call.id, call.name, [shot])]
    messages.append(Assistant("Done: six screenshots, no change."))
    return messages


def screen_text(app: App[Any]) -> str:
    """The screen as a terminal shows it, as plain text, one line a row."""
    width, height = app.size
    console = Console(width=width, height=height, file=io.StringIO(), record=True)
    console.print(app.screen._compositor.render_update(full=True))
    return console.export_text()


async def opened(pilot: Any, view: Any) -> None:
    """Open one file's section, wait until its picture and text are in, bring it into view."""
    view.collapsed = False
    for _ in range(200):
        await pilot.pause(0.02)
        await pilot.app.workers.wait_for_complete()
        notes = view.query(".picture-note")
        if view.loaded and not (notes and str(notes.first().render()) == "loading…"):
            break
    await settled(pilot)  # then scroll, from where everything is once laid out
    view.scroll_visible(animate=False, top=True)
    await settled(pilot)


async def settled(pilot: Any) -> None:
    """Wait until the conversation's size and scroll position stop moving: a picture or text
    that arrives from a worker lays the column out again a frame or two later, and the
    scrollbar's thumb follows it."""
    column = pilot.app.query_one("#conversation")
    last = None
    for _ in range(100):
        await pilot.pause(0.02)
        now = (column.virtual_size, column.scroll_y, column.max_scroll_y, column.size)
        if now == last:
            return
        last = now
