"""estimate_tokens over a 200-message conversation with 100 images, from headers only.

The conversation: a system prompt, a user message with one image, then 99 tool calls whose
results each return one image (PNG screenshots of 1920x1080, 2880x1800 and 4000x3000
pixels, and EXIF-rotated JPEGs; every image distinct). The images are written with zlib, not
Pillow, so the run can show that estimating imports no Pillow at all. The baseline, measured
in the same run, is what a naive estimator pays just to learn the sizes: decoding each image
with Pillow. Also timed: ``fit`` to half the estimate.

    .venv/bin/python bench/tokens.py [--repeat 5]

If an offline tokenizer is importable (``bpe_openai``), the text approximation's error is
measured against o200k_base on the repository's text files too. Prints figures; asserts only
that no image was decoded.
"""

from __future__ import annotations

import argparse
import io
import struct
import sys
import zlib
from pathlib import Path
from typing import Any

from _timing import timed

import toolwire as tw

ROOT = Path(__file__).parents[1]
MODELS = [
    "anthropic:claude-sonnet-4-5",
    "openai:gpt-4o",
    "openai:gpt-5-mini",
    "google:gemini-2.5-flash",
    "google:gemini-3-pro-preview",
    "bedrock:us.anthropic.claude-sonnet-4-5-20250929-v1:0",
]


def chunk(kind: bytes, payload: bytes) -> bytes:
    return (
        struct.pack(">I", len(payload))
        + kind
        + payload
        + struct.pack(">I", zlib.crc32(kind + payload))
    )


def png(width: int, height: int) -> bytes:
    """A real RGB PNG (a diagonal gradient), written with zlib only."""
    rows = b"".join(
        b"\x00" + bytes((x + y) % 256 for x in range(width)) * 3 for y in range(0, height)
    )
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", ihdr)
        + chunk(b"IDAT", zlib.compress(rows, 1))
        + chunk(b"IEND", b"")
    )


def variant(image: bytes, n: int) -> bytes:
    """The same image made distinct: a tEXt chunk (PNG) or a COM segment (JPEG)."""
    if image.startswith(b"\x89PNG"):
        return image[:-12] + chunk(b"tEXt", f"shot\x00{n}".encode()) + image[-12:]
    comment = f"shot {n}".encode()
    return image[:2] + b"\xff\xfe" + struct.pack(">H", len(comment) + 2) + comment + image[2:]


def conversation() -> list[Any]:
    bases = [
        png(1920, 1080),
        png(2880, 1800),
        png(4000, 3000),
        (ROOT / "examples" / "rotated.jpg").read_bytes(),
    ]
    images = [tw.File.from_bytes(variant(bases[n % 4], n), name=f"shot-{n}") for n in range(100)]
    messages: list[Any] = [
        tw.System("You operate a browser."),
        tw.User(["Book a flight.", images[0]]),
    ]
    for n, image in enumerate(images[1:], start=1):
        call = tw.ToolCall(id=f"call_{n}", name="screenshot", arguments={"step": n})
        messages += [
            tw.Assistant([call]),
            tw.ToolResult.of(call.id, "screenshot", [image, f"step {n}"]),
        ]
    return messages


def text_error() -> None:
    try:
        import bpe_openai
    except ImportError:
        print("text approximation: no offline tokenizer (bpe_openai) importable; skipped")
        return
    from toolwire.tokens import estimate_text

    encoding = bpe_openai.get_encoding("o200k_base")
    paths = [
        *ROOT.glob("*.md"),
        *ROOT.glob("examples/*.md"),
        *ROOT.glob("examples/*.csv"),
        ROOT / "src/toolwire/plan.py",
        ROOT / "src/toolwire/capabilities.toml",
    ]
    print("text approximation vs o200k_base:")
    for path in paths:
        text = path.read_text("utf-8")
        real, approx = len(encoding.encode(text)), estimate_text(text)
        print(
            f"  {path.relative_to(ROOT)!s:40} {real:7,} real {approx:7,} est {approx / real - 1:+6.1%}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    messages = conversation()
    print(
        f"{len(messages)} messages, 100 images ({sum(len(f.read()) for f in _files(messages)) / 1e6:.1f} MB)"
    )
    for model in MODELS:
        estimate = tw.estimate_tokens(messages, model)
        seconds = timed(lambda model=model: tw.estimate_tokens(messages, model), args.repeat)
        print(f"  estimate_tokens {model:55} {seconds * 1000:7.1f} ms  total {estimate.total:9,}")
    decoded = "PIL" in sys.modules
    print(f"Pillow imported while estimating: {'yes' if decoded else 'no'}")
    assert not decoded, "estimate_tokens must read image headers only"
    half = tw.estimate_tokens(messages, MODELS[0]).total // 2
    seconds = timed(lambda: tw.fit(messages, MODELS[0], half), args.repeat)
    # fit measures the request's bytes as encode sends them: images beyond the target's
    # limits are fitted (decoded and resized once; the next encode reuses them).
    print(f"  fit to half ({half:,} tokens) for {MODELS[0]}: {seconds * 1000:.1f} ms")
    ours = timed(lambda: tw.estimate_tokens(messages, MODELS[0]), args.repeat)
    baseline = timed(lambda: _decode_all(messages), max(1, args.repeat // 2))
    print(
        f"baseline: decoding the 100 images with Pillow {baseline * 1000:.1f} ms; "
        f"estimate_tokens takes {ours / baseline:.1%} of that ({baseline / ours:.0f}x faster)"
    )
    text_error()


def _files(messages: list[Any]) -> list[Any]:
    found = []
    for m in messages:
        parts = (
            m.parts if isinstance(m, tw.User) else getattr(getattr(m, "output", None), "value", [])
        )
        found += [p for p in parts if isinstance(p, tw.File)]
    return found


def _decode_all(messages: list[Any]) -> None:
    from PIL import Image

    for file in _files(messages):
        with Image.open(io.BytesIO(file.read())) as image:
            image.load()


if __name__ == "__main__":
    main()
