"""html.page: everything from the conversation is escaped; the page loads and runs nothing."""

from __future__ import annotations

import base64
import hashlib
import io
import re
from html.parser import HTMLParser

import pytest
from PIL import Image

import toolwire as tw

from .conversations import EVIL_NAME, HOSTILE, JS_URL, SCRIPT, hostile, png, tour

MODELS = ["anthropic:claude-sonnet-4-5", "mistral:mistral-large-latest"]


class Tags(HTMLParser):
    """Every start tag with its attributes, and the text of <style> elements."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.styles: list[str] = []
        self._in_style = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))
        self._in_style = tag == "style"

    def handle_endtag(self, tag: str) -> None:
        self._in_style = False

    def handle_data(self, data: str) -> None:
        if self._in_style:
            self.styles.append(data)


def parsed(page: str) -> Tags:
    tags = Tags()
    tags.feed(page)
    return tags


def test_hostile_outputs_create_no_element_no_attribute_and_no_url() -> None:
    tags = parsed(tw.view(hostile(), MODELS))
    names = {name for name, _ in tags.tags}
    assert "script" not in names and "a" not in names and "iframe" not in names
    assert [name for name, _ in tags.tags].count("style") == 1
    attributes = [(key, value or "") for _, attrs in tags.tags for key, value in attrs.items()]
    assert not [key for key, _ in attributes if key.startswith("on")]
    assert not [key for key, _ in attributes if key in ("href", "action", "formaction", "srcdoc")]
    sources = [value for key, value in attributes if key == "src"]
    assert sources and all(value.startswith("data:image/") for value in sources)


def test_hostile_text_reaches_the_page_as_escaped_text() -> None:
    page = tw.view(hostile(), MODELS)
    assert SCRIPT not in page and "</style><script>" not in page and EVIL_NAME not in page
    assert "&lt;script&gt;window.pwned = 1; alert(&#x27;pwned&#x27;)&lt;/script&gt;" in page
    assert "&quot;&gt;&lt;img src=x onerror=&quot;window.pwned=4&quot;&gt;" in page
    assert f"{JS_URL}//x.png" in page  # a URL from the conversation is text, never a link


def test_the_hostile_text_of_every_place_survives_escaping_whole() -> None:
    """Unescaping the page's text gives back the hostile strings: nothing was dropped."""
    import html

    text = html.unescape(re.sub(r"<[^>]*>", "", tw.view(hostile(), MODELS)))
    assert text.count(HOSTILE) >= 6  # system, user, thinking, assistant text, result, user
    assert EVIL_NAME in text and "fetch<script>" in text


def test_the_policy_forbids_everything_but_data_media_and_the_pages_own_style() -> None:
    page = tw.view(tour(), MODELS)
    tags = parsed(page)
    metas = [a for name, a in tags.tags if name == "meta" and a.get("http-equiv")]
    assert len(metas) == 1 and metas[0]["http-equiv"] == "Content-Security-Policy"
    policy = metas[0]["content"] or ""
    digest = base64.b64encode(hashlib.sha256(tags.styles[0].encode()).digest()).decode()
    assert policy.startswith("default-src 'none'; img-src data:; media-src data:; ")
    assert f"style-src 'sha256-{digest}'" in policy
    assert "script-src" not in policy and "unsafe" not in policy
    assert page.index("Content-Security-Policy") < page.index("<style>")


def test_the_page_shows_every_decision_with_its_reason_and_thinking_folded() -> None:
    messages = tour()
    page = tw.view(messages, "groq:meta-llama/llama-4-scout-17b-16e-instruct")
    request = tw.encode(
        messages, "groq:meta-llama/llama-4-scout-17b-16e-instruct", on_unsupported="text"
    )
    for decision in request.decisions:
        assert html_text(decision.reason) in page
    assert "<details open" not in page
    # Groq cannot verify Anthropic's thinking, so the plan does not send it; Anthropic gets it.
    assert '<details class="thinking">' not in page
    same_issuer = tw.view(messages, "anthropic:claude-sonnet-4-5")
    assert '<details class="thinking"><summary>thinking (' in same_issuer
    assert "<details open" not in same_issuer


def html_text(value: str) -> str:
    import html

    return html.escape(value, quote=True)


def test_per_turn_and_running_totals_add_up_to_the_estimate() -> None:
    messages = tour()
    page = tw.view(messages, "anthropic:claude-sonnet-4-5")
    total = tw.estimate_tokens(messages, "anthropic:claude-sonnet-4-5").total
    running = re.findall(r"so far ≈ ([\d,]+) tokens", page)
    assert running and int(running[-1].replace(",", "")) == total
    assert f"≈ {total:,} tokens</b> (estimated)" in page
    # claude-sonnet-4-5's window is models.dev's (the issue-35 page said "not in the table").
    assert "<dt>context window</dt><dd>200,000 tokens</dd>" in page
    assert "not in the capability table" not in page


@pytest.mark.usefixtures("fresh_model_warnings")
def test_a_model_models_dev_lacks_says_its_totals_have_no_limit() -> None:
    with pytest.warns(tw.ToolwireWarning, match="unknown model openai-compatible:my-finetune"):
        page = tw.view(tour(), "openai-compatible:my-finetune")
    assert "not in models.dev: totals below have no limit" in page


def test_two_models_side_by_side_have_a_column_each_on_every_turn() -> None:
    page = tw.view(tour(), MODELS)
    rows = page.split('<section class="grid turn">')[1:]
    assert len(rows) == 7  # 8 messages; the question after the memo joins its tool turn
    assert all(row.count('<div class="cell c') == 2 for row in rows)
    assert "added by toolwire: roles must alternate" in page  # mistral's bridging turn


def test_an_image_is_shown_at_the_size_it_is_sent_after_fitting() -> None:
    from toolwire.imagefit import fit_image

    big = png(3000, 2000, seed=5, name="big.png")
    call = tw.ToolCall(id="c1", name="shot", arguments={})
    messages = [tw.User("Look."), tw.Assistant([call]), tw.ToolResult.of("c1", "shot", big)]
    caps = tw.capabilities("anthropic:claude-sonnet-4-5")
    sent, note = fit_image(big, caps.cell("image/png"))  # type: ignore[arg-type]
    width, height = Image.open(io.BytesIO(sent.read())).size
    assert (width, height) != (3000, 2000) and note
    page = tw.view(messages, "anthropic:claude-sonnet-4-5")
    assert f"{width}x{height} px sent" in page and "3000x2000 px sent" not in page
    assert html_text(note) in page  # the Decision's note says how it was fitted


def test_error_and_denied_results_are_flagged() -> None:
    calls = [tw.ToolCall(id=i, name="rm", arguments={}) for i in ("a", "b")]
    messages = [
        tw.User("Clean up."),
        tw.Assistant(calls),
        tw.ToolResult(call_id="a", name="rm", output=tw.ErrorTextOutput(value="disk full")),
        tw.ToolResult(call_id="b", name="rm", output=tw.ExecutionDeniedOutput(reason="policy")),
    ]
    page = tw.view(messages, "openai:gpt-5")
    assert 'result of rm (a)<span class="flag">error</span>' in page
    assert 'result of rm (b)<span class="flag">denied</span>' in page


def test_video_gets_a_player_fed_from_a_data_url() -> None:
    from .conversations import example

    call = tw.ToolCall(id="c1", name="record", arguments={})
    clip = example("clip.mp4")
    messages = [tw.User("Film it."), tw.Assistant([call]), tw.ToolResult.of("c1", "record", clip)]
    page = tw.view(messages, "google:gemini-2.5-flash")
    assert '<video controls preload="metadata" src="data:video/mp4;base64,' in page
