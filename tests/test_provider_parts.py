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
