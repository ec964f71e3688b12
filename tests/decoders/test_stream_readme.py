"""The streamed agent loop of the docs (docs/streams.md) runs as written: against the anthropic SDK whose HTTP
client serves two recorded streams (a tool call, then the answer)."""

from __future__ import annotations

import re
from pathlib import Path

import toolwire as tw

from .stream_corpus import recorded, sse_body

STREAMS_PAGE = Path(__file__).resolve().parents[2] / "docs" / "streams.md"


def streamed_loop() -> str:
    section = STREAMS_PAGE.read_text("utf-8").split("# Streaming: the same reply, as it arrives")[1]
    return re.search(r"```python\n(.*?)```", section, re.S)[1]


def test_the_docs_streamed_loop_runs_and_replays_the_tool_turn(capsys):
    import anthropic
    import httpx2

    bodies = [
        sse_body("anthropic", recorded("anthropic", name))
        for name in ("anthropic-json-tool.2", "anthropic-text")
    ]
    sent = []

    def answer(request):
        sent.append(request)
        headers = {"content-type": "text/event-stream"}
        return httpx2.Response(200, headers=headers, content=bodies[len(sent) - 1])

    transport = httpx2.Client(transport=httpx2.MockTransport(answer))
    client = anthropic.Anthropic(api_key="k", http_client=transport, max_retries=0)
    history = [tw.User("Report the weather as JSON.")]
    names = {
        "tw": tw,
        "client": client,
        "model": "anthropic:claude-sonnet-4-6",
        "history": history,
        "TOOLS": [],
        "run_tool": lambda name, arguments: f"{name} done",
    }
    exec(compile(streamed_loop(), "docs/streams.md", "exec"), names)  # noqa: S102 - the page's code
    assert len(sent) == 2
    assert [type(m).__name__ for m in history] == ["User", "Assistant", "ToolResult", "Assistant"]
    printed = capsys.readouterr().out
    assert "I'll invoke the JSON response tool." in printed
    assert "[json({'elements':" in printed
    assert b'"tool_use_id":"toolu_01' in sent[1].content  # the call went back with its result
