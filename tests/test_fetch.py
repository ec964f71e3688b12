"""The built-in URL fetcher: http(s) only, public addresses only (redirects too), a size cap.

No test touches the internet: refusals happen before any connection, and downloads go to a
local http.server that only ``allow_private=True`` may reach.
"""

from __future__ import annotations

import threading
import urllib.request
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from toolwire.errors import FetchError
from toolwire.fetch import _CheckedRedirects, fetch_url

BODY = b"%PDF-1.7 a small body" * 10


class Handler(BaseHTTPRequestHandler):
    """/file → BODY; /to-ftp and /to-file → a redirect elsewhere; anything else → 404."""

    seen: list[str] = []

    def do_GET(self) -> None:
        Handler.seen.append(self.path)
        redirects = {"/to-ftp": "ftp://127.0.0.1/x", "/to-file": "/file"}
        if self.path == "/file":
            self.send_response(200)
            self.send_header("Content-Length", str(len(BODY)))
            self.end_headers()
            self.wfile.write(BODY)
        elif self.path in redirects:
            self.send_response(302)
            self.send_header("Location", redirects[self.path])
            self.send_header("Content-Length", "0")
            self.end_headers()
        else:
            self.send_error(404)

    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.fixture
def server() -> Iterator[str]:
    """A local HTTP server on 127.0.0.1; yields its base URL."""
    Handler.seen = []
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}"
    finally:
        httpd.shutdown()
        httpd.server_close()
        thread.join()


def test_a_loopback_server_is_refused_before_any_request_is_made(server: str) -> None:
    with pytest.raises(FetchError, match="127.0.0.1 resolves to a non-public address"):
        fetch_url(f"{server}/file")
    assert Handler.seen == []


def test_localhost_by_name_is_refused(server: str) -> None:
    port = server.rsplit(":", 1)[1]
    with pytest.raises(FetchError, match="localhost resolves to a non-public address"):
        fetch_url(f"http://localhost:{port}/file")
    assert Handler.seen == []


@pytest.mark.parametrize(
    "url",
    [
        "http://10.0.0.8/x",
        "http://192.168.1.1/x",
        "http://172.16.0.1/x",
        "http://169.254.169.254/latest/meta-data/",  # cloud metadata
        "http://0.0.0.0/x",
        "http://[::1]/x",
        "http://[fe80::1]/x",
        "http://[::ffff:127.0.0.1]/x",
        "https://100.64.0.1/x",  # carrier-grade NAT
    ],
)
def test_private_link_local_and_reserved_addresses_are_refused(url: str) -> None:
    with pytest.raises(FetchError, match="non-public address"):
        fetch_url(url)


@pytest.mark.parametrize(
    "url",
    [
        "ftp://example.com/file.pdf",
        "file:///etc/passwd",
        "data:application/pdf;base64,JVBERi0=",
        "s3://bucket/key.pdf",
        "gs://bucket/key.pdf",
        "http:///no-host",
        "example.com/file.pdf",
    ],
)
def test_only_http_urls_with_a_host_can_be_fetched(url: str) -> None:
    with pytest.raises(FetchError, match="only http\\(s\\) URLs can be fetched"):
        fetch_url(url)


def test_a_malformed_url_is_a_fetch_error() -> None:
    with pytest.raises(FetchError, match="not a valid URL"):
        fetch_url("http://[::1/x")


def test_a_host_that_cannot_be_resolved_is_a_fetch_error() -> None:
    with pytest.raises(FetchError, match="cannot resolve"):
        fetch_url("http://" + "a" * 64 + ".example/x")  # a DNS label is at most 63 characters


def test_a_redirect_to_a_private_address_is_refused() -> None:
    request = urllib.request.Request("https://example.com/start")
    handler = _CheckedRedirects()
    with pytest.raises(FetchError, match="non-public address"):
        handler.redirect_request(request, None, 302, "Found", {}, "http://127.0.0.1/admin")


def test_a_redirect_to_another_scheme_is_refused(server: str) -> None:
    with pytest.raises(FetchError, match="ftp://127.0.0.1/x: only http\\(s\\)"):
        fetch_url(f"{server}/to-ftp", allow_private=True)
    assert Handler.seen == ["/to-ftp"]


def test_allow_private_downloads_from_a_local_server_following_redirects(server: str) -> None:
    assert fetch_url(f"{server}/file", allow_private=True) == BODY
    assert fetch_url(f"{server}/to-file", allow_private=True) == BODY
    assert Handler.seen == ["/file", "/to-file", "/file"]


def test_a_body_over_the_size_cap_is_refused(server: str) -> None:
    assert fetch_url(f"{server}/file", max_bytes=len(BODY), allow_private=True) == BODY
    with pytest.raises(FetchError, match=f"larger than the {len(BODY) - 1} byte fetch limit"):
        fetch_url(f"{server}/file", max_bytes=len(BODY) - 1, allow_private=True)


def test_an_http_error_is_wrapped_in_a_fetch_error(server: str) -> None:
    with pytest.raises(FetchError, match="download failed \\(HTTP Error 404") as info:
        fetch_url(f"{server}/missing", allow_private=True)
    assert info.value.__cause__ is not None


def test_a_refused_connection_is_wrapped_in_a_fetch_error() -> None:
    with pytest.raises(FetchError, match="download failed"):
        fetch_url("http://127.0.0.1:9/x", allow_private=True)  # discard port: nothing listens


def test_a_redirect_to_a_public_http_address_is_followed() -> None:
    request = urllib.request.Request("https://example.com/start")
    follow = _CheckedRedirects().redirect_request(
        request, None, 302, "Found", {}, "http://93.184.215.14/next"
    )
    assert follow is not None and follow.full_url == "http://93.184.215.14/next"
