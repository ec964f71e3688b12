"""The terminal view's tests run their async pilots on asyncio (anyio's pytest plugin)."""

from __future__ import annotations

import pytest


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if "tests/tui/" in str(item.fspath) and item.get_closest_marker("anyio") is None:
            item.add_marker(pytest.mark.anyio)
