"""memo: one layer at the encode boundary; a growing history plans only what changed while the
same message objects are encoded again, and the planner keeps nothing without it."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from toolwire import memo, routes
from toolwire.capability import capabilities
from toolwire.content import File, ToolCall
from toolwire.counts import left_out_in_steps
from toolwire.errors import ConversationError
from toolwire.memo import MEMO
from toolwire.messages import Assistant, System, ToolResult, User
from toolwire.plan import measure, plan
from toolwire.plan.files import EVICT_TO
from toolwire.request import encode

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
PHOTO = (EXAMPLES / "photo.png").read_bytes()


@pytest.fixture(autouse=True)
def empty() -> Iterator[None]:
    MEMO.clear()
    yield
    MEMO.clear()


@pytest.fixture
def routed(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The identifiers of the files the planner routes (a cache hit routes none)."""
    seen: list[str] = []
    real = routes.route

    def spy(file: File, *args: Any) -> Any:
        seen.append(file.identifier)
        return real(file, *args)

    monkeypatch.setattr("toolwire.plan.layout.route", spy)
    monkeypatch.setattr("toolwire.plan.files.route", spy)
    return seen


def history(turns: int, ask: str = "Watch.") -> list[Any]:
    messages: list[Any] = [User(ask)]
    for i in range(turns):
        shot = File.from_bytes(PHOTO + bytes([i]), "image/png", name=f"shot-{i}.png")
        messages += [
            Assistant([ToolCall(id=f"c{i}", name="screenshot", arguments={})]),
            ToolResult.of(f"c{i}", "screenshot", ["Here.", shot]),
        ]
    return messages


@pytest.mark.parametrize("model", ["google:gemini-2.5-flash", "anthropic:claude-sonnet-4-5"])
def test_a_growing_history_plans_only_its_new_turn_and_encodes_the_same(
    model: str, routed: list[str]
) -> None:
    messages = history(3)
    first = encode(messages, model)
    assert routed == ["shot-0.png", "shot-1.png", "shot-2.png"]
    messages += history(4)[-2:]
    routed.clear()
    second = encode(messages, model)
    # The assistant message that follows closes the last group: only the new turn is planned.
    assert routed == ["shot-3.png"]
    MEMO.clear()
    fresh = encode(messages, model)
    assert (second.kwargs, second.decisions) == (fresh.kwargs, fresh.decisions)
    assert (
        second.kwargs["contents" if model.startswith("google") else "messages"][:4]
        == (first.kwargs["contents" if model.startswith("google") else "messages"][:4])
    )


@pytest.mark.parametrize("model", ["google:gemini-2.5-flash", "anthropic:claude-sonnet-4-5"])
def test_a_user_message_after_the_last_tool_turn_plans_that_turn_again(
    model: str, routed: list[str]
) -> None:
    messages = history(3)
    encode(messages, model)
    messages.append(User("And the one before?"))  # joins the tool turn before it
    routed.clear()
    second = encode(messages, model)
    assert routed == ["shot-2.png"]  # the tool turn laid out again, with what joined it
    MEMO.clear()
    fresh = encode(messages, model)
    assert (second.kwargs, second.decisions) == (fresh.kwargs, fresh.decisions)


def test_a_result_after_the_last_tool_turn_is_refused_as_from_a_fresh_memo() -> None:
    messages = history(3)
    encode(messages, "anthropic:claude-sonnet-4-5")
    messages.append(ToolResult.of("c2", "screenshot", "again"))  # would join that turn
    with pytest.raises(ConversationError) as resumed:
        encode(messages, "anthropic:claude-sonnet-4-5")
    MEMO.clear()
    with pytest.raises(ConversationError) as fresh:
        encode(messages, "anthropic:claude-sonnet-4-5")
    assert str(resumed.value) == str(fresh.value)
    assert "a second time" in str(resumed.value)


def test_a_replaced_message_is_planned_again_with_what_follows(routed: list[str]) -> None:
    messages = history(3)
    encode(messages, "anthropic:claude-sonnet-4-5")
    other = File.from_bytes(PHOTO + b"x", "image/png", name="other.png")
    messages[4] = ToolResult.of("c1", "screenshot", [other])
    routed.clear()
    request = encode(messages, "anthropic:claude-sonnet-4-5")
    assert routed == ["other.png", "shot-2.png"]  # the groups before it came from the memo
    assert [d.identifier for d in request.decisions] == ["shot-0.png", "other.png", "shot-2.png"]
    MEMO.clear()
    assert encode(messages, "anthropic:claude-sonnet-4-5") == request


def test_another_target_or_policy_is_planned_apart(routed: list[str]) -> None:
    messages = history(1)
    encode(messages, "anthropic:claude-sonnet-4-5")
    encode(messages, "openai-chat:gpt-4.1")
    encode(messages, "openai-chat:gpt-4.1", on_unsupported="text")
    encode(messages, "openai-chat:gpt-4.1", fit_images=False)
    assert routed == ["shot-0.png"] * 4


def test_turns_with_a_fetcher_or_a_count_limit_are_never_cached(routed: list[str]) -> None:
    messages = history(1)
    caps = capabilities("anthropic:claude-sonnet-4-5")
    for _ in range(2):
        plan(messages, caps, fetch=lambda url: b"")
    bedrock = capabilities("bedrock:us.anthropic.claude-sonnet-4-5-20250929-v1:0")
    crowded = history(21)
    for _ in range(2):
        plan(crowded, bedrock, on_unsupported="text")
    # Routed by both fetcher plans; the count-limited plans count first and leave the
    # oldest out without routing them (plan.files.Budget.counted_out), routing the rest once.
    assert routed.count("shot-0.png") == 2
    assert not MEMO.last.plans
    assert routed.count("shot-20.png") == 2


def test_a_history_loaded_anew_each_turn_resumes_by_its_content(routed: list[str]) -> None:
    """A server that loads the conversation from storage every turn holds new objects with
    the same content: the kept plan is found by the messages' digests, not their identity."""
    from pydantic import TypeAdapter

    from toolwire.messages import Message

    stored = TypeAdapter(list[Message]).dump_json(history(3))
    encode(TypeAdapter(list[Message]).validate_json(stored), "anthropic:claude-sonnet-4-5")
    loaded = TypeAdapter(list[Message]).validate_json(stored) + history(4)[-2:]
    routed.clear()
    request = encode(loaded, "anthropic:claude-sonnet-4-5")
    assert routed == ["shot-3.png"]  # the new turn only: an assistant closed the last one
    MEMO.clear()
    assert encode(loaded, "anthropic:claude-sonnet-4-5").kwargs == request.kwargs


def test_an_agent_passing_equal_overrides_each_turn_resumes_its_plan(routed: list[str]) -> None:
    """``capabilities=`` given anew on each turn (an equal dict, not the same one) names the
    same target: the kept plan is found, and only the new turn is planned."""
    overrides = {
        "max_request_bytes": 30_000_000,
        "media": [{"types": ["images"], "tool_result": "native", "max_bytes": 4_000_000}],
    }
    encode(history(3), "anthropic:claude-sonnet-4-5", capabilities=dict(overrides))
    routed.clear()
    grown = encode(history(4), "anthropic:claude-sonnet-4-5", capabilities=dict(overrides))
    assert routed == ["shot-3.png"]  # the new turn only: an assistant closed the last one
    MEMO.clear()
    fresh = encode(history(4), "anthropic:claude-sonnet-4-5", capabilities=dict(overrides))
    assert fresh.kwargs == grown.kwargs


def test_a_plan_per_history_bounded_and_a_grown_history_replaces_its_own(
    monkeypatch: pytest.MonkeyPatch, routed: list[str]
) -> None:
    """Sessions on one target keep a plan each (a server interleaving them re-plans only the
    new turns); a history that grew replaces its shorter plan; PLAN_LIMIT bounds them all."""
    sessions = [history(2, f"Watch window {k}.") for k in range(3)]
    for messages in sessions:
        encode(messages, "anthropic:claude-sonnet-4-5")
    for messages in sessions:
        messages += history(3)[-2:]
        routed.clear()
        encode(messages, "anthropic:claude-sonnet-4-5")
        assert routed == ["shot-2.png"]  # the new turn only: an assistant closed the last one
    assert len(MEMO.last.plans) == 3
    monkeypatch.setattr(memo, "PLAN_LIMIT", 2)
    another = history(1)
    encode(another, "anthropic:claude-sonnet-4-5")
    assert len(MEMO.last.plans) == 2


def grow() -> list[list[Any]]:
    """Histories an agent encodes one after another: each the last plus a few messages,
    through every boundary the planner treats specially."""
    photo = File.from_bytes(PHOTO, "image/png", name="shot.png")
    pdf = File.from_bytes((EXAMPLES / "report.pdf").read_bytes(), name="report.pdf")
    call = Assistant([ToolCall(id="a", name="look", arguments={})])
    two = Assistant(
        [ToolCall(id="b", name="look", arguments={}), ToolCall(id="c", name="read", arguments={})]
    )
    steps: list[list[Any]] = [
        [User("Start.")],
        [call],  # ends with an unanswered call
        [ToolResult.of("a", "look", [photo])],  # ends with a tool turn
        [User(["And this:", pdf])],  # merged into (or placed after) that tool turn
        [two, ToolResult.of("c", "read", "done"), ToolResult.of("b", "look", [photo])],
        [Assistant("All seen."), User("Thanks.")],
    ]
    histories, current = [], []
    for more in steps:
        current = [*current, *more]
        histories.append(current)
    return histories


@pytest.mark.parametrize(
    "model",
    [
        "anthropic:claude-sonnet-4-5",
        "openai-chat:gpt-4.1",
        "google:gemini-2.5-flash",
        "mistral:mistral-large-latest",
        "bedrock:us.anthropic.claude-sonnet-4-5-20250929-v1:0",
    ],
)
def test_resuming_a_growing_history_encodes_exactly_what_a_fresh_plan_does(model: str) -> None:
    for messages in grow():
        reused = encode(messages, model, on_unsupported="text")
        MEMO.clear()
        fresh = encode(messages, model, on_unsupported="text")
        assert (reused.kwargs, reused.decisions) == (fresh.kwargs, fresh.decisions)
        encode(messages, model, on_unsupported="text")  # remember it for the next, longer one


def test_a_growing_history_resumes_from_its_last_group(routed: list[str]) -> None:
    messages = history(5)
    encode(messages, "anthropic:claude-sonnet-4-5")
    routed.clear()
    encode([*messages, User("Go on.")], "anthropic:claude-sonnet-4-5")
    assert routed == ["shot-4.png"]  # only the last group was planned again


def test_a_history_that_changed_before_its_end_is_planned_from_the_start(routed: list[str]) -> None:
    messages = history(2)
    encode(messages, "anthropic:claude-sonnet-4-5")
    changed = [User("Watch again."), *messages[1:]]
    routed.clear()
    request = encode(changed, "anthropic:claude-sonnet-4-5")
    assert routed == ["shot-0.png", "shot-1.png"]
    assert request.kwargs["messages"][0]["content"] == [{"type": "text", "text": "Watch again."}]


def test_the_planner_keeps_nothing_without_a_memo() -> None:
    caps = capabilities("anthropic:claude-sonnet-4-5")
    messages = history(2)
    first = plan(messages, caps)
    assert not MEMO.last.plans and not MEMO.measures.runs
    assert plan(messages, caps).steps == first.steps


def test_a_fitted_image_is_remembered_by_its_content() -> None:
    calls: list[str] = []
    smaller = File.from_bytes(PHOTO, "image/png", name="smaller.png")

    def fit(file: File, cell: Any) -> tuple[File, str | None]:
        calls.append(file.identifier)
        return (smaller, "resized") if file.name == "shot.png" else (file, None)

    fitted = MEMO.fitted(fit)
    assert MEMO.fitted(fit) is fitted  # one memoised fitter per fitter: plans find it again
    shot = File.from_bytes(PHOTO, "image/png", name="shot.png")
    cell = capabilities("anthropic:claude-sonnet-4-5").cell("image/png")
    assert fitted(shot, cell) == (smaller, "resized")
    assert fitted(shot, cell) == (smaller, "resized")
    # The same file loaded anew (another object, the same content) is answered from the memo.
    assert fitted(File.from_bytes(PHOTO, "image/png", name="shot.png"), cell) == (
        smaller,
        "resized",
    )
    assert calls == ["shot.png"] and len(MEMO.fitted_images.entries) == 1
    # An image that fits as it is is not kept: asked again (its header is read).
    small = File.from_bytes(PHOTO, "image/png", name="small.png")
    assert fitted(small, cell) == (small, None)
    assert fitted(small, cell) == (small, None)
    assert calls == ["shot.png", "small.png", "small.png"] and len(MEMO.fitted_images.entries) == 1


def test_the_fitted_images_kept_are_bounded_by_their_bytes(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(MEMO.fitted_images, "max_chars", 4 * len(PHOTO))
    fitted = MEMO.fitted(lambda file, cell: (File.from_bytes(PHOTO, "image/png"), "resized"))
    cell = capabilities("anthropic:claude-sonnet-4-5").cell("image/png")
    for n in range(6):
        fitted(File.from_bytes(PHOTO, "image/png", name=f"{n}.png"), cell)
    assert len(MEMO.fitted_images.entries) == 4 and MEMO.fitted_images.chars == 4 * len(PHOTO)


def test_a_resumed_plan_walks_only_its_new_steps_for_lone_surrogates(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Where a file became text toolwire made (here a text fallback), the steps are walked for
    lone surrogates; a kept plan found free of them says so: a history resumed from it has only
    the steps planned again walked; one that held a surrogate is walked whole (and scrubbed)."""
    from toolwire import plan as planning

    walked: list[int] = []
    real = planning.ids.needs_scrub
    monkeypatch.setattr(planning.ids, "needs_scrub", lambda s: walked.append(len(s)) or real(s))
    tone = File.from_bytes((EXAMPLES / "tone.wav").read_bytes(), "audio/wav", name="tone.wav")
    messages = [User(["Hear.", tone]), *history(3)[1:]]
    model = "openai:gpt-4.1"  # no audio anywhere: its text fallback
    encode(messages, model, on_unsupported="text")
    messages += history(4)[-2:]
    encode(messages, model, on_unsupported="text")
    # All 7 steps; then none: the new groups made no text (the tally answers for them).
    assert walked == [7]
    call = Assistant([ToolCall(id="c9", name="listen", arguments={})])
    messages += [call, ToolResult.of("c9", "listen", ["Heard.", tone])]
    encode(messages, model, on_unsupported="text")
    # A new group made text: the new groups are walked (the assistant and its tool turn).
    assert walked == [7, 2]
    messages[0] = User(["Watch.\ud800", tone])
    request = encode(messages, model, on_unsupported="text")
    assert "\ud800" not in str(request.kwargs)
    encode([*messages, User("And?")], model, on_unsupported="text")
    assert walked == [7, 2, 11, 12]  # the kept plan held one: every step walked again


@pytest.mark.parametrize("model", ["anthropic:claude-sonnet-4-5", "openai:gpt-4.1"])
def test_the_layouts_tally_answers_for_lone_surrogates_and_no_step_is_walked(
    model: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The layout measures every string of the messages for the budgets (plan.tally), which
    answers whether one holds a lone surrogate, with or without a byte budget: the steps are
    not walked, and one is still scrubbed."""
    from toolwire import plan as planning

    walked: list[int] = []
    real = planning.ids.needs_scrub
    monkeypatch.setattr(planning.ids, "needs_scrub", lambda s: walked.append(len(s)) or real(s))
    messages = history(3)
    encode(messages, model)
    messages[0] = User("Watch.\ud800")
    request = encode(messages, model)
    assert "\ud800" not in str(request.kwargs) and "\ufffd" in str(request.kwargs)
    messages += history(4)[-2:]
    request = encode(messages, model)  # resumed: the kept tally still counts message 0
    assert "\ud800" not in str(request.kwargs) and "\ufffd" in str(request.kwargs)
    assert walked == []
    request = encode(messages, model, on_unsupported="text")
    assert walked == []  # no file became text: the messages' answer still holds


def test_a_byte_budget_measures_each_spelled_item_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Where a byte budget measures the body (Bedrock Claude: 20 MB), each item is measured
    when it is first spelled (Wire.spell keeps its size beside it): re-encoding a grown history
    measures the new items only, and the size is the body's as its SDK sends it."""
    import json

    from toolwire import wire_size

    model = "bedrock:us.anthropic.claude-sonnet-4-5-20250929-v1:0"
    measured: list[int] = []
    real = wire_size._measured
    monkeypatch.setattr(wire_size, "_measured", lambda t, s: measured.append(len(t)) or real(t, s))
    tone = File.from_bytes((EXAMPLES / "tone.wav").read_bytes(), "audio/wav", name="tone.wav")
    messages = [User(["Hear.", tone]), *history(3)[1:]]  # its text fallback: no bound holds
    encode(messages, model, on_unsupported="text")
    first = len(measured)
    messages += history(4)[-2:]
    request = encode(messages, model, on_unsupported="text")
    assert 0 < len(measured) - first < first  # the new assistant message and tool turn only
    body = json.dumps(request.to_json()).encode()  # botocore: json.dumps defaults
    assert request.size == len(body)


def test_budget_measures_are_kept_per_history_and_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    """Where a budget may bind, the exact measures (plan.measure) are kept: two sessions sharing
    one system prompt keep theirs apart (neither measures the other's messages again), a
    session loaded anew (equal messages, new objects) is measured anew and its budgets still
    bind, and RUN_LIMIT bounds them (they hold the sessions' messages)."""
    from toolwire.messages import System

    system = System("Use the tools.")
    first, second = [system, *history(2, "Watch A.")], [system, *history(3, "Watch B.")]
    model = "bedrock:us.anthropic.claude-sonnet-4-5-20250929-v1:0"
    tight = capabilities(model, {"max_images_per_request": 1})
    for messages in (first, second, first, second):
        encode(messages, model, capabilities=tight, on_unsupported="text")
    assert len(MEMO.measures.runs) == 2
    runs = list(MEMO.measures.runs.values())
    assert [len(run.found) for run in runs] == [len(first), len(second)]
    measured: list[Any] = []
    real = measure.of_message
    monkeypatch.setattr(measure, "of_message", lambda m, *a: measured.append(m) or real(m, *a))
    anew = [System("Use the tools."), *history(2, "Watch A.")]
    left = encode(anew, model, capabilities=tight, on_unsupported="text").budgets_bound
    # Measured anew: the budgets name the files they leave out by which File they are.
    assert len(measured) == len(anew) and left == {"max_images_per_request": 1}
    assert len(MEMO.measures.runs) == 2
    monkeypatch.setattr(measure, "RUN_LIMIT", 1)
    encode(second, model, capabilities=tight, on_unsupported="text")
    assert len(MEMO.measures.runs) == 1


def test_a_conversation_within_its_budgets_is_measured_in_the_layout_alone() -> None:
    """No budget binds (what an agent loop meets): the layout's tally (plan.tally) proves it,
    so the exact measures are never taken, and the body is not measured either."""
    messages = history(3)
    request = encode(messages, "bedrock:us.anthropic.claude-sonnet-4-5-20250929-v1:0")
    assert not MEMO.measures.runs
    assert request.size is None  # Plan.bound kept it within max_request_bytes unmeasured
    assert request.wire_bytes > 0


@pytest.mark.parametrize("step", [1, 3])
def test_a_count_budget_that_binds_resumes_and_encodes_exactly_what_a_fresh_plan_does(
    step: int,
) -> None:
    """Bedrock takes 20 images a request: past that the oldest are left out, in steps. A
    growing history resumes from the first group whose files fare otherwise under the
    new count (plan.files.Budget.excess) and encodes what a fresh plan encodes, whether one
    image or several arrived since, and after the history is cut back."""
    model = "bedrock:us.anthropic.claude-sonnet-4-5-20250929-v1:0"
    full = history(27)
    lengths = [*range(37, len(full) + 1, 2 * step), 41]  # the threshold (20 images) in between
    for length in lengths:
        messages = full[:length]
        reused = encode(messages, model, on_unsupported="text")
        MEMO.clear()
        fresh = encode(messages, model, on_unsupported="text")
        assert (reused.kwargs, reused.decisions) == (fresh.kwargs, fresh.decisions), length
        encode(full[: lengths[0]], model, on_unsupported="text")  # another, shorter plan kept
        encode(messages, model, on_unsupported="text")  # remember it for the next, longer one
    assert sum(d.limit is not None for d in fresh.decisions) == 0  # 20 images at 41 messages
    left = encode(full, model, on_unsupported="text").decisions
    stepped = left_out_in_steps(27, 20, EVICT_TO)  # 27 images: down to half of 20 in one step
    assert [d.identifier for d in left if d.limit is not None] == [
        f"shot-{i}.png" for i in range(stepped)
    ]


def test_a_copy_with_a_field_changed_is_keyed_by_its_new_content() -> None:
    """A message's digest is kept once computed (toolwire.digest); ``model_copy`` with an
    update must not carry the original's over, or the caches would serve the old content."""
    shot = File.from_bytes(PHOTO, "image/png", name="shot.png")
    original = ToolResult.of("c1", "screenshot", ["Here.", shot])
    kept = original.digest  # computed and kept (its parts' digests with it)
    renamed = shot.model_copy(update={"name": "other.png"})
    assert renamed.digest != shot.digest
    assert renamed.digest == File.from_bytes(PHOTO, "image/png", name="other.png").digest
    moved = original.model_copy(update={"call_id": "c2"})
    assert moved.digest == ToolResult.of("c2", "screenshot", ["Here.", shot]).digest
    assert moved.digest != kept


def test_a_result_copied_with_a_new_output_stands_for_its_new_parts() -> None:
    """``ToolResult.parts`` is made once, like the digest: a copy that changes the output
    must not carry the original's parts over, or the plan would send the old output."""
    original = ToolResult.of("c1", "screenshot", "old text")
    assert [p.text for p in original.parts] == ["old text"]  # made and kept
    changed = original.model_copy(update={"output": ToolResult.of("c1", "x", "new").output})
    assert [p.text for p in changed.parts] == ["new"]
    call = ToolCall(id="c1", name="screenshot", arguments={})
    request = encode([User("Go."), Assistant([call]), changed], "anthropic:claude-sonnet-4-5")
    assert "new" in str(request.kwargs) and "old text" not in str(request.kwargs)


def test_a_file_the_fitter_left_as_it_is_comes_back_as_the_callers_own() -> None:
    """A kept answer "unchanged, and why" gives back the file asked about, not an equal one
    asked about before: the plan tells a resized image by ``sent is original``."""
    fitted = MEMO.fitted(lambda file, cell: (file, "Pillow is not installed"))
    cell = capabilities("anthropic:claude-sonnet-4-5").cell("image/png")
    first = File.from_bytes(PHOTO, "image/png", name="shot.png")
    again = File.from_bytes(PHOTO, "image/png", name="shot.png")
    assert fitted(first, cell)[0] is first
    result, note = fitted(again, cell)
    assert result is again and note == "Pillow is not installed"
    assert MEMO.fitted_images.chars == 0  # nothing kept but the answer


@pytest.mark.parametrize(
    "model", ["anthropic:claude-sonnet-4-5", "bedrock:us.anthropic.claude-sonnet-4-5-20250929-v1:0"]
)
def test_threads_encoding_one_growing_history_each_get_what_an_empty_memo_gives(
    model: str,
) -> None:
    """A kept plan and a kept run of spelled steps are handed to the encode that resumes
    them (memo.LastPlans.resume, SpelledSteps.take_run), which goes on in their lists:
    another thread encoding the same history meanwhile finds none and plans and spells
    without them. Every request is the one an empty memo gives."""
    from concurrent.futures import ThreadPoolExecutor

    histories = [history(n) for n in range(1, 9)]
    expected = []
    for messages in histories:
        MEMO.clear()
        expected.append(encode(messages, model).kwargs)
    MEMO.clear()
    switching = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # threads switch every few bytecodes: races show
    try:
        with ThreadPoolExecutor(4) as pool:
            for messages, wanted in zip(histories, expected, strict=True):
                for request in pool.map(encode, [messages] * 8, [model] * 8):
                    assert request.kwargs == wanted
    finally:
        sys.setswitchinterval(switching)


def test_a_history_whose_byte_budget_binds_resumes_its_last_layout(routed: list[str]) -> None:
    """Where the byte budget leaves files out, the history is laid out again under it; the
    layout under the count budgets alone is still kept, so the next encode lays out only its
    new turn before the byte budget's layout (before, the kept plan stayed where the budget
    first bound, and each encode laid out every turn since)."""
    model, limit = "anthropic:claude-sonnet-4-5", {"max_request_bytes": 4 * len(PHOTO)}
    messages = history(6)  # six photos: the oldest are left out for size
    first = encode(messages, model, capabilities=limit, fit_images=False)
    assert first.budgets_bound
    for turns in (7, 8, 9):
        messages += history(turns)[-2:]
        routed.clear()
        request = encode(messages, model, capabilities=limit, fit_images=False)
        assert request.budgets_bound
        newest = f"shot-{turns - 1}.png"
        before = f"shot-{turns - 2}.png"  # laid out in the last encode's first layout
        assert routed.count(newest) == 2  # the new turn: in the first layout and the second
        assert routed.count(before) == 1  # the turn before: in the byte budget's layout only


def test_an_empty_reply_then_a_user_message_after_a_kept_tool_turn_plans_that_turn_again() -> None:
    """A message the plan leaves out whole (an empty reply) between a tool turn and a user
    message belongs to the tool turn's group (plan.layout.passed_over): an encode that goes
    on from a kept plan ending with that turn lays the turn out again with them, as an
    empty memo does (on Mistral, whose user message after results needs the bridge)."""
    model = "mistral:mistral-large-latest"
    messages = history(2)
    encode(messages, model)
    messages += [Assistant(""), User("And now?")]
    resumed = encode(messages, model)
    MEMO.clear()
    fresh = encode(messages, model)
    assert (resumed.kwargs, resumed.decisions) == (fresh.kwargs, fresh.decisions)


@pytest.mark.parametrize(
    "model",
    ["bedrock:us.anthropic.claude-sonnet-4-5-20250929-v1:0", "bedrock:amazon.nova-pro-v1:0"],
)
def test_a_document_labelled_alone_loses_its_label_when_text_merges_into_its_message(
    model: str,
) -> None:
    """Converse takes no document without text beside it, so a user message holding only a
    PDF gets ``This is file …:``; a user message after it merges into it (roles alternate)
    and brings text, so no label. A history grown by that message must not keep the label
    the shorter one got (found by an audit: the passes carried on from the labelled step)."""
    pdf = File.from_path(EXAMPLES / "report.pdf")
    shorter = [User("Hi."), Assistant("Hello."), User([pdf])]
    grown = [*shorter, User("Summarise it.")]
    encode(shorter, model)
    resumed = encode(grown, model)
    MEMO.clear()
    fresh = encode(grown, model)
    assert resumed.kwargs == fresh.kwargs
    assert "This is file report.pdf:" not in str(fresh.kwargs["messages"][-1])


def test_system_text_after_a_kept_tool_turn_then_a_user_message_encodes_as_from_empty() -> None:
    """The audit's D1: on Mistral (no user message right after results) a kept history
    ending with a tool turn and system text, then a user message, is checked and bridged as
    an empty memo does (the wire checks start at the last step that is not system text)."""
    model = "mistral:mistral-large-latest"
    call = ToolCall(id="abcdefghi", name="look", arguments={})
    kept = [User("Go."), Assistant([call]), ToolResult.of("abcdefghi", "look", "done")]
    kept.append(System("Be brief."))
    encode(kept, model)
    resumed = encode([*kept, User("And?")], model)
    MEMO.clear()
    fresh = encode([*kept, User("And?")], model)
    assert (resumed.kwargs, resumed.decisions) == (fresh.kwargs, fresh.decisions)
