"""Store locations are parsed, not guessed (issue 35, item 2): a directory path,
``sqlite:///path`` or a PostgreSQL URL; any other URL is a StoreError naming what is taken,
never a directory named after the scheme."""

from __future__ import annotations

from pathlib import Path

import pytest

import toolwire as tw


def test_a_sqlite_url_is_the_store_directory_it_names(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.chdir(tmp_path)
    store = tw.SessionStore(f"sqlite://{tmp_path}/agents")
    assert store.location == str(tmp_path / "agents")
    store.append("s1", tw.User("hi"))
    assert not (tmp_path / "sqlite:").exists()


@pytest.mark.parametrize("url", ["mysql://host/db", "sqlite://relative/dir", "s3://bucket/x"])
def test_any_other_url_is_a_store_error_naming_the_schemes(
    tmp_path: Path, monkeypatch, url: str
) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.chdir(tmp_path)
    with pytest.raises(tw.StoreError, match="sqlite:///path/to/dir, or postgresql://"):
        tw.SessionStore(url)
    assert list(tmp_path.iterdir()) == []  # nothing created
