"""``encode(..., on_unsupported="convert")``: every file reaches the model in a form it reads
(issue 13, DESIGN.md §5.2). Real files for every conversion, every payload validated strictly
against the target's SDK, the document's words found in what the model receives."""

from __future__ import annotations

import importlib
import inspect
import json
import math
import re
from collections.abc import Callable
from functools import cache
from typing import Any

import pytest
from convert import files

import toolwire as tw
from toolwire.capability import capabilities
from toolwire.content import File, Text, ToolCall
from toolwire.errors import UnsupportedContentError
from toolwire.messages import Assistant, ToolResult, User

#: One model per kind of target: vision with and without PDFs, text only, every wire.
TARGETS = [
    "anthropic:claude-sonnet-4-5",
    "openai:gpt-5",
    "openai:o3-mini",
    "openai-chat:gpt-5-mini",
    "openai-chat:gpt-3.5-turbo",
    "google:gemini-2.5-flash",
    "bedrock:us.anthropic.claude-sonnet-4-5-20250929-v1:0",
    "bedrock:amazon.nova-pro-v1:0",
    "bedrock:us.amazon.nova-micro-v1:0",
    "bedrock:meta.llama3-3-70b-instruct-v1:0",
    "groq:meta-llama/llama-4-scout-17b-16e-instruct",
    "groq:llama-3.3-70b-versatile",
    "xai:grok-4",
    "openai-compatible:qwen3-vl",
    "mistral:mistral-large-latest",
    "mistral:codestral-latest",
    "cohere:command-a-vision-07-2025",
    "cohere:command-r-plus",
    "ollama:llama3.2-vision",
    "ollama:llama3.1:8b",
]
DOCX = "application/vnd.openxmlformats-officedocument.wordprocessingml.document"


@cache
def medium(name: str) -> File:
    """One real file per medium the issue names, made here."""
    made: dict[str, Callable[[], tuple[bytes, str, str]]] = {
        "pdf": lambda: (files.pdf(["Quarterly revenue rose sharply", None]), "application/pdf",
                        "report.pdf"),
        "docx": lambda: (files.docx(), DOCX, "memo.docx"),
        "video": lambda: (files.video(4), "video/mp4", "clip.mp4"),
        "svg": lambda: (files.SVG, "image/svg+xml", "chart.svg"),
        "tiff": lambda: (files.image_bytes("TIFF"), "image/tiff", "scan.tiff"),
        "heic": lambda: (files.image_bytes("HEIF"), "image/heic", "photo.heic"),
        "audio": lambda: (files.mp3(2.0), "audio/mpeg", "note.mp3"),
    }  # fmt: skip
    data, media_type, name = made[name]()
    return File.from_bytes(data, media_type, name=name)


MEDIA = ["pdf", "docx", "video", "svg", "tiff", "heic", "audio"]


def tool_turn(*parts: Any) -> list[Any]:
    call = ToolCall(id="call_1", name="fetch", arguments={})
    return [User("Fetch it."), Assistant([call]), ToolResult.of("call_1", "fetch", list(parts))]


@cache
def validator(wire: str) -> Callable[[dict[str, Any], str], None]:
    """The wire's strict validator (tests/providers), called as validate(kwargs, model)."""
    validate = importlib.import_module(f"providers.strict_{wire}").validate
    if len(inspect.signature(validate).parameters) == 1:
        return lambda kwargs, model: validate(kwargs)
    return validate  # type: ignore[no-any-return]


def sent_text(request: tw.Request) -> str:
    return json.dumps(request.to_json(), ensure_ascii=False)


# --- every target x medium -------------------------------------------------------------------


@pytest.mark.parametrize("kind", MEDIA)
@pytest.mark.parametrize("model", TARGETS)
def test_every_medium_reaches_every_target_in_a_form_its_sdk_takes(model: str, kind: str) -> None:
    file = medium(kind)
    request = tw.encode(tool_turn(Text(text="Done."), file), model, on_unsupported="convert")
    validator(capabilities(model).wire)(request.kwargs, model)
    (decision,) = request.decisions
    payload = sent_text(request)
    if decision.mode == "text":  # an image for a model that reads none: its description
        assert file.kind == "image" and not takes_images(capabilities(model))
        assert "the target takes no images" in decision.reason
        assert f"[Image: {file.name}" in payload
        return
    assert decision.mode in ("native", "sibling", "fallback", "converted")
    if decision.mode != "converted":
        return  # carried as it is (tests/providers check the native routes)
    assert decision.converted_to in ("text", "pages", "frames", "image")
    assert decision.reason.startswith("converted: ")
    check_converted(kind, decision, payload, capabilities(model))


def takes_images(caps: Any) -> bool:
    return any(
        c.tool_result != "error" or bool(c.user_sources)
        for t, c in caps.cells.items()
        if t in ("image/png", "image/jpeg")
    )


def check_converted(kind: str, decision: Any, payload: str, caps: Any) -> None:
    images = takes_images(caps)
    if kind == "pdf":
        assert "Quarterly revenue rose sharply" in payload
        assert "page 2 has no text layer (scanned)" in decision.reason
        assert decision.converted_to == ("pages" if images else "text")
        if images:
            assert "Page 1 of 2" in payload and "Page 2 of 2" in payload
    elif kind == "docx":
        assert decision.converted_to == "text"
        assert "# Quarterly memo" in payload and "| North | 120 |" in payload
    elif kind == "video":
        check_frames(decision, payload, images, caps.budgets.max_images_per_request or 8)
    elif kind in ("svg", "tiff", "heic"):
        assert decision.converted_to == "image"
        assert re.search(r"to (PNG|JPEG) image .*; 1 image\(s\) ", decision.reason)
    elif kind == "audio":
        assert decision.converted_to == "text"
        assert "2.0 s" in payload  # the description gives the duration (an MP3 today)


def check_frames(decision: Any, payload: str, images: bool, per_request: int) -> None:
    if not images:
        assert decision.converted_to == "text"
        assert "4.0 s" in payload and "160x120" in payload
        return
    assert decision.converted_to == "frames"
    count = min(8, per_request)  # 8 by default, never beyond the request's image budget
    # the first frame at or after the middle of each of ``count`` equal spans of 4 s, at 10 fps
    stamps = [f"{math.ceil((i + 0.5) * 40 / count - 1e-9) / 10:.1f}" for i in range(count)]
    times = "s, ".join(stamps)
    assert (
        f"extracted {count} evenly spaced frames as JPEG image from a 4.0 s 160x120 video "
        f"(t={times}s)" in decision.reason
    )
    assert all(f"t={stamp}s" in payload for stamp in stamps)
    assert "4.0 s, 160x120" in payload


# --- where the converted parts go ------------------------------------------------------------


def test_page_images_stay_inside_the_tool_result_where_the_target_takes_images_there() -> None:
    request = tw.encode(
        tool_turn(medium("pdf")), "ollama:llama3.2-vision", on_unsupported="convert"
    )
    tool_message = request.kwargs["messages"][-1]
    assert tool_message["role"] == "tool"
    assert len(tool_message["images"]) == 2
    assert "Page 1 of 2" in tool_message["content"]
    assert "2 image(s) inside the tool result" in request.decisions[0].reason


def test_page_images_go_to_the_labelled_follow_up_message_where_tool_results_take_none() -> None:
    model = "groq:meta-llama/llama-4-scout-17b-16e-instruct"
    request = tw.encode(tool_turn(medium("pdf")), model, on_unsupported="convert")
    tool, follow = request.kwargs["messages"][-2:]
    assert tool["role"] == "tool" and follow["role"] == "user"
    assert "See file report-p1.png." in tool["content"]  # one string: Groq takes no list there
    assert {"type": "text", "text": "This is file report-p1.png:"} in follow["content"]
    assert [p["type"] for p in follow["content"]].count("image_url") == 2
    assert "2 image(s) in a labelled user message after the tool results" in (
        request.decisions[0].reason
    )


def test_a_file_in_a_user_message_is_converted_in_place() -> None:
    messages = [User([Text(text="What does it say?"), medium("docx")])]
    request = tw.encode(messages, "groq:llama-3.3-70b-versatile", on_unsupported="convert")
    content = json.dumps(request.kwargs["messages"][0])
    assert "What does it say?" in content and "# Quarterly memo" in content
    assert request.decisions[0].converted_to == "text"


def test_a_file_no_converter_takes_is_described_and_the_reason_says_so() -> None:
    archive = File.from_bytes(b"PK\x05\x06" + bytes(18), "application/zip", name="a.zip")
    request = tw.encode(tool_turn(archive), "openai-chat:gpt-5-mini", on_unsupported="convert")
    (decision,) = request.decisions
    assert decision.mode == "text"
    assert "no converter takes application/zip" in decision.reason
    assert "[Archive: a.zip" in sent_text(request) or "a.zip" in sent_text(request)


def test_text_only_models_get_no_images_even_from_a_conversion() -> None:
    for model in (
        "openai:o3-mini",
        "mistral:codestral-latest",
        "bedrock:us.amazon.nova-micro-v1:0",
    ):
        request = tw.encode(tool_turn(medium("pdf")), model, on_unsupported="convert")
        assert request.decisions[0].converted_to == "text"
        assert "iVBORw0KGgo" not in sent_text(request)  # no PNG anywhere


# --- the caller's converters ------------------------------------------------------------------


def test_a_callers_converter_takes_precedence() -> None:
    def transcribe(file: File) -> list[Text | File]:
        return [Text(text=f"Transcript of {file.name}: hello there")]

    request = tw.encode(
        tool_turn(medium("audio")), "anthropic:claude-sonnet-4-5", on_unsupported="convert",
        converters={"audio/*": transcribe},
    )  # fmt: skip
    assert "Transcript of note.mp3: hello there" in sent_text(request)
    assert "transcribe" in request.decisions[0].reason
    plain = tw.encode(tool_turn(medium("audio")), "anthropic:claude-sonnet-4-5",
                      on_unsupported="convert")  # fmt: skip
    assert "Transcript" not in sent_text(plain)  # the converter is part of what is reused


# --- the errors name the way out ---------------------------------------------------------------


def test_the_error_names_on_unsupported_convert_as_a_way_out() -> None:
    with pytest.raises(UnsupportedContentError, match='on_unsupported="convert"'):
        tw.encode(tool_turn(medium("docx")), "xai:grok-4")


def test_on_unsupported_convert_is_rejected_by_no_target_and_a_typo_is() -> None:
    with pytest.raises(tw.ToolwireError, match='"error", "convert" or "text"'):
        tw.encode(tool_turn(medium("docx")), "xai:grok-4", on_unsupported="conver")  # type: ignore[arg-type]


# --- deterministic, once per content -----------------------------------------------------------


def test_encoding_twice_gives_identical_payloads() -> None:
    model = "xai:grok-4"
    first = tw.encode(tool_turn(medium("pdf"), medium("video")), model, on_unsupported="convert")
    again = tw.encode(tool_turn(medium("pdf"), medium("video")), model, on_unsupported="convert")
    assert sent_text(first) == sent_text(again)
    assert first.decisions == again.decisions


def test_a_converted_pdf_is_not_converted_again_in_the_next_turns(worker_runs: list[str]) -> None:
    import toolwire.convert as conversions

    runs = worker_runs
    conversions.clear_cache()  # converted by no earlier test in this process
    model = "groq:meta-llama/llama-4-scout-17b-16e-instruct"
    pages = ["Turn by turn, converted once"] * 3
    pdf = File.from_bytes(files.pdf(pages), "application/pdf", name="log.pdf")
    history = tool_turn(pdf)
    tw.encode(history, model, on_unsupported="convert")  # converts once
    assert runs == ["log.pdf"]
    for turn in range(2, 12):
        call = ToolCall(id=f"call_{turn}", name="fetch", arguments={})
        history += [Assistant([call]), ToolResult.of(f"call_{turn}", "fetch", "ok")]
        tw.encode(history, model, on_unsupported="convert")
    assert runs == ["log.pdf"]  # no rendering per turn: counted, not timed


# --- tokens and the CLI --------------------------------------------------------------------------


def test_estimate_tokens_prices_a_converted_file_as_its_pages_and_text() -> None:
    model = "groq:meta-llama/llama-4-scout-17b-16e-instruct"
    messages = tool_turn(medium("pdf"))
    converted = tw.estimate_tokens(messages, model, on_unsupported="convert")
    described = tw.estimate_tokens(messages, model)
    (file,) = converted.files
    assert file.mode == "converted"
    assert file.working.startswith("2 image(s) and ")
    assert file.tokens > described.files[0].tokens + 2 * 500  # two page images at least


def test_render_shows_the_converted_forms(tmp_path: Any) -> None:
    from typer.testing import CliRunner

    from toolwire.cli import app

    path = tmp_path / "memo.docx"
    path.write_bytes(files.docx())
    args = ["render", str(path), "--model", "xai:grok-4", "--on-unsupported", "convert", "--json"]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    (decision,) = report["decisions"]
    assert (decision["mode"], decision["converted_to"]) == ("converted", "text")
    assert "# Quarterly memo" in json.dumps(report["kwargs"])
    assert decision["tokens"] > 10


# --- read_file + on_unsupported="text": the text once ------------------------------------------


@pytest.mark.parametrize("policy", ["text", "convert"])
def test_read_file_output_sends_the_extracted_text_once(tmp_path: Any, policy: str) -> None:
    path = tmp_path / "report.pdf"
    path.write_bytes(files.pdf(["Quarterly revenue rose sharply", "Second page words"]))
    call = ToolCall(id="call_1", name="read_file", arguments={"path": "report.pdf"})
    output = tw.read_file(path)
    messages = [User("Read it."), Assistant([call]), ToolResult.of("call_1", "read_file", output)]
    request = tw.encode(messages, "groq:llama-3.3-70b-versatile", on_unsupported=policy)  # type: ignore[arg-type]
    payload = sent_text(request)
    assert payload.count("Quarterly revenue rose sharply") == 1
    if policy == "text":
        assert "[PDF: report.pdf, 2 pages, " in payload and "— its text is above]" in payload
    else:
        assert "The text of report.pdf is above." in payload


def test_converted_pages_over_the_byte_budget_are_sent_as_text_naming_the_budget() -> None:
    model = "groq:meta-llama/llama-4-scout-17b-16e-instruct"
    budget = {"max_request_bytes": 20_000, "budget_evidence": "a test budget"}
    request = tw.encode(
        tool_turn(medium("pdf")), model, on_unsupported="convert", capabilities=budget
    )
    assert request.wire_bytes <= 20_000 and "Quarterly revenue rose sharply" in sent_text(request)
    assert "max_request_bytes = 20,000" in request.decisions[0].reason
