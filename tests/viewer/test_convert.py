"""The view with on_unsupported="convert": converted parts are shown where the plan put them."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

import toolwire as tw
from toolwire import capabilities
from toolwire.cli import app
from toolwire.viewer.layout import FALLBACK_ADDED, laid_out

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
GROQ = "groq:meta-llama/llama-4-scout-17b-16e-instruct"  # images, no PDFs: pages are converted


def view_turns(messages: Any, caps: Any, on_unsupported: Any) -> tuple[Any, ...]:
    """The view's turns of the plan ``encode`` makes (``tw.plan_request``)."""
    target = f"{caps.provider}:{caps.model}"
    planned = tw.plan_request(messages, target, on_unsupported=on_unsupported, capabilities=caps)
    return laid_out(messages, planned)


def report_turn() -> list[object]:
    call = tw.ToolCall(id="c1", name="read", arguments={})
    report = tw.File.from_path(EXAMPLES / "report.pdf")
    return [tw.User("read it"), tw.Assistant([call]), tw.ToolResult.of("c1", "read", report)]


def test_converted_pages_are_shown_in_the_message_the_plan_added_for_them() -> None:
    turns = view_turns(report_turn(), capabilities(GROQ), "convert")
    tool_turn = turns[2]
    assert [(s.role, s.added) for s in tool_turn.steps] == [("tool", ""), ("user", FALLBACK_ADDED)]
    (decision,) = tool_turn.decisions
    assert (decision.mode, decision.converted_to) == ("converted", "pages")


def test_the_page_shows_each_converted_page_image_labelled() -> None:
    page = tw.view(report_turn(), GROQ, on_unsupported="convert")
    assert page.count("<img ") == 3
    assert re.findall(r"Page (\d) of 3", page)[:3] == ["1", "2", "3"]


def test_render_html_takes_convert(tmp_path: Path) -> None:
    conversation = tmp_path / "c.json"
    conversation.write_text(tw.dump_conversation(report_turn()))
    out = tmp_path / "view.html"
    result = CliRunner().invoke(
        app,
        ["render", "--conversation", str(conversation), "--model", GROQ,
         "--on-unsupported", "convert", "--html", str(out), "--trust", "paths"],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert out.read_text().count("<img ") == 3
