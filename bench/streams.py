"""decode_stream over the recorded streams of every wire, against a floor from the same run.

The streams are the recordings in tests/decoders/streams (see SOURCES.md there). For each wire
it prints the median time to accumulate all of its recordings — fed as the JSON events, and
as the raw body in 1 KiB byte chunks — per event, beside the floor: ``json.loads`` of every
event's data, which any consumer of the stream pays.

    .venv/bin/python bench/streams.py [--repeat 15]

Prints figures; asserts nothing about time.
"""

from __future__ import annotations

import argparse
import json
import sys
from functools import partial
from pathlib import Path

from _timing import timed

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "src"), str(ROOT / "tests" / "decoders")]

from stream_corpus import MODELS, STREAMS, recorded, replies, sse_body  # noqa: E402

import toolwire as tw  # noqa: E402


def streams(wire: str) -> list[list[object]]:
    """Every recorded reply of ``wire`` that decodes (the error recordings left out)."""
    found: list[list[object]] = []
    for path in sorted((STREAMS / wire).glob("*.jsonl")):
        events = recorded(wire, path.name.removesuffix(".jsonl"))
        for reply in replies(events) if wire == "openai_responses" else [events]:
            try:
                tw.decode_stream(reply, MODELS[wire])
            except tw.DecodeError:
                continue
            found.append(reply)
    return found


def decode_all(streams: list[list[object]], model: str) -> None:
    for stream in streams:
        tw.decode_stream(stream, model)


def parse_all(texts: list[str]) -> None:
    for text in texts:
        json.loads(text)


def row(wire: str, repeat: int) -> str:
    """The wire's figures: events, µs per event as dicts, as raw chunks, and the floor."""
    found = streams(wire)
    count = sum(len(reply) for reply in found)
    texts = [json.dumps(event) for reply in found for event in reply]
    dicts = timed(partial(decode_all, found, MODELS[wire]), repeat)
    floor = timed(partial(parse_all, texts), repeat)
    raw = "—"
    if wire != "bedrock":  # its body is binary event-stream, not SSE
        bodies = [sse_body(wire, reply) for reply in found]
        chunked = [[b[i : i + 1024] for i in range(0, len(b), 1024)] for b in bodies]
        raw = f"{timed(partial(decode_all, chunked, MODELS[wire]), repeat) / count * 1e6:.1f}"
    return f"{wire:<18}{count:>8}{dicts / count * 1e6:>13.1f}{raw:>11}{floor / count * 1e6:>13.1f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=15)
    repeat = parser.parse_args().repeat
    print(f"{'wire':<18}{'events':>8}{'dicts µs/ev':>13}{'raw µs/ev':>11}{'floor µs/ev':>13}")
    for wire in sorted(p.name for p in STREAMS.iterdir() if p.is_dir()):
        print(row(wire, repeat))


if __name__ == "__main__":
    main()
