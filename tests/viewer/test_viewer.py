"""tw.view: the public function, and a long session staying quick and light."""

from __future__ import annotations

import subprocess
import sys

import pytest

import toolwire as tw
from toolwire.viewer.media import THUMB_EDGE

from .conversations import long_session, tour


def test_view_stays_the_function_after_its_package_is_imported() -> None:
    script = "import toolwire.viewer.html, toolwire as tw; print(callable(tw.view))"
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert done.stdout.strip() == "True", done.stderr


def test_one_model_as_a_string_or_several_as_a_list() -> None:
    one = tw.view(tour(), "anthropic:claude-sonnet-4-5")
    two = tw.view(tour(), ["anthropic:claude-sonnet-4-5", "openai:gpt-5"])
    assert one.count('<div class="model c') == 1 and two.count('<div class="model c') == 2


def test_no_model_is_an_error_that_shows_how_to_name_one() -> None:
    with pytest.raises(tw.ToolwireError, match="at least one model, e.g. 'anthropic:"):
        tw.view(tour(), [])


def test_on_unsupported_error_raises_as_encode_does() -> None:
    with pytest.raises(tw.UnsupportedContentError, match="tone.wav"):
        tw.view(tour(), "openai:gpt-5", on_unsupported="error")


@pytest.mark.slow
def test_200_turns_with_100_images_render_as_lazy_thumbnails() -> None:
    """(How long it takes is not asserted: timings belong in bench/, never in tests.)"""
    messages = long_session(turns=200, images=100)
    page = tw.view(messages, ["anthropic:claude-sonnet-4-5", "openai:gpt-5"])
    images = page.count("<img ")
    assert images == 200  # 100 images for each of the two models
    assert page.count('loading="lazy"') == images
    assert page.count(f'width="{THUMB_EDGE}"') == images  # 1200x800 sent, 480x320 shown
    assert len(page) < 8_000_000  # thumbnails, not the 1200x800 PNGs sent
