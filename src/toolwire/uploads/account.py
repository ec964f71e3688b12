"""The account a client uploads to: its base URL and a hash of its credential (never the credential).

Two clients with the same base URL and key share file ids; another key (another organisation,
another project) gets its own. The hash is a truncated sha256, enough to tell keys apart and
useless for recovering one.
"""

from __future__ import annotations

import hashlib
from typing import Any
from urllib.parse import urlsplit, urlunsplit


def account_of(client: Any) -> str:
    """``<base URL>#<12 hex chars of sha256(credential)>`` for an official SDK client.

    Knows anthropic and openai clients (sync and async, also pointed at xAI), google-genai
    ``Client``/``AsyncClient`` and mistralai ``Mistral``; anything else is described by its
    ``base_url`` and ``api_key`` attributes when it has them.
    """
    base_url, credential = _parts(client)
    base_url, secret = _without_secrets(base_url)
    if secret:  # a key in the URL (a proxy's user:token@, ?key=) is hashed, never kept
        credential = f"{credential}\n{secret}"
    digest = hashlib.sha256(credential.encode("utf-8", "surrogatepass")).hexdigest()[:12]
    return f"{base_url.rstrip('/')}#{digest}"


def _without_secrets(base_url: str) -> tuple[str, str]:
    """The URL without its userinfo, query and fragment; and those parts."""
    try:
        parts = urlsplit(base_url)
    except ValueError:  # not a URL: nothing to take out
        return base_url, ""
    userinfo, _, host = parts.netloc.rpartition("@")
    found = {"@": userinfo, "?": parts.query, "#": parts.fragment}
    secret = "".join(mark + part for mark, part in found.items() if part)
    if not secret:
        return base_url, ""
    return urlunsplit((parts.scheme, host, parts.path, "", "")), secret


def _parts(client: Any) -> tuple[str, str]:
    api_client = getattr(client, "_api_client", None)  # google-genai
    if api_client is not None:
        options = getattr(api_client, "_http_options", None)
        base_url = str(getattr(options, "base_url", None) or "google")
        return base_url, _text(getattr(api_client, "api_key", None))
    config = getattr(client, "sdk_configuration", None)  # mistralai
    if config is not None:
        security = getattr(config, "security", None)
        if callable(security):
            security = security()
        key = getattr(security, "api_key", security)
        return str(getattr(config, "server_url", None) or "mistral"), _text(key)
    key = getattr(client, "api_key", None) or getattr(client, "auth_token", None)
    return str(getattr(client, "base_url", "") or type(client).__name__), _text(key)


def _text(value: Any) -> str:
    if value is None:
        return ""
    if hasattr(value, "get_secret_value"):
        value = value.get_secret_value()
    return value if isinstance(value, str) else repr(value)
