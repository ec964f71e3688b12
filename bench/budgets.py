"""Request budgets (issue 14): encode time for a ~300 MB agent session per target, and how it
grows with the session's length (it must stay linear); and (issue 37) what evicting in steps
saves in billed input tokens over a long screenshot session. Prints; asserts nothing.

    .venv/bin/python bench/budgets.py [--megabytes 300] [--targets anthropic,groq] [--reps 3]
    .venv/bin/python bench/budgets.py --cache [--turns 200]

``--cache``: a plain agent loop of ``--turns`` turns, each a ~2 MB screenshot (noise PNG, as
large as a busy screen), re-encoded every turn with ``cache=True`` on Anthropic and Claude on
Bedrock, billed by ``toolwire.cost.PromptCache`` (which reads a cached prefix only where the
request starts with exactly what was written). Step eviction (``evict_to=0.5``, the default)
against one file at a time (``evict_to=1``): billed input tokens in uncached-token
equivalents over the whole session, and the share of turns whose request reads the whole
prefix the previous request wrote.

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


def screenshots(turns: int) -> list[list[Any]]:
    """The history after each turn of a loop whose tool returns a ~2 MB screenshot."""
    import os

    from PIL import Image

    shots = []
    for seed in range(4):
        pixels = seed.to_bytes(4, "big") + os.urandom(1000 * 700 * 3)
        out = io.BytesIO()
        Image.frombytes("RGB", (1000, 700), pixels[: 1000 * 700 * 3]).save(out, "PNG")
        shots.append(out.getvalue())
    history: list[Any] = [User(content="Use the browser until the form is filled in.")]
    after = []
    for n in range(turns):
        shot = tw.File.from_bytes(shots[n % 4], name=f"screen-{n}.png")
        history.append(Assistant(content=[ToolCall(id=f"c{n}", name="screenshot", arguments={})]))
        history.append(ToolResult.of(f"c{n}", "screenshot", [tw.Text(text=f"step {n}"), shot]))
        after.append(list(history))
    return after


def billed(histories: list[list[Any]], model: str, evict_to: float) -> tuple[float, float, int]:
    """Billed input (uncached-token equivalents) over the session, the share of turns that
    read the whole prefix the turn before wrote, and the turns a budget bound on."""
    from toolwire.cost import PromptCache

    MEMO.clear()
    cache = PromptCache(model)
    total, kept_prefix, turns, bound, written = 0.0, 0, 0, 0, 0
    for history in histories:
        request = tw.encode(history, model, cache=True, evict_to=evict_to)
        tokens = cache.send(history, request)
        total += tokens.equivalents
        bound += bool(request.budgets_bound)
        if written:
            turns += 1
            kept_prefix += tokens.cache_read >= written
        written = tokens.cache_read + tokens.cache_write
    return total, kept_prefix / max(turns, 1), bound


def cache_figures(turns: int) -> None:
    start = time.perf_counter()
    histories = screenshots(turns)
    print(
        f"session: {turns} turns of ~2 MB screenshots ({time.perf_counter() - start:.1f} s to build)"
    )
    models = ("anthropic:claude-sonnet-4-5", "bedrock:us.anthropic.claude-sonnet-4-5-20250929-v1:0")
    for model in models:
        found = {}
        for evict_to in (0.5, 1.0):
            start = time.perf_counter()
            found[evict_to] = billed(histories, model, evict_to)
            total, share, bound = found[evict_to]
            print(
                f"{model:55} evict_to={evict_to}: billed input {total / 1e6:6.2f} M tokens, "
                f"{share:4.0%} of turns read the previous prefix, a budget bound on {bound} "
                f"of {turns} turns ({time.perf_counter() - start:.0f} s)",
                flush=True,
            )
        print(f"{'':55} steps bill {found[1.0][0] / found[0.5][0]:.1f}x fewer input tokens")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--megabytes", type=int, default=300)
    parser.add_argument("--targets", default=",".join(MODELS))
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--cache", action="store_true", help="the step-eviction cache figures")
    parser.add_argument("--turns", type=int, default=200)
    args = parser.parse_args()
    if args.cache:
        cache_figures(args.turns)
        return
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
