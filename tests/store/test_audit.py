"""Audit of issue 19's store fixes: lone surrogates (valid JSON, e.g. from a decoded reply)
are kept or refused as StoreErrors, never a UnicodeEncodeError from the database driver."""

from __future__ import annotations

import json

import pytest

import toolwire as tw
from toolwire.store.sessions import SessionStore


def test_a_message_holding_a_lone_surrogate_is_stored_and_replays_exactly(tmp_path):
    store = SessionStore(tmp_path / "s")
    call = tw.ToolCall(id="functions.x:0\ud800", name="x", arguments={"q": "\udcff"})
    messages = [tw.User("hi \ud800"), tw.Assistant([call])]

    store.extend("s1", messages)

    assert store.load("s1") == messages


def test_an_export_holding_a_lone_surrogate_is_writable_utf8_and_imports_back(tmp_path):
    store = SessionStore(tmp_path / "s")
    store.append("s1", tw.User("hi \ud800 é"))

    text = store.export("s1")

    text.encode("utf-8")  # a file can hold it
    other = SessionStore(tmp_path / "t")
    assert other.load(other.import_(text)) == [tw.User("hi \ud800 é")]


@pytest.mark.parametrize("call", ["append", "load", "import"])
def test_a_session_id_holding_a_lone_surrogate_is_a_store_error(tmp_path, call):
    store = SessionStore(tmp_path / "s")
    export = {"format": "toolwire.session", "version": 1, "id": "s\ud800", "messages": []}
    run = {
        "append": lambda: store.append("s\ud800", tw.User("hi")),
        "load": lambda: store.load("s\ud800"),
        "import": lambda: store.import_(json.dumps(export)),
    }[call]

    with pytest.raises(tw.StoreError, match="lone surrogate"):
        run()


CONTROLS = "\x1b]0;retitled\x07\x1b[2J\r\u202e"
UNPRINTABLE = [c for c in CONTROLS if not c.isprintable()]


@pytest.mark.parametrize("command", ["list", "show"])
def test_sessions_list_and_show_print_no_terminal_controls_from_a_session(tmp_path, command):
    from typer.testing import CliRunner

    from toolwire.cli import app

    store = SessionStore(tmp_path / "s")
    name = f"a{CONTROLS}.txt"
    file = tw.File.from_bytes(b"hello\n", "text/plain", name=name)
    store.extend(f"s{CONTROLS}", [tw.User(f"hi {CONTROLS}"), tw.ToolResult.of("c", "n", file)])
    args = ["sessions", command, *([f"s{CONTROLS}"] if command == "show" else [])]

    result = CliRunner().invoke(app, [*args, "--store", str(tmp_path / "s")])

    assert result.exit_code == 0, result.output
    assert not any(c in result.output for c in UNPRINTABLE)
    assert "\\x1b]0;retitled" in result.output  # shown, as an escape


def test_a_store_error_naming_a_file_prints_no_terminal_controls(tmp_path):
    from typer.testing import CliRunner

    from toolwire.cli import app

    store = SessionStore(tmp_path / "s")
    file = tw.File.from_bytes(b"hello\n", "text/plain", name=f"a{CONTROLS}.txt")
    store.append("s1", tw.User([file]))
    for digest in list(store.blobs.digests()):
        store.blobs.path(digest).unlink()  # the error names the file whose blob is missing

    result = CliRunner().invoke(app, ["sessions", "show", "s1", "--store", str(tmp_path / "s")])

    assert result.exit_code == 1 and "is missing" in result.output
    assert not any(c in result.output for c in UNPRINTABLE)


def test_a_password_given_as_a_postgres_url_parameter_is_not_in_the_error(monkeypatch, tmp_path):
    pytest.importorskip("psycopg_pool")
    from toolwire.store import postgres

    monkeypatch.setattr(postgres, "CONNECT_TIMEOUT_S", 0.5)  # port 1 refuses at once
    url = "postgresql://u@127.0.0.1:1/db?sslmode=disable&password=qsecret"

    with pytest.raises(tw.StoreError) as caught:
        SessionStore(url, blobs=tmp_path / "blobs")

    assert "qsecret" not in str(caught.value)
    assert "127.0.0.1:1/db?sslmode=disable&password=***" in str(caught.value)
