"""The built-in URL fetcher for ``encode(fetch_urls=True)``: http(s) only, public addresses
only, a size cap and a timeout.

Downloading is opt-in because it is I/O inside an otherwise pure conversion, and because a
URL chosen by a model or a tool must not reach the machine's private network. The address
check resolves the host first and refuses loopback, private, link-local and reserved ranges.
"""

from __future__ import annotations

import ipaddress
import socket
import urllib.request
from urllib.parse import urlsplit

from .errors import FetchError

MAX_FETCH_BYTES = 50 * 1024 * 1024
TIMEOUT_SECONDS = 20.0


def fetch_url(url: str, max_bytes: int = MAX_FETCH_BYTES) -> bytes:
    """The body of ``url``; raises FetchError for other schemes, private hosts, or oversize."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise FetchError(f"{url}: only http(s) URLs can be fetched")
    _refuse_private(parts.hostname, url)
    request = urllib.request.Request(url, headers={"User-Agent": "toolwire"})
    try:
        with urllib.request.urlopen(request, timeout=TIMEOUT_SECONDS) as response:  # noqa: S310
            data = response.read(max_bytes + 1)
    except OSError as exc:
        raise FetchError(f"{url}: download failed ({exc})") from exc
    if len(data) > max_bytes:
        raise FetchError(f"{url}: larger than the {max_bytes} byte fetch limit")
    return data


def _refuse_private(host: str, url: str) -> None:
    try:
        infos = socket.getaddrinfo(host, None)
    except OSError as exc:
        raise FetchError(f"{url}: cannot resolve {host} ({exc})") from exc
    for info in infos:
        address = ipaddress.ip_address(info[4][0])
        if not address.is_global:
            raise FetchError(f"{url}: {host} resolves to a non-public address ({address}); refused")
