"""Fixtures shared by the reader tests."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator

import pytest

from toolwire.readers import isolation


@pytest.fixture
def fresh_isolation() -> Iterator[None]:
    """The test starts and ends with the default read settings and no worker running."""
    saved = isolation.settings()
    isolation.shutdown()
    yield
    isolation.configure(**dataclasses.asdict(saved))
    isolation.shutdown()
