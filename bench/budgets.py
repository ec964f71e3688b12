"""Request budgets (issue 14): encode time for a ~300 MB agent session per target, and how it
grows with the session's length (it must stay linear). Prints; asserts nothing.

    .venv/bin/python bench/budgets.py [--megabytes 300] [--targets anthropic,groq] [--reps 3]

The session: one tool turn per file, photos (noisy JPEGs, ~3 MB each, one image's bytes with
a changed trailing byte per copy) and 2-page PDFs (~3 MB each, an embedded noisy JPEG), two
photos per PDF. For each target: the first (cold) encode, which fits images and measures
every file, then the median of ``--reps`` warm encodes of the same history at 1/4, 1/2 and
all of its length; ``µs/turn`` should stay flat when growth is linear. Also printed: the
request's size as sent (``Request.wire_bytes``), how many files were kept, and which budget
bound.
"""

from __future__ import annotations

import argparse
import io
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

import toolwire as tw  # noqa: E402
from toolwire.content import ToolCall  # noqa: E402
from toolwire.memo import MEMO  # noqa: E402
from toolwire.messages import Assistant, ToolResult, User  # noqa: E402

MODELS = {
    "anthropic": "anthropic:claude-sonnet-4-5",
    "openai": "openai:gpt-5-mini",
    "openai-chat": "openai-chat:gpt-5-mini",
    "google": "google:gemini-2.5-flash",
    "google-vertex": "google-vertex:gemini-2.5-flash",
    "bedrock": "bedrock:us.anthropic.claude-sonnet-4-5-20250929-v1:0",
    "groq": "groq:meta-llama/llama-4-scout-17b-16e-instruct",
    "mistral": "mistral:mistral-small-latest",
    "cohere": "cohere:command-a-vision-07-2025",
    "ollama": "ollama:llama3.2-vision",
    "xai": "xai:grok-4",
    "openrouter": "openrouter:anthropic/claude-sonnet-4.5",
    "openai-compatible": "openai-compatible:llava",
}


def noisy_jpeg(width: int, height: int) -> bytes:
    from PIL import Image

    channels = [Image.effect_noise((width, height), 60) for _ in range(3)]
    out = io.BytesIO()
    Image.merge("RGB", channels).save(out, "JPEG", quality=92)
    return out.getvalue()


def pdf_with(image: bytes) -> bytes:
    from reportlab.lib.utils import ImageReader
    from reportlab.pdfgen import canvas

    out = io.BytesIO()
    pdf = canvas.Canvas(out)
    pdf.drawImage(ImageReader(io.BytesIO(image)), 72, 72, 400, 300)
    pdf.showPage()
    pdf.drawString(72, 720, "page 2")
    pdf.showPage()
    pdf.save()
    return out.getvalue()


def session(megabytes: int) -> list[Any]:
    photo = noisy_jpeg(2000, 1500)
    pdf = pdf_with(photo)
    messages: list[Any] = [User(content="Go through the files.")]
    total, n = 0, 0
    while total < megabytes * 1_000_000:
        is_pdf = n % 3 == 2
        data = (pdf if is_pdf else photo) + n.to_bytes(4, "big")
        kind = ("application/pdf", "pdf") if is_pdf else ("image/jpeg", "jpg")
        file = tw.File.from_bytes(data, media_type=kind[0], name=f"file-{n}.{kind[1]}")
        messages.append(Assistant(content=[ToolCall(id=f"c{n}", name="read", arguments={})]))
        messages.append(ToolResult.of(f"c{n}", "read", file))
        total, n = total + len(data), n + 1
    return messages


def encode_once(messages: list[Any], model: str) -> tuple[float, tw.Request]:
    start = time.perf_counter()
    request = tw.encode(messages, model, on_unsupported="text")
    return time.perf_counter() - start, request


def run(messages: list[Any], target: str, reps: int) -> None:
    model = MODELS[target]
    MEMO.clear()
    cold, request = encode_once(messages, model)
    bound = ", ".join(f"{k} ({n} left out)" for k, n in request.budgets_bound.items()) or "none"
    kept = sum(d.mode != "text" for d in request.decisions)
    print(
        f"{target:18} cold {cold:6.2f} s  {request.wire_bytes / 1e6:7.1f} MB sent, "
        f"{kept}/{len(request.decisions)} files kept; bound: {bound}"
    )
    turns = (len(messages) - 1) // 2
    for share in (4, 2, 1):
        part = messages[: 1 + 2 * (turns // share)]
        encode_once(part, model)  # warm the memo for this length
        times = [encode_once(part, model)[0] for _ in range(reps)]
        median = statistics.median(times)
        per_turn = median / max(1, turns // share) * 1e6
        print(
            f"{'':18} {turns // share:4d} turns warm {median * 1000:8.1f} ms  {per_turn:7.0f} µs/turn"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--megabytes", type=int, default=300)
    parser.add_argument("--targets", default=",".join(MODELS))
    parser.add_argument("--reps", type=int, default=3)
    args = parser.parse_args()
    start = time.perf_counter()
    messages = session(args.megabytes)
    files = (len(messages) - 1) // 2
    print(
        f"session: {files} files, {args.megabytes} MB ({time.perf_counter() - start:.1f} s to build)"
    )
    for target in args.targets.split(","):
        run(messages, target, args.reps)


if __name__ == "__main__":
    main()
