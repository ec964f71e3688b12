"""Audit of the HTML view: the files it decodes come from the conversation, so a crafted one
is decoded in the read worker, and what the worker sends back is checked before it is shown."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from toolwire import ContentOutput, Text
from toolwire.readers.common import Job
from toolwire.viewer import media

from .conversations import png

ROOT = Path(__file__).resolve().parents[2]
VIEW_A_PDF_BOMB = """
import resource, sys
import toolwire as tw
from tests.convert.files import pdf_bomb
resource.setrlimit(resource.RLIMIT_AS, (3 * 1024**3, resource.RLIM_INFINITY))
bomb = tw.File.from_bytes(pdf_bomb(), "application/pdf", "bomb.pdf")
print(tw.view([tw.User(["look", bomb])], "anthropic:claude-sonnet-4-5"))
"""


@pytest.mark.skipif(sys.platform != "linux", reason="RLIMIT_AS is enforced on Linux")
@pytest.mark.slow
def test_viewing_a_pdf_bomb_describes_it_instead_of_aborting_the_caller():
    env = {**os.environ, "TOOLWIRE_READ_ISOLATION": "1", "TOOLWIRE_READ_MEMORY_MB": "512"}
    done = subprocess.run(
        [sys.executable, "-c", VIEW_A_PDF_BOMB],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    assert "not rendered: bomb.pdf could not be read as PDF" in done.stdout


def forged_url(job: Job) -> ContentOutput:
    """A reply a worker taken over by a crafted file might send."""
    picture = {"url": "javascript:alert(1)", "width": 1, "height": 1}
    picture |= {"shown_width": 1, "shown_height": 1, "note": ""}
    return ContentOutput(value=[Text(text=json.dumps({"count": 1, "picture": picture}))])


def forged_shape(job: Job) -> ContentOutput:
    return ContentOutput(value=[Text(text='{"count": "many", "why": 3}')])


@pytest.mark.parametrize("render", [forged_url, forged_shape])
def test_a_reply_the_viewers_worker_would_not_send_is_described_not_shown(render):
    file = png(8, 8, seed=41)

    count, shown = media._in_worker(render, file, file.read(), "not shown")

    assert (count, shown) == (0, "not shown: the worker that decodes it sent an invalid reply")


def test_a_small_image_is_still_embedded_as_the_very_bytes_sent_after_the_worker_looks():
    file = png(9, 7, seed=42)
    shown = media.picture(file)
    assert isinstance(shown, media.Picture)
    assert (shown.url, shown.width, shown.height) == (
        media.data_url("image/png", file.read()),
        9,
        7,
    )
