"""b64: base64 of a file computed once per content and reused, within a memory bound."""

from __future__ import annotations

import base64
from collections.abc import Iterator
from pathlib import Path

import pytest

from toolwire import b64
from toolwire.content import File
from toolwire.errors import FetchError

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


@pytest.fixture(autouse=True)
def empty_cache() -> Iterator[None]:
    b64.clear()
    yield
    b64.clear()


def png(seed: int, size: int = 1000) -> File:
    """A distinct small 'PNG' (the signature, then filler): its own content hash."""
    body = b"\x89PNG\r\n\x1a\n" + seed.to_bytes(4, "big") * (size // 4)
    return File.from_bytes(body, media_type="image/png", name=f"p{seed}.png")


def test_b64_is_the_standard_base64_of_the_bytes() -> None:
    photo = File.from_path(EXAMPLES / "photo.png")
    assert b64.b64(photo) == base64.b64encode((EXAMPLES / "photo.png").read_bytes()).decode()


def test_a_data_url_carries_the_media_type() -> None:
    file = png(1)
    assert b64.data_url(file) == "data:image/png;base64," + base64.b64encode(file.read()).decode()


def test_a_cache_hit_returns_the_identical_string() -> None:
    first = b64.b64(png(1))
    assert b64.b64(png(1)) is first  # another File with the same bytes hits the same entry
    url = b64.data_url(png(1))
    assert b64.data_url(png(1)) is url
    assert url is not first


def test_the_same_bytes_from_a_path_and_from_memory_share_an_entry() -> None:
    from_disk = b64.b64(File.from_path(EXAMPLES / "sample.webp"))
    in_memory = File.from_bytes((EXAMPLES / "sample.webp").read_bytes())
    assert b64.b64(in_memory) is from_disk


def test_the_cache_stays_within_its_bound_evicting_the_least_recently_used(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    entry = len(b64.b64(png(0)))  # every test file encodes to the same length
    b64.clear()
    monkeypatch.setattr(b64, "CACHE_LIMIT", 4 * entry)  # room for four entries
    kept = {i: b64.b64(png(i)) for i in range(4)}
    assert b64.b64(png(0)) is kept[0]  # 0 is now the most recently used
    b64.b64(png(4))  # over the bound: 1, the least recently used, goes
    assert b64._size == 4 * entry <= b64.CACHE_LIMIT
    assert len(b64._cache) == 4
    assert all(b64.b64(png(i)) is kept[i] for i in (0, 2, 3))
    assert b64.b64(png(1)) is not kept[1]  # re-encoded: it had been evicted


def test_a_value_larger_than_a_quarter_of_the_bound_is_not_kept(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    big = png(7, size=4000)
    monkeypatch.setattr(b64, "CACHE_LIMIT", 4 * len(b64.b64(big)) - 4)
    b64.clear()
    first = b64.b64(big)
    assert b64.b64(big) == first and b64.b64(big) is not first
    assert b64._size == 0 and not b64._cache


def test_clear_empties_the_cache() -> None:
    first = b64.b64(png(1))
    b64.clear()
    assert (b64._size, len(b64._cache)) == (0, 0)
    assert b64.b64(png(1)) is not first


def test_a_url_file_has_no_bytes_to_encode() -> None:
    with pytest.raises(FetchError, match="has no local bytes"):
        b64.b64(File.from_url("https://example.com/a.png"))
