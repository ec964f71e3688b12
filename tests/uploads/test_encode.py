"""encode(..., uploads=…): files the target takes by id go by their cached id, and the
Decision says which; without an id, or for another provider, the bytes go as before."""

from __future__ import annotations

import json

import pytest

import toolwire as tw

from .conftest import ANTHROPIC, GEMINI, OPENAI, history, pdf


@pytest.mark.parametrize("model", [ANTHROPIC, OPENAI, GEMINI])
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
