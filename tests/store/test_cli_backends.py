"""Every `toolwire sessions` subcommand on every backend (SQLite or PostgreSQL rows, directory or
S3 blobs): list, show, render, copy and upload read and write the store the same way."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner
from uploads.servers import files_server

import toolwire as tw
from toolwire.cli import app
from toolwire.request import encode

from .conftest import Backend

PHOTO = Path(__file__).parents[2] / "examples" / "photo.png"
MODEL = "anthropic:claude-sonnet-4-5"
runner = CliRunner()


def _where(backend: Backend) -> list[str]:
    return ["--store", backend.location, *(["--blobs", backend.blobs] if backend.blobs else [])]


@pytest.fixture
def stored(backend: Backend) -> Backend:
    with backend.open() as store:
        call = tw.ToolCall(id="c1", name="shot", arguments={})
        store.extend(
            "demo",
            [
                tw.User("Take a screenshot."),
                tw.Assistant([call]),
                tw.ToolResult.of("c1", "shot", tw.File.from_path(PHOTO, name="photo.png")),
            ],
        )
    return backend


def _run(*args: str) -> str:
    result = runner.invoke(app, ["sessions", *args])
    assert result.exit_code == 0, result.output
    return result.stdout


def test_list_show_and_render_read_the_session_on_every_backend(stored: Backend) -> None:
    (info,) = json.loads(_run("list", *_where(stored), "--json"))
    assert (info["id"], info["messages"], info["files"]) == ("demo", 3, 1)
    shown = tw.load_conversation(_run("show", "demo", *_where(stored), "--json"), trust=("paths",))
    digest = tw.File.from_path(PHOTO).source.sha256()
    assert shown[2].output.value[0].source.sha256() == digest  # by reference: bytes stay put
    assert "[file] photo.png image/png" in _run("show", "demo", *_where(stored))
    rendered = json.loads(_run("render", "demo", "--model", MODEL, *_where(stored), "--json"))
    with stored.open() as store:
        assert rendered["kwargs"] == encode(store.load("demo"), MODEL).to_json()


def test_view_reads_a_stored_session_on_every_backend(stored: Backend) -> None:
    """``toolwire view ID --store postgresql://… --blobs s3://…`` (issue 35: the URL was read
    as a local path, and view had no --blobs)."""
    result = runner.invoke(app, ["view", "demo", "--model", MODEL, *_where(stored)])
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("<!doctype html>") or "<html" in result.stdout[:200]
    assert "photo.png" in result.stdout and "Take a screenshot." in result.stdout


def test_copy_takes_sessions_out_of_and_back_into_every_backend(
    stored: Backend, tmp_path: Path
) -> None:
    out = tmp_path / "copied"
    source = [stored.location, *(["--blobs", stored.blobs] if stored.blobs else [])]
    assert "copied 1 session(s): demo" in _run("copy", *source, str(out))
    with stored.open() as store:
        store.delete("demo")
        before = tw.SessionStore(out).export("demo")
    target = [stored.location, *(["--to-blobs", stored.blobs] if stored.blobs else [])]
    _run("copy", str(out), *target)
    with stored.open() as store:
        assert store.export("demo") == before


def test_upload_keeps_ids_in_every_backend(
    stored: Backend, monkeypatch: pytest.MonkeyPatch
) -> None:
    with files_server("anthropic") as (url, state):
        monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-cli")
        monkeypatch.setenv("ANTHROPIC_BASE_URL", url)
        args = ["upload", "demo", "--model", MODEL, *_where(stored), "--min-bytes", "1", "--json"]
        first, second = json.loads(_run(*args)), json.loads(_run(*args))
    assert [o["uploaded"] for o in first + second] == [True, False]
    assert len(state.uploads) == 1 and state.violations == []


def test_an_unknown_session_is_the_same_error_on_every_backend(stored: Backend) -> None:
    result = runner.invoke(app, ["sessions", "show", "dem", *_where(stored)])
    assert result.exit_code == 1 and "no session 'dem'" in result.stderr
    assert "'demo'" in result.stderr and "Traceback" not in result.output
