"""``Request.wire_bytes`` is the size of the body each SDK serialises, and no random session
breaks a budget (issue 14).

The SDKs run for real on their own request builders: anthropic and openai through an httpx2
transport that records the body instead of sending it, Bedrock through botocore's own
serializer, Gemini through google-genai's request builder (tests/providers/strict_google).
"""

from __future__ import annotations

import contextlib
import json
from typing import Any

import anthropic
import botocore.session
import httpx2
import openai
from botocore.serialize import create_serializer
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from providers.strict_google import wire_body
from test_budgets import TARGETS, body_size, pdf, photo

import toolwire as tw
from toolwire.capability import capabilities
from toolwire.content import ToolCall
from toolwire.imagefit import fit_image
from toolwire.memo import MEMO
from toolwire.messages import Assistant, System, ToolResult, User
from toolwire.plan import plan
from toolwire.providers import wire_named
from toolwire.wire_size import DEFAULT, wire_bytes

LIMITS = {"max_request_bytes": 60_000, "max_images_per_request": 3, "max_pdf_pages_per_request": 4}


def _posted(send: Any) -> bytes:
    """The body an SDK client posts, recorded by an httpx2 transport (nothing leaves)."""
    bodies: list[bytes] = []

    def record(request: httpx2.Request) -> httpx2.Response:
        bodies.append(request.read())
        return httpx2.Response(500, json={"error": {"message": "recorded", "type": "x"}})

    with contextlib.suppress(anthropic.APIStatusError, openai.APIStatusError):
        send(httpx2.Client(transport=httpx2.MockTransport(record)))
    return bodies[0]


def _session() -> list[Any]:
    return [
        System(text='Be brief — «quoted» "text" with a \\ and a tab\t.'),
        User(content=[tw.Text(text="Look: ünïcode and emoji 🙂"), photo(1, 40, 30)]),
        Assistant(content=[ToolCall(id="call_1", name="fetch", arguments={"q": "é\n"})]),
        ToolResult.of("call_1", "fetch", [pdf(2), {"pages": 1, "ok": True, "x": 1.5}]),
    ]


def test_wire_bytes_is_the_body_anthropic_posts() -> None:
    request = tw.encode(_session(), "anthropic:claude-sonnet-4-5")

    def send(http: httpx2.Client) -> None:
        client = anthropic.Anthropic(api_key="k", http_client=http, max_retries=0)
        client.messages.create(model="m", max_tokens=1, **request.kwargs)

    body = _posted(send)
    extra = {"max_tokens": 1, **request.kwargs, "model": "m"}
    assert len(body) == wire_bytes(extra, wire_named("anthropic").size)
    assert len(body) - len('"max_tokens":1,"model":"m",') == request.wire_bytes


def test_wire_bytes_is_the_body_openai_posts() -> None:
    request = tw.encode(_session(), "openai-chat:gpt-5-mini")

    def send(http: httpx2.Client) -> None:
        client = openai.OpenAI(api_key="k", http_client=http, max_retries=0)
        client.chat.completions.create(model="m", **request.kwargs)

    body = _posted(send)
    assert len(body) == wire_bytes({**request.kwargs, "model": "m"}, wire_named("openai_chat").size)
    assert len(body) - len(',"model":"m"') == request.wire_bytes


def test_wire_bytes_is_the_body_botocore_serialises_for_bedrock() -> None:
    model = "bedrock:us.anthropic.claude-sonnet-4-5-20250929-v1:0"
    request = tw.encode(_session(), model)
    service = botocore.session.get_session().get_service_model("bedrock-runtime")
    operation = service.operation_model("Converse")
    params = {"modelId": model.split(":", 1)[1], **request.kwargs}
    body = create_serializer("rest-json").serialize_to_request(params, operation)["body"]
    assert len(body) == request.wire_bytes


def test_wire_bytes_bounds_the_body_google_genai_builds() -> None:
    """google-genai renames keys to camelCase (shorter) and wraps the system instruction."""
    model = "google:gemini-2.5-flash"
    request = tw.encode(_session(), model)
    body = {k: v for k, v in wire_body(request.kwargs, model).items() if k != "_url"}
    posted = len(json.dumps(body).encode())
    assert request.wire_bytes - 200 <= posted <= request.wire_bytes + 200


def test_long_base64_and_escaped_strings_are_measured_exactly() -> None:
    for text in ("A" * 5000, 'a"b\\c' * 300, "é" * 400, "\x7f" * 300, "\ud800" * 2):
        for style in (wire_named("anthropic").size, wire_named("mistral").size, DEFAULT):
            dumped = json.dumps(text, separators=(style.item, style.key), ensure_ascii=style.ascii)
            assert wire_bytes(text, style) == len(dumped.encode("utf-8", "surrogatepass"))
    assert wire_bytes({"b": b"\x00" * 7}, DEFAULT) == len('{"b": "AAAAAAAAAAA="}')


_PARTS = st.lists(
    st.one_of(
        st.integers(0, 40).map(lambda i: ("photo", i)),
        st.integers(0, 40).map(lambda i: ("pdf", i)),
        st.text(max_size=40).map(lambda t: ("text", t)),
    ),
    min_size=1,
    max_size=14,
)


def _random_session(parts: list[tuple[str, Any]]) -> list[Any]:
    messages: list[Any] = [User(content="Start.")]
    for n, (kind, value) in enumerate(parts):
        if kind == "photo":
            out: Any = photo(value, 48 + value, 32)
        elif kind == "pdf":
            out = pdf(value, pages=1 + value % 3)
        else:
            out = value or "(empty)"
        messages.append(Assistant(content=[ToolCall(id=f"c{n}", name="tool", arguments={})]))
        messages.append(ToolResult.of(f"c{n}", "tool", out))
    return messages


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(parts=_PARTS, target=st.sampled_from(sorted(TARGETS)))
def test_random_sessions_measure_exactly_and_break_no_budget(
    parts: list[tuple[str, Any]], target: str
) -> None:
    model = TARGETS[target]
    messages = _random_session(parts)
    request = tw.encode(messages, model, on_unsupported="text", capabilities=LIMITS)
    assert request.wire_bytes == body_size(request) <= LIMITS["max_request_bytes"]
    kept = [d for d in request.decisions if d.mode != "text"]
    caps = capabilities(model, LIMITS)
    # Where every file goes as routed or is a budget's description, encode may skip measuring
    # below the plan's bound: it must bound the body spelled from that plan.
    laid_out = plan(messages, caps, on_unsupported="text", fit=MEMO.fitted(fit_image))
    sized = all(d.mode != "text" or d.limit is not None for d in laid_out.decisions)
    assert (laid_out.bound is not None) == sized
    if laid_out.bound is not None:
        assert laid_out.bound >= tw.spell(laid_out).wire_bytes
    assert len([d for d in kept if d.kind == "image"]) <= LIMITS["max_images_per_request"]
    pdfs = [d for d in kept if d.media_type == "application/pdf"]
    pages = sum(1 + int(d.identifier.split("-")[1].split(".")[0]) % 3 for d in pdfs)
    assert pages <= LIMITS["max_pdf_pages_per_request"] or caps.cell("application/pdf") is None


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    said=st.text(max_size=30),
    argument=st.text(max_size=30),
    name=st.from_regex(r"[a-z_]{1,20}", fullmatch=True),
    target=st.sampled_from(sorted(TARGETS)),
)
def test_the_upper_bound_holds_for_any_text_and_call_arguments(
    said: str, argument: str, name: str, target: str
) -> None:
    """The layout's tally (plan.tally, with plan.measure's formulas) counts text and tool calls
    by their strings (not their repr): escaped control and astral characters, nested arguments
    and the call's own strings included; ``Plan.bound`` is what encode trusts."""
    model = TARGETS[target]
    call = ToolCall(id="c0", name=name, arguments={"q": argument, "n": [argument, {"k": 1}]})
    messages = [
        User(content=said if said.strip() else "Go."),  # Converse: a user message with content
        Assistant(content=[tw.Text(text=said or "ok"), call]),
        ToolResult.of("c0", name, argument or "(empty)"),
    ]
    request = tw.encode(messages, model, capabilities=LIMITS)
    bound = plan(messages, capabilities(model, LIMITS), fit=MEMO.fitted(fit_image)).bound
    assert bound is not None and bound >= request.wire_bytes
