"""A Decision in a few words: each of its fields the plan sets shows in the verdict."""

from __future__ import annotations

from dataclasses import replace

import pytest

from toolwire.plan.values import Decision, Limit, Repeat, Resize
from toolwire.tui.lines import verdict

BASE = Decision(0, "shot.png", "image/png", "image", "native", "inside the tool result")
MAX_IMAGES = Limit("max_images_per_request", 5, "groq docs", left_out=3, among=8)


@pytest.mark.parametrize(
    ("changes", "words"),
    [
        ({}, "· native"),
        (
            {"mode": "fallback", "position": "user_message"},
            "· in a user message of its own, → user message",
        ),
        ({"mode": "converted", "converted_to": "pages"}, "· converted to pages"),
        ({"mode": "text", "limit": MAX_IMAGES}, "· evicted by max_images_per_request = 5"),
        (
            {
                "mode": "converted",
                "converted_to": "text",
                "limit": Limit("max_request_bytes", 20_000_000, "docs"),
            },
            "· converted to text, max_request_bytes = 20,000,000 binds",
        ),
        (
            {"resize": Resize((4000, 3000), (1568, 1176), 9_000_000, 400_000)},
            "· native, resized 4000x3000→1568x1176",
        ),
        ({"upload_id": "file-abc\x1b[2J"}, "· native, upload file-abc\\x1b[2J"),
        ({"repeats": Repeat("first.png", 1)}, "· native, repeats first.png"),
    ],
)
def test_each_field_the_plan_sets_is_named(changes: dict[str, object], words: str) -> None:
    assert verdict(replace(BASE, **changes)) == words
