"""`toolwire view` and `toolwire render --html`: the page from a file, a session, or FILEs."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

import toolwire as tw
from toolwire.cli import app

from .conversations import EXAMPLES, tour

runner = CliRunner()
CLAUDE, MISTRAL = "anthropic:claude-sonnet-4-5", "mistral:mistral-large-latest"


def saved(tmp_path: Path) -> Path:
    path = tmp_path / "history.json"
    path.write_text(tw.dump_conversation(tour()), encoding="utf-8")
    return path


def test_view_writes_one_page_comparing_every_model_given(tmp_path: Path) -> None:
    out = tmp_path / "view.html"
    args = ["view", str(saved(tmp_path)), "-m", CLAUDE, "--model", MISTRAL, "-o", str(out)]
    args += ["--trust", "paths"]  # the tour's files are the examples on this machine
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    page = out.read_text("utf-8")
    assert page == tw.view(tour(), [CLAUDE, MISTRAL])
    assert result.stderr.endswith(f"wrote {out} ({len(page.encode()):,} bytes)\n")


def test_view_without_output_prints_the_page(tmp_path: Path) -> None:
    result = runner.invoke(app, ["view", str(saved(tmp_path)), "-m", CLAUDE, "--trust", "paths"])
    assert result.exit_code == 0, result.output
    assert result.stdout == tw.view(tour(), CLAUDE)


def test_view_reads_a_stored_session_by_id(tmp_path: Path) -> None:
    with tw.SessionStore(tmp_path / "store") as store:
        store.extend("demo", tour())
    out = tmp_path / "session.html"
    args = ["view", "demo", "--store", str(tmp_path / "store"), "-m", MISTRAL, "-o", str(out)]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    assert "added by toolwire: roles must alternate" in out.read_text("utf-8")


def test_an_unknown_session_or_unreadable_file_is_one_message_and_exit_1(tmp_path: Path) -> None:
    with tw.SessionStore(tmp_path / "store"):
        pass
    result = runner.invoke(app, ["view", "nope", "--store", str(tmp_path / "store"), "-m", CLAUDE])
    assert result.exit_code == 1 and "nope" in result.stderr
    missing = tmp_path / "missing.json"
    result = runner.invoke(app, ["view", str(missing), "-m", CLAUDE])
    assert result.exit_code == 1
    assert result.stderr == f"{missing}: cannot read (No such file or directory)\n"


def test_an_output_that_cannot_be_written_names_the_path(tmp_path: Path) -> None:
    out = tmp_path / "no-such-dir" / "view.html"
    result = runner.invoke(
        app, ["view", str(saved(tmp_path)), "-m", CLAUDE, "-o", str(out), "--trust", "paths"]
    )
    assert result.exit_code == 1
    assert result.stderr == f"{out}: cannot write the page (No such file or directory)\n"


def test_render_html_writes_the_view_of_the_files_conversation(tmp_path: Path) -> None:
    out = tmp_path / "render.html"
    photo, wav = str(EXAMPLES / "photo.png"), str(EXAMPLES / "tone.wav")
    result = runner.invoke(app, ["render", photo, "-m", CLAUDE, "--html", str(out)])
    assert result.exit_code == 0, result.output
    page = out.read_text("utf-8")
    assert "<b>photo.png</b>" in page and "result of read_files (call_1)" in page
    result = runner.invoke(app, ["render", photo, wav, "-m", CLAUDE, "--html", str(out)])
    assert result.exit_code == 1 and "--on-unsupported text" in result.stderr
