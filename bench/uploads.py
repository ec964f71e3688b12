"""Bytes sent over a 40-turn agent session with and without ``Uploads`` (issue 15).

The session: a user question; turn 1's tool returns a 3 MB PDF, turn 2's a ~1 MB screenshot
(noisy PNG, so it does not compress away), every later turn a short JSON result — 40 tool
turns in all. Each turn the whole history is encoded again, as an agent loop does.

Without Uploads, a turn sends the JSON of ``encode(history).to_json()`` (files as base64).
With Uploads, a turn sends what ``uploads.sync`` uploads (the file bytes, once) plus the JSON
of ``encode(uploads.resolve(history))``. Uploads go through the official SDK clients to the
local Files API stand-ins of the test suite (tests/uploads/servers.py, 127.0.0.1 only), which
record the bytes that arrive. Targets: Anthropic, OpenAI Responses, Gemini 2.5.

Run: .venv/bin/python bench/uploads.py [--turns N]
The goal is at least 10x fewer bytes over the session; figures are printed, never asserted.
"""

from __future__ import annotations

import argparse
import io
import json
import random
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import toolwire as tw  # noqa: E402
from tests.uploads.conftest import client_for  # noqa: E402
from tests.uploads.servers import files_server  # noqa: E402

TARGETS = {
    "anthropic:claude-sonnet-4-5": "anthropic",
    "openai:gpt-5": "openai",
    "google:gemini-2.5-flash": "google",
}


def media() -> list[tw.File]:
    """A 3 MB PDF and a ~1 MB PNG, both incompressible."""
    from PIL import Image

    rng = random.Random(15)
    pdf = b"%PDF-1.7\n" + rng.randbytes(3_000_000) + b"\n%%EOF\n"
    image = Image.frombytes("RGB", (600, 600), rng.randbytes(600 * 600 * 3))
    out = io.BytesIO()
    image.save(out, "PNG")
    return [
        tw.File.from_bytes(pdf, name="report.pdf"),
        tw.File.from_bytes(out.getvalue(), name="screen.png"),
    ]


def session(turns: int) -> list[list[Any]]:
    """The history as it stands after each tool turn."""
    files = media()
    history: list[Any] = [tw.User("Summarise the report and check the dashboard.")]
    states = []
    for n in range(turns):
        call = tw.ToolCall(id=f"toolu_{n:03d}", name="step", arguments={"n": n})
        value = files[n] if n < len(files) else {"step": n, "status": "ok"}
        history = [*history, tw.Assistant([call]), tw.ToolResult.of(call.id, "step", value)]
        states.append(history)
    return states


def request_bytes(messages: list[Any], model: str) -> int:
    return len(json.dumps(tw.encode(messages, model).to_json()))


def measure(model: str, flavour: str, states: list[list[Any]]) -> tuple[int, int, int]:
    """(bytes without Uploads, request bytes with, upload bytes with)."""
    without = sum(request_bytes(h, model) for h in states)
    with files_server(flavour) as (url, state):
        client = client_for(flavour, url)
        uploads = tw.Uploads()
        requests = 0
        for history in states:
            uploads.sync(history, model, client)
            requests += request_bytes(uploads.resolve(history, model), model)
        uploaded = sum(u.size for u in state.uploads)
    return without, requests, uploaded


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=40)
    args = parser.parse_args()
    states = session(args.turns)
    mb = 1_000_000
    print(f"{args.turns}-turn session, 4 MB of media in turns 1-2, whole history encoded each turn")
    print(f"{'target':32} {'without':>10} {'with: uploads + requests':>28} {'fewer':>7}")
    for model, flavour in TARGETS.items():
        without, requests, uploaded = measure(model, flavour, states)
        total = requests + uploaded
        print(
            f"{model:32} {without / mb:8.1f} MB {uploaded / mb:10.2f} MB + {requests / mb:6.2f} MB"
            f" = {total / mb:5.2f} MB {without / total:6.1f}x"
        )


if __name__ == "__main__":
    main()
