"""One decision, made once (issue 30): ``plan_request`` is the plan ``encode`` spells, and
``estimate_tokens``, ``fit`` and the view read it; a Decision is data, and nothing parses its
reason; the plan never hands an encoder a message it would have to drop."""

from __future__ import annotations

import io
import random
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from providers import strict_bedrock

import toolwire as tw
from toolwire.content import Thinking
from toolwire.plan import Decision, Limit
from toolwire.viewer.targets import target

GROQ = "groq:meta-llama/llama-4-scout-17b-16e-instruct"  # 4 MB a request, 5 images
NOVA = "bedrock:amazon.nova-pro-v1:0"
BEDROCK_CLAUDE = "bedrock:us.anthropic.claude-sonnet-4-5-20250929-v1:0"
EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def noise_png(width: int, height: int, seed: int) -> bytes:
    """A PNG that does not compress (random pixels, made with Pillow)."""
    from PIL import Image

    rnd = random.Random(seed)
    pixels = bytes(rnd.getrandbits(8) for _ in range(width * height * 3))
    buffer = io.BytesIO()
    Image.frombytes("RGB", (width, height), pixels).save(buffer, "PNG")
    return buffer.getvalue()


def small_png(seed: int) -> tw.File:
    return tw.File.from_bytes(noise_png(24, 24, seed), name=f"shot-{seed}.png")


def tool_turns(files: list[tw.File]) -> list[Any]:
    """A user question, then one tool call per file, each answered with its file."""
    messages: list[Any] = [tw.User("Look at each one.")]
    for i, file in enumerate(files):
        call = tw.ToolCall(id=f"c{i}", name="shot", arguments={})
        messages += [tw.Assistant([call]), tw.ToolResult.of(f"c{i}", "shot", file)]
    return messages


def test_the_request_the_view_and_the_estimate_read_the_plan_that_refits_an_image() -> None:
    """Over Groq's 4 MB a request, the image is re-encoded to the bytes left. The plan says so
    (its Decision names the limit and the new size), the Request spells that plan and counts
    the limit in ``budgets_bound``, and the view shows the same decisions."""
    big = tw.File.from_bytes(noise_png(1100, 1000, 1), name="big.png")
    messages = tool_turns([big])
    planned = tw.plan_request(messages, GROQ)
    (decision,) = planned.decisions
    assert decision.limit is not None and decision.limit.name == "max_request_bytes"
    assert decision.limit.value == 4_000_000 and "console.groq.com" in decision.limit.source
    assert decision.resize is not None and decision.resize.from_px == (1100, 1000)
    assert decision.resize.to_bytes < decision.resize.from_bytes
    request = tw.encode(messages, GROQ)
    assert request.decisions == list(planned.decisions)
    assert request.budgets_bound == planned.budgets_bound == {"max_request_bytes": 1}
    assert tw.spell(planned).kwargs == request.kwargs
    assert request.wire_bytes <= 4_000_000
    shown = target(messages, GROQ, "error")
    assert [d for turn in shown.turns for d in turn.decisions] == request.decisions
    (priced,) = tw.estimate_tokens(messages, GROQ).files
    assert f"-> {decision.resize.to_px[0]}x{decision.resize.to_px[1]}" in priced.working  # type: ignore[index]


@pytest.mark.parametrize("model", [NOVA, BEDROCK_CLAUDE])
def test_fit_keeps_what_the_plan_of_bedrock_s_count_limits_leaves_out_as_text(model: str) -> None:
    """Bedrock takes 20 images a request: ``fit`` turns the oldest five of 25 into text, so
    ``encode(fit(history))`` sends the rest instead of refusing them."""
    messages = tool_turns([small_png(i) for i in range(25)])
    fitted = tw.fit(messages, model, max_tokens=1_000_000, evict_to=1)
    request = tw.encode(fitted, model)
    assert Counter(d.kind for d in request.decisions) == {"image": 20}
    texts = [m for m in fitted if isinstance(m, tw.ToolResult) and "[Image:" in str(m.output)]
    assert [m.call_id for m in texts] == ["c0", "c1", "c2", "c3", "c4"]
    strict_bedrock.validate(request.kwargs, model)


def test_budgets_bound_counts_the_limits_the_decisions_hold_and_never_reads_a_reason() -> None:
    worded = "request budget max_request_bytes = 5 binds: the 1 oldest of 2 media files"
    plain = Decision(2, "a.png", "image/png", "image", "native", worded)
    limit = Limit("max_images_per_request", 5, "the docs", left_out=1, among=6)
    left = Decision(4, "b.png", "image/png", "image", "text", "left out", limit=limit)
    assert tw.Request("groq:x", {}, [plain]).budgets_bound == {}
    assert tw.Request("groq:x", {}, [plain, left]).budgets_bound == {"max_images_per_request": 1}


def test_an_image_a_count_budget_leaves_out_is_not_said_to_be_unreadable() -> None:
    """Groq reads images, five a request. With ``on_unsupported="convert"`` the two oldest of
    seven become their descriptions, and their reason names the budget, not "the target takes
    no images"."""
    messages = tool_turns([small_png(i) for i in range(7)])
    request = tw.encode(messages, GROQ, on_unsupported="convert", evict_to=1)
    left = [d for d in request.decisions if d.limit is not None]
    assert [d.identifier for d in left] == ["shot-0.png", "shot-1.png"]
    for decision in left:  # Groq's 5 images: its image cell's count, counted first
        assert decision.mode == "text" and decision.limit.name == "max_count"  # type: ignore[union-attr]
        assert "takes no images" not in decision.reason
        assert "one request takes at most 5 files of image/" in decision.reason
    assert request.budgets_bound == {"max_count": 2}


@pytest.mark.parametrize(
    "thinking",
    [
        Thinking(text="", signature="c2ln", provider="bedrock:anthropic.claude"),
        Thinking(text="", redacted=True, provider="bedrock:anthropic.claude"),
    ],
)
def test_bedrock_never_receives_an_empty_assistant_message(thinking: Thinking) -> None:
    """Thinking that carries nothing on Converse (no text; redacted without its data) is left
    out by the plan, and the assistant message it leaves empty with it: the service rejects
    ``{"role": "assistant", "content": []}``."""
    messages = [tw.User("Hi."), tw.Assistant([thinking]), tw.User("Again.")]
    request = tw.encode(messages, BEDROCK_CLAUDE)
    sent = request.kwargs["messages"]
    assert all(message["content"] for message in sent)
    assert [m["role"] for m in sent] == ["user"]
    strict_bedrock.validate(request.kwargs, BEDROCK_CLAUDE)


def test_each_decision_says_where_the_file_went() -> None:
    photo = tw.File.from_path(EXAMPLES / "photo.png")
    messages = [tw.User(["Compare with:", photo]), *tool_turns([photo])[1:]]
    where = {
        "anthropic:claude-sonnet-4-5": ["user", "tool_result"],
        "openai-chat:gpt-5-mini": ["user", "user_message"],
        "mistral:mistral-large-latest": ["user", "user_message_after_bridge"],
        BEDROCK_CLAUDE: ["user", "tool_result"],
    }
    for model, positions in where.items():
        assert [d.position for d in tw.plan_request(messages, model).decisions] == positions
    report = tw.File.from_path(EXAMPLES / "report.pdf")
    (nova,) = tw.plan_request(tool_turns([report]), NOVA).decisions
    assert (nova.mode, nova.position) == ("sibling", "after_results")


def test_the_view_shows_a_document_converted_to_text_where_its_text_went() -> None:
    """A DOCX converted to Markdown stays inside its tool result: the view tags it as the
    file's text there, not as a pointer to a file that "travels after the results"."""
    memo = tw.File.from_path(EXAMPLES / "memo.docx")
    messages = tool_turns([memo])
    model = "groq:meta-llama/llama-4-scout-17b-16e-instruct"
    (decision,) = tw.plan_request(messages, model, on_unsupported="convert").decisions
    assert (decision.mode, decision.converted_to, decision.position) == (
        "converted",
        "text",
        "tool_result",
    )
    html = tw.view(messages, model, on_unsupported="convert")
    assert "memo.docx travels after the results" not in html
    assert "text fallback of memo.docx" in html or "memo.docx converted" in html


def test_a_request_the_byte_budget_measured_is_spelled_once() -> None:
    """Where the plan's bound (with the tools' own size) cannot prove the body within the
    byte budget, the body is spelled to measure it, and those are the request's keyword
    arguments (not spelled again)."""
    from toolwire.plan.budgets import HEADROOM
    from toolwire.wire_size import wire_bytes

    tool = tw.Tool("shot", "Take a screenshot.", {"type": "object", "properties": {}})
    model = "anthropic:claude-sonnet-4-5"
    trusted = tw.plan_request(tool_turns([small_png(1)]), model, tools=[tool])
    assert trusted.spelled is None  # the bound and the tools' size prove it within 32 MB
    body = wire_bytes(tw.spell(trusted).kwargs, trusted.wire.size)
    tight = tw.capabilities(model, {"max_request_bytes": body + HEADROOM})
    planned = tw.plan_request(tool_turns([small_png(1)]), model, tools=[tool], capabilities=tight)
    assert planned.spelled is not None
    assert planned.size == wire_bytes(planned.spelled, planned.wire.size)
    request = tw.spell(planned)
    assert request.kwargs is planned.spelled and request.wire_bytes == planned.size
    unmeasured = tw.plan_request(tool_turns([small_png(1)]), "openai:gpt-5")  # no byte budget
    assert unmeasured.spelled is None and tw.spell(unmeasured).kwargs["input"]


def test_a_repeated_file_names_the_first_copy_as_data() -> None:
    photo = tw.File.from_path(EXAMPLES / "photo.png")
    first, second = tw.plan_request(tool_turns([photo, photo]), "openai:gpt-5").decisions
    assert first.repeats is None
    assert second.repeats == tw.Repeat("photo.png", 2)
    assert second.reason.endswith("repeats file photo.png of message 2")


def test_encode_takes_exactly_the_settings_plan_request_takes() -> None:
    """``encode`` is ``spell(plan_request(...))`` and spells its settings out for the caller's
    editor and type checker; the two signatures may not drift apart."""
    import inspect

    encode_params = inspect.signature(tw.encode).parameters
    plan_params = inspect.signature(tw.plan_request).parameters
    assert list(encode_params.values()) == list(plan_params.values())
