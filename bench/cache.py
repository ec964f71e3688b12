"""Billed input tokens of a 40-turn multimodal agent session, with and without cache=True.

The session: a system prompt, four tool definitions, a user request, then 40 tool turns;
every result holds a few lines of log text, every third one a screenshot (examples/photo.png)
and every tenth, from the fifth on, a PDF (examples/report.pdf). Each turn the whole history
is encoded with ``encode(..., tools=..., cache=...)`` as an agent loop would, and billed by
``toolwire.cost.PromptCache``, which simulates the provider's cache from the marks the request
carries (a prefix up to a mark an earlier request wrote is a read, the span up to the new
last mark a write, the rest uncached; OpenAI caches a sent prefix by itself) with the
multipliers of capabilities.toml (Anthropic and Bedrock Claude: writes 1.25x, reads 0.1x;
OpenAI gpt-5: reads 0.1x, no write surcharge; gpt-5.6 with explicit breakpoints). Token counts are estimate_tokens' estimates.

    .venv/bin/python bench/cache.py [--turns 40]

With genai-prices installed (``pip install genai-prices``) the input's price in USD is
printed too. Prints figures; asserts nothing. Goal: at least 4x fewer billed input-token
equivalents on Anthropic with cache=True.
"""

from __future__ import annotations

import argparse
import time
from decimal import Decimal
from pathlib import Path
from typing import Any

import toolwire as tw
from toolwire.cost import BilledTokens, PromptCache
from toolwire.readers import read_file_tool

EXAMPLES = Path(__file__).parents[1] / "examples"
MODELS = [
    "anthropic:claude-sonnet-4-5",
    "bedrock:us.anthropic.claude-sonnet-4-5-20250929-v1:0",
    "openai:gpt-5",
    "openai:gpt-5.6",
]
LOG = "\n".join(f"step {i}: checked item {i * 7} of the inventory, status ok" for i in range(12))


def tools() -> list[tw.Tool]:
    def screenshot(window: str) -> str:
        """Take a screenshot of a window."""
        return window

    def search(query: str, limit: int = 10) -> list[str]:
        """Search the inventory."""
        return [query] * limit

    def weather(city: str) -> str:
        """The weather in a city."""
        return city

    return [read_file_tool, *(tw.Tool.from_function(f) for f in (screenshot, search, weather))]


def turn(k: int) -> list[Any]:
    """Tool turn ``k``: the assistant's call and its result."""
    parts: list[Any] = [f"turn {k}\n{LOG}"]
    if k % 3 == 0:
        parts.append(tw.File.from_path(EXAMPLES / "photo.png", name=f"screen{k}.png"))
    if k % 10 == 5:
        parts.append(tw.File.from_path(EXAMPLES / "report.pdf", name=f"report{k}.pdf"))
    call = tw.ToolCall(id=f"call_{k}", name="screenshot", arguments={"window": f"w{k}"})
    return [tw.Assistant([call]), tw.ToolResult.of(f"call_{k}", "screenshot", parts)]


def run(model: str, turns: int, cache: bool) -> tuple[list[BilledTokens], float, int]:
    """Bills per request, seconds spent encoding, the most marks one request carried."""
    defined = tools()
    history: list[Any] = [
        tw.System("You audit the inventory. " * 40),
        tw.User("Audit it: take screenshots and read the reports."),
    ]
    simulator = PromptCache(model)
    bills, spent, most = [], 0.0, 0
    for k in range(turns):
        history += turn(k)
        start = time.perf_counter()
        request = tw.encode(history, model, tools=defined, cache=cache)
        spent += time.perf_counter() - start
        most = max(most, len(request.cache_points))
        bills.append(simulator.send(history, request, tools=defined))
    return bills, spent, most


def price(model: str, bills: list[BilledTokens]) -> str:
    try:
        return f"${sum((b.price(model) for b in bills), Decimal(0)):.4f}"
    except tw.ToolwireError as exc:
        return f"(no price: {str(exc).split(';')[0]})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=40)
    args = parser.parse_args()
    print(f"{args.turns}-turn session; billed input tokens summed over every request\n")
    header = "cache  total tokens   uncached     writes      reads  equivalents  marks  encode"
    for model in MODELS:
        print(model)
        print(f"  {header}  input cost")
        baseline = 0.0
        for cache in (False, True):
            bills, spent, most = run(model, args.turns, cache)
            totals = [sum(getattr(b, f) for b in bills) for f in ("total", "uncached")]
            writes, reads = sum(b.cache_write for b in bills), sum(b.cache_read for b in bills)
            equivalents = sum(b.equivalents for b in bills)
            baseline = baseline or equivalents
            print(
                f"  {str(cache):5} {totals[0]:12,} {totals[1]:10,} {writes:10,} {reads:10,}"
                f" {equivalents:12,.0f} {most:6} {spent:6.2f}s  {price(model, bills)}"
            )
        print(f"  cache=True bills {baseline / equivalents:.1f}x fewer input-token equivalents\n")


if __name__ == "__main__":
    main()
