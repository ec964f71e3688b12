"""`toolwire sessions list|show|render` against a real store."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

import toolwire as tw
from toolwire.cli import app
from toolwire.request import encode

EXAMPLES = Path(__file__).parents[2] / "examples"
runner = CliRunner()


@pytest.fixture
def store(tmp_path):
    store = tw.SessionStore(tmp_path)
    store.extend(
        "demo",
        [
            tw.User("Take a screenshot."),
            tw.Assistant([tw.ToolCall(id="c1", name="shot", arguments={"zoom": 2})]),
            tw.ToolResult.of(
                "c1", "shot", [tw.File.from_path(EXAMPLES / "photo.png", name="photo.png"), "ok"]
            ),
        ],
    )
    return tmp_path


def test_list_shows_each_session_with_its_counts(store):
    result = runner.invoke(app, ["sessions", "list", "--store", str(store), "--json"])
    assert result.exit_code == 0, result.output
    (info,) = json.loads(result.output)
    size = (EXAMPLES / "photo.png").stat().st_size
    assert (info["id"], info["messages"], info["files"], info["file_bytes"]) == ("demo", 3, 1, size)
    human = runner.invoke(app, ["sessions", "list", "--store", str(store)])
    assert "demo" in human.output and f"{size:,}" in human.output


def test_show_lists_messages_with_calls_and_files(store):
    result = runner.invoke(app, ["sessions", "show", "demo", "--store", str(store)])
    assert result.exit_code == 0, result.output
    assert '[call c1] shot({"zoom": 2})' in result.output
    assert "[file] photo.png image/png" in result.output
    as_json = runner.invoke(app, ["sessions", "show", "demo", "--store", str(store), "--json"])
    assert (
        tw.load_conversation(as_json.output, trust=("paths",))[2].output.value[0].read()[:4]
        == b"\x89PNG"
    )


def test_render_prints_the_request_and_a_decision_per_file(store, monkeypatch):
    monkeypatch.setenv("TOOLWIRE_STORE", str(store))
    args = ["sessions", "render", "demo", "--model", "openai-chat:gpt-5-mini", "--json"]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    rendered = json.loads(result.output)
    (decision,) = rendered["decisions"]
    assert (decision["identifier"], decision["mode"]) == ("photo.png", "fallback")
    expected = encode(tw.SessionStore(store).load("demo"), "openai-chat:gpt-5-mini")
    assert rendered["kwargs"] == expected.to_json()
    human = runner.invoke(app, args[:-1])
    assert "This is file photo.png:" in human.output and "chars)" in human.output


def test_an_unknown_session_is_an_error_with_a_suggestion_not_a_traceback(store):
    result = runner.invoke(app, ["sessions", "show", "dem", "--store", str(store)])
    assert result.exit_code == 1
    assert "no session 'dem'" in result.output and "'demo'" in result.output
    assert "Traceback" not in result.output


def test_a_missing_store_is_an_error_and_is_not_created(tmp_path):
    result = runner.invoke(app, ["sessions", "list", "--store", str(tmp_path / "none")])
    assert result.exit_code == 1
    assert "no session store at" in result.output
    assert not (tmp_path / "none").exists()


@pytest.fixture
def audio_store(tmp_path):
    tw.SessionStore(tmp_path).append("voice", tw.User([tw.File.from_path(EXAMPLES / "tone.wav")]))
    return str(tmp_path)


def test_render_names_its_on_unsupported_flag_and_takes_it_like_render(audio_store):
    args = ["sessions", "render", "voice", "--model", "openai-chat:gpt-5", "--store", audio_store]
    refused = runner.invoke(app, args)
    assert refused.exit_code == 1
    assert "Pass --on-unsupported convert" in refused.stderr
    assert "--on-unsupported text to send each" in refused.stderr
    assert "on_unsupported=" not in refused.stderr
    for flag in (["--on-unsupported", "text"], ["--text-fallbacks"]):  # the second: hidden alias
        result = runner.invoke(app, [*args, *flag, "--json"])
        assert result.exit_code == 0, result.output
        assert [d["mode"] for d in json.loads(result.stdout)["decisions"]] == ["text"]
    assert "--text-fallbacks" not in runner.invoke(app, ["sessions", "render", "--help"]).output


def test_the_default_store_is_dot_toolwire_in_the_working_directory(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("TOOLWIRE_STORE", raising=False)
    tw.SessionStore(".toolwire").append("here", tw.User("hi"))
    result = runner.invoke(app, ["sessions", "list", "--json"])
    assert result.exit_code == 0, result.output
    assert [info["id"] for info in json.loads(result.stdout)] == ["here"]
    usage = runner.invoke(app, ["sessions", "list", "--help"], env={"COLUMNS": "200"}).output
    assert re.search(r"--store +DIR", usage) and "default .toolwire, or $TOOLWIRE_STORE" in usage


def test_copy_moves_sessions_to_postgresql_and_s3_and_list_reads_them_there(
    store, tmp_path, pg_server, s3_server
):
    """PostgreSQL: a private cluster; S3: moto's emulator, reached through AWS_ENDPOINT_URL."""
    from .conftest import fresh_database, fresh_prefix

    url, bucket = fresh_database(pg_server), fresh_prefix()
    copied = runner.invoke(app, ["sessions", "copy", str(store), url, "--to-blobs", bucket])
    assert copied.exit_code == 0, copied.output
    assert "copied 1 session(s): demo" in copied.output
    listed = runner.invoke(app, ["sessions", "list", "--store", url, "--blobs", bucket, "--json"])
    assert listed.exit_code == 0, listed.output
    (info,) = json.loads(listed.stdout)
    assert (info["id"], info["messages"], info["files"]) == ("demo", 3, 1)
    back = tmp_path / "back"
    args = ["sessions", "copy", url, str(back), "--blobs", bucket, "--session", "demo"]
    assert runner.invoke(app, args).exit_code == 0
    assert tw.SessionStore(back).export("demo") == tw.SessionStore(store).export("demo")
    again = runner.invoke(app, args)
    assert again.exit_code == 1 and "already holds session(s) 'demo'" in again.stderr


def test_a_postgresql_store_without_blobs_is_an_error_naming_the_flag_to_pass(monkeypatch):
    monkeypatch.delenv("TOOLWIRE_BLOBS", raising=False)
    result = runner.invoke(app, ["sessions", "list", "--store", "postgresql://db/agents"])
    assert result.exit_code == 1
    assert "pass --blobs s3://bucket/prefix" in result.stderr.replace("\n", "")
