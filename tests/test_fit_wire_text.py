"""``fit`` measures text as the target's wire sends it (issue 33): a quote or a backslash is two
bytes of JSON, a control character six, a non-ASCII character two to four bytes of UTF-8
(httpx SDKs) or a six- or twelve-byte ``\\u`` escape (Mistral, Bedrock, Google). Counted as
characters, a history of such text passed fit and then broke the request budget in encode."""

from __future__ import annotations

import re

import pytest

import toolwire as tw

GROQ = "groq:meta-llama/llama-4-scout-17b-16e-instruct"  # 4,000,000 bytes; httpx (UTF-8)
MISTRAL = "mistral:mistral-large-latest"  # 20,000,000 bytes; ASCII escapes


def history(text: str) -> list[tw.Message]:
    """An agent loop whose oldest tool result is ``text``; the last two turns are kept."""
    first, second = (tw.ToolCall(id=f"c{n}", name="dump", arguments={}) for n in (1, 2))
    return [
        tw.User("Go."), tw.Assistant([first]), tw.ToolResult.of("c1", "dump", text),
        tw.Assistant([second]), tw.ToolResult.of("c2", "dump", "ok"),
        tw.Assistant("Done."), tw.User("Next."),
    ]  # fmt: skip


HOSTILE = {  # fewer characters than the budget's bytes, more bytes than it as sent
    "quotes": (GROQ, '"' * 2_100_000),
    "backslashes": (GROQ, "\\" * 2_100_000),
    "control characters": (GROQ, "\x01" * 700_000),
    "CJK as UTF-8": (GROQ, "漢" * 1_400_000),
    "accents as ASCII escapes": (MISTRAL, "é" * 3_400_000),
}


@pytest.mark.parametrize("case", sorted(HOSTILE))
def test_what_fit_returns_encode_sends_within_the_byte_budget(case: str) -> None:
    model, text = HOSTILE[case]
    limit = tw.capabilities(model).budgets.max_request_bytes
    assert limit is not None and len(text) < limit  # as characters it "fits"
    fitted = tw.fit(history(text), model, 10**9)
    request = tw.encode(fitted, model)  # RequestTooLargeError when fit counted characters
    assert request.wire_bytes <= limit
    reduced = fitted[2]
    assert isinstance(reduced, tw.ToolResult) and isinstance(reduced.output, tw.TextOutput)
    assert "left out to fit the request budget" in reduced.output.value
    assert fitted[3:] == history(text)[3:]  # the last turns are untouched


def test_a_kept_turn_too_large_as_sent_is_reported_at_its_size_as_sent() -> None:
    """What cannot be reduced: fit's error gives the bytes the wire would send, as encode's."""
    messages = [tw.User('"' * 2_100_000)]
    with pytest.raises(tw.RequestTooLargeError) as fitting:
        tw.fit(messages, GROQ, 10**9)
    with pytest.raises(tw.RequestTooLargeError) as encoding:
        tw.encode(messages, GROQ)
    said = [
        int(re.search(r"about ([\d,]+) bytes", str(e.value))[1].replace(",", ""))
        for e in (fitting, encoding)
    ]  # type: ignore[index]
    assert said[0] >= 4_200_000 and abs(said[0] - said[1]) < 1_000, said


def test_plain_text_is_measured_as_before() -> None:
    text = "a" * 3_900_000
    fitted = tw.fit(history(text), GROQ, 10**9)
    assert fitted[2] is history(text)[2] or fitted[2] == history(text)[2]
    assert tw.encode(fitted, GROQ).wire_bytes <= 4_000_000
