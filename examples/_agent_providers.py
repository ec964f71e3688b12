"""The provider table of examples/agent.py: for each provider, how to find its credential,
make its official SDK client and call it.

toolwire builds the whole request, tool definitions included (``encode(..., tools=...)``);
what stays provider-specific in an agent is only this: the client, the call and the
credential. A provider is one entry in ``PROVIDERS`` (a dict, not an if-ladder).

SDKs are imported inside the functions, after the credential check, so a missing key is
reported before any SDK is loaded and no request is ever sent without one.

The ``# --8<--`` comments mark what docs/agent-loop.md shows of this file, so the page shows
the code that tests/test_agent_example.py runs.
"""

from __future__ import annotations

import os
import socket
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

MAX_TOKENS = 4096  # Anthropic requires max_tokens; the others have their own defaults
STOP = "stopping before the first model call"


@dataclass(frozen=True)
class Provider:
    """How the agent talks to one provider."""

    missing: Callable[[], str | None]  # why there is nothing to call (no key, no server), or None
    connect: Callable[[], Any]  # the SDK client
    call: Callable[[Any, str, dict[str, Any]], Any]  # one model call -> the SDK's response


# --- credentials: checked before any client exists ------------------------------------------


def needs_env(*names: str) -> Callable[[], str | None]:
    """A check that passes when any of ``names`` is set in the environment."""

    def missing() -> str | None:
        if any(os.environ.get(name) for name in names):
            return None
        return f"No {' or '.join(names)} in the environment: {STOP}. Set it to run the agent."

    return missing


def needs_server(
    url: Callable[[], str], setting: str, default_port: int = 80
) -> Callable[[], str | None]:
    """A check that passes when something listens at ``url()`` (a local server, no key)."""

    def missing() -> str | None:
        address = url()
        parts = urlsplit(address if "://" in address else f"http://{address}")
        port = parts.port or (443 if parts.scheme == "https" else default_port)
        try:
            socket.create_connection((parts.hostname or "localhost", port), timeout=2).close()
        except OSError as exc:
            reason = exc.strerror or type(exc).__name__
            return f"No server at {address} ({reason}): {STOP}. Start it or set {setting}."
        return None

    return missing


def _ollama_host() -> str:
    return os.environ.get("OLLAMA_HOST") or "http://localhost:11434"


def _compatible_url() -> str:
    return os.environ.get("OPENAI_COMPATIBLE_BASE_URL") or "http://localhost:8000/v1"


# --- anthropic ----------------------------------------------------------------------------------
# --8<-- [start:anthropic]
def _anthropic() -> Any:
    import anthropic

    return anthropic.Anthropic()


def _anthropic_call(client: Any, model: str, kwargs: dict[str, Any]) -> Any:
    return client.messages.create(model=model, max_tokens=MAX_TOKENS, **kwargs)


# --8<-- [end:anthropic]


# --- openai (Responses); its client also serves the Chat Completions family ---------------------
# --8<-- [start:openai]
def _openai(
    base_url: str | Callable[[], str] | None = None, key: str = "OPENAI_API_KEY"
) -> Callable[[], Any]:
    """An OpenAI client for OpenAI itself or any API that speaks its protocol."""

    def connect() -> Any:
        import openai

        url = base_url() if callable(base_url) else base_url
        return openai.OpenAI(base_url=url, api_key=os.environ.get(key) or "none")

    return connect


def _responses_call(client: Any, model: str, kwargs: dict[str, Any]) -> Any:
    return client.responses.create(model=model, **kwargs)


# --8<-- [end:openai]


# --- Chat Completions: openai-chat, groq, xai, openrouter, openai-compatible --------------------
# --8<-- [start:chat]
def _chat(client: Any, model: str, kwargs: dict[str, Any]) -> Any:
    return client.chat.completions.create(model=model, **kwargs)


def _groq() -> Any:
    import groq

    return groq.Groq()


_xai = _openai("https://api.x.ai/v1", "XAI_API_KEY")
_openrouter = _openai("https://openrouter.ai/api/v1", "OPENROUTER_API_KEY")
_compatible = _openai(_compatible_url, "OPENAI_COMPATIBLE_API_KEY")
_compatible_server = needs_server(_compatible_url, "OPENAI_COMPATIBLE_BASE_URL")
# --8<-- [end:chat]


# --- google, google-vertex ----------------------------------------------------------------------
# --8<-- [start:google]
def _gemini() -> Any:
    from google import genai

    return genai.Client(api_key=os.environ.get("GEMINI_API_KEY") or os.environ["GOOGLE_API_KEY"])


def _vertex() -> Any:
    from google import genai

    location = os.environ.get("GOOGLE_CLOUD_LOCATION") or "global"
    return genai.Client(
        vertexai=True, project=os.environ["GOOGLE_CLOUD_PROJECT"], location=location
    )


def _google_call(client: Any, model: str, kwargs: dict[str, Any]) -> Any:
    return client.models.generate_content(model=model, **kwargs)


# --8<-- [end:google]


# --- bedrock ------------------------------------------------------------------------------------
# --8<-- [start:bedrock]
def _aws_missing() -> str | None:
    import boto3

    if boto3.Session().get_credentials() is not None:
        return None
    return (
        f"No AWS credentials found by boto3 (AWS_ACCESS_KEY_ID, AWS_PROFILE, ~/.aws, SSO or an "
        f"instance role): {STOP}. Configure them to run the agent."
    )


def _bedrock() -> Any:
    import boto3

    session = boto3.Session()
    return session.client("bedrock-runtime", region_name=session.region_name or "us-east-1")


def _bedrock_call(client: Any, model: str, kwargs: dict[str, Any]) -> Any:
    return client.converse(modelId=model, **kwargs)


# --8<-- [end:bedrock]


# --- mistral ------------------------------------------------------------------------------------
# --8<-- [start:mistral]
def _mistral() -> Any:
    try:
        from mistralai.client import Mistral
    except ImportError:  # mistralai 1.x
        from mistralai import Mistral  # type: ignore[no-redef,attr-defined]
    return Mistral(api_key=os.environ["MISTRAL_API_KEY"])


def _mistral_call(client: Any, model: str, kwargs: dict[str, Any]) -> Any:
    return client.chat.complete(model=model, **kwargs)


# --8<-- [end:mistral]


# --- cohere, ollama -----------------------------------------------------------------------------
# --8<-- [start:cohere-ollama]
def _cohere() -> Any:
    import cohere

    return cohere.ClientV2(api_key=os.environ.get("COHERE_API_KEY") or os.environ["CO_API_KEY"])


def _ollama() -> Any:
    import ollama

    return ollama.Client(host=_ollama_host())


_ollama_server = needs_server(_ollama_host, "OLLAMA_HOST", default_port=11434)


def _model_chat(client: Any, model: str, kwargs: dict[str, Any]) -> Any:
    """Cohere v2 and Ollama: ``client.chat(model=…, messages=…, tools=…)``."""
    return client.chat(model=model, **kwargs)


# --8<-- [end:cohere-ollama]


# --8<-- [start:table]
# fmt: off
PROVIDERS: dict[str, Provider] = {
    #                             credential check                               client       call
    "anthropic":         Provider(needs_env("ANTHROPIC_API_KEY"),                _anthropic,  _anthropic_call),
    "openai":            Provider(needs_env("OPENAI_API_KEY"),                   _openai(),   _responses_call),
    "openai-chat":       Provider(needs_env("OPENAI_API_KEY"),                   _openai(),   _chat),
    "groq":              Provider(needs_env("GROQ_API_KEY"),                     _groq,       _chat),
    "xai":               Provider(needs_env("XAI_API_KEY"),                      _xai,        _chat),
    "openrouter":        Provider(needs_env("OPENROUTER_API_KEY"),               _openrouter, _chat),
    "openai-compatible": Provider(_compatible_server,                            _compatible, _chat),
    "google":            Provider(needs_env("GEMINI_API_KEY", "GOOGLE_API_KEY"), _gemini,     _google_call),
    "google-vertex":     Provider(needs_env("GOOGLE_CLOUD_PROJECT"),             _vertex,     _google_call),
    "bedrock":           Provider(_aws_missing,                                  _bedrock,    _bedrock_call),
    "mistral":           Provider(needs_env("MISTRAL_API_KEY"),                  _mistral,    _mistral_call),
    "cohere":            Provider(needs_env("COHERE_API_KEY", "CO_API_KEY"),     _cohere,     _model_chat),
    "ollama":            Provider(_ollama_server,                                _ollama,     _model_chat),
}
# fmt: on
# --8<-- [end:table]
