"""Request budgets (issue 14, DESIGN.md §5.3): the limits as data, and encode never returning
a request that breaks one — the oldest media go first, the newest always win.

Files are made here: noisy JPEGs (one photo's bytes reused, a trailing byte changed to vary
the hash: decoders stop at the end-of-image marker) and PDFs from reportlab.
"""

from __future__ import annotations

import io
import json
from functools import cache
from typing import Any

import pytest
from PIL import Image
from providers import (
    strict_anthropic,
    strict_bedrock,
    strict_cohere,
    strict_google,
    strict_mistral,
    strict_ollama,
    strict_openai_chat,
    strict_openai_responses,
)

import toolwire as tw
from toolwire.capability import capabilities, providers, target_spec
from toolwire.capability_schema import BUDGET_FIELDS
from toolwire.content import ToolCall
from toolwire.errors import BudgetError
from toolwire.imagefit import clear_cache
from toolwire.memo import MEMO
from toolwire.messages import Assistant, ToolResult, User
from toolwire.plan.budgets import RequestTooLargeError
from toolwire.providers import wire_named

JPEG = "image/jpeg"


@cache
def noisy_jpeg(width: int, height: int, quality: int = 90) -> bytes:
    """A photo-like JPEG that compresses badly (noise in every channel)."""
    channels = [Image.effect_noise((width, height), 60) for _ in range(3)]
    out = io.BytesIO()
    Image.merge("RGB", channels).save(out, "JPEG", quality=quality)
    return out.getvalue()


def photo(index: int, width: int = 64, height: int = 48) -> tw.File:
    """The ``index``-th distinct photo: the same image, a different trailing byte."""
    data = noisy_jpeg(width, height) + index.to_bytes(4, "big")
    return tw.File.from_bytes(data, media_type=JPEG, name=f"photo-{index}.jpg")


@cache
def pdf_bytes(pages: int, image_bytes: int = 0) -> bytes:
    """A PDF of ``pages`` pages; with ``image_bytes``, a noisy JPEG of about that size on page 1."""
    from reportlab.lib.utils import ImageReader
    from reportlab.pdfgen import canvas

    out = io.BytesIO()
    pdf = canvas.Canvas(out)
    for page in range(pages):
        pdf.drawString(72, 720, f"page {page + 1}")
        if page == 0 and image_bytes:
            side = int((image_bytes / 1.2) ** 0.5)
            pdf.drawImage(ImageReader(io.BytesIO(noisy_jpeg(side, side, 95))), 72, 72, 300, 300)
        pdf.showPage()
    pdf.save()
    return out.getvalue()


def pdf(index: int, pages: int = 1, image_bytes: int = 0) -> tw.File:
    data = pdf_bytes(pages, image_bytes) + f"\n%{index}\n".encode()
    return tw.File.from_bytes(data, media_type="application/pdf", name=f"report-{index}.pdf")


def session(files: list[tw.File]) -> list[Any]:
    """An agent session: one tool turn per file, oldest first."""
    messages: list[Any] = [User(content="Look at each file.")]
    for i, file in enumerate(files):
        messages.append(Assistant(content=[ToolCall(id=f"call_{i}", name="fetch", arguments={})]))
        messages.append(ToolResult.of(f"call_{i}", "fetch", file))
    return messages


def sent(request: tw.Request) -> list[str]:
    """The identifiers of the files sent as files (not replaced by text)."""
    return [d.identifier for d in request.decisions if d.mode != "text"]


def body_size(request: tw.Request) -> int:
    """The body as json.dumps spells it for the request's SDK (the slow, obvious way)."""
    style = wire_named(request.wire).size
    text = json.dumps(
        request.to_json(), separators=(style.item, style.key), ensure_ascii=style.ascii
    )
    return len(text.encode("utf-8"))


VALIDATORS = {
    "anthropic": lambda kw, m: strict_anthropic.validate(kw),
    "openai": lambda kw, m: strict_openai_responses.validate(kw),
    "openai-chat": lambda kw, m: strict_openai_chat.validate(kw, m),
    "google": strict_google.validate,
    "google-vertex": strict_google.validate,
    "bedrock": strict_bedrock.validate,
    "groq": lambda kw, m: strict_openai_chat.validate_groq(kw),
    "mistral": lambda kw, m: strict_mistral.validate(kw),
    "cohere": lambda kw, m: strict_cohere.validate(kw),
    "ollama": lambda kw, m: strict_ollama.validate(kw),
    "xai": lambda kw, m: strict_openai_chat.validate(kw, m),
    "openrouter": lambda kw, m: strict_openai_chat.validate(kw, m),
    "openai-compatible": lambda kw, m: strict_openai_chat.validate(kw, m),
}

# --- the limits as data ---------------------------------------------------------------------


def test_every_budget_in_the_table_names_a_source() -> None:
    for provider in providers():
        spec = target_spec(provider)
        for where in (spec, *spec.models):
            values = where.model_dump(include=set(BUDGET_FIELDS), exclude_none=True)
            if set(values) - {"budget_evidence"}:
                evidence = values.get("budget_evidence") or spec.budget_evidence or ""
                assert "https://" in evidence, (provider, values)


def test_claude_takes_100_images_and_pages_below_a_1m_context_window_and_600_at_1m() -> None:
    small = capabilities("anthropic:claude-sonnet-4-5").budgets
    large = capabilities("anthropic:claude-opus-4-6").budgets
    assert (small.max_images_per_request, small.max_pdf_pages_per_request) == (100, 100)
    assert (large.max_images_per_request, large.max_pdf_pages_per_request) == (600, 600)
    assert large.max_request_bytes == small.max_request_bytes == 32_000_000
    assert (small.many_images_count, small.many_images_edge) == (20, 2000)


def test_a_caller_override_of_a_budget_wins_over_the_model_rows() -> None:
    caps = capabilities("anthropic:claude-opus-4-6", {"max_pdf_pages_per_request": 7})
    assert caps.budgets.max_pdf_pages_per_request == 7
    assert caps.budgets.max_images_per_request == 600


def test_images_beyond_the_count_budget_are_listed_oldest_first_in_the_error() -> None:
    files = [photo(i) for i in range(101)]
    with pytest.raises(BudgetError) as caught:
        tw.encode(session(files), "anthropic:claude-sonnet-4-5", on_budget="error", evict_to=1)
    message = str(caught.value)
    assert "photo-0.jpg" in message and "photo-1.jpg" not in message
    assert "max_images_per_request = 100" in message


def test_text_mode_sends_the_description_of_the_oldest_images_and_keeps_the_newest() -> None:
    files = [photo(i) for i in range(10)]
    request = tw.encode(session(files), "mistral:pixtral-12b-latest", evict_to=1)
    assert sent(request) == [f"photo-{i}.jpg" for i in range(2, 10)]
    dropped = [d for d in request.decisions if d.mode == "text"]
    # Mistral's 8 images a request: its image cell's count, counted before the layout
    assert all("one request takes at most 8 files of image/jpeg" in d.reason for d in dropped)
    assert "this conversation has 10: the 2 oldest are left out" in dropped[0].reason
    strict_mistral.validate(request.kwargs)


def test_pdf_pages_beyond_the_budget_leave_the_oldest_pdf_out_below_a_1m_context() -> None:
    files = [pdf(i, pages=40) for i in range(3)]
    small = tw.encode(session(files), "anthropic:claude-sonnet-4-5", evict_to=1)
    assert sent(small) == ["report-1.pdf", "report-2.pdf"]
    assert "max_pdf_pages_per_request = 100" in small.decisions[0].reason
    large = tw.encode(session(files), "anthropic:claude-opus-4-6")
    assert sent(large) == ["report-0.pdf", "report-1.pdf", "report-2.pdf"]


def test_multi_mb_pdfs_to_anthropic_stay_within_32_mb_as_the_sdk_serialises_them() -> None:
    files = [pdf(i, pages=2, image_bytes=3_000_000) for i in range(12)]
    assert sum(len(f.read()) for f in files) > 32_000_000
    request = tw.encode(session(files), "anthropic:claude-sonnet-4-5", evict_to=1)
    kept = sent(request)
    assert kept == [f"report-{i}.pdf" for i in range(12 - len(kept), 12)] and len(kept) >= 6
    assert body_size(request) == request.wire_bytes <= 32_000_000
    assert "max_request_bytes = 32,000,000" in request.decisions[0].reason
    strict_anthropic.validate(request.kwargs)


def test_a_12_mp_photo_to_groq_is_re_encoded_to_fit_the_4_mb_request() -> None:
    big = photo(0, 4000, 3000)
    assert len(big.read()) * 4 / 3 > 4_000_000
    model = "groq:meta-llama/llama-4-scout-17b-16e-instruct"
    request = tw.encode(session([big]), model)
    assert sent(request) == ["photo-0.jpg"]
    assert body_size(request) == request.wire_bytes <= 4_000_000
    strict_openai_chat.validate_groq(request.kwargs)


def test_photos_beyond_groqs_bytes_keep_the_newest_re_encoded_within_the_budget() -> None:
    files = [photo(i, 1600, 1200) for i in range(6)]
    model = "groq:meta-llama/llama-4-scout-17b-16e-instruct"
    request = tw.encode(session(files), model, evict_to=1)
    kept = sent(request)
    assert kept and kept == [f"photo-{i}.jpg" for i in range(6 - len(kept), 6)]
    assert len(kept) <= 5 and request.wire_bytes <= 4_000_000
    notes = [n for d in request.decisions for n in d.notes]
    assert any("to fit the request budget max_request_bytes" in n for n in notes)
    MEMO.clear()
    clear_cache()
    again = tw.encode(session(files), model, evict_to=1)
    assert again.kwargs == request.kwargs  # re-encoded deterministically


def test_more_than_20_images_may_not_exceed_2000_px_unless_fitted() -> None:
    files = [photo(i, 2100, 8) for i in range(21)]
    with pytest.raises(BudgetError, match="many_images_edge"):
        tw.encode(
            session(files), "anthropic:claude-sonnet-4-5", fit_images=False, on_budget="error"
        )
    fitted = tw.encode(session(files), "anthropic:claude-sonnet-4-5")
    assert len(sent(fitted)) == 21


def test_text_alone_beyond_the_byte_budget_asks_for_fit() -> None:
    messages = [User(content="x" * 4_100_000)]
    with pytest.raises(RequestTooLargeError, match=r"tw\.fit"):
        tw.encode(messages, "groq:meta-llama/llama-4-scout-17b-16e-instruct")


def test_a_target_without_budgets_sends_every_file() -> None:
    files = [photo(i) for i in range(30)]
    request = tw.encode(session(files), "xai:grok-4")
    assert len(sent(request)) == 30


# --- every target: a long session that breaks each limit --------------------------------------

TARGETS = {
    "anthropic": "anthropic:claude-sonnet-4-5",
    "openai": "openai:gpt-5-mini",
    "openai-chat": "openai-chat:gpt-5-mini",
    "google": "google:gemini-2.5-flash",
    "google-vertex": "google-vertex:gemini-2.5-flash",
    "bedrock": "bedrock:us.anthropic.claude-sonnet-4-5-20250929-v1:0",
    "groq": "groq:meta-llama/llama-4-scout-17b-16e-instruct",
    "mistral": "mistral:mistral-small-latest",
    "cohere": "cohere:command-a-vision-07-2025",
    "ollama": "ollama:llama3.2-vision",
    "xai": "xai:grok-4",
    "openrouter": "openrouter:anthropic/claude-sonnet-4.5",
    "openai-compatible": "openai-compatible:llava",
}
TIGHT = {
    "max_request_bytes": 400_000,
    "max_images_per_request": 4,
    "max_pdf_pages_per_request": 3,
    "max_documents_per_request": 2,
}


def test_every_target_is_covered() -> None:
    assert set(TARGETS) == set(providers())


@pytest.mark.parametrize("target", sorted(TARGETS))
def test_a_long_session_stays_within_every_budget_with_the_newest_files(target: str) -> None:
    model = TARGETS[target]
    files = [pdf(i, pages=2) if i % 3 == 1 else photo(i, 320, 240) for i in range(15)]
    request = tw.encode(session(files), model, on_unsupported="text", capabilities=TIGHT)
    for kind in ("image", "document"):
        decisions = [d for d in request.decisions if d.kind == kind]
        left = [i for i, d in enumerate(decisions) if "request budget" in d.reason]
        kept = [i for i, d in enumerate(decisions) if d.mode != "text"]
        assert not left or not kept or max(left) < min(kept), (kind, left, kept)  # newest win
    kept_files = [d for d in request.decisions if d.mode != "text"]
    images = [d for d in kept_files if d.kind == "image"]
    assert 0 < len(images) <= 4 and images[-1].identifier == "photo-14.jpg"
    assert len([d for d in kept_files if d.kind == "document"]) <= 1  # 2 pages each: 3 pages
    assert body_size(request) == request.wire_bytes <= TIGHT["max_request_bytes"]
    VALIDATORS[target](request.kwargs, model)


# --- visible in toolwire render ---------------------------------------------------------------


def test_render_shows_the_bytes_as_sent_and_which_budget_bound(tmp_path: Any) -> None:
    from typer.testing import CliRunner

    from toolwire.cli import app

    paths = []
    for i in range(10):
        path = tmp_path / f"photo-{i}.jpg"
        path.write_bytes(photo(i).read())
        paths.append(str(path))
    model = ["--model", "mistral:pixtral-12b-latest", "--on-unsupported", "text"]
    result = CliRunner().invoke(app, ["render", *paths, *model, "--json"])
    report = json.loads(result.stdout)
    assert report["budgets_bound"] == {"max_count": 2}  # 10 at once: 8 images a request
    assert report["wire_bytes"] > 0
    shown = CliRunner().invoke(app, ["render", *paths, *model], env={"COLUMNS": "300"})
    assert "max_count bound: 2 file(s) left out" in shown.stdout


def test_bedrocks_image_count_and_the_byte_budget_both_leave_out_the_oldest() -> None:
    files = [photo(i, 320, 240) for i in range(25)]
    model = "bedrock:us.anthropic.claude-sonnet-4-5-20250929-v1:0"
    budget = {"max_request_bytes": 300_000}
    request = tw.encode(session(files), model, evict_to=1, capabilities=budget)
    kept = sent(request)
    assert kept and kept == [f"photo-{i}.jpg" for i in range(25 - len(kept), 25)]
    assert request.wire_bytes <= 300_000
    assert request.budgets_bound == {"max_count": 5, "max_request_bytes": 20 - len(kept)}


def test_a_scan_keeps_the_limits_it_is_given_as_they_were() -> None:
    """The scan adds a converting target's image count to its own limits, never to the
    caller's list (plan.context passes one in)."""
    from toolwire.plan.budgets import Scan

    caps = capabilities("bedrock:anthropic.claude-sonnet-4-5")
    given = [("max_context_tokens", "tokens", 1000)]
    scan = Scan(caps, None, 0.5, 0, True, given)
    assert given == [("max_context_tokens", "tokens", 1000)]
    assert ("max_count of images", "images", 20) in scan.limits
