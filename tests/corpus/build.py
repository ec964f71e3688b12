"""Rebuild ``replies.json`` from the VCR cassettes of pydantic-ai's model tests.

Usage: ``python tests/corpus/build.py <pydantic-ai checkout> <commit>``. Each recorded
non-streamed reply of Anthropic's Messages API, OpenAI's Responses and Chat Completions APIs,
the Gemini API and OpenAI-compatible chat servers (OpenRouter, Groq, Cerebras, Crusoe, Z.ai)
is kept as its JSON body (nothing else of the cassette), with the file it came from and the
toolwire provider its model goes by. Bodies over ``MAX_BYTES`` (inline images and long documents) are left out so the
corpus stays small on disk; so are duplicates.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import yaml

SOURCE = "https://github.com/pydantic/pydantic-ai"
LICENCE = "MIT (Copyright (c) Pydantic Services Inc. 2024 to present)"
DIRECTORIES = (
    "test_anthropic",
    "test_openai_responses",
    "test_openai",
    "test_google",
    "test_openrouter",
    "test_groq",
    "test_cerebras",
    "test_crusoe",
    "test_zai",
)
#: OpenAI-compatible chat servers: the host, and the toolwire provider its models go by.
CHAT_SERVERS = {
    "openrouter.ai/api/v1/chat/completions": "openrouter",
    "api.groq.com/openai/v1/chat/completions": "groq",
    "api.cerebras.ai/v1/chat/completions": "openai-compatible",
    "api.inference.crusoecloud.com/v1/chat/completions": "openai-compatible",
    "api.z.ai/api/paas/v4/chat/completions": "openai-compatible",
}
MAX_BYTES = 12_000


def wire_of(uri: str) -> tuple[str, str] | None:
    """The toolwire wire and provider a request URI is for (None: not a reply kept here)."""
    if "api.anthropic.com/v1/messages" in uri and "count_tokens" not in uri:
        return "anthropic", "anthropic"
    if "api.openai.com/v1/responses" in uri:
        return "openai_responses", "openai"
    if "api.openai.com/v1/chat/completions" in uri:
        return "openai_chat", "openai-chat"
    if "generativelanguage.googleapis.com" in uri and ":generateContent" in uri:
        return "google", "google"
    server = next((p for host, p in CHAT_SERVERS.items() if host in uri), None)
    return ("openai_chat", server) if server else None


def replies(path: Path) -> list[dict[str, Any]]:
    data = yaml.safe_load(path.read_text())
    found = []
    for interaction in (data or {}).get("interactions") or []:
        request, response = interaction.get("request", {}), interaction.get("response", {})
        target = wire_of(request.get("uri", ""))
        body = response.get("parsed_body")
        status = (response.get("status") or {}).get("code", 200)
        if target is None or not isinstance(body, dict) or status != 200:
            continue
        found.append({"wire": target[0], "provider": target[1], "reply": body})
    return found


def main(root: Path, commit: str) -> None:
    kept: list[dict[str, Any]] = []
    seen: set[str] = set()
    for directory in DIRECTORIES:
        for path in sorted((root / "tests/models/cassettes" / directory).glob("*.yaml")):
            for entry in replies(path):
                text = json.dumps(entry["reply"], sort_keys=True, ensure_ascii=False)
                if len(text.encode()) > MAX_BYTES or text in seen:
                    continue
                seen.add(text)
                kept.append({"file": str(path.relative_to(root)), **entry})
    corpus = {"source": SOURCE, "commit": commit, "licence": LICENCE, "replies": kept}
    out = Path(__file__).with_name("replies.json")
    out.write_text(_lines(corpus))
    print(f"{len(kept)} replies, {out.stat().st_size} bytes")


def _lines(corpus: dict[str, Any]) -> str:
    """The corpus as JSON with one reply a line (small, and diffs read per reply)."""
    head = {key: value for key, value in corpus.items() if key != "replies"}
    lines = [json.dumps(r, ensure_ascii=False, separators=(",", ":")) for r in corpus["replies"]]
    return json.dumps(head)[:-1] + ', "replies": [\n' + ",\n".join(lines) + "\n]}\n"


if __name__ == "__main__":
    main(Path(sys.argv[1]), sys.argv[2])
