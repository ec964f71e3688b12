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


def seven_pages() -> list[object]:
    """A 7-page PDF to Groq, which takes 5 images a request: pages 1-5 are rendered."""
    from convert import files

    data = files.pdf([f"page {n} of the report" for n in range(1, 8)])
    long = tw.File.from_bytes(data, "application/pdf", name="long.pdf")
    call = tw.ToolCall(id="c1", name="read", arguments={})
    return [tw.User("read it"), tw.Assistant([call]), tw.ToolResult.of("c1", "read", long)]


def test_each_page_image_is_tied_to_the_pdfs_decision_as_its_kth_of_n() -> None:
    from toolwire.viewer.html import made_from

    messages = seven_pages()
    tool_turn = view_turns(messages, capabilities(GROQ), "convert")[2]
    (decision,) = tool_turn.decisions
    pages = [s for step in tool_turn.steps for b in step.blocks for s in b.parts if s.made]
    assert [s.part.identifier for s in pages] == [f"long-p{k}.png" for k in range(1, 6)]
    assert all(s.decision is decision and s.original.identifier == "long.pdf" for s in pages)
    assert [s.made for s in pages] == [(k, 5) for k in range(1, 6)]
    assert (
        made_from(pages[1])
        == "page 2 of the 5 rendered from long.pdf (pages 6–7 of 7 not rendered)"
    )


def test_the_page_names_each_converted_image_and_not_the_whole_conversions_tokens() -> None:
    page = tw.view(seven_pages(), GROQ, on_unsupported="convert")
    captions = re.findall(r"<figcaption>(.*?)</figcaption>", page)
    made = [c for c in captions if "rendered from long.pdf" in c]
    assert len(made) == 5
    for k, caption in enumerate(made, 1):
        assert f"page {k} of the 5 rendered from long.pdf (pages 6–7 of 7 not rendered)" in caption
        assert "≈" not in caption  # the tokens are the PDF's, in its turn's list of decisions
