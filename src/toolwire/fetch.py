"""The built-in URL fetcher for ``encode(fetch_urls=True)``: http(s) only, public addresses
only, a size cap and a timeout.

Downloading is opt-in because it is I/O inside an otherwise pure conversion, and because a
URL chosen by a model or a tool must not reach the machine's private network. The address
check resolves the host first and refuses loopback, private, link-local and reserved ranges.
"""

from __future__ import annotations

import http.client
import ipaddress
import socket
import urllib.error
import urllib.request
from typing import Any
from urllib.parse import urlsplit

from .errors import FetchError

MAX_FETCH_BYTES = 50 * 1024 * 1024
TIMEOUT_SECONDS = 20.0


def fetch_url(url: str, max_bytes: int = MAX_FETCH_BYTES, *, allow_private: bool = False) -> bytes:
    """The body of ``url``; raises FetchError for other schemes, private hosts, or oversize.

    Redirects are followed only to URLs that pass the same checks. ``allow_private=True``
    admits loopback and private addresses (a model server on the LAN): opt in with
    ``fetch_urls=lambda url: fetch_url(url, allow_private=True)``.
    """
    _check_url(url, allow_private)
    request = urllib.request.Request(url, headers={"User-Agent": "toolwire"})
    opener = urllib.request.build_opener(_CheckedRedirects(allow_private))
    try:
        with opener.open(request, timeout=TIMEOUT_SECONDS) as response:
            data = response.read(max_bytes + 1)
    except urllib.error.HTTPError as exc:
        exc.close()  # it holds the open error response
        raise FetchError(f"{url}: download failed ({exc})") from exc
    except (OSError, ValueError, http.client.HTTPException) as exc:
        raise FetchError(f"{url}: download failed ({exc})") from exc
    if len(data) > max_bytes:
        raise FetchError(f"{url}: larger than the {max_bytes} byte fetch limit")
    return data


class _CheckedRedirects(urllib.request.HTTPRedirectHandler):
    """Applies the scheme and address checks to every redirect target, not only the first URL."""

    def __init__(self, allow_private: bool = False) -> None:
        super().__init__()
        self.allow_private = allow_private

    def redirect_request(
        self, req: Any, fp: Any, code: Any, msg: Any, headers: Any, newurl: str
    ) -> Any:
        try:
            _check_url(newurl, self.allow_private)
        except FetchError:
            if fp is not None:
                fp.close()  # the redirect response is not read any further
            raise
        return super().redirect_request(req, fp, code, msg, headers, newurl)


def _check_url(url: str, allow_private: bool) -> None:
    try:
        parts = urlsplit(url)
        host = parts.hostname
    except ValueError as exc:
        raise FetchError(f"{url}: not a valid URL ({exc})") from exc
    if parts.scheme not in ("http", "https") or not host:
        raise FetchError(f"{url}: only http(s) URLs can be fetched")
    if not allow_private:
        _refuse_private(host, url)


def _refuse_private(host: str, url: str) -> None:
    try:
        infos = socket.getaddrinfo(host, None)
    except (OSError, UnicodeError) as exc:
        raise FetchError(f"{url}: cannot resolve {host} ({exc})") from exc
    for info in infos:
        address = ipaddress.ip_address(info[4][0])
        if not address.is_global:
            raise FetchError(f"{url}: {host} resolves to a non-public address ({address}); refused")
