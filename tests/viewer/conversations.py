"""Conversations the view tests render: hostile tool outputs, every layout, a long session."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

from PIL import Image, ImageDraw

from toolwire import Assistant, File, Json, System, Text, Thinking, ToolCall, ToolResult, User

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"

#: Markup a tool output may carry; if any of it ran, window.pwned would be set.
SCRIPT = "<script>window.pwned = 1; alert('pwned')</script>"
STYLE_BREAK = "</style><script>window.pwned = 2</script><style>"
JS_URL = "javascript:window.pwned=3"
LINK = f'<a href="{JS_URL}">click me</a>'
EVIL_NAME = '"><img src=x onerror="window.pwned=4">'
HOSTILE = f"{SCRIPT} {STYLE_BREAK} {LINK} {JS_URL}"


def example(name: str) -> File:
    return File.from_path(EXAMPLES / name)


def png(width: int, height: int, seed: int = 0, name: str | None = None) -> File:
    """A real PNG with a gradient and a label, so thumbnails have something to show."""
    image = Image.new("RGB", (width, height), (30 + seed * 37 % 200, 90, 160))
    draw = ImageDraw.Draw(image)
    for x in range(0, width, max(width // 12, 1)):
        draw.line([(x, 0), (width - x, height)], fill=(240, 200 - seed * 13 % 150, 60), width=3)
    out = io.BytesIO()
    image.save(out, "PNG")
    return File.from_bytes(out.getvalue(), name=name or f"chart-{seed}.png")


def hostile() -> list[Any]:
    """Every place conversation text reaches the page, filled with markup and script URLs."""
    call = ToolCall(id='call"><b>1', name="fetch<script>", arguments={"url": JS_URL, "x": SCRIPT})
    files = [
        HOSTILE,
        png(64, 48, name=EVIL_NAME),
        File.from_bytes(HOSTILE.encode(), "text/plain", name=f"{EVIL_NAME}.txt"),
        File.from_url(f"{JS_URL}//x.png", media_type="image/png", name=f"{EVIL_NAME}url"),
        Json(value={"html": HOSTILE, SCRIPT: JS_URL}),
    ]
    return [
        System(HOSTILE),
        User([HOSTILE, png(32, 32, name=EVIL_NAME + "user")]),
        Assistant([Thinking(text=HOSTILE, provider=SCRIPT), Text(text=HOSTILE), call]),
        ToolResult.of(call.id, call.name, files),
        User(HOSTILE),
        Assistant(HOSTILE),
    ]


def tour() -> list[Any]:
    """A short agent session with an image, a PDF, audio, thinking and a follow-up question."""
    call = ToolCall(
        id="call_1", name="read_files", arguments={"paths": ["photo.png", "report.pdf"]}
    )
    more = ToolCall(id="call_2", name="read_files", arguments={"paths": ["tone.wav"]})
    return [
        System("You are a careful analyst. Cite the files you used."),
        User("Summarise the quarterly report and check the photo of the site."),
        Assistant(
            [
                Thinking(
                    text="Read both files first, then compare.",
                    signature="c2lnLTE=",
                    provider="anthropic",
                ),
                call,
            ]
        ),
        ToolResult.of(call.id, call.name, [example("photo.png"), example("report.pdf")]),
        Assistant([Text(text="And the voice memo?"), more]),
        ToolResult.of(more.id, more.name, ["Recorded on site:", example("tone.wav")]),
        User("Is the memo consistent with the report?"),
        Assistant("Yes: the memo confirms the hiring freeze the report describes."),
    ]


def long_session(turns: int = 200, images: int = 100) -> list[Any]:
    """``turns`` assistant/tool turns after one question; every other result holds an image."""
    messages: list[Any] = [User("Watch the dashboard and tell me when it changes.")]
    for index in range(turns):
        call = ToolCall(id=f"c{index}", name="screenshot", arguments={"n": index})
        messages.append(Assistant([Text(text=f"Step {index}."), call]))
        if index % (turns // images) == 0:
            value: Any = [f"frame {index}", png(1200, 800, seed=index)]
        else:
            value = {"status": "unchanged", "step": index}
        messages.append(ToolResult.of(call.id, call.name, value))
    messages.append(Assistant("It never changed."))
    return messages
