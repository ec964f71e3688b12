"""`toolwire show`: what fails fails before the screen opens, as one line on stderr; what
works opens the app with the feed and targets the flags name."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import toolwire as tw
from toolwire.cli import app
from toolwire.tui import Conversation, SessionApp, StoredSession

from .screens import ANTHROPIC, GROQ, session

runner = CliRunner()


@pytest.fixture
def opened(monkeypatch: pytest.MonkeyPatch) -> list[SessionApp]:
    """The apps ``show`` would run, kept instead of taking over the terminal."""
    apps: list[SessionApp] = []
    monkeypatch.setattr(SessionApp, "run", lambda self, **_: apps.append(self))
    return apps


def test_a_conversation_file_opens_with_every_model(tmp_path: Path, opened: list[Any]) -> None:
    path = tmp_path / "history.json"
    path.write_text(tw.dump_conversation(session()))
    args = ["show", str(path), "-m", ANTHROPIC, "-m", GROQ, "--no-images", "--trust", "paths"]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    [shown] = opened
    assert isinstance(shown.feed, Conversation) and shown.models == [ANTHROPIC, GROQ]
    assert shown.images == "off" and not shown.follow
    assert len(shown.messages) == len(session())


def test_a_stored_session_opens_and_follows(tmp_path: Path, opened: list[Any]) -> None:
    store = tw.SessionStore(tmp_path / "store")
    store.append("s1", tw.User("hello"))
    store.close()
    args = ["show", "s1", "--store", str(tmp_path / "store"), "-m", ANTHROPIC, "--follow"]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    [shown] = opened
    assert isinstance(shown.feed, StoredSession) and shown.follow and shown.images == "auto"


def test_an_unknown_session_is_one_line(tmp_path: Path, opened: list[Any]) -> None:
    store = tw.SessionStore(tmp_path / "store")
    store.append("nape", tw.User("hello"))
    store.close()
    result = runner.invoke(
        app, ["show", "nope", "--store", str(tmp_path / "store"), "-m", ANTHROPIC]
    )
    assert result.exit_code == 1 and not opened
    [line] = result.output.strip().splitlines()
    assert line.startswith("no session 'nope' in this store.") and "nape" in line


def test_a_store_that_does_not_exist_is_one_line(tmp_path: Path, opened: list[Any]) -> None:
    result = runner.invoke(app, ["show", "s1", "--store", str(tmp_path / "none"), "-m", ANTHROPIC])
    assert result.exit_code == 1 and not opened
    assert result.output.strip().splitlines() == [
        f"no session store at {tmp_path / 'none'} (no sessions.db there)"
    ]
    assert not (tmp_path / "none").exists()


def test_an_unreachable_postgresql_server_is_one_line(opened: list[Any]) -> None:
    url = "postgresql://nobody@127.0.0.1:9/db?connect_timeout=1"
    result = runner.invoke(app, ["show", "s1", "--store", url, "--blobs", "/tmp", "-m", ANTHROPIC])
    assert result.exit_code == 1 and not opened
    [line] = result.output.strip().splitlines()
    assert line.startswith("cannot open the session database postgresql://nobody@127.0.0.1:9/db")


def test_follow_needs_a_store(tmp_path: Path, opened: list[Any]) -> None:
    path = tmp_path / "history.json"
    path.write_text(tw.dump_conversation(session()))
    result = runner.invoke(app, ["show", str(path), "-m", ANTHROPIC, "--follow"])
    assert result.exit_code == 1 and not opened
    assert "--follow reads a session store" in result.output


def test_a_conversation_file_that_is_not_there_is_one_line(
    tmp_path: Path, opened: list[Any]
) -> None:
    result = runner.invoke(app, ["show", str(tmp_path / "gone.json"), "-m", ANTHROPIC])
    assert result.exit_code == 1 and not opened
    assert result.output.strip().splitlines() == [
        f"{tmp_path / 'gone.json'}: no such conversation file"
    ]


@pytest.mark.parametrize(
    ("flags", "drawing"),
    [([], "auto"), (["--images", "sixel"], "sixel"), (["--images", "kitty"], "kitty"),
     (["--images", "halfblock"], "halfblock"), (["--images", "kitty", "--no-images"], "off")],
)  # fmt: skip
def test_images_picks_how_pictures_are_drawn(
    tmp_path: Path, opened: list[Any], flags: list[str], drawing: str
) -> None:
    path = tmp_path / "history.json"
    path.write_text(tw.dump_conversation(session()))
    result = runner.invoke(app, ["show", str(path), "-m", ANTHROPIC, "--trust", "paths", *flags])
    assert result.exit_code == 0, result.output
    assert opened[0].images == drawing


def test_an_unknown_way_of_drawing_is_refused(tmp_path: Path, opened: list[Any]) -> None:
    path = tmp_path / "history.json"
    path.write_text(tw.dump_conversation(session()))
    result = runner.invoke(app, ["show", str(path), "-m", ANTHROPIC, "--images", "iterm"])
    assert result.exit_code == 2 and not opened
    assert "'iterm' is not one of" in result.output
