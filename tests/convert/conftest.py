"""Fixtures of the conversion tests: targets, and no conversion kept between tests."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from toolwire.convert import Target, clear_cache

#: A vision model that takes PNG and JPEG (as most do), at most 20 images here.
VISION = Target(frozenset({"image/png", "image/jpeg", "image/gif", "image/webp"}), 20)
#: A text-only model.
TEXT_ONLY = Target(frozenset(), None)


@pytest.fixture(autouse=True)
def no_kept_conversions() -> Iterator[None]:
    clear_cache()
    yield
    clear_cache()
