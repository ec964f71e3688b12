"""The conversion memo (convert/memo.py): an LRU bounded by bytes."""

from __future__ import annotations

import pytest

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


def test_a_failed_conversion_is_remembered_for_the_same_bytes_and_settings(worker_runs):
    """A hostile or corrupt file costs its worker run once per process (issue 33): the same
    bytes and settings raise the same error again without parsing them again; other bytes,
    or a cleared memo, run again."""
    from toolwire.content import File
    from toolwire.convert import clear_cache, convert
    from toolwire.errors import InvalidFileError

    from .conftest import VISION

    runs = worker_runs
    broken = File.from_bytes(b"%PDF-1.7\n" + b"\x00garbage" * 50, "application/pdf", "bad.pdf")
    for _ in range(3):
        with pytest.raises(InvalidFileError, match="bad.pdf") as caught:
            convert(broken, VISION)
    assert runs == ["bad.pdf"]
    assert caught.value.__traceback__ is not None  # raised anew, a fresh traceback each time
    other = File.from_bytes(b"%PDF-1.7\n" + b"\x01garbage" * 50, "application/pdf", "bad2.pdf")
    with pytest.raises(InvalidFileError):
        convert(other, VISION)
    clear_cache()
    with pytest.raises(InvalidFileError):
        convert(broken, VISION)
    assert runs == ["bad.pdf", "bad2.pdf", "bad.pdf"]
