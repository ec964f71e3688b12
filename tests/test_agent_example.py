"""examples/agent.py: for every provider, without credentials, it starts the MCP server, encodes
the first request and stops right before the model call; with a local OpenAI-compatible server
it runs the whole loop (tool calls on read_file and on the MCP server, results sent back)."""

from __future__ import annotations

import asyncio
import dataclasses
import importlib
import json
import os
import re
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

import toolwire as tw
from toolwire.capability import providers
from toolwire.request import encode

pytest.importorskip("mcp", reason="the mcp extra is not installed")

from tools.helpers import validate  # noqa: E402  (tests/tools: strict SDK checks, tools included)

REPO = Path(__file__).parents[1]
AGENT = REPO / "examples" / "agent.py"
sys.path.insert(0, str(AGENT.parent))  # the example and its provider table, imported below
agent = importlib.import_module("agent")
agent_providers = importlib.import_module("_agent_providers")
MODELS = {
    "anthropic": "anthropic:claude-sonnet-4-5",
    "openai": "openai:gpt-5",
    "openai-chat": "openai-chat:gpt-5-mini",
    "google": "google:gemini-3-pro-preview",
    "google-vertex": "google-vertex:gemini-2.5-flash",
    "bedrock": "bedrock:amazon.nova-pro-v1:0",
    "groq": "groq:meta-llama/llama-4-scout-17b-16e-instruct",
    "mistral": "mistral:mistral-large-latest",
    "xai": "xai:grok-4",
    "openrouter": "openrouter:openai/gpt-5",
    "ollama": "ollama:qwen3-vl",
    "cohere": "cohere:command-a-vision",
    "openai-compatible": "openai-compatible:qwen",
}
# What the stop line must name: the missing key, or the local server that is not there.
MISSING = {
    "anthropic": "No ANTHROPIC_API_KEY in the environment",
    "openai": "No OPENAI_API_KEY in the environment",
    "openai-chat": "No OPENAI_API_KEY in the environment",
    "google": "No GEMINI_API_KEY or GOOGLE_API_KEY in the environment",
    "google-vertex": "No GOOGLE_CLOUD_PROJECT in the environment",
    "bedrock": "No AWS credentials found by boto3",
    "groq": "No GROQ_API_KEY in the environment",
    "mistral": "No MISTRAL_API_KEY in the environment",
    "xai": "No XAI_API_KEY in the environment",
    "openrouter": "No OPENROUTER_API_KEY in the environment",
    "ollama": "No server at http://127.0.0.1:{port} (Connection refused)",
    "cohere": "No COHERE_API_KEY or CO_API_KEY in the environment",
    "openai-compatible": "No server at http://127.0.0.1:{port}/v1 (Connection refused)",
}
STOP = "stopping before the first model call"


def _clean_env(home: Path, **extra: str) -> dict[str, str]:
    """No keys, no AWS files or instance metadata, no proxies: only what Python needs."""
    return {
        "PATH": os.environ.get("PATH", ""),
        "HOME": str(home),
        "PYTHONUTF8": "1",
        "AWS_CONFIG_FILE": str(home / "no-aws-config"),
        "AWS_SHARED_CREDENTIALS_FILE": str(home / "no-aws-credentials"),
        "AWS_EC2_METADATA_DISABLED": "true",
        **extra,
    }


def _agent(model: str, env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, str(AGENT), "--model", model, *args]
    return subprocess.run(
        command, env=env, cwd=REPO, capture_output=True, text=True, timeout=120, check=False
    )


@pytest.fixture(scope="module")
def closed_port() -> Iterator[int]:
    """A localhost port bound but not listening: connecting to it is refused at once."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        yield sock.getsockname()[1]


@pytest.fixture(scope="module")
def runs(tmp_path_factory, closed_port) -> dict[str, subprocess.CompletedProcess[str]]:
    """One agent run per provider, all at once, with photo.png attached to the prompt."""
    env = _clean_env(
        tmp_path_factory.mktemp("home"),
        OLLAMA_HOST=f"http://127.0.0.1:{closed_port}",
        OPENAI_COMPATIBLE_BASE_URL=f"http://127.0.0.1:{closed_port}/v1",
    )
    with ThreadPoolExecutor(max_workers=len(MODELS)) as pool:
        futures = {
            provider: pool.submit(_agent, model, env, "--attach", "examples/photo.png")
            for provider, model in MODELS.items()
        }
        return {provider: future.result() for provider, future in futures.items()}


def test_every_provider_in_the_capability_table_has_a_run_here() -> None:
    assert sorted(MODELS) == providers()


@pytest.mark.parametrize("provider", sorted(MODELS))
@pytest.mark.slow
def test_without_credentials_the_agent_stops_before_the_first_model_call(
    runs, closed_port, provider
) -> None:
    run = runs[provider]
    output = run.stdout
    assert run.returncode == 2, output + run.stderr
    stop_line = output.splitlines()[-1]
    assert stop_line.startswith(MISSING[provider].format(port=closed_port)), output
    assert STOP in stop_line
    assert f"turn 1: {MODELS[provider]}, 2 messages" in output
    assert "tools offered: read_file, screenshot, weather" in output  # listed by the MCP server
    if provider == "anthropic":  # encode(..., cache=True): the marks it placed
        assert "cache points: after the tools; after the system prompt" in output
    if provider == "bedrock":  # Nova takes no checkpoint after the tools
        assert "cache points: after the system prompt" in output
    assert re.search(r"decision: photo\.png \(image/png, message 1\) -> (native|text): ", output)
    assert not re.search(r"^(assistant:|  call )", output, re.MULTILINE)


@pytest.mark.parametrize(
    ("args", "line"),
    [
        (["--attach", "examples/nope.png"], "error: --attach: examples/nope.png: no such file"),
        (
            ["--mcp", "nonexistent-binary --stdio"],
            "error: --mcp 'nonexistent-binary --stdio' did not start an MCP server "
            "(FileNotFoundError: [Errno 2] No such file or directory: 'nonexistent-binary')",
        ),
        (
            ["--mcp", f"{sys.executable} -c pass"],  # starts, then exits at once
            f"error: --mcp '{sys.executable} -c pass' did not start an MCP server "
            "(MCPError: Connection closed)",
        ),
        (
            ["--mcp", '"unclosed'],
            "error: --mcp '\"unclosed' is not a command (No closing quotation)",
        ),
        (["--mcp", " "], "error: --mcp ' ' is not a command (it is empty)"),
    ],
)
def test_a_bad_attach_file_or_mcp_command_is_one_error_line_and_status_2(tmp_path, args, line):
    run = _agent(MODELS["anthropic"], _clean_env(tmp_path), *args)
    assert (run.returncode, run.stdout, run.stderr) == (2, "", line + "\n")


# --- the tool definitions, against each SDK's strict request types -----------------------------


async def _listed_tools() -> list[tw.Tool]:
    async with agent.mcp_session(agent._parser().get_default("mcp")) as session:
        return tw.tools_from_mcp(await session.list_tools())


@pytest.fixture(scope="module")
def tools() -> list[tw.Tool]:
    """read_file and the example MCP server's tools, as the agent offers them."""
    return [tw.read_file_tool.bind(REPO / "examples"), *asyncio.run(_listed_tools())]


@pytest.mark.parametrize("provider", sorted(MODELS))
def test_the_agents_first_request_with_its_tools_fits_the_providers_sdk_types(
    provider, tools
) -> None:
    model = MODELS[provider]
    request = encode([tw.System(agent.SYSTEM), tw.User("hi")], model, tools=tools)
    validate(request.kwargs, model)
    assert [t.name for t in tools] == ["read_file", "screenshot", "weather"]


def test_the_provider_table_holds_only_what_the_client_needs() -> None:
    fields = {f.name for f in dataclasses.fields(agent_providers.Provider)}
    assert fields == {"missing", "connect", "call"}


# --- the whole loop, against a local OpenAI-compatible server ---------------------------------

CALLS = [
    ("call-1", "read_file", {"path": "notes.md"}),
    ("call-2", "weather", {"city": "Oslo"}),
    ("call-3", "screenshot", {}),
]


def _completion(message: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": "chatcmpl-1",
        "object": "chat.completion",
        "created": 0,
        "model": "qwen",
        "choices": [{"index": 0, "message": message, "finish_reason": "stop"}],
    }


class _Server(BaseHTTPRequestHandler):
    """Chat Completions as a vLLM server answers it: tool calls first, then a final text."""

    requests: list[dict[str, Any]] = []

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        self.requests.append(body)
        if len(self.requests) == 1:
            calls = [
                {"id": i, "type": "function", "function": {"name": n, "arguments": json.dumps(a)}}
                for i, n, a in CALLS
            ]
            reply = _completion({"role": "assistant", "content": None, "tool_calls": calls})
        else:
            reply = _completion({"role": "assistant", "content": "Oslo is cloudy."})
        data = json.dumps(reply).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.fixture
def server() -> Iterator[tuple[str, list[dict[str, Any]]]]:
    handler = type("Handler", (_Server,), {"requests": []})
    with ThreadingHTTPServer(("127.0.0.1", 0), handler) as httpd:
        thread = threading.Thread(target=httpd.serve_forever, daemon=True)
        thread.start()
        yield f"http://127.0.0.1:{httpd.server_port}/v1", handler.requests
        httpd.shutdown()


def test_the_loop_runs_local_and_mcp_tools_and_sends_their_results_back(server, tmp_path) -> None:
    url, requests = server
    env = _clean_env(tmp_path, OPENAI_COMPATIBLE_BASE_URL=url)
    run = _agent("openai-compatible:qwen3-vl", env, "What is the weather in Oslo?")
    assert run.returncode == 0, run.stdout + run.stderr
    assert "assistant: Oslo is cloudy." in run.stdout
    first, second = requests
    assert [t["function"]["name"] for t in first["tools"]] == ["read_file", "screenshot", "weather"]
    tool_messages = [m for m in second["messages"] if m["role"] == "tool"]
    assert [m["tool_call_id"] for m in tool_messages] == ["call-1", "call-2", "call-3"]
    notes = (REPO / "examples" / "notes.md").read_text(encoding="utf-8").splitlines()[0]
    assert notes in json.dumps(tool_messages[0]["content"])
    weather = json.loads(_text(tool_messages[1]["content"]))
    assert weather["city"] == "Oslo" and set(weather) == {"city", "celsius", "sky"}
    # openai-compatible takes no image in a tool message: the screenshot follows as a user message.
    last = second["messages"][-1]
    assert last["role"] == "user"
    assert any(p.get("type") == "image_url" for p in last["content"]), last


def _text(content: str | list[dict[str, Any]]) -> str:
    return content if isinstance(content, str) else "".join(p["text"] for p in content)
