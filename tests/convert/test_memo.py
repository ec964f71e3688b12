"""The conversion memo (convert/memo.py): an LRU bounded by bytes."""

from __future__ import annotations

from toolwire.convert.memo import Memo


def test_the_least_recently_used_entries_go_first_once_past_the_bound():
    memo: Memo[str] = Memo(bound=100)
    memo.put("a", "A", 40)
    memo.put("b", "B", 40)
    assert memo.get("a") == "A"  # now the most recently used
    memo.put("c", "C", 40)
    assert memo.get("b") is None and memo.get("a") == "A" and memo.get("c") == "C"
    assert memo.held == 80 and len(memo) == 2


def test_an_entry_larger_than_the_bound_is_not_kept_and_drops_nothing():
    memo: Memo[str] = Memo(bound=100)
    memo.put("a", "A", 60)
    memo.put("huge", "H", 101)
    assert memo.get("huge") is None and memo.get("a") == "A"


def test_putting_a_key_again_replaces_it_and_its_size():
    memo: Memo[str] = Memo(bound=100)
    memo.put("a", "A", 60)
    memo.put("a", "A2", 30)
    assert memo.get("a") == "A2" and memo.held == 30
    memo.clear()
    assert len(memo) == 0 and memo.held == 0
