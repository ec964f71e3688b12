"""targets.target: tokens per turn, bytes per turn and per request."""

from __future__ import annotations

import json
import math

import toolwire as tw
from toolwire.viewer.targets import target

from .conversations import tour

MODEL = "anthropic:claude-sonnet-4-5"


def test_the_request_size_is_the_encoded_requests_json() -> None:
    messages = tour()
    request = tw.encode(messages, MODEL, on_unsupported="text")
    size = len(json.dumps(request.to_json(), ensure_ascii=False).encode())
    assert target(messages, MODEL, "text").request_bytes == size


def test_turn_tokens_are_the_estimate_of_their_messages() -> None:
    messages = tour()
    seen = target(messages, MODEL, "text")
    estimate = tw.estimate_tokens(messages, MODEL)
    assert seen.turn_tokens[5] == estimate.per_message[5] + estimate.per_message[6]
    assert seen.total_tokens == estimate.total


def test_a_turns_bytes_count_its_files_as_base64_and_its_text_as_utf8() -> None:
    messages = tour()
    seen = target(messages, MODEL, "text")
    photo, pdf = messages[3].output.value
    files = sum(4 * math.ceil(len(f.read()) / 3) for f in (photo, pdf))
    assert seen.turn_bytes[3] == files  # the photo is sent as it is: 640x480 needs no fitting
    assert seen.turn_bytes[0] == len(messages[0].text.encode())


def test_every_file_decision_has_its_token_estimate() -> None:
    seen = target(tour(), MODEL, "text")
    decisions = [d for turn in seen.turns for d in turn.decisions]
    assert len(decisions) == 3
    assert all(id(d) in seen.decision_tokens for d in decisions)
