"""encode(..., uploads=…): files the target takes by id go by their cached id, and the
Decision says which; without an id, or for another provider, the bytes go as before."""

from __future__ import annotations

import json

import pytest

import toolwire as tw

from .conftest import ANTHROPIC, GEMINI, MISTRAL, OPENAI, history, pdf


@pytest.mark.parametrize("model", [ANTHROPIC, OPENAI, GEMINI, MISTRAL])
def test_a_remembered_file_goes_by_id_and_its_decision_names_the_id(model):
    uploads = tw.Uploads(account="test-account")
    report = pdf(seed=7)
    uploads.remember(model, report, "file_abc123")
    request = tw.encode(history(report), model, uploads=uploads)
    assert "file_abc123" in json.dumps(request.to_json())
    (decision,) = request.decisions
    assert "via file id file_abc123" in decision.reason


def test_another_providers_request_carries_the_bytes_and_says_nothing_of_ids():
    uploads = tw.Uploads(account="test-account")
    report = pdf(seed=8)
    uploads.remember(ANTHROPIC, report, "file_abc123")
    request = tw.encode(history(report), OPENAI, uploads=uploads)
    assert "file_abc123" not in json.dumps(request.to_json())
    assert "via file id" not in request.decisions[0].reason
    assert request.to_json() == tw.encode(history(report), OPENAI).to_json()


def test_mistral_sends_a_pdf_by_id_as_a_file_chunk_the_sdk_takes():
    from providers import strict_mistral

    uploads = tw.Uploads(account="test-account")
    report = pdf(seed=9)
    uploads.remember(MISTRAL, report, "mf-abc")
    request = tw.encode(history(report), MISTRAL, uploads=uploads)
    assert {"type": "file", "file_id": "mf-abc"} in request.kwargs["messages"][-1]["content"]
    strict_mistral.validate(request.kwargs)


@pytest.mark.parametrize(
    "model", ["groq:meta-llama/llama-4-scout-17b-16e-instruct", "bedrock:us.amazon.nova-pro-v1:0"]
)
def test_a_target_without_file_ids_says_so_once_and_lists_only_providers_that_work(model):
    with pytest.raises(tw.ToolwireError, match="cannot reference uploaded files") as caught:
        tw.encode(history(pdf(seed=10)), model, uploads=tw.Uploads(account="test-account"))
    listed = str(caught.value).split("uploads work for ", 1)[1].split(".", 1)[0].split(", ")
    for provider in listed:
        caps = tw.capabilities(f"{provider}:any-model")
        assert any("file_id" in (*c.tool_sources, *c.user_sources) for c in caps.cells.values())


def test_files_by_id_keep_the_request_within_the_context_window():
    """A long session of uploaded screenshots is a few kilobytes by id, and would hold far
    more image tokens than the model's window: the oldest are left out, in steps, and the
    estimate with ``uploads=`` prices what is sent."""
    from .conftest import png

    uploads = tw.Uploads(account="test-account")
    shots = [png(400, seed=n) for n in range(40)]
    for n, shot in enumerate(shots):
        uploads.remember(ANTHROPIC, shot, f"file_{n:03d}")
    caps = {"max_context_tokens": 6_000, "budget_evidence": "a test window"}
    messages = history(*shots)
    request = tw.encode(messages, ANTHROPIC, uploads=uploads, capabilities=caps)
    left = [d for d in request.decisions if d.limit is not None]
    assert left and {d.limit.name for d in left} == {"max_context_tokens"}  # type: ignore[union-attr]
    assert (
        request.decisions[-1].limit is None
        and "via file id file_039" in request.decisions[-1].reason
    )
    estimate = tw.estimate_tokens(messages, ANTHROPIC, uploads=uploads, capabilities=caps)
    assert estimate.total <= 6_000
    assert tw.estimate_tokens(messages, ANTHROPIC, capabilities=caps).total > 6_000
    assert '"file_id": "file_000"' not in json.dumps(request.to_json())  # described instead


def test_without_a_known_window_files_by_id_are_all_sent():
    from .conftest import png

    uploads = tw.Uploads(account="test-account")
    shots = [png(100, seed=n) for n in range(3)]
    for n, shot in enumerate(shots):
        uploads.remember(ANTHROPIC, shot, f"file_{n:03d}")
    request = tw.encode(history(*shots), ANTHROPIC, uploads=uploads)
    assert [d.limit for d in request.decisions] == [None, None, None]
