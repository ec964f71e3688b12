"""Store connections fail fast, with the cause (issue 35, item 2): a wrong PostgreSQL port is
"Connection refused" at once (it was "pool initialization incomplete after 30.0 sec"), a
silent server is given ``connect_timeout`` seconds, a missing S3 bucket is found when the store
opens (it was a truncated "…404 Not Foun…" at the first append), and every command that takes
--store takes --blobs."""

from __future__ import annotations

import http.server
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import typer

import toolwire as tw
from toolwire.cli import app
from toolwire.store import SessionStore

from . import servers


def test_a_wrong_postgresql_port_says_connection_refused(tmp_path: Path) -> None:
    with pytest.raises(tw.StoreError) as caught:
        SessionStore("postgresql://agent@127.0.0.1:1/agents", blobs=tmp_path)
    message = str(caught.value)
    assert message.startswith("cannot open the session database postgresql://agent@127.0.0.1:1")
    assert "Connection refused" in message and "(connect_timeout 5 s)" in message
    assert "pool initialization" not in message and "\n" not in message


@pytest.fixture
def silent_server() -> Iterator[int]:
    """A port that takes connections (the kernel's backlog) and never answers."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        sock.listen(8)
        yield int(sock.getsockname()[1])


def test_a_server_that_never_answers_is_given_connect_timeout_seconds(
    silent_server: int, tmp_path: Path
) -> None:
    url = f"postgresql://agent@127.0.0.1:{silent_server}/agents"
    started = time.monotonic()
    with pytest.raises(tw.StoreError, match=r"timeout.*\(connect_timeout 2 s\)"):
        SessionStore(url, blobs=tmp_path, connect_timeout=2)
    assert time.monotonic() - started < 20  # the deadline the store enforces (was 30 s)


def test_the_urls_connect_timeout_is_used_when_none_is_given(
    silent_server: int, tmp_path: Path
) -> None:
    url = f"postgresql://agent@127.0.0.1:{silent_server}/agents?connect_timeout=3"
    with pytest.raises(tw.StoreError, match=r"\(connect_timeout 3 s\)"):
        SessionStore(url, blobs=tmp_path)


@pytest.mark.parametrize("value", [0, -1.0, float("nan")])
def test_a_connect_timeout_that_is_not_positive_is_refused(value: float, tmp_path: Path) -> None:
    with pytest.raises(tw.StoreError, match="connect_timeout must be a positive number"):
        SessionStore("postgresql://agent@127.0.0.1:1/agents", blobs=tmp_path, connect_timeout=value)


@pytest.mark.usefixtures("s3_server")
def test_a_missing_bucket_is_found_when_the_store_opens(tmp_path: Path) -> None:
    with pytest.raises(tw.StoreError) as caught:
        SessionStore(tmp_path / "s", blobs="s3://no-such-bucket/sessions")
    message = str(caught.value)
    assert message.startswith("cannot open the blob store s3://no-such-bucket/sessions: ")
    assert "(NoSuchBucket: The specified bucket does not exist)" in message
    assert "create the bucket" in message and "<?xml" not in message and "Foun…" not in message


@pytest.mark.usefixtures("s3_server")
def test_a_new_prefix_of_an_existing_bucket_opens(tmp_path: Path) -> None:
    with SessionStore(tmp_path / "s", blobs=f"s3://{servers.BUCKET}/brand-new") as store:
        store.append("s1", tw.User("hi"))


def test_an_unreachable_object_store_says_connection_refused(tmp_path: Path) -> None:
    options = {
        "endpoint": "http://127.0.0.1:1",
        "access_key_id": "x",
        "secret_access_key": "x",
        "region": "us-east-1",
    }
    with pytest.raises(
        tw.StoreError, match=r"cannot open the blob store s3://b/p: .*\(Connection refused\)"
    ):
        SessionStore(tmp_path / "s", blobs="s3://b/p", blob_options=options)


def _commands(group: Any, prefix: str = "") -> Iterator[tuple[str, Any]]:
    """Every leaf command of a (typer or click) group, by its full name."""
    for name, command in group.commands.items():
        if hasattr(command, "commands"):
            yield from _commands(command, f"{prefix}{name} ")
        else:
            yield f"{prefix}{name}", command


def test_every_command_that_takes_store_takes_blobs() -> None:
    root = typer.main.get_command(app)
    with_store = {
        name: {o for p in command.params for o in getattr(p, "opts", ())}
        for name, command in _commands(root)
        if any("--store" in getattr(p, "opts", ()) for p in command.params)
    }
    assert {"view", "sessions list", "sessions render"} <= set(with_store)
    assert [name for name, opts in with_store.items() if "--blobs" not in opts] == []


class _Forbidding(http.server.BaseHTTPRequestHandler):
    """An S3 endpoint whose credentials may not list (S3's answer without s3:ListBucket)."""

    def do_GET(self) -> None:  # noqa: N802 (the http.server spelling)
        body = (
            b'<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>AccessDenied</Code>'
            b"<Message>Access Denied</Message></Error>"
        )
        self.send_response(403)
        self.send_header("Content-Type", "application/xml")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
        """Quiet: one line per request is noise in the test output."""


def test_credentials_that_may_not_list_still_open_the_store(tmp_path: Path) -> None:
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Forbidding)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        options = {
            "endpoint": f"http://127.0.0.1:{server.server_address[1]}",
            "access_key_id": "x",
            "secret_access_key": "x",
            "region": "us-east-1",
        }
        store = SessionStore(tmp_path / "s", blobs="s3://b/p", blob_options=options)
        store.close()
    finally:
        server.shutdown()
        server.server_close()
