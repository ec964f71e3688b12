"""What 40 real MCP tools add to a request, with the prepared tools kept (``MEMO.tools``) and
without, in the same run.

The tools: the first 40 distinct tool names of the conformance corpus
(tests/tools/corpus/mcp_tools.json, real ``tools/list`` entries of MCP servers). The
conversation: one user message, so what is timed is the tools' part of a request. For each
target it prints the median time of one ``encode`` without tools, with the tools as every
later request of an agent's session meets them (kept: prepared once per tool content and
schema rules), and with the kept tools forgotten before each run (what every request paid
before they were kept); runs alternate so both see the same machine load. *ratio* is
forgotten / kept: how much faster a request with tools is with them kept.

    PYTHONPATH=src .venv/bin/python bench/tools.py [--repeat 41] [--tools 40]

Prints figures; asserts nothing about time.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import toolwire as tw
from toolwire.memo import MEMO

sys.path.insert(0, str(Path(__file__).parent))
from _timing import alternating, timed  # noqa: E402

CORPUS = Path(__file__).parents[1] / "tests" / "tools" / "corpus" / "mcp_tools.json"
#: One model per family of tool-schema rules and wire.
MODELS = {
    "anthropic": "anthropic:claude-sonnet-4-5",
    "openai (Responses)": "openai:gpt-5",
    "openai-chat": "openai-chat:gpt-5-mini",
    "google": "google:gemini-3-pro-preview",
    "bedrock (Claude)": "bedrock:us.anthropic.claude-sonnet-4-5-20250929-v1:0",
    "bedrock (Nova)": "bedrock:us.amazon.nova-pro-v1:0",
    "mistral": "mistral:mistral-large-latest",
    "ollama": "ollama:qwen3-vl",
}


def corpus_tools(count: int) -> list[tw.Tool]:
    """The first ``count`` distinct tools of the corpus."""
    listed, seen = [], set()
    for entry in json.loads(CORPUS.read_text("utf-8"))["tools"]:
        if isinstance(entry["inputSchema"], dict) and entry["name"] not in seen:
            seen.add(entry["name"])
            listed.append(entry)
    return tw.tools_from_mcp({"tools": listed[:count]})


def forget() -> None:
    """Forget the prepared tools and their spelled fragments."""
    MEMO.tools.clear()
    MEMO.tool_fragments.clear()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=41)
    parser.add_argument("--tools", type=int, default=40)
    args = parser.parse_args()
    tools = corpus_tools(args.tools)
    messages = [tw.User("Find the open issues about the login page.")]
    print(f"{len(tools)} corpus tools, median of {args.repeat} runs, ms per encode\n")
    print("| target | no tools | tools kept | tools forgotten | forgotten / kept |")
    print("|---|---:|---:|---:|---:|")
    for label, model in MODELS.items():
        bare = timed(lambda model=model: tw.encode(messages, model), args.repeat)
        kept, forgotten = alternating(
            lambda model=model: tw.encode(messages, model, tools=tools),
            lambda model=model: tw.encode(messages, model, tools=tools),
            args.repeat,
            setups=(lambda: None, forget),
        )
        print(
            f"| {label} | {bare * 1e3:.2f} | {kept * 1e3:.2f} | {forgotten * 1e3:.2f} "
            f"| {forgotten / kept:.1f}x |"
        )


if __name__ == "__main__":
    main()
