"""Request budgets see conversions: the images a PDF or video becomes count, and the oldest
conversions' images go first (plan.shrink), then whole files (plan.budgets)."""

from __future__ import annotations

import json
from functools import cache
from typing import Any

from convert import files
from test_budgets import body_size, photo
from test_convert_encode import validator

import toolwire as tw
from toolwire.content import File, ToolCall
from toolwire.messages import Assistant, ToolResult, User

GROQ = "groq:meta-llama/llama-4-scout-17b-16e-instruct"
MISTRAL = "mistral:mistral-large-latest"
COHERE = "cohere:command-a-vision-07-2025"
BEDROCK = "bedrock:us.anthropic.claude-sonnet-4-5-20250929-v1:0"


@cache
def pdf(pages: int, word: str) -> File:
    data = files.pdf([f"{word} page {n} of the report" for n in range(1, pages + 1)])
    return File.from_bytes(data, "application/pdf", name=f"{word}.pdf")


@cache
def video(name: str) -> File:
    return File.from_bytes(files.video(2), "video/mp4", name=f"{name}.mp4")


def session(*outputs: File) -> list[Any]:
    """One tool turn per file, oldest first."""
    messages: list[Any] = [User("Go.")]
    for n, file in enumerate(outputs):
        call = ToolCall(id=f"call_{n}", name="fetch", arguments={"n": n})
        messages += [Assistant([call]), ToolResult.of(f"call_{n}", "fetch", [file])]
    return messages


def images_sent(value: Any) -> int:
    """Images in the kwargs as every wire spells them (image_url, image, type=image)."""
    if isinstance(value, dict):
        own = int("image_url" in value or "image" in value or value.get("type") == "image")
        return own + sum(images_sent(v) for v in value.values())
    if isinstance(value, list):
        return sum(images_sent(v) for v in value)
    return 0


def encoded(messages: list[Any], model: str, **budgets: Any) -> tw.Request:
    caps = {**budgets, "budget_evidence": "a test budget"} if budgets else None
    request = tw.encode(messages, model, on_unsupported="convert", capabilities=caps, evict_to=1)
    validator(tw.capabilities(model).wire)(request.kwargs, model.split(":", 1)[1])
    assert request.wire_bytes == body_size(request)  # the body as the SDK serialises it
    limit = budgets.get("max_request_bytes") or tw.capabilities(model).budgets.max_request_bytes
    assert limit is None or request.wire_bytes <= limit
    return request


def test_groq_pages_beyond_five_images_become_text_the_oldest_pdf_first() -> None:
    request = encoded(session(pdf(6, "older"), pdf(6, "newer")), GROQ)
    assert images_sent(request.kwargs) == 5
    older, newer = request.decisions
    assert "0 of its 5 images kept" in older.reason and "max_images_per_request = 5" in older.reason
    assert "images kept" not in newer.reason and "pages 6-6 as text only" in newer.reason
    payload = json.dumps(request.to_json())
    assert "older page 6 of the report" in payload and "newer page 6 of the report" in payload
    assert request.wire_bytes <= 4_000_000


def test_groq_byte_budget_drops_converted_pages_instead_of_raising() -> None:
    request = encoded(session(pdf(3, "report")), GROQ, max_request_bytes=30_000)
    assert images_sent(request.kwargs) < 3
    assert request.wire_bytes <= 30_000
    assert "max_request_bytes = 30,000" in request.decisions[0].reason
    assert "report page 3 of the report" in json.dumps(request.to_json())


def test_mistral_newest_video_keeps_its_frames_within_eight_images() -> None:
    request = encoded(session(video("old"), video("new")), MISTRAL)
    assert images_sent(request.kwargs) == 8
    old, new = request.decisions
    assert "0 of its 8 images kept" in old.reason and "max_images_per_request = 8" in old.reason
    assert "images kept" not in new.reason and new.converted_to == "frames"


def test_bedrock_frames_count_against_its_twenty_images() -> None:
    request = encoded(session(video("a"), video("b"), video("c")), BEDROCK)
    assert images_sent(request.kwargs) == 20
    first, *rest = request.decisions
    assert "4 of its 8 images kept" in first.reason and "max_count of images = 20" in first.reason
    assert all("images kept" not in d.reason for d in rest)


def test_bedrock_pdfs_beyond_five_documents_become_text_not_page_images() -> None:
    request = encoded(session(*(pdf(2, f"doc{n}") for n in range(6))), BEDROCK)
    assert images_sent(request.kwargs) == 0
    assert request.decisions[0].mode == "converted"
    assert "its text only" in request.decisions[0].reason
    assert "doc0 page 2 of the report" in json.dumps(request.to_json())
    assert all(d.mode != "converted" for d in request.decisions[1:])


# --- the running sums of a growing history (plan.measure.measures) ------------------------------


def test_an_edited_history_is_measured_again_not_read_from_the_running_sums() -> None:
    """An agent re-encodes a growing history (the sums are kept); a history whose earlier
    message is replaced must be measured afresh, or the budgets would miss the new images.
    (A request budget of images: Cohere's own 20 are a cell's count, counted before the
    layout without these sums.)"""
    model, limit = "anthropic:claude-sonnet-4-5", {"max_images_per_request": 20}
    small = session(photo(1), photo(2))
    assert images_sent(encoded(small, model, **limit).kwargs) == 2
    grown = [*small, User("More.")]
    assert images_sent(encoded(grown, model, **limit).kwargs) == 2
    twenty = [photo(n) for n in range(10, 30)]
    edited = [*grown[:2], ToolResult.of("call_0", "fetch", twenty), *grown[3:]]
    request = encoded(edited, model, **limit)
    assert images_sent(request.kwargs) == 20
    assert "max_images_per_request = 20" in request.decisions[0].reason


def test_the_budget_that_binds_in_a_growing_history_is_seen_the_turn_it_binds() -> None:
    history: list[Any] = [User("Go.")]
    sent = []
    for n in range(4):
        call = ToolCall(id=f"c{n}", name="fetch", arguments={})
        output = [photo(40 + 2 * n), photo(41 + 2 * n)]
        history += [Assistant([call]), ToolResult.of(f"c{n}", "fetch", output)]
        sent.append(images_sent(encoded(history, GROQ).kwargs))
    assert sent == [2, 4, 5, 5]
