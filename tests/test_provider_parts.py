"""A history holding provider parts (decoders: built-in tool blocks, Gemini images) is one
every toolwire function takes: counted, fitted and viewed, not only encoded."""

from __future__ import annotations

import toolwire as tw

SEARCH = {
    "type": "server_tool_use",
    "id": "srvtoolu_01WYG3ziw53XMcoyKL4XcZmE",
    "name": "web_search",
    "input": {"query": "claude shannon birth date"},
}
CLAUDE = "anthropic:claude-sonnet-4-5"


def history() -> list[tw.Message]:
    part = tw.ProviderPart(
        provider="anthropic", wire="anthropic", kind="server_tool_use", data=SEARCH
    )
    return [tw.User("When was Claude Shannon born?"), tw.Assistant([part, "April 30, 1916."])]


def test_its_tokens_are_counted_as_its_json() -> None:
    without = tw.estimate_tokens(history()[:1] + [tw.Assistant("April 30, 1916.")], CLAUDE)
    assert tw.estimate_tokens(history(), CLAUDE).total > without.total


def test_a_fitted_history_keeps_it() -> None:
    assert tw.fit(history(), CLAUDE, max_tokens=10_000) == history()


def test_the_viewer_shows_its_kind_and_who_it_goes_back_to() -> None:
    page = tw.view(history(), CLAUDE)
    assert "server_tool_use from anthropic (sent back to anthropic only)" in page


def test_a_growing_history_lists_the_parts_another_target_does_not_get_on_every_request() -> None:
    """The planner counts provider parts as it lays messages out (plan.tally), so a history
    resumed from its kept plan still lists the part of an earlier message; a history without
    provider parts is never walked for them."""
    messages = history()
    gpt = "openai:gpt-5"
    first = tw.encode(messages, gpt)
    assert [p.kind for p in first.parts_left_out] == ["server_tool_use"]
    messages += [tw.User("And Alan Turing?"), tw.Assistant("June 23, 1912.")]
    grown = tw.encode(messages, gpt)
    assert [(p.message_index, p.kind) for p in grown.parts_left_out] == [(1, "server_tool_use")]
    assert tw.encode(messages, CLAUDE).parts_left_out == []
    assert tw.encode([tw.User("Hi.")], gpt).parts_left_out == []
