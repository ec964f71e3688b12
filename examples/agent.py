"""An agent loop with toolwire: read_file and an MCP server's tools, on any provider's own SDK.

    python examples/agent.py --model anthropic:claude-sonnet-4-6
    python examples/agent.py --model google:gemini-3-pro-preview "What is in photo.png?"
    python examples/agent.py --model ollama:qwen3-vl --attach examples/photo.png "Describe it."

Each turn the neutral history and the tools are encoded for the target (``encode(...,
tools=..., cache=True)`` spells the tool definitions in its dialect too, and places the
provider's prompt-cache marks so each turn re-reads the growing history from the cache),
sent with the provider's official SDK, and the reply decoded back (``decode``). The tools are ``read_file_tool`` and
the MCP server's own (``tools_from_mcp``); calls run locally (``read_file``, confined to
``--root``) or on the MCP server (``from_mcp`` turns its result into a ToolResult). Images,
PDFs and structured content travel in whatever form the target accepts, and every file's
route is printed as a Decision line.

The key comes from the environment (ANTHROPIC_API_KEY, OPENAI_API_KEY, GEMINI_API_KEY, AWS
credentials, …; see _agent_providers.py). Without it the agent runs up to the first model call,
prints what it would send, and exits with status 2: no request is sent without a key.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import shlex
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from _agent_providers import PROVIDERS, Provider
from mcp import ClientSession, StdioServerParameters, stdio_client

import toolwire as tw
from toolwire.capability import capabilities
from toolwire.decoders import decode
from toolwire.mcp import from_mcp
from toolwire.readers import read_file_tool
from toolwire.request import encode

EXAMPLES = Path(__file__).resolve().parent
PROMPT = (
    "Read report.pdf and photo.png, take a screenshot and check the weather in Oslo, "
    "then summarise what you found."
)
SYSTEM = "You are a helpful assistant. Use the tools; read_file paths are relative to its root."
NO_CREDENTIALS = 2  # exit status when the provider's key (or local server) is missing
USAGE = 2  # exit status for a bad --attach file or --mcp command, as for any usage error
MCP_START_SECONDS = 30  # how long the MCP server may take to answer its initialize request


class StartError(Exception):
    """The agent cannot start: an --attach file or the --mcp server is unusable."""


def main(argv: list[str] | None = None) -> int:
    """Parse the command line and run the agent; the exit status."""
    args = _parser().parse_args(argv)
    try:
        caps = capabilities(args.model)
    except tw.ToolwireError as exc:
        print(exc, file=sys.stderr)
        return 1
    provider = PROVIDERS.get(caps.provider)
    if provider is None:
        print(f"{caps.provider} has no entry in examples/_agent_providers.py", file=sys.stderr)
        return 1
    try:
        first = _first_message(args.prompt, args.attach)
        return asyncio.run(run(args, provider, caps.model, first))
    except StartError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return USAGE


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("prompt", nargs="?", default=PROMPT, help="what to ask the model")
    parser.add_argument("--model", required=True, help="provider:model-id, e.g. openai:gpt-5")
    parser.add_argument("--root", default=str(EXAMPLES), help="the directory read_file may read")
    parser.add_argument(
        "--mcp",
        default=shlex.join([sys.executable, str(EXAMPLES / "mcp_server.py")]),
        help="the MCP server command, run over stdio (default: python examples/mcp_server.py)",
    )
    parser.add_argument("--attach", action="append", default=[], help="a file for the prompt")
    parser.add_argument("--max-turns", type=int, default=8, help="model calls at most")
    return parser


# --8<-- [start:loop]
async def run(args: argparse.Namespace, provider: Provider, model_id: str, first: tw.User) -> int:
    """The loop: encode, call, decode, run the tool calls, until the model stops calling tools."""
    reader = read_file_tool.bind(args.root)
    async with mcp_session(args.mcp) as session:
        tools = [reader, *tw.tools_from_mcp(await session.list_tools())]
        history: list[Any] = [tw.System(SYSTEM), first]
        client, shown = None, 0
        for turn in range(1, args.max_turns + 1):
            request = encode(history, args.model, on_unsupported="text", tools=tools, cache=True)
            _summarise(turn, request, tools, len(history), since=shown)
            shown = len(history)
            client = client or _connect(provider)
            if client is None:
                return NO_CREDENTIALS
            kwargs = request.kwargs  # messages and tool definitions, in the provider's shape
            try:
                response = await asyncio.to_thread(provider.call, client, model_id, kwargs)
            except Exception as exc:  # the SDK's own error: a bad key, a rate limit, a 400
                print(f"The model call failed: {type(exc).__name__}: {exc}")
                return 1
            reply = decode(response, args.model)
            history.append(reply)
            _show(reply)
            if not reply.tool_calls:
                return 0
            for call in reply.tool_calls:
                history.append(await _run_tool(call, reader, session))
    print(f"Stopped after {args.max_turns} model calls (--max-turns): the model still calls tools.")
    return 1


# --8<-- [end:loop]


def _connect(provider: Provider) -> Any:
    """The SDK client, or None after saying why there is none (no key, no local server)."""
    missing = provider.missing()
    if missing:
        print(missing)
        return None
    return provider.connect()


@asynccontextmanager
async def mcp_session(command: str) -> AsyncIterator[ClientSession]:
    """An initialised MCP client session with the server ``command`` started over stdio.

    A command that cannot run, exits at once or does not answer in MCP_START_SECONDS is a
    StartError; errors after the session started pass through unchanged.
    """
    try:
        program, *arguments = shlex.split(command)
    except ValueError as exc:  # an unclosed quote, or nothing at all
        why = exc if command.strip() else "it is empty"
        raise StartError(f"--mcp {command!r} is not a command ({why})") from exc
    params = StdioServerParameters(command=program, args=arguments)
    started = False
    try:
        async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
            await asyncio.wait_for(session.initialize(), MCP_START_SECONDS)
            started = True
            yield session
    except Exception as exc:
        if started:
            raise
        raise StartError(f"--mcp {command!r} did not start an MCP server ({_cause(exc)})") from exc


def _cause(exc: BaseException) -> str:
    """The innermost error of an exception group (anyio wraps the server's failure in one)."""
    while isinstance(exc, BaseExceptionGroup) and exc.exceptions:
        exc = exc.exceptions[0]
    if isinstance(exc, TimeoutError):
        return f"no answer to initialize within {MCP_START_SECONDS} s"
    return f"{type(exc).__name__}: {exc}"


def _first_message(prompt: str, attachments: list[str]) -> tw.User:
    """The prompt and the --attach files; a file toolwire cannot read is a StartError."""
    files = []
    for path in attachments:
        try:
            files.append(tw.File.from_path(path))
        except tw.ToolwireError as exc:
            raise StartError(f"--attach: {exc}") from exc
    return tw.User([tw.Text(text=prompt), *files])


async def _run_tool(call: tw.ToolCall, reader: Any, session: ClientSession) -> tw.ToolResult:
    """Run one tool call; a failure becomes an error result for the model, not a crash."""
    print(f"  call {call.name}({json.dumps(call.arguments)})")
    if call.invalid_arguments is not None:
        output: Any = tw.ErrorTextOutput(
            value=f"The arguments are not a JSON object: {call.invalid_arguments!r}. Send an object."
        )
        result = tw.ToolResult(call_id=call.id, name=call.name, output=output)
    elif call.name == reader.name:
        result = tw.ToolResult(call_id=call.id, name=call.name, output=reader(**call.arguments))
    else:
        result = await _call_mcp(call, session)
    print(f"    -> {_describe(result.output)}")
    return result


async def _call_mcp(call: tw.ToolCall, session: ClientSession) -> tw.ToolResult:
    try:
        answer = await session.call_tool(call.name, call.arguments)
        return from_mcp(answer, call_id=call.id, name=call.name)
    except Exception as exc:  # an MCP error or a result toolwire refuses: tell the model
        return tw.ToolResult.of(call.id, call.name, exc)


def _summarise(turn: int, request: Any, tools: list[tw.Tool], messages: int, since: int) -> None:
    """One line for the request, then one per Decision on a file of the messages since ``since``."""
    names = ", ".join(t.name for t in tools)
    print(f"turn {turn}: {request.model}, {messages} messages, tools offered: {names}")
    if request.cache_points:
        print(f"  cache points: {'; '.join(str(p) for p in request.cache_points)}")
    for d in request.decisions:
        if d.message_index >= since:
            print(
                f"  decision: {d.identifier} ({d.media_type}, message {d.message_index}) "
                f"-> {d.mode}: {d.reason}"
            )


def _show(reply: tw.Assistant) -> None:
    for part in reply.content:
        if isinstance(part, tw.Text) and part.text.strip():
            print(f"assistant: {part.text.strip()}")


def _describe(output: Any) -> str:
    """A tool output in a few words: its type and, for content, each part."""
    if isinstance(output, tw.ContentOutput):
        parts = [
            f"{p.identifier} ({p.media_type})" if isinstance(p, tw.File) else type(p).__name__
            for p in output.value
        ]
        return "content: " + ", ".join(parts)
    value = getattr(output, "value", getattr(output, "reason", None))
    text = value if isinstance(value, str) else json.dumps(value)
    return f"{output.type}: {text[:100]}"


if __name__ == "__main__":
    sys.exit(main())
