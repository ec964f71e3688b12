"""Official SDK clients built from the environment, for ``toolwire sessions upload``.

The CLI has no client of its own: it builds the provider's official one from the variables
that SDK documents (a key, and a base URL to point it at a proxy or a test server). Mistral
and xAI have no base-URL variable of their own; toolwire reads ``MISTRAL_BASE_URL`` and
``XAI_BASE_URL`` for them.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

#: The provider of a target's Files API (capabilities' ``file_ids``) -> the variables naming
#: its key (the first set wins) and its base URL.
ENVIRONMENT: dict[str, tuple[tuple[str, ...], str]] = {
    "anthropic": (("ANTHROPIC_API_KEY",), "ANTHROPIC_BASE_URL"),
    "openai": (("OPENAI_API_KEY",), "OPENAI_BASE_URL"),
    "google": (("GEMINI_API_KEY", "GOOGLE_API_KEY"), "GOOGLE_GEMINI_BASE_URL"),
    "mistral": (("MISTRAL_API_KEY",), "MISTRAL_BASE_URL"),
    "xai": (("XAI_API_KEY",), "XAI_BASE_URL"),
}
XAI_BASE_URL = "https://api.x.ai/v1"


def _anthropic(key: str, url: str | None) -> Any:
    import anthropic

    return anthropic.Anthropic(api_key=key, base_url=url)


def _openai(key: str, url: str | None) -> Any:
    import openai

    return openai.OpenAI(api_key=key, base_url=url)


def _google(key: str, url: str | None) -> Any:
    from google import genai

    return genai.Client(api_key=key, http_options={"base_url": url} if url else None)


def _mistral(key: str, url: str | None) -> Any:
    from mistralai.client import Mistral

    return Mistral(api_key=key, server_url=url)


def _xai(key: str, url: str | None) -> Any:
    return _openai(key, url or XAI_BASE_URL)


#: provider -> (builder, the extra that installs its SDK)
BUILDERS: dict[str, tuple[Callable[[str, str | None], Any], str]] = {
    "anthropic": (_anthropic, "anthropic"),
    "openai": (_openai, "openai"),
    "google": (_google, "google"),
    "mistral": (_mistral, "mistral"),
    "xai": (_xai, "openai"),
}


def client_for(model: str) -> Any:
    """The sync SDK client of the Files API ``model`` takes ids from, built from the environment."""
    import toolwire as tw

    provider = tw.capabilities(model).file_ids
    if provider not in BUILDERS:
        raise tw.ToolwireError(
            f"{model} cannot reference uploaded files; uploads work for "
            f"{', '.join(sorted(BUILDERS))}. Its files are sent inline: nothing to upload."
        )
    keys, url_variable = ENVIRONMENT[provider]
    key = next((os.environ[k] for k in keys if os.environ.get(k)), None)
    if key is None:
        raise tw.ToolwireError(
            f"uploading for {model} needs {provider}'s API key: set {' or '.join(keys)} "
            f"(and {url_variable} to use another endpoint)"
        )
    build, extra = BUILDERS[provider]
    try:
        return build(key, os.environ.get(url_variable) or None)
    except ImportError as exc:
        raise tw.MissingDependencyError(
            f"uploading for {model} needs {provider}'s official SDK: "
            f"pip install 'toolwire[{extra}]'"
        ) from exc
