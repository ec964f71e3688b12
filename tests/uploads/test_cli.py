"""`toolwire sessions upload`: the official SDK client from the environment, pointed at the
Files API stand-ins of servers.py (never a provider), a progress bar, the ids printed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from store.conftest import fresh_database, pg_server  # noqa: F401  (the cluster fixture)
from typer.testing import CliRunner

import toolwire as tw
from toolwire.cli import app

from .conftest import ANTHROPIC, FLAVOURS, GEMINI, MISTRAL, history, pdf, png
from .servers import files_server

runner = CliRunner()
#: flavour -> (key variable, base-URL variable, path the SDK expects after the server URL)
ENVIRONMENT = {
    "anthropic": ("ANTHROPIC_API_KEY", "ANTHROPIC_BASE_URL", ""),
    "openai": ("OPENAI_API_KEY", "OPENAI_BASE_URL", "/v1"),
    "google": ("GEMINI_API_KEY", "GOOGLE_GEMINI_BASE_URL", ""),
    "mistral": ("MISTRAL_API_KEY", "MISTRAL_BASE_URL", ""),
    "xai": ("XAI_API_KEY", "XAI_BASE_URL", "/v1"),
}


def _point_at(monkeypatch: pytest.MonkeyPatch, flavour: str, url: str) -> None:
    key, base, path = ENVIRONMENT[flavour]
    monkeypatch.setenv(key, "sk-cli-test")
    monkeypatch.setenv(base, url + path)


def _upload(store: str, model: str, *extra: str) -> tuple[int, str, str]:
    result = runner.invoke(
        app, ["sessions", "upload", "s1", "--model", model, "--store", store, *extra]
    )
    return result.exit_code, result.stdout, result.stderr


@pytest.mark.parametrize("model", [m for m in FLAVOURS if m != MISTRAL])  # table: no ids
def test_upload_sends_each_file_once_through_the_sdk_built_from_the_environment(
    model, monkeypatch, tmp_path
):
    flavour = FLAVOURS[model]
    tw.SessionStore(tmp_path).extend("s1", history(pdf(seed=21), pdf(seed=22)))
    with files_server(flavour) as (url, state):
        _point_at(monkeypatch, flavour, url)
        code, out, err = _upload(str(tmp_path), model, "--json")
        assert code == 0, err
        again_code, again, _ = _upload(str(tmp_path), model, "--json")
        assert state.violations == []
    first, second = json.loads(out), json.loads(again)
    assert again_code == 0 and len(state.uploads) == 2
    names = sorted(o["file_id"].rsplit("/", 1)[-1] for o in first)  # Gemini's are URIs
    assert names == sorted(u.file_id.rsplit("/", 1)[-1] for u in state.uploads)
    assert [o["uploaded"] for o in first] == [True, True]
    assert [o["uploaded"] for o in second] == [False, False]


def test_upload_shows_a_progress_bar_per_file_and_a_table_of_ids(monkeypatch, tmp_path):
    tw.SessionStore(tmp_path).extend("s1", history(pdf(size=300_000, seed=23, name="big.pdf")))
    with files_server("anthropic") as (url, state):
        _point_at(monkeypatch, "anthropic", url)
        code, out, err = _upload(str(tmp_path), ANTHROPIC)
    assert code == 0, err
    assert "big.pdf" in err and "300.0/300.0 kB" in err  # the bar, finished
    assert state.uploads[0].file_id in out and "uploaded" in out and "big.pdf" in out


def test_upload_prints_terminal_controls_in_stored_names_as_escapes(monkeypatch, tmp_path):
    hostile = pdf(size=100_000, seed=28, name="\x1b]0;owned\x07doc.pdf")
    tw.SessionStore(tmp_path).extend("s1", history(hostile))
    with files_server("anthropic") as (url, _):
        _point_at(monkeypatch, "anthropic", url)
        code, out, err = _upload(str(tmp_path), ANTHROPIC)
    assert code == 0, err
    assert "\x1b" not in out + err and "\x07" not in out + err
    assert "\\x1b]0;owned" in out


def test_upload_on_a_postgres_store_keeps_the_ids_in_its_database(
    monkeypatch,
    tmp_path,
    pg_server,  # noqa: F811 - the fixture imported above
):
    database, blobs = fresh_database(pg_server), str(tmp_path / "blobs")
    with tw.SessionStore(database, blobs=blobs) as store:
        store.extend("s1", history(pdf(seed=24)))
    with files_server("google") as (url, state):
        _point_at(monkeypatch, "google", url)
        first = _upload(database, GEMINI, "--blobs", blobs, "--json")
        second = _upload(database, GEMINI, "--blobs", blobs, "--json")
    assert first[0] == 0 and second[0] == 0, first[2] + second[2]
    assert len(state.uploads) == 1
    assert json.loads(second[1])[0]["file_id"] == json.loads(first[1])[0]["file_id"]


def test_upload_without_the_key_names_the_variable_to_set(monkeypatch, tmp_path):
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    tw.SessionStore(tmp_path).extend("s1", history(pdf(seed=25)))
    code, _, err = _upload(str(tmp_path), ANTHROPIC)
    assert code == 1 and "set ANTHROPIC_API_KEY" in " ".join(err.split())
    assert "Traceback" not in err


def test_upload_for_a_model_without_a_files_api_says_so(tmp_path):
    tw.SessionStore(tmp_path).extend("s1", history(pdf(seed=26)))
    code, _, err = _upload(str(tmp_path), "groq:llama-3.3-70b-versatile")
    assert code == 1 and "cannot reference uploaded files" in err


@pytest.mark.parametrize(
    ("model", "file"),
    [(ANTHROPIC, lambda: pdf(size=1_000, seed=27)), (MISTRAL, lambda: png(edge=300, seed=27))],
    ids=["small", "mistral images"],
)
def test_upload_of_files_that_stay_inline_has_nothing_to_upload(
    model, file, monkeypatch, tmp_path: Path
):
    tw.SessionStore(tmp_path).extend("s1", history(file()))
    with files_server(FLAVOURS[model]) as (url, state):
        _point_at(monkeypatch, FLAVOURS[model], url)
        code, out, err = _upload(str(tmp_path), model)
    assert code == 0, err
    assert "nothing to upload" in out and state.uploads == []
