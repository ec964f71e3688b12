"""The media and conversations of bench/peers.py, described once and independent of any library.

A conversation is a list of *turns*; a turn is the messages an agent appends before it encodes
the history again (a user message, or an assistant tool call and its results). Every library's
input is built from this one description by bench/_peers_libs.py, so all three encode the same
thing. Media are synthetic but realistic (noisy gradients saved as JPEG, image-only PDFs) and
deterministic: a fixed seed per file, so every run measures the same bytes.
"""

from __future__ import annotations

import io
import json
import random
from dataclasses import dataclass, field

#: One tool for every conversation, so the libraries that send tool definitions send the same.
TOOL = {
    "name": "screenshot",
    "description": "Capture the screen (or one document) and return what is on it.",
    "parameters": {"type": "object", "properties": {"target": {"type": "string"}}},
}


@dataclass(frozen=True)
class Blob:
    """One file: its bytes, media type and name (every library gets the name as identifier)."""

    data: bytes
    media_type: str
    name: str


@dataclass(frozen=True)
class Msg:
    """One message: role system | user | assistant | tool.

    user: ``text`` + ``files``; assistant: ``text`` + ``calls`` (id, name, arguments);
    tool: answers ``call_id`` with ``text`` + ``files``.
    """

    role: str
    text: str = ""
    files: tuple[Blob, ...] = ()
    calls: tuple[tuple[str, str, dict[str, str]], ...] = ()
    call_id: str = ""


@dataclass
class Conversation:
    """Turns of messages; ``messages`` is the whole history."""

    label: str
    turns: list[list[Msg]] = field(default_factory=list)

    @property
    def messages(self) -> list[Msg]:
        return [m for turn in self.turns for m in turn]

    @property
    def media_bytes(self) -> int:
        return sum(len(f.data) for m in self.messages for f in m.files)

    @property
    def files(self) -> list[Blob]:
        return [f for m in self.messages for f in m.files]


# --- media ---------------------------------------------------------------------------------


def photo(
    width: int,
    height: int,
    seed: int,
    grain: int = 80,
    quality: int = 90,
    coarse: int = 2,
    camera: bool = False,
) -> bytes:
    """A photo-like JPEG: colour gradients with film grain (grain 80 at 12 MP ≈ 3.5 MB);
    ``coarse`` is the grain size in pixels; ``camera`` adds the EXIF block a phone writes
    (make, model, orientation 1, date)."""
    from PIL import Image, ImageChops

    rnd = random.Random(seed)
    grad = Image.linear_gradient("L").resize((width, height))
    radial = Image.radial_gradient("L").resize((width, height))
    half = (max(1, width // coarse), max(1, height // coarse))
    noise = Image.frombytes("L", half, rnd.randbytes(half[0] * half[1]))
    noise = noise.resize((width, height), Image.Resampling.BILINEAR)
    noise = noise.point(lambda v: v * grain // 255)
    shift = rnd.randrange(256)
    channels = [
        ImageChops.add(grad, noise),
        ImageChops.add(radial, noise),
        ImageChops.add(grad.rotate(180).point(lambda v: (v + shift) % 256), noise),
    ]
    image = Image.merge("RGB", channels)
    exif = image.getexif()
    if camera:  # 0x010F Make, 0x0110 Model, 0x0112 Orientation, 0x0132 DateTime
        exif.update(
            {0x010F: "Phone", 0x0110: "Camera 12MP", 0x0112: 1, 0x0132: "2026:01:15 09:30:00"}
        )
    buffer = io.BytesIO()
    image.save(buffer, "JPEG", quality=quality, exif=exif)
    return buffer.getvalue()


def scanned_pdf(seed: int, pages: int = 2) -> bytes:
    """An image-only PDF (a scanned document): ``pages`` grainy pages, JPEG inside."""
    from PIL import Image

    images = [
        Image.open(io.BytesIO(photo(850, 1100, seed * 100 + p, grain=60, quality=75)))
        for p in range(pages)
    ]
    buffer = io.BytesIO()
    images[0].save(buffer, "PDF", save_all=True, append_images=images[1:], resolution=100.0)
    return buffer.getvalue()


# --- conversations --------------------------------------------------------------------------

SYSTEM = "You are a careful assistant. Use the screenshot tool when you need to see something."
_WORDS = [
    "the",
    "report",
    "shows",
    "quarterly",
    "figures",
    "for",
    "each",
    "region",
    "and",
    "the",
    "totals",
    "differ",
    "from",
    "last",
    "year",
    "because",
    "two",
    "accounts",
    "moved",
    "between",
    "teams",
    "while",
    "the",
    "forecast",
    "assumed",
    "they",
    "would",
    "not",
]


def prose(seed: int, words: int = 80) -> str:
    """Deterministic filler text of about ``words`` words."""
    rnd = random.Random(seed)
    return " ".join(rnd.choice(_WORDS) for _ in range(words)).capitalize() + "."


def text_only(turns: int = 10) -> Conversation:
    """(a) ``turns`` exchanges of text (user, assistant) and a last question."""
    conv = Conversation(f"(a) {turns} text turns")
    for t in range(turns):
        turn = [Msg("user", prose(2 * t)), Msg("assistant", prose(2 * t + 1, 120))]
        conv.turns.append([Msg("system", SYSTEM), *turn] if t == 0 else turn)
    conv.turns.append([Msg("user", "Summarise what we found in two sentences.")])
    return conv


def agent_session(turns: int = 40, images: int = 20, pdfs: int = 5) -> Conversation:
    """(b) ``turns`` agent turns: ``pdfs`` user messages with a PDF, tool turns otherwise,
    ``images`` of them returning a 640x480 JPEG (≈ 200 KB), the rest JSON."""
    conv = Conversation(f"(b) {turns} turns, {images} images, {pdfs} PDFs")
    user_turns = {round(i * turns / pdfs) for i in range(pdfs)}
    tool_turns = [t for t in range(turns) if t not in user_turns]
    image_turns = set(tool_turns[:: max(1, len(tool_turns) // images)][:images])
    image_turns |= set(tool_turns[1::2][: images - len(image_turns)])
    for t in range(turns):
        if t in user_turns:
            pdf = Blob(scanned_pdf(t), "application/pdf", f"scan-{t}.pdf")
            turn = [Msg("user", prose(t, 30), files=(pdf,))]
            if t == 0:
                turn.insert(0, Msg("system", SYSTEM))
            conv.turns.append(turn)
            continue
        call = (f"call_{t}", TOOL["name"], {"target": f"window {t}"})
        files: tuple[Blob, ...] = ()
        text = json.dumps({"window": t, "title": f"Window {t}", "status": "ok"})
        if t in image_turns:
            files = (
                Blob(
                    photo(640, 480, 1000 + t, grain=100, quality=94, coarse=1),
                    "image/jpeg",
                    f"shot-{t}.jpg",
                ),
            )
            text = f"Screenshot of window {t}."
        conv.turns.append(
            [
                Msg("assistant", prose(t, 25), calls=(call,)),
                Msg("tool", text, files=files, call_id=call[0]),
            ]
        )
    return conv


def parallel_tools(results: int = 8) -> Conversation:
    """(c) one tool turn: ``results`` parallel calls, each returning a ≈ 1 MB JPEG of
    1024x768 — within every target's limits (OpenAI tile models keep a 768-px short side,
    Anthropic ~1.15 MP), so no library resizes and all send the same bytes."""
    conv = Conversation(f"(c) {results} parallel results of 1 MB images")
    calls = tuple((f"call_{i}", TOOL["name"], {"target": f"monitor {i}"}) for i in range(results))
    conv.turns.append([Msg("system", SYSTEM), Msg("user", "Take a screenshot of every monitor.")])
    answers = [
        Msg(
            "tool",
            f"Monitor {i}.",
            files=(
                Blob(
                    photo(1024, 768, 2000 + i, grain=200, quality=98, coarse=1),
                    "image/jpeg",
                    f"monitor-{i}.jpg",
                ),
            ),
            call_id=call[0],
        )
        for i, call in enumerate(calls)
    ]
    conv.turns.append([Msg("assistant", "Capturing all monitors.", calls=calls), *answers])
    return conv


def twelve_megapixel(photos: int = 4) -> Conversation:
    """A tool returning ``photos`` 12-megapixel (4000x3000) JPEG photos, ≈ 3.5 MB each."""
    conv = Conversation(f"{photos} x 12-MP JPEG photos in one tool result")
    call = ("call_photos", TOOL["name"], {"target": "camera roll"})
    files = tuple(
        Blob(photo(4000, 3000, 3000 + i, camera=True), "image/jpeg", f"IMG_{4100 + i}.jpg")
        for i in range(photos)
    )
    conv.turns.append([Msg("system", SYSTEM), Msg("user", "What is in my last four photos?")])
    conv.turns.append(
        [
            Msg("assistant", "Looking at them.", calls=(call,)),
            Msg("tool", "The last four photos.", files=files, call_id=call[0]),
        ]
    )
    return conv
