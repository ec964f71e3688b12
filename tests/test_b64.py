"""b64: base64 of a file computed once per content and reused, within a memory bound
(the cache is the memo layer's ``base64``)."""

from __future__ import annotations

import base64
from collections.abc import Iterator
from pathlib import Path

import pytest

from toolwire import b64
from toolwire.b64 import Base64Cache
from toolwire.content import File
from toolwire.errors import FetchError
from toolwire.memo import MEMO

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


@pytest.fixture(autouse=True)
def empty_cache() -> Iterator[None]:
    MEMO.base64.clear()
    yield
    MEMO.base64.clear()


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


def test_the_cache_stays_within_its_bound_evicting_the_least_recently_used() -> None:
    entry = len(b64.b64(png(0)))  # every test file encodes to the same length
    cache = Base64Cache(limit=4 * entry)  # room for four entries
    kept = {i: cache.encoded(png(i), "") for i in range(4)}
    assert cache.encoded(png(0), "") is kept[0]  # 0 is now the most recently used
    cache.encoded(png(4), "")  # over the bound: 1, the least recently used, goes
    assert cache.size == 4 * entry <= cache.limit
    assert len(cache.entries) == 4
    assert all(cache.encoded(png(i), "") is kept[i] for i in (0, 2, 3))
    assert cache.encoded(png(1), "") is not kept[1]  # re-encoded: it had been evicted


def test_a_value_larger_than_a_quarter_of_the_bound_is_not_kept() -> None:
    big = png(7, size=4000)
    cache = Base64Cache(limit=4 * len(b64.b64(big)) - 4)
    first = cache.encoded(big, "")
    assert cache.encoded(big, "") == first and cache.encoded(big, "") is not first
    assert cache.size == 0 and not cache.entries


def test_clearing_the_memo_empties_the_cache() -> None:
    first = b64.b64(png(1))
    MEMO.clear()
    assert (MEMO.base64.size, len(MEMO.base64.entries)) == (0, 0)
    assert b64.b64(png(1)) is not first


def test_bytes_nobody_hashed_are_not_hashed_to_be_cached() -> None:
    file = png(9)
    b64.b64(file)
    assert file.source.known_sha256() is None  # keyed by the bytes object, no hash taken
    assert b64.b64(file) is b64.b64(file)


def test_a_url_file_has_no_bytes_to_encode() -> None:
    with pytest.raises(FetchError, match="has no local bytes"):
        b64.b64(File.from_url("https://example.com/a.png"))
