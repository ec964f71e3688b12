"""`toolwire render FILE… --model M`: the request and the decisions, human and JSON."""

from __future__ import annotations

import base64
import inspect
import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import toolwire.tokens
from toolwire.cli import app
from toolwire.cli import render as render_module
from toolwire.cli.render import conversation, shorten
from toolwire.errors import ToolwireError

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
PHOTO = str(EXAMPLES / "photo.png")
PDF = str(EXAMPLES / "report.pdf")
WAV = str(EXAMPLES / "tone.wav")
MODEL = "anthropic:claude-sonnet-4-5"
runner = CliRunner(env={"COLUMNS": "200"})


def render(*args: str) -> Any:
    return runner.invoke(app, ["render", *args])


def as_json(*args: str) -> dict[str, Any]:
    result = render(*args, "--json")
    assert result.exit_code == 0, result.output
    data: dict[str, Any] = json.loads(result.stdout)
    return data


def test_json_output_has_the_model_the_kwargs_and_a_decision_per_file() -> None:
    data = as_json(PHOTO, PDF, "--model", MODEL)
    assert sorted(data) == [
        "budgets_bound", "decisions", "estimated_tokens", "known", "kwargs", "model",
        "warnings", "wire_bytes",
    ]  # fmt: skip
    assert data["estimated_tokens"] > sum(d["tokens"] for d in data["decisions"]) > 0
    assert data["model"] == MODEL
    assert [(d["identifier"], d["media_type"], d["mode"]) for d in data["decisions"]] == [
        ("photo.png", "image/png", "native"),
        ("report.pdf", "application/pdf", "native"),
    ]
    assert data["decisions"][0]["message_index"] == 2
    messages = data["kwargs"]["messages"]
    assert messages[0] == {
        "role": "user",
        "content": [{"type": "text", "text": "Please use the tool."}],
    }
    assert messages[1]["content"][0]["name"] == "read_files"
    image, document = messages[2]["content"][0]["content"]
    size = len(base64.b64encode((EXAMPLES / "photo.png").read_bytes()))
    assert image["source"]["data"] == f"<{size} base64 chars>"
    assert document["title"] == "report.pdf"


def test_full_keeps_the_base64() -> None:
    data = as_json(PHOTO, "--model", MODEL, "--full")
    image = data["kwargs"]["messages"][2]["content"][0]["content"][0]
    assert (
        image["source"]["data"] == base64.b64encode((EXAMPLES / "photo.png").read_bytes()).decode()
    )


def test_fallback_files_show_their_labels_for_a_chat_model() -> None:
    data = as_json(PHOTO, "--model", "openai-chat:gpt-5-mini")
    assert [d["mode"] for d in data["decisions"]] == ["fallback"]
    tool, user = data["kwargs"]["messages"][2:]
    assert tool["content"] == "See file photo.png."
    assert user["content"][0] == {"type": "text", "text": "This is file photo.png:"}
    assert user["content"][1]["image_url"]["url"].startswith("data:image/png;base64,<")


def test_an_unsupported_file_prints_the_error_and_exits_1() -> None:
    result = render(PHOTO, WAV, "--model", MODEL)
    assert result.exit_code == 1
    assert "cannot take 1 file(s)" in result.stderr
    assert "tone.wav (audio/wav) in message 2" in result.stderr
    assert result.stdout == ""


def test_an_error_while_estimating_tokens_is_a_clean_message_not_a_traceback(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # No real input lets encode succeed and the estimate then fail, so the estimate is made to.
    def failing(*args: Any, **kwargs: Any) -> None:
        raise ToolwireError("cannot estimate photo.png")

    monkeypatch.setattr(toolwire.tokens, "estimate_tokens", failing)
    result = render(PHOTO, "--model", "openai-chat:gpt-5-mini")  # a model row: no notice
    assert (result.exit_code, result.stderr, result.stdout) == (
        1,
        "cannot estimate photo.png\n",
        "",
    )


def test_on_unsupported_text_sends_the_description_and_says_so() -> None:
    data = as_json(WAV, "--model", MODEL, "--on-unsupported", "text")
    assert data["decisions"][0]["mode"] == "text"
    assert data["kwargs"]["messages"][2]["content"][0]["content"] == [
        {"type": "text", "text": "[Audio: tone.wav, 1.0 s, 31 KB]"}
    ]


def test_on_unsupported_takes_only_error_or_text() -> None:
    result = render(PHOTO, "--model", MODEL, "--on-unsupported", "drop")
    assert result.exit_code == 2
    assert "drop" in result.output


def test_an_unknown_model_and_a_missing_file_are_clear_errors(tmp_path: Path) -> None:
    result = render(PHOTO, "--model", "antropic:claude")
    assert (result.exit_code, "Did you mean 'anthropic'" in result.stderr) == (1, True)
    result = render(str(tmp_path / "nope.png"), "--model", MODEL)
    assert (result.exit_code, "no such file" in result.stderr) == (1, True)


def test_human_output_prints_the_payload_and_a_decisions_table() -> None:
    result = render(PHOTO, WAV, "--model", MODEL, "--on-unsupported", "text")
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert '"tool_use_id": "call_1"' in out
    assert "base64 chars>" in out
    assert "Decisions" in out
    photo_row = next(line for line in out.splitlines() if "photo.png" in line and "native" in line)
    assert "image/png" in photo_row and "inside the tool result" in photo_row
    assert any("tone.wav" in line and "text" in line for line in out.splitlines())


def test_the_conversation_is_a_question_one_call_and_the_files_as_its_result() -> None:
    user, assistant, tool = conversation([Path(PHOTO), Path(PDF)])
    assert user.parts[0].text == "Please use the tool."
    (call,) = assistant.tool_calls
    assert (call.id, call.name, tool.call_id) == ("call_1", "read_files", "call_1")
    assert [p.name for p in tool.output.value] == ["photo.png", "report.pdf"]


def test_shorten_replaces_only_long_base64_and_keeps_data_url_prefixes() -> None:
    long = "QUJD" * 30
    data = {
        "a": long,
        "b": ["data:image/png;base64," + long, "short"],
        "c": "x " * 60,  # long but not base64: text stays
        "d": 5,
    }
    assert shorten(data) == {
        "a": "<120 base64 chars>",
        "b": ["data:image/png;base64,<120 base64 chars>", "short"],
        "c": "x " * 60,
        "d": 5,
    }
    assert shorten("QUJD" * 20) == "QUJD" * 20  # 80 characters: kept


def _stored_conversation(tmp_path: Path) -> Path:
    import toolwire as tw

    photo = tw.File.from_path(PHOTO, name="photo.png")
    messages = [
        tw.System("Be brief."),
        tw.User("What is on screen?"),
        tw.Assistant([tw.ToolCall(id="c1", name="screenshot", arguments={})]),
        tw.ToolResult.of("c1", "screenshot", [photo, "captured"]),
    ]
    path = tmp_path / "conversation.json"
    path.write_text(tw.dump_conversation(messages))
    return path


def test_a_stored_conversation_renders_for_a_model_that_needs_a_fallback_turn(
    tmp_path: Path,
) -> None:
    stored = str(_stored_conversation(tmp_path))
    data = as_json("--conversation", stored, "--model", "mistral:x", "--trust", "paths")
    roles = [m["role"] for m in data["kwargs"]["messages"]]
    assert roles == ["system", "user", "assistant", "tool", "assistant", "user"]
    assert data["kwargs"]["messages"][3]["content"] == "See file photo.png.\n\ncaptured"
    assert [(d["identifier"], d["mode"]) for d in data["decisions"]] == [("photo.png", "fallback")]


def test_render_wants_either_files_or_a_conversation(tmp_path: Path) -> None:
    stored = str(_stored_conversation(tmp_path))
    assert render("--model", MODEL).exit_code == 2
    assert render(PHOTO, "--conversation", stored, "--model", MODEL).exit_code == 2


def test_a_file_that_is_not_a_conversation_is_a_clear_error(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('[{"role": "robot"}]')
    result = render("--conversation", str(bad), "--model", MODEL)
    assert result.exit_code == 1
    assert "not a toolwire conversation" in result.stderr


def test_the_render_command_stays_within_the_30_lines_style_md_allows() -> None:
    lines, _ = inspect.getsourcelines(render_module.render)
    assert len(lines) <= 30


def test_an_unsupported_file_error_names_the_cli_flag_not_the_python_keyword() -> None:
    result = render(PHOTO, WAV, "--model", MODEL)
    assert result.exit_code == 1
    assert "Pass --on-unsupported convert to convert" in result.stderr
    assert "--on-unsupported text to send" in result.stderr
    assert "on_unsupported=" not in result.stderr


@pytest.mark.parametrize(
    ("text", "line"),
    [
        (
            '[{"role": "user", "content": "hi"},\n {"role": "assistant", "content": [{"type": "te',
            "bad.json: Invalid JSON: EOF while parsing a string at line 2 column 47",
        ),
        (
            '[{"role": "user", "content": "hi"}, {"role": "assistant", "content": [{"type": "text"}]}]',
            "bad.json: not a toolwire conversation: message 1, field content[0].text: Field required",
        ),
        (
            '[{"role": "user", "content": [{"type": "file", "media_type": "image/png",'
            ' "source": {"type": "bytes", "data": "!!"}}]}]',
            "bad.json: not a toolwire conversation: message 0, field content[0].source.data: "
            "Data should be valid base64: Invalid symbol 33, offset 0. (and 1 more error)",
        ),
        (
            '{"role": "user", "content": "hi"}',
            "bad.json: not a toolwire conversation (a JSON list of messages): "
            "Input should be a valid array",
        ),
    ],
)
def test_a_malformed_conversation_is_one_line_with_the_path_and_the_position(
    tmp_path: Path, text: str, line: str
) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(text)
    result = render("--conversation", str(bad), "--model", MODEL)
    assert (result.exit_code, result.stdout) == (1, "")
    assert result.stderr == f"{tmp_path}/{line}\n"


def test_a_model_nobody_names_gets_a_warning_naming_the_defaults_and_still_renders() -> None:
    from toolwire.model_facts import dataset_version

    result = render(PHOTO, "--model", "anthropic:claude-nonexistent-9", "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["model"] == "anthropic:claude-nonexistent-9"
    assert result.stderr.startswith(
        "warning: unknown model anthropic:claude-nonexistent-9: neither toolwire's capability "
        f"table nor models.dev {dataset_version()} names it, so it gets the anthropic defaults "
        "(images native, PDF native, audio error; `toolwire matrix --model anthropic` shows "
        "them; pass capabilities= to say what it reads). Did you mean claude-"
    )
    assert result.stderr.count("\n") == 1  # one line; the Python warning is not shown twice


def test_a_model_a_row_matches_renders_without_a_notice() -> None:
    result = render(PHOTO, "--model", "openai-chat:gpt-5-mini", "--json")
    assert (result.exit_code, result.stderr) == (0, "")


def test_render_piped_to_a_file_draws_a_wide_table(tmp_path: Path) -> None:
    """Piped output has no terminal to fit: the Decisions table is drawn 200 columns wide,
    so its reason column is readable (COLUMNS, where set, still wins)."""
    import os
    import subprocess
    import sys

    photo = tmp_path / "photo.png"
    photo.write_bytes((EXAMPLES / "photo.png").read_bytes())
    env = {k: v for k, v in os.environ.items() if k != "COLUMNS"}
    done = subprocess.run(
        [sys.executable, "-m", "toolwire", "render", str(photo), "--model", "groq:llama-3.3-70b-versatile", "--on-unsupported", "text"],
        capture_output=True, text=True, env=env, timeout=120,
    )  # fmt: skip
    widest = max(len(line) for line in done.stdout.splitlines())
    assert 120 < widest <= 200, done.stdout[-2000:]


def test_json_says_which_source_names_the_model_and_carries_the_warning() -> None:
    """--json readers see what stderr says (issue 35): the model's source and any warning."""
    known = as_json(PHOTO, "--model", "mistral:mistral-large-latest")
    assert (known["known"], known["warnings"]) == ("models.dev", [])
    typo = render(PHOTO, "--model", "anthropic:claude-sonet-4-5", "--json")
    assert typo.exit_code == 0, typo.output
    data = json.loads(typo.stdout)  # stdout stays one JSON document
    assert data["known"] is None
    (warning,) = data["warnings"]
    assert warning.startswith("unknown model anthropic:claude-sonet-4-5:")
    assert "Did you mean claude-sonnet-4-5" in warning
    assert typo.stderr == f"warning: {warning}\n"
