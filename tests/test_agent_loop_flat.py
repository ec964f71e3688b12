"""The agent loop stays flat: re-encoding a growing history after each turn does the same
work at turn 200 as at turn 40, on every wire (issue 30: an agent's re-encode plans and
spells only what is new).

Time is measured in bench/agent_loop.py, never here; this counts what does not depend on the
machine: the Python and C functions one encode calls (``sys.setprofile``). A walk of the
whole history on every encode (a search through every earlier step, a copy of every earlier
decision) shows as a count that grows with the turn.
"""

from __future__ import annotations

import io
import statistics
import sys
from collections.abc import Callable
from functools import partial
from typing import Any

import pytest
from PIL import Image

from toolwire.capability import capabilities
from toolwire.content import File, ToolCall
from toolwire.memo import MEMO
from toolwire.messages import Assistant, System, ToolResult, User
from toolwire.request import encode

MODELS = [
    "anthropic:claude-sonnet-4-5",
    "openai-chat:gpt-4.1",
    "openai:gpt-4.1",
    "google:gemini-3-pro-preview",
    "bedrock:us.anthropic.claude-sonnet-4-5-20250929-v1:0",  # 20 images a request: binds
    "bedrock:amazon.nova-pro-v1:0",
    "groq:meta-llama/llama-4-scout-17b-16e-instruct",  # 5 images a request: binds
    "mistral:mistral-large-latest",
    "ollama:llava",
    "cohere:command-a-vision-07-2025",
    "openai-compatible:qwen3",
    "openrouter:anthropic/claude-sonnet-4.5",
    "xai:grok-4",
]

#: The turns compared, and how many encodes before each give the median (a count budget's
#: window moves now and then: that encode lays out what follows the moved file again).
EARLY, LATE, WINDOW = 40, 200, 9


def png(seed: int) -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", (24, 16), (seed * 37 % 256, seed * 91 % 256, 7)).save(buffer, "PNG")
    return buffer.getvalue()


#: Call ids as the target's own models make them, where the wire takes no other (Mistral:
#: nine letters and digits); elsewhere OpenAI's style.
OWN_IDS = {"mistral": "c{:08d}"}


def turn(n: int, ids: str = "call_{}") -> list[Any]:
    """An assistant's call and its result: every fourth a screenshot, else JSON-ish text."""
    call = ToolCall(id=ids.format(n), name="look", arguments={"window": n})
    output: Any = f'{{"window": {n}, "status": "ok"}}'
    if n % 4 == 0:
        shot = File.from_bytes(png(n), "image/png", name=f"shot-{n}.png")
        output = [f"Screenshot of window {n}.", shot]
    return [Assistant([f"Looking at window {n}.", call]), ToolResult.of(call.id, "look", output)]


def calls_of(action: Callable[[], object]) -> int:
    """How many Python and C functions ``action`` calls."""
    count = 0

    def counted(frame: Any, event: str, arg: Any) -> None:
        nonlocal count
        if event in ("call", "c_call"):
            count += 1

    sys.setprofile(counted)
    try:
        action()
    finally:
        sys.setprofile(None)
    return count


def calls_at_turns(model: str, ids: str) -> tuple[float, float]:
    """The median calls of an encode around turn ``EARLY`` and around turn ``LATE``."""
    capabilities(model)  # a row for every model named here
    MEMO.clear()
    history: list[Any] = [System("Use the tools."), User("Look through the windows.")]
    counts: dict[int, int] = {}
    for n in range(1, LATE + 1):
        history += turn(n, ids)
        counts[n] = calls_of(partial(encode, history, model, on_unsupported="text"))
    early = statistics.median(counts[n] for n in range(EARLY - WINDOW + 1, EARLY + 1))
    late = statistics.median(counts[n] for n in range(LATE - WINDOW + 1, LATE + 1))
    return early, late


@pytest.mark.parametrize("model", MODELS)
def test_an_encode_at_turn_200_calls_no_more_than_at_turn_40(model: str) -> None:
    ids = OWN_IDS.get(model.split(":")[0], "call_{}")
    early, late = calls_at_turns(model, ids)
    assert late <= early * 1.2, f"{model}: {early:.0f} calls at turn {EARLY}, {late:.0f} at {LATE}"


def test_an_encode_of_foreign_ids_at_turn_200_calls_no_more_than_at_turn_40() -> None:
    """Ids another provider made are rewritten for Mistral (plan.ids): each request's
    mapping carries on the one before it, and its spelled steps are reused."""
    early, late = calls_at_turns("mistral:mistral-large-latest", "call_{}")
    assert late <= early * 1.2, f"{early:.0f} calls at turn {EARLY}, {late:.0f} at {LATE}"


def test_a_new_id_equal_to_an_earlier_rewrite_maps_every_id_as_an_empty_memo_does() -> None:
    """A grown request carries its ids' mapping on from the request before it, unless a new
    id passes through as the value an earlier one was rewritten to: then every id is mapped
    afresh (the earlier one takes its second rewrite) and the kept spelling of the earlier
    steps, which holds the old value, is not used."""
    from toolwire.plan.ids import accepted_id

    model = "mistral:mistral-large-latest"
    taken = accepted_id("mistral", "call_1")  # what "call_1" becomes alone in a request
    assert taken != "call_1"

    def step(call_id: str) -> list[Any]:
        call = ToolCall(id=call_id, name="look", arguments={})
        return [Assistant([call]), ToolResult.of(call_id, "look", "ok")]

    shorter = [User("Go."), *step("call_1")]
    longer = [*shorter, *step(taken)]
    MEMO.clear()
    first = encode(shorter, model)
    resumed = encode(longer, model)
    MEMO.clear()
    fresh = encode(longer, model)
    assert resumed.kwargs == fresh.kwargs
    sent = [m.get("tool_call_id") for m in fresh.kwargs["messages"] if m["role"] == "tool"]
    assert sent[1] == taken and sent[0] not in (taken, "call_1")  # the second rewrite
    assert [m.get("tool_call_id") for m in first.kwargs["messages"] if m["role"] == "tool"] == [
        taken
    ]
