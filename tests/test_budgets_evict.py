"""A budget that binds evicts the oldest media (issue 37): the loop never crashes for growth.

The sessions here are a plain agent loop on default settings: screenshots and read_file
results, re-encoded every turn. Each request is checked against the target's budgets as the
SDK would send it (``Request.wire_bytes``) and through the strict validators of the official
SDKs' request types.
"""

from __future__ import annotations

import io
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PIL import Image
from providers.test_conformance import validator
from reportlab.pdfgen import canvas

import toolwire as tw
from toolwire.content import ToolCall
from toolwire.messages import Assistant, ContentOutput, ToolResult, User
from toolwire.readers import read_file

ANTHROPIC = "anthropic:claude-sonnet-4-5"
BEDROCK_CLAUDE = "bedrock:us.anthropic.claude-sonnet-4-5-20250929-v1:0"
GROQ = "groq:meta-llama/llama-4-scout-17b-16e-instruct"

#: A vision model of every target, and text-only models where the table has them.
VISION = [
    ANTHROPIC,
    "openai:gpt-5",
    "openai-chat:gpt-5",
    "google:gemini-2.5-pro",
    "google-vertex:gemini-2.5-pro",
    BEDROCK_CLAUDE,
    "bedrock:us.amazon.nova-pro-v1:0",
    GROQ,
    "mistral:mistral-medium-latest",
    "xai:grok-4",
    "openrouter:anthropic/claude-sonnet-4.5",
    "cohere:command-a-vision-07-2025",
    "ollama:gemma3",
    "openai-compatible:some-model",
]
TEXT_ONLY = ["openai-chat:gpt-3.5-turbo", "groq:llama-3.3-70b-versatile"]


def noise_png(seed: int, width: int = 400, height: int = 300) -> bytes:
    """A PNG that does not compress: as many bytes as a busy screenshot."""
    pixels = (seed.to_bytes(4, "big") + os.urandom(width * height * 3))[: width * height * 3]
    buffer = io.BytesIO()
    Image.frombytes("RGB", (width, height), pixels).save(buffer, "PNG")
    return buffer.getvalue()


def text_pdf(path: Path, pages: int) -> Path:
    made = canvas.Canvas(str(path))
    for page in range(pages):
        made.drawString(72, 720, f"{path.stem}, page {page + 1}: the quarter's figures.")
        made.showPage()
    made.save()
    return path


def session(turns: int, root: Path, shot_bytes: int = 400) -> Iterator[list[Any]]:
    """An agent's history after each turn: two screenshots, then a read_file of a PDF."""
    shots = [noise_png(i, shot_bytes, shot_bytes * 3 // 4) for i in range(3)]
    history: list[Any] = [User("Go.")]
    for turn in range(turns):
        call = f"call_{turn}"
        if turn % 3 == 2:
            name = "read_file"
            output = read_file(text_pdf(root / f"doc{turn}.pdf", 4), root=root)
        else:
            name = "screenshot"
            shot = tw.File.from_bytes(shots[turn % 3], name=f"shot-{turn}.png")
            output = ContentOutput(value=(tw.Text(text=f"screen at turn {turn}"), shot))
        history += [
            Assistant([ToolCall(id=call, name=name, arguments={})]),
            ToolResult(call_id=call, name=name, output=output),
        ]
        yield list(history)


def within_budgets(request: tw.Request, caps: tw.Capabilities) -> None:
    limits = caps.budgets
    if limits.max_request_bytes:
        assert request.wire_bytes <= limits.max_request_bytes
    kept = [d for d in request.decisions if d.mode != "text"]
    if limits.max_images_per_request:
        assert len([d for d in kept if d.kind == "image"]) <= limits.max_images_per_request
    for decision in request.decisions:
        if decision.limit is not None and decision.mode == "text":
            assert "takes no" not in decision.reason and decision.limit.source


@pytest.mark.parametrize("model", VISION)
def test_a_growing_session_encodes_every_turn_within_the_targets_budgets(
    model: str, tmp_path: Path
) -> None:
    """Tight budgets (a caller's override) bind within a few turns on every wire: every
    request goes, within them, and each file left out says which limit and where it comes
    from; the newest file is always sent."""
    caps = tw.capabilities(model, {"max_request_bytes": 1_500_000, "budget_evidence": "a test"})
    validate = validator(caps.wire)
    bound = 0
    for history in session(18, tmp_path):
        request = tw.encode(history, model, capabilities=caps)
        within_budgets(request, caps)
        newest = [d for d in request.decisions if d.message_index == len(history) - 1]
        assert newest and all(d.limit is None for d in newest)
        bound += bool(request.budgets_bound)
    assert bound >= 5
    validate(request.kwargs, model)


@pytest.mark.parametrize("model", TEXT_ONLY)
def test_read_file_results_encode_on_a_text_only_model_with_their_text_above(
    model: str, tmp_path: Path
) -> None:
    output = read_file(text_pdf(tmp_path / "report.pdf", 3), root=tmp_path)
    history = [
        User("Read it."),
        Assistant([ToolCall(id="c1", name="read_file", arguments={})]),
        ToolResult(call_id="c1", name="read_file", output=output),
    ]
    request = tw.encode(history, model)
    (decision,) = request.decisions
    assert decision.mode == "text" and "its text being above it" in decision.reason
    body = str(request.kwargs)
    assert "report, page 3" in body and "its text is above]" in body
    validator(tw.capabilities(model).wire)(request.kwargs, model)


@pytest.mark.parametrize("model", ["xai:grok-4", GROQ, "openai-chat:gpt-5", ANTHROPIC])
def test_read_file_docx_and_pdf_results_encode_on_default_settings(
    model: str, tmp_path: Path
) -> None:
    from docx import Document

    document = Document()
    document.add_paragraph("The memo's one paragraph.")
    document.save(str(tmp_path / "memo.docx"))
    history: list[Any] = [User("Read them.")]
    for n, name in enumerate(("memo.docx", "report.pdf")):
        if name.endswith(".pdf"):
            text_pdf(tmp_path / name, 2)
        history += [
            Assistant([ToolCall(id=f"c{n}", name="read_file", arguments={})]),
            ToolResult(
                call_id=f"c{n}", name="read_file", output=read_file(tmp_path / name, root=tmp_path)
            ),
        ]
    request = tw.encode(history, model)
    assert len(request.decisions) == 2
    assert "memo's one paragraph" in str(request.kwargs)


def test_files_left_out_are_described_and_their_limit_named(tmp_path: Path) -> None:
    caps = tw.capabilities(ANTHROPIC, {"max_images_per_request": 4, "budget_evidence": "docs"})
    *_, history = session(9, tmp_path)
    request = tw.encode(history, ANTHROPIC, capabilities=caps)
    left = [d for d in request.decisions if d.limit is not None]
    assert left and all(d.mode == "text" for d in left)
    assert {d.limit.name for d in left} == {"max_images_per_request"}  # type: ignore[union-attr]
    assert all("left out, its description sent instead" in d.reason for d in left)
    assert "[Image: shot-0.png, 400x300" in str(request.kwargs)
    assert "left out of this request for size]" in str(request.kwargs)
    assert request.budgets_bound == {"max_images_per_request": len(left)}


def test_on_budget_error_raises_a_short_budget_error_naming_the_ways_out(tmp_path: Path) -> None:
    shots = [tw.File.from_bytes(noise_png(i, 8, 6), name=f"shot-{i}.png") for i in range(600)]
    history = [User(["Look.", *shots])]
    with pytest.raises(tw.BudgetError) as caught:
        tw.encode(history, ANTHROPIC, on_budget="error")
    message, files = str(caught.value), caught.value.files
    assert len(message.encode()) <= 2048
    assert len(files) == 600 - 100  # all in the newest message: only what the limit needs
    assert "max_images_per_request = 100" in message and f"and {len(files) - 3} more" in message
    assert "shot-0.png (message 0), shot-1.png" in message
    for way in ('on_budget="evict"', "tw.fit", "uploads="):
        assert way in message


def test_a_file_no_route_carries_is_still_unsupported_content_not_a_budget() -> None:
    audio = tw.File.from_bytes(b"RIFF\x24\x00\x00\x00WAVEfmt " + bytes(40), "audio/wav", "a.wav")
    with pytest.raises(tw.UnsupportedContentError):
        tw.encode([User(["Listen.", audio])], ANTHROPIC)


@pytest.mark.parametrize(
    ("setting", "value"),
    [("on_budget", "drop"), ("evict_to", 0), ("evict_to", 1.5), ("evict_to", True)],
)
def test_a_wrong_budget_setting_is_a_toolwire_error(setting: str, value: Any) -> None:
    with pytest.raises(tw.ToolwireError, match=setting):
        tw.encode([User("hi")], ANTHROPIC, **{setting: value})


def test_the_newest_file_wins_over_older_screenshots_converted_pages_included() -> None:
    """Groq's 4 MB: three ~1 MB screenshots, then a scanned PDF converted to page images. The
    PDF is the newest: its pages are sent, the oldest screenshots are left out."""
    from reportlab.lib.utils import ImageReader

    buffer = io.BytesIO()
    made = canvas.Canvas(buffer)
    for page in range(3):
        made.drawImage(ImageReader(Image.open(io.BytesIO(noise_png(page, 300, 300)))), 72, 300)
        made.showPage()
    made.save()
    history: list[Any] = [User("Go.")]
    files = [tw.File.from_bytes(noise_png(i, 700, 500), name=f"shot-{i}.png") for i in range(3)]
    files.append(tw.File.from_bytes(buffer.getvalue(), name="scan.pdf"))
    for n, file in enumerate(files):
        history += [
            Assistant([ToolCall(id=f"c{n}", name="look", arguments={})]),
            ToolResult.of(f"c{n}", "look", [file]),
        ]
    request = tw.encode(history, GROQ, on_unsupported="convert")
    *older, newest = request.decisions
    assert newest.identifier == "scan.pdf" and newest.converted_to == "pages"
    assert newest.limit is None
    assert all(d.limit is not None and d.limit.name == "max_request_bytes" for d in older[:2])
    assert request.wire_bytes <= 4_000_000


def test_evicting_in_steps_keeps_the_start_of_the_request_between_steps(tmp_path: Path) -> None:
    """Once a budget binds, the files left out change only every few turns: the request of
    most turns starts with the previous request's messages, byte for byte."""
    caps = tw.capabilities(ANTHROPIC, {"max_images_per_request": 10, "budget_evidence": "docs"})
    previous: list[Any] | None = None
    same_start, turns, steps = 0, 0, 0
    left_before: set[str] = set()
    for history in session(40, tmp_path, shot_bytes=60):
        request = tw.encode(history, ANTHROPIC, capabilities=caps)
        messages = request.kwargs["messages"]
        left = {d.identifier for d in request.decisions if d.limit is not None}
        steps += left != left_before
        left_before = left
        if previous is not None:
            turns += 1
            same_start += messages[: len(previous) - 1] == previous[:-1]
        previous = messages
    assert steps <= 5  # 26 screenshots beyond 10 images: a step every 6 new images
    assert same_start / turns >= 0.8
    one_at_a_time = []
    for history in session(40, tmp_path, shot_bytes=60):
        request = tw.encode(history, ANTHROPIC, capabilities=caps, evict_to=1)
        one_at_a_time.append({d.identifier for d in request.decisions if d.limit is not None})
    changes = sum(a != b for a, b in zip(one_at_a_time, one_at_a_time[1:], strict=False))
    assert changes > 2 * steps


def test_count_limits_step_down_to_the_low_water_mark() -> None:
    from toolwire.counts import left_out_in_steps

    kept = [n - left_out_in_steps(n, 20, 0.7) for n in range(18, 42)]
    assert kept[:3] == [18, 19, 20] and max(kept) == 20 and min(kept) == 14
    assert [n - left_out_in_steps(n, 20, 1.0) for n in (21, 30)] == [20, 20]
    assert [n - left_out_in_steps(n, 1, 0.7) for n in (1, 2, 9)] == [1, 1, 1]


def test_claude_on_bedrock_reads_pdfs_with_citations_enabled(tmp_path: Path) -> None:
    pdf = tw.File.from_path(text_pdf(tmp_path / "report.pdf", 2))
    history = [User(["Summarise.", pdf])]
    request = tw.encode(history, BEDROCK_CLAUDE)
    (block,) = [c["document"] for c in request.kwargs["messages"][0]["content"] if "document" in c]
    assert block["citations"] == {"enabled": True}
    assert any("document citations enabled" in note for note in request.decisions[0].notes)
    validator("bedrock")(request.kwargs, BEDROCK_CLAUDE)
    nova = tw.encode(history, "bedrock:us.amazon.nova-pro-v1:0")
    assert "citations" not in str(nova.kwargs)


def test_a_cited_bedrock_reply_decodes_to_its_text() -> None:
    reply = {
        "output": {
            "message": {
                "role": "assistant",
                "content": [
                    {"text": "The report says "},
                    {
                        "citationsContent": {
                            "content": [{"text": "revenue grew 12%."}],
                            "citations": [{"title": "report.pdf", "sourceContent": []}],
                        }
                    },
                ],
            }
        },
        "stopReason": "end_turn",
    }
    message = tw.decode(reply, BEDROCK_CLAUDE)
    assert [p.text for p in message.content] == ["The report says ", "revenue grew 12%."]


@pytest.mark.parametrize("model", [*VISION[:8], "mistral:mistral-medium-latest"])
def test_encode_of_fit_leaves_nothing_more_out_on_any_target(model: str, tmp_path: Path) -> None:
    """``fit`` reads the plan ``encode`` makes: what it returns is within every budget, so
    encoding it leaves nothing out (Bedrock's 20 images and 5 documents included)."""
    caps = tw.capabilities(model, {"max_request_bytes": 1_000_000, "budget_evidence": "a test"})
    *_, history = session(16, tmp_path)
    fitted = tw.fit(history, model, max_tokens=10**9, capabilities=caps)
    request = tw.encode(fitted, model, capabilities=caps)
    assert request.budgets_bound == {}
    assert request.wire_bytes <= 1_000_000


def test_a_step_never_takes_more_of_the_newest_message_than_the_limit_needs() -> None:
    """One old image, then five in the newest message, on Groq's five a request: the old one
    is left out, and all five new ones are sent (a step to the low-water mark takes older
    messages' files only)."""
    old = tw.File.from_bytes(noise_png(0, 40, 30), name="old.png")
    new = [tw.File.from_bytes(noise_png(i, 40, 30), name=f"new-{i}.png") for i in range(5)]
    for model in (GROQ, BEDROCK_CLAUDE):
        history = [User(["Look.", old]), Assistant("Seen."), User(["And these.", *new])]
        request = tw.encode(history, model, capabilities={"max_images_per_request": 5})
        assert [d.identifier for d in request.decisions if d.limit is not None] == ["old.png"]


def test_one_file_object_in_two_messages_is_left_out_only_where_it_is_old() -> None:
    """A screenshot (or logo) object sent again later: its first occurrence may be left out,
    the newest never."""
    logo = tw.File.from_bytes(noise_png(9, 40, 30), name="logo.png")
    history: list[Any] = [User(["Logo.", logo])]
    for n in range(6):
        shot = tw.File.from_bytes(noise_png(n, 40, 30), name=f"shot-{n}.png")
        history += [Assistant("Next."), User([f"Shot {n}.", shot])]
    history += [Assistant("Next."), User(["Logo again.", logo])]
    request = tw.encode(history, GROQ)
    last = [d for d in request.decisions if d.message_index == len(history) - 1]
    assert [(d.identifier, d.limit) for d in last] == [("logo.png", None)]
    assert request.decisions[0].limit is not None  # the first logo: left out


def test_text_alone_beyond_the_context_window_is_a_clear_error() -> None:
    uploads = tw.Uploads(account="test-account")
    shot = tw.File.from_bytes(noise_png(3, 400, 300), name="shot.png")
    uploads.remember(ANTHROPIC, shot, "file_000")
    history = [User(["Look.", shot]), Assistant("x " * 3000), User("And now?")]
    caps = {"max_context_tokens": 2000, "budget_evidence": "a test window"}
    with pytest.raises(tw.ToolwireError, match="text alone is about .* tokens, beyond the context"):
        tw.encode(history, ANTHROPIC, uploads=uploads, capabilities=caps)


def test_on_budget_error_is_kept_with_conversions_on() -> None:
    shots = [tw.File.from_bytes(noise_png(i, 40, 30), name=f"s{i}.png") for i in range(8)]
    history = [User(["Look.", *shots[:4]]), Assistant("Seen."), User(["More.", *shots[4:]])]
    with pytest.raises(tw.BudgetError):
        tw.encode(history, GROQ, on_unsupported="convert", on_budget="error")


def test_citations_go_on_all_of_a_requests_documents_or_none(tmp_path: Path) -> None:
    pdf = tw.File.from_path(text_pdf(tmp_path / "report.pdf", 1))
    csv = tw.File.from_bytes(b"a,b\n1,2\n", "text/csv", name="data.csv")
    request = tw.encode([User(["Read both.", pdf, csv])], BEDROCK_CLAUDE)
    blocks = [c["document"] for c in request.kwargs["messages"][0]["content"] if "document" in c]
    assert all("citations" not in b for b in blocks)
    assert any("sent without document citations" in n for n in request.decisions[0].notes)
    validator("bedrock")(request.kwargs, BEDROCK_CLAUDE)
