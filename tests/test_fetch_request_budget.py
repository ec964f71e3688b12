"""One request's downloads are bounded in all (issue 33): each URL is fetched once however
often the plan lays the conversation out, and the bytes held and seconds spent across all of
a request's URLs have a budget (``fetch.MAX_REQUEST_FETCH_BYTES``, ``REQUEST_FETCH_SECONDS``).
24 URLs of 50 MB each held 1.22 GB before."""

from __future__ import annotations

import io
from collections import Counter
from typing import Any

import pytest

import toolwire as tw
from toolwire import fetch


def jpeg(seed: int) -> bytes:
    from PIL import Image

    buffer = io.BytesIO()
    Image.new("RGB", (32, 32), (seed * 40 % 256, 90, 160)).save(buffer, "JPEG")
    return buffer.getvalue()


def looking_at(urls: list[str]) -> list[Any]:
    return [tw.User(["Look.", *(tw.File.from_url(u, "image/jpeg") for u in urls)])]


BEDROCK = "bedrock:us.anthropic.claude-sonnet-4-5-20250929-v1:0"  # takes no image URL


def counting_fetcher(urls: list[str]) -> tuple[Any, Counter[str]]:
    """A fetcher serving a JPEG per URL, and how often it downloaded each."""
    data = {u: jpeg(i) for i, u in enumerate(urls)}
    downloads: Counter[str] = Counter()

    def counting(url: str) -> bytes:
        downloads[url] += 1
        return data[url]

    return counting, downloads


def test_the_bytes_a_request_downloads_in_all_are_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    urls = [f"https://example.test/{i}.jpg" for i in range(6)]
    data = {u: jpeg(i) for i, u in enumerate(urls)}
    monkeypatch.setattr(fetch, "MAX_REQUEST_FETCH_BYTES", sum(map(len, data.values())) - 1)
    with pytest.raises(tw.FetchError, match=r"fetching https://example.test/5.jpg would hold"):
        tw.encode(looking_at(urls), BEDROCK, fetch_urls=data.__getitem__)
    assert len(tw.encode(looking_at(urls[:5]), BEDROCK, fetch_urls=data.__getitem__).decisions) == 5


class DownloadClock:
    """fetch's clock, moved on only by the downloads a test makes (``download``)."""

    def __init__(self) -> None:
        self.now = 0.0

    def monotonic(self) -> float:
        return self.now

    def download(self, seconds: float) -> None:
        self.now += seconds


def test_the_seconds_a_request_spends_downloading_are_bounded(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Each download takes 100 s on fetch's clock, so two (200 s) pass the 150 s budget and the
    third URL is refused. The clock is the test's: with real sleeps (0.1 s each against 0.15 s)
    the fetcher's own work or a pause on a busy machine refused the second URL instead."""
    urls = [f"https://example.test/{i}.jpg" for i in range(5)]
    image, clock = jpeg(0), DownloadClock()
    monkeypatch.setattr(fetch, "time", clock)
    monkeypatch.setattr(fetch, "REQUEST_FETCH_SECONDS", 150.0)

    def slow(url: str) -> bytes:
        clock.download(100.0)
        return image

    with pytest.raises(tw.FetchError) as refused:
        tw.encode(looking_at(urls), BEDROCK, fetch_urls=slow)
    assert str(refused.value) == (
        "not fetching https://example.test/2.jpg: this request already spent 200 s "
        "downloading, over the 150 s one request may"
    )


def test_each_url_is_downloaded_once_where_a_byte_budget_binds() -> None:
    """Where a byte budget binds, the conversation is laid out again (and, where the spelled
    body overshoots, planned again); every layout shares the request's downloads."""
    urls = [f"https://example.test/{i}.jpg" for i in range(4)]
    counting, downloads = counting_fetcher(urls)

    limit = 16 * 1024 + 2 * 4 * len(jpeg(0))  # about two images with the headroom
    request = tw.encode(
        looking_at(urls), BEDROCK, fetch_urls=counting, on_unsupported="text",
        capabilities={"max_request_bytes": limit},
    )  # fmt: skip
    assert request.budgets_bound.get("max_request_bytes")
    assert set(downloads.values()) == {1}


@pytest.mark.parametrize("on_unsupported", ["text", "convert"])
@pytest.mark.parametrize("byte_budget", [None, 16 * 1024 + 8 * 1400], ids=["counts", "and-bytes"])
def test_files_a_count_budget_leaves_out_are_never_downloaded(
    byte_budget: int | None, on_unsupported: tw.OnUnsupported
) -> None:
    """Bedrock takes 20 images a request: of 30 by URL, the oldest are left out by count
    before anything is routed or measured, so they are never downloaded (issue 33, audit 9),
    also where a byte budget binds besides and the files are measured exactly."""
    urls = [f"https://example.test/{i}.jpg" for i in range(30)]
    counting, downloads = counting_fetcher(urls)

    turns = [tw.User(["Look.", tw.File.from_url(u, "image/jpeg")]) for u in urls]
    overrides = {"max_request_bytes": byte_budget} if byte_budget else None
    request = tw.encode(
        turns, BEDROCK, fetch_urls=counting, capabilities=overrides, on_unsupported=on_unsupported
    )
    counted = {
        d.message_index for d in request.decisions if d.limit and d.limit.name == "max_count"
    }
    assert counted and max(counted) < min(i for i in range(30) if i not in counted)  # the oldest
    assert not {urls[i] for i in counted} & set(downloads)
    assert set(downloads.values()) == {1}
    if byte_budget:
        assert request.budgets_bound.get("max_request_bytes")


def test_the_count_and_byte_budgets_agree_on_results_given_out_of_call_order() -> None:
    """The layout meets a tool turn's results in the order the calls were made; the byte
    budget takes out of its scan the very files the count budget leaves out, so results
    given out of that order are planned as in it (the audit's D1: it raised that the text
    alone broke the byte budget)."""
    import os

    from PIL import Image

    def png(side: int, seed: int) -> bytes:
        buffer = io.BytesIO()
        noise = Image.frombytes(
            "RGB", (side, side), os.urandom(side * side * 3) if seed else bytes(side * side * 3)
        )
        noise.save(buffer, "PNG")
        return buffer.getvalue()

    small = tw.File.from_bytes(png(16, 0), "image/png", name="small.png")
    big = tw.File.from_bytes(png(300, 1), "image/png", name="big.png")
    one_image = {
        "types": ["images"],
        "tool_result": "native",
        "user_sources": ["bytes"],
        "max_count": 1,
    }
    overrides = {"max_request_bytes": 150_000, "media": [one_image]}
    calls = tw.Assistant(
        [tw.ToolCall(id="c1", name="a", arguments={}), tw.ToolCall(id="c2", name="b", arguments={})]
    )
    first, second = (
        tw.ToolResult.of("c1", "a", ["one", small]),
        tw.ToolResult.of("c2", "b", ["two", big]),
    )
    planned = []
    for results in ([first, second], [second, first]):
        request = tw.encode(
            [tw.User("Look."), calls, *results], BEDROCK, capabilities=overrides, fit_images=False
        )
        planned.append([(d.identifier, d.limit and d.limit.name) for d in request.decisions])
    assert (
        planned[0] == planned[1] == [("small.png", "max_count"), ("big.png", "max_request_bytes")]
    )
