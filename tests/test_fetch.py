"""The built-in URL fetcher: http(s) only, public addresses only (redirects too), pinned to the
address it checked, a size cap, complete bodies only, and one deadline.

No test touches the internet. Downloads go to servers on 127.0.0.1 started here. To exercise
public hosts the ``network`` fixture fakes the two things a test machine cannot have: DNS
answers (the resolver is what DNS rebinding attacks, so a resolver that changes its answer is
the attack itself) and routes off the machine: a connection to a listed public address is
carried to a local server, and any other public address is refused as if unreachable.
"""

from __future__ import annotations

import datetime
import socket
import ssl
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

from toolwire.errors import FetchError
from toolwire.fetch import DEADLINE_SECONDS, fetch_url

BODY = b"%PDF-1.7 a small body" * 10
PUBLIC = "93.184.215.14"
OTHER_PUBLIC = "93.184.215.15"


class Handler(BaseHTTPRequestHandler):
    """/file → BODY; /unsized → BODY without a Content-Length; some redirects; else 404."""

    seen: list[str] = []
    hosts: list[str] = []

    def do_GET(self) -> None:
        Handler.seen.append(self.path)
        Handler.hosts.append(self.headers.get("Host", ""))
        port = self.server.server_address[1]
        redirects = {
            "/to-ftp": "ftp://127.0.0.1/x",
            "/to-file": "/file",
            "/to-private": f"http://127.0.0.1:{port}/file",
            "/to-rebind": f"http://rebind.example:{port}/file",
            "/loop": "/loop",
        }
        if self.path in ("/file", "/unsized"):
            self.send_response(200)
            if self.path == "/file":
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
    Handler.seen, Handler.hosts = [], []
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=httpd.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}"
    finally:
        httpd.shutdown()
        httpd.server_close()
        thread.join()


def _port(base_url: str) -> int:
    return int(base_url.rsplit(":", 1)[1])


@dataclass
class Network:
    """Fake DNS answers and routes; records every address a socket tries to connect to."""

    answers: dict[str, list[list[str]]] = field(default_factory=dict)
    routes: dict[str, int] = field(default_factory=dict)
    attempts: list[str] = field(default_factory=list)

    def answer(self, host: str) -> list[str] | None:
        queue = self.answers.get(host)
        if queue is None:
            return None
        return queue.pop(0) if len(queue) > 1 else queue[0]


@pytest.fixture
def network(monkeypatch: pytest.MonkeyPatch) -> Network:
    fake = Network()
    real_getaddrinfo, real_connect = socket.getaddrinfo, socket.socket.connect

    def getaddrinfo(host: Any, port: Any, *args: Any, **kwargs: Any) -> list[Any]:
        addresses = fake.answer(host)
        if addresses is None:
            return real_getaddrinfo(host, port, *args, **kwargs)
        return [_info(a, port) for a in addresses]

    def connect(sock: socket.socket, address: Any) -> None:
        fake.attempts.append(address[0])
        if address[0] in fake.routes:
            return real_connect(sock, ("127.0.0.1", fake.routes[address[0]]))
        if address[0] in ("127.0.0.1", "::1"):
            return real_connect(sock, address)
        raise ConnectionRefusedError(111, "no route off this machine in tests")

    monkeypatch.setattr(socket, "getaddrinfo", getaddrinfo)
    monkeypatch.setattr(socket.socket, "connect", connect)
    return fake


def _info(address: str, port: int) -> tuple[Any, ...]:
    if ":" in address:
        return (socket.AF_INET6, socket.SOCK_STREAM, 6, "", (address, port, 0, 0))
    return (socket.AF_INET, socket.SOCK_STREAM, 6, "", (address, port))


Reply = Callable[[socket.socket, threading.Event], None]


@pytest.fixture
def raw_server() -> Iterator[Callable[[Reply], str]]:
    """Starts one-connection servers that read the request, then run ``reply`` on the socket."""
    stop = threading.Event()
    listeners: list[socket.socket] = []
    threads: list[threading.Thread] = []

    def start(reply: Reply) -> str:
        listener = socket.create_server(("127.0.0.1", 0))
        listener.settimeout(10)
        listeners.append(listener)
        threads.append(threading.Thread(target=_serve_once, args=(listener, reply, stop)))
        threads[-1].start()
        return f"http://127.0.0.1:{listener.getsockname()[1]}"

    yield start
    stop.set()
    for thread in threads:
        thread.join(10)
    for listener in listeners:
        listener.close()


def _serve_once(listener: socket.socket, reply: Reply, stop: threading.Event) -> None:
    try:
        conn, _ = listener.accept()
    except OSError:
        return
    with conn:
        try:
            conn.recv(65536)  # the request: one small GET
            reply(conn, stop)
        except OSError:
            pass  # the client hung up


def _drip(data: bytes, head: bytes = b"") -> Reply:
    """A reply that sends ``head`` at once, then ``data`` one byte every 0.2 s."""

    def reply(conn: socket.socket, stop: threading.Event) -> None:
        conn.sendall(head)
        for i in range(len(data)):
            if stop.wait(0.2):
                return
            conn.sendall(data[i : i + 1])

    return reply


def _then_hold(head: bytes) -> Reply:
    """A reply that sends ``head``, then keeps the connection open without a word."""

    def reply(conn: socket.socket, stop: threading.Event) -> None:
        conn.sendall(head)
        stop.wait(10)

    return reply


def _then_close(head: bytes) -> Reply:
    return lambda conn, stop: conn.sendall(head)


# -- scheme and address checks ------------------------------------------------------------


def test_a_loopback_server_is_refused_before_any_request_is_made(server: str) -> None:
    with pytest.raises(FetchError, match="127.0.0.1 resolves to a non-public address"):
        fetch_url(f"{server}/file")
    assert Handler.seen == []


def test_localhost_by_name_is_refused(server: str) -> None:
    with pytest.raises(FetchError, match="localhost resolves to a non-public address"):
        fetch_url(f"http://localhost:{_port(server)}/file")
    assert Handler.seen == []


@pytest.mark.parametrize(
    "url",
    [
        "http://10.0.0.8/x",
        "http://192.168.1.1/x",
        "http://172.16.0.1/x",
        "http://169.254.169.254/latest/meta-data/",  # cloud metadata
        "http://0.0.0.0/x",
        "http://2130706433/x",  # 127.0.0.1 as one number
        "http://[::1]/x",
        "http://[fe80::1]/x",
        "https://100.64.0.1/x",  # carrier-grade NAT
        "http://224.0.0.1/x",  # multicast
    ],
)
def test_private_link_local_and_reserved_addresses_are_refused(url: str) -> None:
    with pytest.raises(FetchError, match="non-public address"):
        fetch_url(url)


@pytest.mark.parametrize(
    ("host", "carried"),
    [
        ("::ffff:127.0.0.1", "127.0.0.1"),  # IPv4-mapped
        ("::ffff:7f00:1", "127.0.0.1"),
        ("::FFFF:10.1.2.3", "10.1.2.3"),
        ("::127.0.0.1", "127.0.0.1"),  # IPv4-compatible
        ("::7f00:1", "127.0.0.1"),
        ("0:0:0:0:0:0:a9fe:a9fe", "169.254.169.254"),
        ("::ffff:0:a00:1", "10.0.0.1"),  # IPv4-translated
        ("64:ff9b::127.0.0.1", "127.0.0.1"),  # NAT64, well-known prefix
        ("64:ff9b::7f00:1", "127.0.0.1"),
        ("64:FF9B:0:0:0:0:a9fe:a9fe", "169.254.169.254"),
        ("64:ff9b::c0a8:101", "192.168.1.1"),
        ("64:ff9b:1::7f00:1", "127.0.0.1"),  # NAT64, local-use prefix
        ("64:ff9b:1::10.1.2.3", "10.1.2.3"),
        ("64:ff9b:1:abcd::ac10:1", "172.16.0.1"),
        ("2002:7f00:1::", "127.0.0.1"),  # 6to4
        ("2002:a00:1:1234::1", "10.0.0.1"),
        ("2002:c0a8:101::42", "192.168.1.1"),
        ("2002:a9fe:a9fe::", "169.254.169.254"),
        ("2001:0:4136:e378:8000:63bf:80ff:fffe", "127.0.0.1"),  # Teredo (client obfuscated)
        ("2001:0:808:808::f5ff:fffe", "10.0.0.1"),
    ],
)
def test_ipv6_addresses_carrying_a_private_ipv4_address_are_refused(
    network: Network, host: str, carried: str
) -> None:
    network.answers["carrier.example"] = [[host.lower()]]
    with pytest.raises(FetchError, match=f"non-public address \\(.*carries {carried}\\)"):
        fetch_url("http://carrier.example/x")
    with pytest.raises(FetchError, match=f"carries {carried}"):
        fetch_url(f"http://[{host}]/x")  # the literal, resolved by the real resolver
    assert network.attempts == []


@pytest.mark.parametrize(
    "host",
    ["::ffff:8.8.8.8", "64:ff9b::808:808", "64:ff9b:1::808:808", "2002:808:808::", "::8.8.8.8"],
)
def test_ipv6_addresses_carrying_a_public_ipv4_address_are_connected_to(
    network: Network, host: str
) -> None:
    network.answers["carrier.example"] = [[host]]
    with pytest.raises(FetchError, match="download failed.*no route off this machine"):
        fetch_url("http://carrier.example/x")
    assert network.attempts == [host]


def test_a_name_with_one_private_address_among_public_ones_is_refused(network: Network) -> None:
    network.answers["mixed.example"] = [[PUBLIC, "10.0.0.1"]]
    with pytest.raises(FetchError, match="mixed.example resolves to a non-public address"):
        fetch_url("http://mixed.example/x")
    assert network.attempts == []


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


@pytest.mark.parametrize("url", ["http://[::1/x", "http://example.com:99999/x"])
def test_a_malformed_url_is_a_fetch_error(url: str) -> None:
    with pytest.raises(FetchError, match="not a valid URL"):
        fetch_url(url)


def test_a_host_that_cannot_be_resolved_is_a_fetch_error() -> None:
    with pytest.raises(FetchError, match="cannot resolve"):
        fetch_url("http://" + "a" * 64 + ".example/x")  # a DNS label is at most 63 characters


# -- the connection goes to the address that was checked -----------------------------------


def test_a_dns_answer_that_turns_to_loopback_after_the_check_is_never_connected_to(
    server: str, network: Network
) -> None:
    network.answers["rebind.example"] = [[PUBLIC], ["127.0.0.1"]]
    with pytest.raises(FetchError, match="download failed"):
        fetch_url(f"http://rebind.example:{_port(server)}/file")
    assert network.attempts == [PUBLIC]
    assert Handler.seen == []


def test_a_public_name_is_fetched_from_its_checked_address_with_its_own_host_header(
    server: str, network: Network
) -> None:
    network.answers["files.example"] = [[PUBLIC], ["127.0.0.1"]]
    network.routes[PUBLIC] = _port(server)
    assert fetch_url(f"http://files.example:{_port(server)}/file") == BODY
    assert network.attempts == [PUBLIC]
    assert Handler.hosts == [f"files.example:{_port(server)}"]


def test_a_redirect_is_checked_and_pinned_like_the_first_url(server: str, network: Network) -> None:
    network.routes[PUBLIC] = _port(server)
    network.answers["rebind.example"] = [[OTHER_PUBLIC], ["127.0.0.1"]]
    with pytest.raises(FetchError, match="rebind.example.*download failed"):
        fetch_url(f"http://{PUBLIC}:{_port(server)}/to-rebind")
    assert network.attempts == [PUBLIC, OTHER_PUBLIC]
    assert Handler.seen == ["/to-rebind"]


def test_a_redirect_to_a_private_address_is_refused(server: str, network: Network) -> None:
    network.routes[PUBLIC] = _port(server)
    with pytest.raises(FetchError, match="127.0.0.1 resolves to a non-public address"):
        fetch_url(f"http://{PUBLIC}:{_port(server)}/to-private")
    assert Handler.seen == ["/to-private"]


def test_allow_private_reaches_a_local_server_by_name(server: str, network: Network) -> None:
    network.answers["lan.example"] = [["127.0.0.1"]]
    assert fetch_url(f"http://lan.example:{_port(server)}/file", allow_private=True) == BODY
    assert Handler.hosts == [f"lan.example:{_port(server)}"]


def test_a_redirect_to_another_scheme_is_refused(server: str) -> None:
    with pytest.raises(FetchError, match="ftp://127.0.0.1/x: only http\\(s\\)"):
        fetch_url(f"{server}/to-ftp", allow_private=True)
    assert Handler.seen == ["/to-ftp"]


def test_allow_private_downloads_from_a_local_server_following_redirects(server: str) -> None:
    assert fetch_url(f"{server}/file", allow_private=True) == BODY
    assert fetch_url(f"{server}/to-file", allow_private=True) == BODY
    assert Handler.seen == ["/file", "/to-file", "/file"]


def test_endless_redirects_are_refused(server: str) -> None:
    with pytest.raises(FetchError, match="more than 10 redirects"):
        fetch_url(f"{server}/loop", allow_private=True)
    assert len(Handler.seen) == 11


# -- sizes and complete bodies --------------------------------------------------------------


def test_a_body_over_the_size_cap_is_refused(server: str) -> None:
    assert fetch_url(f"{server}/unsized", max_bytes=len(BODY), allow_private=True) == BODY
    with pytest.raises(FetchError, match=f"larger than the {len(BODY) - 1} byte fetch limit"):
        fetch_url(f"{server}/unsized", max_bytes=len(BODY) - 1, allow_private=True)


def test_a_content_length_over_the_size_cap_is_refused_before_the_body_is_read(
    raw_server: Callable[[Reply], str],
) -> None:
    head = b"HTTP/1.1 200 OK\r\nContent-Length: 1000000000\r\n\r\n"
    url = raw_server(_then_hold(head))  # no body byte ever comes
    # No byte of body ever comes: had it waited for one, the 10 s deadline's error would come.
    with pytest.raises(FetchError, match="Content-Length of 1000000000 bytes is larger than"):
        fetch_url(f"{url}/big", max_bytes=1000, allow_private=True, deadline=10)


def test_a_body_shorter_than_its_content_length_is_refused(
    raw_server: Callable[[Reply], str],
) -> None:
    url = raw_server(_then_close(b"HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n" + b"x" * 10))
    with pytest.raises(FetchError, match="expected 100 bytes \\(Content-Length\\), received 10"):
        fetch_url(f"{url}/short", allow_private=True)


def test_a_body_as_long_as_its_content_length_is_accepted(
    raw_server: Callable[[Reply], str],
) -> None:
    url = raw_server(_then_close(b"HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\n" + b"x" * 10))
    assert fetch_url(f"{url}/exact", allow_private=True) == b"x" * 10


def test_a_truncated_chunked_body_is_refused(raw_server: Callable[[Reply], str]) -> None:
    head = b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
    url = raw_server(_then_close(head + b"a\r\n0123"))
    with pytest.raises(FetchError, match="download failed \\(IncompleteRead"):
        fetch_url(f"{url}/chunked", allow_private=True)


def test_an_http_error_is_wrapped_in_a_fetch_error(server: str) -> None:
    with pytest.raises(FetchError, match="download failed \\(HTTP Error 404: Not Found"):
        fetch_url(f"{server}/missing", allow_private=True)


def test_a_refused_connection_is_wrapped_in_a_fetch_error() -> None:
    with pytest.raises(FetchError, match="download failed") as info:
        fetch_url("http://127.0.0.1:9/x", allow_private=True)  # discard port: nothing listens
    assert isinstance(info.value.__cause__, ConnectionRefusedError)


# -- one deadline ---------------------------------------------------------------------------


def test_the_deadline_is_sixty_seconds_by_default() -> None:
    assert DEADLINE_SECONDS == 60.0


@pytest.mark.parametrize(
    "reply",
    [
        _drip(b"x" * 100, head=b"HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n"),  # slow body
        _drip(b"HTTP/1.1 200 OK\r\n" + b"X-Slow: a\r\n" * 50),  # slow headers
        _drip(b"x" * 100, head=b"HTTP/1.1 200 OK\r\n\r\n"),  # slow body, no Content-Length
        _then_hold(b""),  # silence after the request
    ],
    ids=["body", "headers", "unsized-body", "silence"],
)
def test_a_slow_server_is_given_up_on_at_the_deadline(
    raw_server: Callable[[Reply], str], reply: Reply
) -> None:
    url = raw_server(reply)
    started = time.monotonic()
    with pytest.raises(FetchError, match=f"{url}/slow: not downloaded within the 1 s fetch"):
        fetch_url(f"{url}/slow", allow_private=True, deadline=1)
    # The deadline fetch_url enforces: not before it, and well before the server would finish
    # (the drips take 20 s and more; silence never ends): a bound on the code, not on the CPU.
    assert 0.9 < time.monotonic() - started < 15


def _after(seconds: float, data: bytes) -> Reply:
    """A reply that waits ``seconds``, then sends ``data`` at once."""

    def reply(conn: socket.socket, stop: threading.Event) -> None:
        if not stop.wait(seconds):
            conn.sendall(data)

    return reply


@pytest.mark.parametrize(("deadline", "is_met"), [(1.0, False), (3.0, True)])
def test_one_deadline_covers_a_fetch_and_its_redirects(
    raw_server: Callable[[Reply], str], deadline: float, is_met: bool
) -> None:
    slow = raw_server(_after(0.6, b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"))
    moved = f"HTTP/1.1 302 Found\r\nLocation: {slow}/x\r\nContent-Length: 0\r\n\r\n"
    first = raw_server(_after(0.6, moved.encode()))
    if is_met:
        assert fetch_url(f"{first}/y", allow_private=True, deadline=deadline) == b"ok"
    else:
        with pytest.raises(FetchError, match=f"{first}/y: not downloaded within the 1 s"):
            fetch_url(f"{first}/y", allow_private=True, deadline=deadline)


# -- TLS: the pinned connection still speaks to the host name -----------------------------


def _certificate(tmp_path: Any, name: str) -> tuple[str, str]:
    """A self-signed certificate for ``name`` and its key, as PEM files."""
    x509 = pytest.importorskip("cryptography.x509")
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec

    key = ec.generate_private_key(ec.SECP256R1())
    subject = x509.Name([x509.NameAttribute(x509.oid.NameOID.COMMON_NAME, name)])
    now = datetime.datetime.now(datetime.UTC)
    cert = (
        x509.CertificateBuilder()
        .subject_name(subject)
        .issuer_name(subject)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(days=1))
        .not_valid_after(now + datetime.timedelta(days=1))
        .add_extension(x509.SubjectAlternativeName([x509.DNSName(name)]), critical=False)
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .sign(key, hashes.SHA256())
    )
    cert_path, key_path = tmp_path / f"{name}.pem", tmp_path / f"{name}.key"
    cert_path.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    key_path.write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )
    return str(cert_path), str(key_path)


@pytest.fixture
def tls_server(tmp_path: Any) -> Iterator[tuple[int, list[str | None], str]]:
    """An HTTPS server on 127.0.0.1 with a certificate for lan.example only.

    Yields its port, the server names clients asked for (SNI), and the certificate file.
    """
    cert, key = _certificate(tmp_path, "lan.example")
    names: list[str | None] = []
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(cert, key)
    context.sni_callback = lambda sock, name, ctx: names.append(name)  # type: ignore[assignment,misc,return-value]
    Handler.seen, Handler.hosts = [], []
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    httpd.socket = context.wrap_socket(httpd.socket, server_side=True)
    thread = threading.Thread(target=httpd.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    try:
        yield httpd.server_address[1], names, cert
    finally:
        httpd.shutdown()
        httpd.server_close()
        thread.join()


def test_https_is_verified_against_the_host_name_not_the_pinned_address(
    tls_server: tuple[int, list[str | None], str],
    network: Network,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    port, names, cert = tls_server
    network.answers["lan.example"] = [["127.0.0.1"]]
    network.answers["other.example"] = [["127.0.0.1"]]
    with pytest.raises(FetchError, match="download failed.*CERTIFICATE_VERIFY_FAILED"):
        fetch_url(f"https://lan.example:{port}/file", allow_private=True)  # not trusted yet
    monkeypatch.setenv("SSL_CERT_FILE", cert)  # trust it: the default context reads this
    assert fetch_url(f"https://lan.example:{port}/file", allow_private=True) == BODY
    with pytest.raises(FetchError, match="download failed.*[Hh]ostname mismatch"):
        fetch_url(f"https://other.example:{port}/file", allow_private=True)
    assert names == ["lan.example", "lan.example", "other.example"]
    assert Handler.hosts == [f"lan.example:{port}"]
