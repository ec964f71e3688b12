"""Images are fitted in the read worker, never decoded in the host (issue 33): a few KB of
WebP that decodes to 60 megapixels took the host past a gigabyte when ``encode`` fitted it.
The host's own peak memory (VmHWM) is asserted in a child process; the worker has its own
limit (readers.isolation)."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import toolwire as tw

PEAK_MB = 300

MAKE = """
import sys
from PIL import Image
Image.new("RGB", (10_000, 6_000), (30, 120, 200)).save(sys.argv[1], "WEBP", lossless=True)
"""

ENCODE = """
import json, sys, time
import toolwire as tw
photo = tw.File.from_path(sys.argv[1])
start = time.perf_counter()
request = tw.encode([tw.User(["Look.", photo])], "anthropic:claude-sonnet-4-5")
(decision,) = request.decisions
status = open("/proc/self/status").read().splitlines()
print(json.dumps({
    "bytes": len(open(sys.argv[1], "rb").read()),
    "resize": [decision.resize.from_px, decision.resize.to_px] if decision.resize else None,
    "seconds": time.perf_counter() - start,
    "peak_mb": max(int(l.split()[1]) for l in status if l.startswith("VmHWM")) / 1024,
}))
"""


def run(code: str, *args: str) -> str:
    done = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code), *args],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


@pytest.mark.slow
def test_a_small_webp_of_sixty_megapixels_is_fitted_without_the_host_decoding_it(
    tmp_path: Path,
) -> None:
    path = tmp_path / "huge.webp"
    run(MAKE, str(path))
    found = json.loads(run(ENCODE, str(path)).strip().splitlines()[-1])
    assert found["bytes"] < 100_000
    assert found["resize"] == [[10_000, 6_000], [1431, 858]]
    assert found["peak_mb"] < PEAK_MB, found


def test_a_fitted_image_is_the_same_bytes_as_before() -> None:
    """Fitting in the worker is the same deterministic fit: same bytes for the same input."""
    photo = tw.File.from_path(Path(__file__).parent.parent / "examples" / "photo.png")
    cell = tw.capabilities("openai:gpt-5").cell("image/png")
    assert cell is not None
    from dataclasses import replace

    from toolwire.imagefit import _fit, clear_cache, fit_image

    small = replace(cell, fit_edge=200)
    clear_cache()
    fitted, note = fit_image(photo, small)
    assert note is not None and note.startswith("resized")
    assert fitted.read() == _fit(photo.read(), "image/png", small, photo.identifier)[0]
