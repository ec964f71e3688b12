"""Fixtures: Files API stand-ins on 127.0.0.1, official SDK clients pointed at them, and
conversations whose files are big enough to upload."""

from __future__ import annotations

import io
import os
from collections.abc import Iterator
from typing import Any

import pytest

import toolwire as tw

from .servers import State, files_server

ANTHROPIC = "anthropic:claude-sonnet-4-5"
OPENAI = "openai:gpt-5"
GEMINI = "google:gemini-2.5-flash"
GEMINI_3 = "google:gemini-3-pro-preview"
XAI = "xai:grok-4"
MISTRAL = "mistral:mistral-medium-latest"
#: model -> the stand-in flavour that speaks its Files API
FLAVOURS = {
    ANTHROPIC: "anthropic",
    OPENAI: "openai",
    GEMINI: "google",
    XAI: "xai",
    MISTRAL: "mistral",
}


def pdf(size: int = 200_000, seed: int = 0, name: str | None = None) -> tw.File:
    """A PDF-looking file of ``size`` bytes whose content depends on ``seed``."""
    body = seed.to_bytes(4, "big") + os.urandom(size)
    return tw.File.from_bytes(b"%PDF-1.7\n" + body + b"\n%%EOF\n", name=name or f"doc{seed}.pdf")


def png(edge: int = 400, seed: int = 0) -> tw.File:
    """A noisy PNG (incompressible) of ``edge`` x ``edge`` pixels."""
    from PIL import Image

    image = Image.frombytes("RGB", (edge, edge), os.urandom(edge * edge * 3))
    out = io.BytesIO()
    image.save(out, "PNG")
    return tw.File.from_bytes(out.getvalue(), name=f"shot{seed}.png")


def history(*files: tw.File) -> list[Any]:
    """A user question, then one tool call and result per file."""
    messages: list[Any] = [tw.User("What do these show?")]
    for i, file in enumerate(files):
        call = tw.ToolCall(id=f"toolu_{i:02d}", name="fetch", arguments={"n": i})
        messages += [tw.Assistant([call]), tw.ToolResult.of(f"toolu_{i:02d}", "fetch", file)]
    return messages


def client_for(flavour: str, url: str, *, key: str = "sk-test", asynchronous: bool = False) -> Any:
    """The official SDK client of ``flavour`` pointed at ``url`` (no retries: failures show)."""
    if flavour == "anthropic":
        import anthropic

        cls = anthropic.AsyncAnthropic if asynchronous else anthropic.Anthropic
        return cls(api_key=key, base_url=url, max_retries=0)
    if flavour in ("openai", "xai"):
        import openai

        cls = openai.AsyncOpenAI if asynchronous else openai.OpenAI
        return cls(api_key=key, base_url=url + "/v1", max_retries=0)
    if flavour == "google":
        from google import genai

        client = genai.Client(api_key=key, http_options={"base_url": url})
        return client.aio if asynchronous else client
    from mistralai.client import Mistral

    return Mistral(api_key=key, server_url=url)


@pytest.fixture
def serve() -> Iterator[Any]:
    """``serve(flavour)`` -> (client, state); every server is stopped after the test and must
    have seen no request that breaks its API's rules."""
    started: list[tuple[Any, State]] = []

    def start(flavour: str, *, asynchronous: bool = False) -> tuple[Any, State]:
        manager = files_server(flavour)
        url, state = manager.__enter__()
        started.append((manager, state))
        return client_for(flavour, url, asynchronous=asynchronous), state

    yield start
    for manager, _ in started:
        manager.__exit__(None, None, None)
    for _, state in started:
        assert state.violations == [], state.violations
