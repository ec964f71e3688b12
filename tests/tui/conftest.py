"""The terminal view's tests run their async pilots on asyncio (anyio's pytest plugin); the
follow tests take a real PostgreSQL server, started as tests/store starts it."""

from __future__ import annotations

from collections.abc import Iterator

import pytest


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if "tests/tui/" in str(item.fspath) and item.get_closest_marker("anyio") is None:
            item.add_marker(pytest.mark.anyio)


@pytest.fixture(scope="session")
def pg_url() -> Iterator[str]:
    """A private PostgreSQL cluster (tests/store's), and on it one new empty database."""
    import psycopg
    from store import servers

    with servers.postgres() as url:
        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute("CREATE DATABASE tui_follow")
        yield url.rsplit("/", 1)[0] + "/tui_follow"
