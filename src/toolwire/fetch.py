"""The built-in URL fetcher for ``encode(fetch_urls=True)``: http(s) only, public addresses
only, a size cap and a deadline.

Downloading is opt-in because it is I/O inside an otherwise pure conversion, and because a
URL chosen by a model or a tool must not reach the machine's private network. The host is
resolved once and every address it resolves to must be public: loopback, private, link-local,
reserved and multicast ranges are refused, and so are IPv6 addresses that carry such an IPv4
address (IPv4-mapped, IPv4-compatible, 6to4, Teredo, NAT64). The socket then connects to one
of exactly those checked addresses, so a DNS answer that changes between the check and the
connection (DNS rebinding) is never followed; the Host header, TLS SNI and the certificate
check still use the host name. Every redirect (at most 10) is checked and pinned the same way.

One deadline, 60 s by default, covers connecting, the TLS handshake, the headers and the body;
no single read waits more than 20 s either. A body shorter than its Content-Length is refused,
and so is a Content-Length over the size cap, before the body is read. Name resolution is the
system resolver's and is not bounded by the deadline.
"""

from __future__ import annotations

import http.client
import io
import ipaddress
import socket
import ssl
import string
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote, urljoin, urlsplit

from .errors import FetchError

MAX_FETCH_BYTES = 50 * 1024 * 1024
DEADLINE_SECONDS = 60.0
#: What one request may download in all, every URL once: bytes held, and seconds spent.
MAX_REQUEST_FETCH_BYTES = 128 * 1024 * 1024
REQUEST_FETCH_SECONDS = 120.0
TIMEOUT_SECONDS = 20.0  # the longest any one connect, read or write may wait
MAX_REDIRECTS = 10

_REDIRECT_CODES = frozenset({301, 302, 303, 307, 308})
_CHUNK = 64 * 1024
# IPv4-compatible (::a.b.c.d, RFC 4291, deprecated), IPv4-translated (::ffff:0:a.b.c.d,
# RFC 2765) and NAT64 (RFC 6052 well-known prefix, RFC 8215 local-use prefix) addresses carry
# the IPv4 address in their last 32 bits (for 64:ff9b:1::/48, the /96 form DNS64 uses).
_LAST_32_BITS_IPV4 = tuple(
    ipaddress.IPv6Network(n) for n in ("::/96", "::ffff:0:0:0/96", "64:ff9b::/96", "64:ff9b:1::/48")
)

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address
# Not globally reachable, though older Pythons' is_global (3.11, 3.12 before 3.12.4) say so:
# IETF protocol assignments (RFC 6890; its anycast .9 and .10 are no fetch target either) and
# IPv6 site-local addresses (RFC 3879 deprecated them, but a LAN may still route them).
_NOT_GLOBAL = (ipaddress.IPv4Network("192.0.0.0/24"), ipaddress.IPv6Network("fec0::/10"))


def fetch_url(
    url: str,
    max_bytes: int = MAX_FETCH_BYTES,
    *,
    allow_private: bool = False,
    deadline: float = DEADLINE_SECONDS,
) -> bytes:
    """The body of ``url``; raises FetchError for other schemes, private hosts, oversize,
    incomplete bodies, or a download not finished within ``deadline`` seconds.

    Redirects are followed only to URLs that pass the same checks. ``allow_private=True``
    admits loopback and private addresses (a model server on the LAN): opt in with
    ``fetch_urls=lambda url: fetch_url(url, allow_private=True)``.
    """
    clock = _Clock(url, deadline)
    current = url
    for _ in range(MAX_REDIRECTS + 1):
        target = _resolve(current, allow_private)
        body, location = _get(target, clock, max_bytes)
        if location is None:
            return body
        current = urljoin(current, location)
    raise FetchError(f"{url}: more than {MAX_REDIRECTS} redirects; refused")


class _Clock:
    """The one deadline of a fetch, shared by every connection its redirects open."""

    def __init__(self, url: str, seconds: float) -> None:
        self.url = url
        self.seconds = seconds
        self.end = time.monotonic() + seconds

    def wait(self) -> float:
        """How long the next socket operation may block; raises once the deadline has passed."""
        left = self.end - time.monotonic()
        if left <= 0:
            raise self.expired()
        return min(left, TIMEOUT_SECONDS)

    def has_passed(self) -> bool:
        return time.monotonic() >= self.end - 0.01  # a timed-out wait may end a tick early

    def expired(self) -> FetchError:
        return FetchError(
            f"{self.url}: not downloaded within the {self.seconds:g} s fetch deadline "
            "(connect, headers and body); pass a larger deadline= for a slow server"
        )


@dataclass(frozen=True)
class _Target:
    """A checked URL: where to connect (the resolved, checked addresses) and what to ask."""

    url: str
    host: str
    port: int
    path: str
    is_tls: bool
    addresses: tuple[tuple[Any, ...], ...]  # getaddrinfo answers, each one checked


def _resolve(url: str, allow_private: bool) -> _Target:
    try:
        parts = urlsplit(url)
        host, port = parts.hostname, parts.port
        if host and not host.isascii():
            host = host.encode("idna").decode("ascii")
    except (ValueError, UnicodeError) as exc:
        raise FetchError(f"{url}: not a valid URL ({exc})") from exc
    if parts.scheme not in ("http", "https") or not host:
        raise FetchError(f"{url}: only http(s) URLs can be fetched")
    is_tls = parts.scheme == "https"
    port = port or (443 if is_tls else 80)
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (OSError, UnicodeError) as exc:
        raise FetchError(f"{url}: cannot resolve {host} ({exc})") from exc
    if not allow_private:
        for info in infos:
            _refuse_private(ipaddress.ip_address(info[4][0]), host, url)
    path = quote(parts.path or "/", safe=string.punctuation)
    if parts.query:
        path += "?" + quote(parts.query, safe=string.punctuation)
    return _Target(url, host, port, path, is_tls, tuple(tuple(i) for i in infos))


def _refuse_private(address: IPAddress, host: str, url: str) -> None:
    embedded = _embedded_ipv4(address) if isinstance(address, ipaddress.IPv6Address) else None
    if _is_public(address) and (embedded is None or _is_public(embedded)):
        return
    shown = f"{address}, which carries {embedded}" if embedded else str(address)
    raise FetchError(
        f"{url}: {host} resolves to a non-public address ({shown}); refused. Use "
        "fetch_urls=lambda url: fetch_url(url, allow_private=True) to allow private hosts"
    )


def _is_public(address: IPAddress) -> bool:
    if any(address in network for network in _NOT_GLOBAL):
        return False
    return address.is_global and not address.is_multicast


def _embedded_ipv4(address: ipaddress.IPv6Address) -> ipaddress.IPv4Address | None:
    """The IPv4 address an IPv6 one stands for: mapped, compatible, 6to4, Teredo or NAT64."""
    if address.ipv4_mapped is not None:
        return address.ipv4_mapped
    if address.sixtofour is not None:
        return address.sixtofour
    if address.teredo is not None:
        return address.teredo[1]  # (server, client): the client is the one reached
    if any(address in network for network in _LAST_32_BITS_IPV4):
        return ipaddress.IPv4Address(int(address) & 0xFFFFFFFF)
    return None


def _get(target: _Target, clock: _Clock, max_bytes: int) -> tuple[bytes, str | None]:
    """The body, or the Location of a redirect (its body unread)."""
    connection = _PinnedConnection(target, clock)
    response: http.client.HTTPResponse | None = None
    try:
        connection.request("GET", target.path, headers={"User-Agent": "toolwire"})
        response = connection.getresponse()
        location = response.getheader("Location")
        if response.status in _REDIRECT_CODES and location:
            return b"", location
        if not 200 <= response.status < 300:
            raise FetchError(
                f"{target.url}: download failed (HTTP Error {response.status}: {response.reason})"
            )
        return _read_body(response, target.url, max_bytes), None
    except (OSError, ValueError, http.client.HTTPException) as exc:
        if clock.has_passed():
            raise clock.expired() from exc
        raise FetchError(f"{target.url}: download failed ({exc})") from exc
    finally:
        if response is not None:
            response.close()  # a Connection: close response is no longer the connection's
        connection.close()


def _read_body(response: http.client.HTTPResponse, url: str, max_bytes: int) -> bytes:
    expected = response.length  # the Content-Length; None when absent or chunked
    if expected is not None and expected > max_bytes:
        raise FetchError(
            f"{url}: its Content-Length of {expected} bytes is larger than the {max_bytes} "
            "byte fetch limit; refused before reading the body"
        )
    data = bytearray()
    while len(data) <= max_bytes:
        chunk = response.read(min(_CHUNK, max_bytes + 1 - len(data)))
        if not chunk:
            break
        data += chunk
    if len(data) > max_bytes:
        raise FetchError(f"{url}: larger than the {max_bytes} byte fetch limit")
    if expected is not None and len(data) < expected:
        raise FetchError(
            f"{url}: incomplete body: expected {expected} bytes (Content-Length), received "
            f"{len(data)} before the server closed the connection"
        )
    return bytes(data)


class _PinnedConnection(http.client.HTTPConnection):
    """HTTP(S) to one of the target's checked addresses; Host, SNI and certificate use its name."""

    def __init__(self, target: _Target, clock: _Clock) -> None:
        super().__init__(target.host, target.port)
        self.default_port = 443 if target.is_tls else 80  # Host header omits a default port
        self._target = target
        self._clock = clock

    def connect(self) -> None:
        sock = _open_socket(self._target, self._clock)
        try:
            if self._target.is_tls:
                sock.settimeout(self._clock.wait())  # CPython bounds the whole handshake by it
                context = ssl.create_default_context()
                sock = context.wrap_socket(sock, server_hostname=self._target.host)
        except BaseException:
            sock.close()
            raise
        self.sock = _DeadlineSocket(sock, self._clock)


def _open_socket(target: _Target, clock: _Clock) -> socket.socket:
    """A socket connected to the first checked address that answers, with no second lookup."""
    error: OSError = OSError(f"{target.host} resolved to no address")
    for family, kind, proto, _, address in target.addresses:
        sock = socket.socket(family, kind, proto)
        try:
            sock.settimeout(clock.wait())
            sock.connect(address)
            return sock
        except BaseException as exc:
            sock.close()
            if not isinstance(exc, OSError):
                raise
            error = exc
    raise error


class _DeadlineSocket:
    """The connected socket as http.client uses it: no write or read outlives the deadline.

    Like a real socket's ``makefile``, an open reader keeps the socket open after ``close``
    (http.client closes the connection of a ``Connection: close`` response before its body).
    """

    def __init__(self, sock: socket.socket, clock: _Clock) -> None:
        self.sock = sock
        self.clock = clock
        self._readers = 0
        self._is_closed = False

    def sendall(self, data: bytes) -> None:
        self.sock.settimeout(self.clock.wait())
        self.sock.sendall(data)

    def makefile(self, mode: str = "rb") -> io.BufferedReader:
        self._readers += 1
        return io.BufferedReader(_DeadlineReader(self))

    def close(self) -> None:
        self._is_closed = True
        self._release()

    def reader_closed(self) -> None:
        self._readers -= 1
        self._release()

    def _release(self) -> None:
        if self._is_closed and self._readers == 0:
            self.sock.close()


class _DeadlineReader(io.RawIOBase):
    """Reads the socket, each wait bounded by what is left of the deadline (headers too)."""

    def __init__(self, owner: _DeadlineSocket) -> None:
        super().__init__()
        self._owner = owner

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        self._owner.sock.settimeout(self._owner.clock.wait())
        return self._owner.sock.recv_into(buffer)

    def close(self) -> None:
        if not self.closed:
            self._owner.reader_closed()
        super().close()


def for_one_request(fetch: Callable[[str], bytes]) -> Callable[[str], bytes]:
    """``fetch`` for one request (``plan_request``): each URL downloaded once, whatever how
    often the plan lays the conversation out, and at most ``MAX_REQUEST_FETCH_BYTES`` held
    and ``REQUEST_FETCH_SECONDS`` spent downloading across all its URLs — a FetchError naming
    the URL that would pass either."""
    fetched: dict[str, bytes] = {}
    spent, held = 0.0, 0

    def fetch_once(url: str) -> bytes:
        nonlocal spent, held
        if url in fetched:
            return fetched[url]
        if spent > REQUEST_FETCH_SECONDS:
            raise FetchError(
                f"not fetching {url}: this request already spent {spent:.0f} s downloading, "
                f"over the {REQUEST_FETCH_SECONDS:.0f} s one request may"
            )
        start = time.monotonic()
        data = fetch(url)
        spent += time.monotonic() - start
        size = len(data) if isinstance(data, bytes | bytearray) else 0
        if held + size > MAX_REQUEST_FETCH_BYTES:
            raise FetchError(
                f"fetching {url} would hold {held + size:,} downloaded bytes for this request, "
                f"over the {MAX_REQUEST_FETCH_BYTES:,} one request may; send fewer URLs or "
                "smaller files"
            )
        held += size
        fetched[url] = data
        return data

    return fetch_once
