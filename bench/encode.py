"""encode() for every target against a floor measured in the same run.

A 40-turn agent conversation (an assistant tool call and its result per turn, a user message
every 10 turns) whose results carry 20 distinct PNGs of ≈200 KB and 5 distinct PDFs. For each
target it prints the median time of one encode — cold (base64 cache emptied first, as on the
first request) and warm (as on every later request of a growing session) — and the floor:
base64-encoding the same file bytes plus ``json.dumps`` of that target's result, which any
encoder has to pay at least once.

    .venv/bin/python bench/encode.py [--repeat 15] [--target anthropic --target bedrock …]

Files a target cannot carry become their text fallback (``on_unsupported="text"``), as the
decisions column shows. Prints figures; asserts nothing about time.
"""

from __future__ import annotations

import argparse
import base64
import importlib.util
import io
import json
import random
import statistics
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

from toolwire.capability import capabilities
from toolwire.content import File, Text, ToolCall
from toolwire.memo import MEMO
from toolwire.messages import Assistant, System, ToolResult, User
from toolwire.request import encode

EXAMPLES = Path(__file__).parents[1] / "examples"

#: One representative model per target (the row of CAPABILITIES.md most agents hit).
MODELS = {
    "anthropic": "anthropic:claude-sonnet-4-5",
    "openai": "openai:gpt-5",
    "openai-chat": "openai-chat:gpt-5-mini",
    "google": "google:gemini-3-pro-preview",
    "google-vertex": "google-vertex:gemini-3-pro",
    "bedrock": "bedrock:us.anthropic.claude-sonnet-4-5-20250929-v1:0",
    "groq": "groq:meta-llama/llama-4-scout-17b-16e-instruct",
    "mistral": "mistral:mistral-large-latest",
    "xai": "xai:grok-4",
    "openrouter": "openrouter:openai/gpt-5",
    "ollama": "ollama:llava:13b",
    "cohere": "cohere:command-a-vision-07-2025",
    "openai-compatible": "openai-compatible:meta-llama/Llama-3.1-8B-Instruct",
}


def images(count: int, side: int = 261) -> list[bytes]:
    """``count`` distinct PNGs of random pixels (incompressible: ≈ side² · 3 bytes each)."""
    from PIL import Image

    out = []
    for seed in range(count):
        pixels = random.Random(seed).randbytes(side * side * 3)
        buffer = io.BytesIO()
        Image.frombytes("RGB", (side, side), pixels).save(buffer, format="PNG")
        out.append(buffer.getvalue())
    return out


def pdfs(count: int) -> list[bytes]:
    """``count`` distinct PDFs: report.pdf with a numbered comment after its last line."""
    report = (EXAMPLES / "report.pdf").read_bytes()
    return [report + f"\n% copy {n}\n".encode() for n in range(count)]


def conversation(pngs: list[bytes], documents: list[bytes], turns: int = 40) -> list[Any]:
    """System, a question, then ``turns`` (tool call, result) pairs; the files spread evenly."""
    files = [File.from_bytes(b, "image/png", name=f"shot-{i}.png") for i, b in enumerate(pngs)]
    files += [File.from_bytes(b, "application/pdf", name=f"doc-{i}.pdf") for i, b in enumerate(documents)]  # fmt: skip
    random.Random(0).shuffle(files)
    slots = dict(zip(random.Random(1).sample(range(turns), len(files)), files, strict=True))
    messages: list[Any] = [System("You are a research agent."), User("Summarise the evidence.")]
    for turn in range(turns):
        call = ToolCall(id=f"call_{turn}", name="fetch", arguments={"item": turn})
        messages.append(Assistant([Text(text=f"Fetching item {turn}."), call]))
        output = ["Here it is:", slots[turn]] if turn in slots else {"item": turn, "rows": 12}
        messages.append(ToolResult.of(call.id, call.name, output))
        if turn % 10 == 9:
            messages.append(User(f"Keep going ({turn + 1} done)."))
    return messages


def timed(run: Callable[[], object]) -> float:
    start = time.perf_counter()
    run()
    return (time.perf_counter() - start) * 1000


def measure(model: str, messages: list[Any], blobs: list[bytes], repeat: int) -> dict[str, Any]:
    """Median ms of a cold encode, a warm encode and the floor, taken in alternation so that
    load on the machine affects all three alike."""

    def once() -> Any:
        return encode(messages, model, on_unsupported="text")

    request = once()
    payload = request.to_json()

    def floor() -> None:
        for blob in blobs:
            base64.b64encode(blob)
        json.dumps(payload)

    times: dict[str, list[float]] = {"cold": [], "warm": [], "floor": []}
    for _ in range(repeat):
        MEMO.base64.clear()
        times["cold"].append(timed(once))
        times["warm"].append(timed(once))
        times["floor"].append(timed(floor))
    modes = Counter(d.mode for d in request.decisions)
    return {
        **{key: statistics.median(values) for key, values in times.items()},
        "modes": " ".join(f"{n} {mode}" for mode, n in sorted(modes.items())),
        "payload_mb": len(json.dumps(payload)) / 1e6,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=15)
    parser.add_argument("--target", action="append", choices=sorted(MODELS))
    args = parser.parse_args()
    pngs, documents = images(20), pdfs(5)
    messages = conversation(pngs, documents)
    blobs = pngs + documents
    print(f"{len(messages)} messages; {len(pngs)} PNGs of ≈{sum(map(len, pngs)) / len(pngs) / 1024:.0f} KB, "
          f"{len(documents)} PDFs; median of {args.repeat} runs\n")  # fmt: skip
    header = f"{'target':<18} {'cold ms':>8} {'warm ms':>8} {'floor ms':>9} {'cold/floor':>10} {'warm/floor':>10} {'MB':>5}  decisions"  # fmt: skip
    print(header)
    for target in args.target or MODELS:
        model = MODELS[target]
        encoder = f"toolwire.providers.{capabilities(model).wire}"
        if importlib.util.find_spec(encoder) is None:
            print(f"{target:<18} (encoder {encoder} not written yet)")
            continue
        r = measure(model, messages, blobs, args.repeat)
        print(f"{target:<18} {r['cold']:>8.1f} {r['warm']:>8.1f} {r['floor']:>9.1f} "
              f"{r['cold'] / r['floor']:>10.2f} {r['warm'] / r['floor']:>10.2f} "
              f"{r['payload_mb']:>5.1f}  {r['modes']}")  # fmt: skip


if __name__ == "__main__":
    main()
