"""The terminal view's tests run their async pilots on asyncio (anyio's pytest plugin: each
module with async tests is marked ``pytestmark = pytest.mark.anyio``, so they are
parametrized when collected, as every plugin sees them; a marker added after collection
makes anyio replace the items late, and syrupy's xdist report then misses them); the
follow tests take a real PostgreSQL server, started as tests/store starts it; the snapshot
tests (pytest-textual-snapshot) keep their screens as .svg files."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from pytest_textual_snapshot import SVGImageExtension

# pytest-textual-snapshot 1.0.0 (the last release that lets pytest 9 in: 1.1.0 pins syrupy
# 4.8.0, which pins pytest below 9) names its file suffix `_file_extension`, syrupy 4's
# spelling; syrupy 5 and later read `file_extension`, and without it the screens would be
# kept as .raw files. (Textualize/pytest-textual-snapshot#24 would lift the pin.)
SVGImageExtension.file_extension = "svg"


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture(scope="session")
def pg_url() -> Iterator[str]:
    """A private PostgreSQL cluster (tests/store's), and on it one new empty database."""
    import psycopg
    from store import servers

    with servers.postgres() as url:
        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute("CREATE DATABASE tui_follow")
        yield url.rsplit("/", 1)[0] + "/tui_follow"
