"""plan.tally: the request budgets measured in the layout's own walk. Where the tally says a
conversation is within every limit, the exact budgets (plan.budgets) agree and the body is
within its byte budget; where it may not be, the exact budgets decide, as before.

Files are made here (noisy JPEGs and PNGs with Pillow, PDFs with reportlab: test_budgets).
"""

from __future__ import annotations

import io
from collections import Counter
from functools import cache
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from PIL import Image
from providers import strict_anthropic, strict_bedrock
from test_budgets import pdf, photo

import toolwire as tw
from toolwire.capability import capabilities
from toolwire.content import ToolCall
from toolwire.counts import oldest_left_out
from toolwire.imagefit import fit_image
from toolwire.memo import MEMO
from toolwire.messages import Assistant, ToolResult, User
from toolwire.plan import _groups
from toolwire.plan.budgets import FRAMING, HEADROOM, RequestTooLargeError, left_out
from toolwire.plan.files import Budget, Policy
from toolwire.plan.tally import fits
from toolwire.providers import wire_named
from toolwire.wire_size import wire_bytes

BEDROCK = "bedrock:us.anthropic.claude-sonnet-4-5-20250929-v1:0"


@cache
def wide_png(width: int, height: int, seed: int) -> bytes:
    out = io.BytesIO()
    Image.effect_noise((width, height), 40 + seed).convert("RGB").save(out, "PNG")
    return out.getvalue()


def turns(files: list[tw.File], texts: list[str] | None = None) -> list[Any]:
    """A user message, then a tool turn per file (its text from ``texts`` where given)."""
    messages: list[Any] = [User("Look at each.")]
    for i, file in enumerate(files):
        text = texts[i % len(texts)] if texts else f"Result {i}."
        messages += [
            Assistant([ToolCall(id=f"c{i}", name="look", arguments={"i": i, "q": text})]),
            ToolResult.of(f"c{i}", "look", [text, file]),
        ]
    return messages


def test_a_url_is_downloaded_once_per_encode_when_a_budget_lays_the_conversation_out_again() -> (
    None
):
    """The tally finds the image limit broken and the groups are laid out again: the second
    layout reuses the first one's downloads."""
    urls = {f"https://example.test/{i}.jpg": photo(i).read() for i in range(6)}
    downloads: Counter[str] = Counter()

    def fetch(url: str) -> bytes:
        downloads[url] += 1
        return urls[url]

    messages = [User(["Look.", *(tw.File.from_url(u, "image/jpeg") for u in urls)])]
    request = tw.encode(
        messages, BEDROCK, fetch_urls=fetch, evict_to=1,
        capabilities={"max_images_per_request": 4},
    )  # fmt: skip
    assert request.budgets_bound == {"max_images_per_request": 2}
    assert sorted(downloads.values()) == [1] * 6


def test_files_downloaded_for_the_request_count_for_its_byte_budget_as_downloaded() -> None:
    """A URL the position takes no URL for is downloaded: the byte budget measures the bytes
    sent, not the URL's text (which let a body three times over the limit through)."""
    big = {f"https://example.test/{i}.jpg": photo(i, 320, 240).read() for i in range(3)}
    sent = 4 * -(-len(next(iter(big.values()))) // 3) + FRAMING  # base64, and the JSON around
    limit = 2 * sent + HEADROOM + 4096  # two fit with the text; three do not
    messages = turns([tw.File.from_url(u, "image/jpeg") for u in big])
    request = tw.encode(
        messages, BEDROCK, fetch_urls=big.__getitem__, fit_images=False, evict_to=1,
        capabilities={"max_request_bytes": limit},
    )  # fmt: skip
    assert request.wire_bytes <= limit
    assert [d.mode for d in request.decisions] == ["text", "native", "native"]
    assert request.budgets_bound == {"max_request_bytes": 1}
    strict_bedrock.validate(request.kwargs, BEDROCK)


def test_a_blank_text_in_a_subclassed_content_output_is_left_out() -> None:
    """Parts and outputs are dispatched by their toolwire class (isinstance and match), a
    subclass's too: a blank text is left out, as providers reject it."""

    class Note(tw.Text):
        pass

    class Content(tw.ContentOutput):
        pass

    output = Content(value=[Note(text="result"), Note(text="")])
    messages = [
        User("hi"),
        Assistant([ToolCall(id="c1", name="t", arguments={})]),
        ToolResult(call_id="c1", name="t", output=output),
    ]
    for model in ("anthropic:claude-sonnet-4-5", BEDROCK):
        kwargs = tw.encode(messages, model).kwargs
        assert '"text": ""' not in str(kwargs).replace("'", '"')
    strict_anthropic.validate(tw.encode(messages, "anthropic:claude-sonnet-4-5").kwargs)


def test_the_many_images_edge_reads_images_as_fitted_whatever_else_binds() -> None:
    """Beyond 20 images Anthropic takes none over 2000 px a side; fitted (fit_edge 1568 px)
    none is. The exact budgets, run here because a document limit binds, read the images as
    fitted too (they read them unfitted without a byte budget, and left all 21 out)."""
    wide = [
        tw.File.from_bytes(wide_png(2100, 30, i), "image/png", name=f"wide-{i}.png")
        for i in range(21)
    ]
    caps = {"max_request_bytes": None, "max_documents_per_request": 1}
    request = tw.encode(
        [User(["Look.", pdf(0), pdf(1), *wide])], "anthropic:claude-sonnet-4-5",
        evict_to=1, capabilities=caps,
    )  # fmt: skip
    modes = Counter((d.kind, d.mode) for d in request.decisions)
    assert modes == {("image", "native"): 21, ("document", "native"): 1, ("document", "text"): 1}
    assert request.budgets_bound == {"max_documents_per_request": 1}


def test_a_history_that_grows_past_a_budget_resumes_its_tally() -> None:
    """A kept plan holds the tally at each group: the history that grew past Bedrock's 20
    images is laid out again with the oldest left out, and the memo's request is a fresh one's."""
    files = [photo(i) for i in range(22)]
    messages = turns(files[:19])
    tw.encode(messages, BEDROCK, on_unsupported="text")
    for file in files[19:]:
        messages = [*messages, *turns([file])[1:]]
        messages[-2] = Assistant([ToolCall(id=f"n{id(file)}", name="look", arguments={})])
        messages[-1] = ToolResult.of(f"n{id(file)}", "look", ["More.", file])
        kept = tw.encode(messages, BEDROCK, on_unsupported="text")
        MEMO.clear()
        fresh = tw.encode(messages, BEDROCK, on_unsupported="text")
        assert (kept.kwargs, kept.decisions) == (fresh.kwargs, fresh.decisions)
    assert [d.mode for d in kept.decisions][:2] == ["text", "text"]


TEXTS = st.lists(st.text(max_size=300), min_size=1, max_size=4)
LIMITS = st.fixed_dictionaries(
    {},
    optional={
        "max_request_bytes": st.integers(20_000, 400_000),
        "max_images_per_request": st.integers(1, 8),
        "max_pdf_pages_per_request": st.integers(1, 6),
        "max_documents_per_request": st.integers(1, 4),
    },
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    model=st.sampled_from(["anthropic:claude-sonnet-4-5", BEDROCK, "google:gemini-3-pro-preview"]),
    kinds=st.lists(st.sampled_from(["photo", "big", "pdf"]), max_size=10),
    texts=TEXTS,
    limits=LIMITS,
)
def test_where_the_tally_fits_the_exact_budgets_leave_nothing_out_and_the_body_is_within(
    model: str, kinds: list[str], texts: list[str], limits: dict[str, int]
) -> None:
    files = [
        photo(i) if kind == "photo" else photo(i, 320, 240) if kind == "big" else pdf(i, 1 + i % 3)
        for i, kind in enumerate(kinds)
    ]
    messages = turns(files, texts)
    caps = capabilities(model, limits)
    policy = Policy(caps, "text", None, fit_image)
    planner, _, _ = _groups(tuple(messages), policy, Budget({}), None, None)
    try:
        exact = left_out(messages, caps, fit_image, 0, policy)
    except RequestTooLargeError:  # the text alone is beyond the byte budget: it cannot fit
        assert not fits(planner.tally, caps)
        return
    binding = bool(exact.left or exact.refit or oldest_left_out(messages, caps))
    if fits(planner.tally, caps):
        assert not binding
        request = tw.encode(messages, caps, on_unsupported="text", capabilities=caps)
        routed = all(d.mode == "native" or d.mode == "fallback" for d in request.decisions)
        if routed:
            body = wire_bytes(request.kwargs, wire_named(caps.wire).size)
            assert body <= planner.tally.bound
            assert request.size is None or request.size == body
    else:
        assert planner.tally.bound >= 0  # the exact budgets decide (the other tests)


def test_thinking_of_a_subclass_is_replayed_only_to_its_issuer() -> None:
    class Reasoning(tw.Thinking):
        pass

    secret = Reasoning(text="secret", signature="c2ln", provider="anthropic")
    messages = [User("hi"), Assistant([secret, tw.Text(text="ok")]), User("more")]
    assert "secret" not in str(tw.encode(messages, BEDROCK).kwargs)  # another issuer
    assert "secret" in str(tw.encode(messages, "anthropic:claude-sonnet-4-5").kwargs)
