"""Hostile bytes the host reads itself are read within bounds (issue 33): a "JPEG" of fill
bytes, a JSON-looking blob, a zip of a million entries. Each runs in a child process with its
peak memory (VmHWM) asserted (and a stop if it never ends); the answers for real files are
unchanged."""

from __future__ import annotations

import io
import json
import subprocess
import sys
import textwrap
import zipfile

import pytest

import toolwire as tw
from toolwire.headers import image_size
from toolwire.mediatypes import DOCX, XLSX, sniff

#: Seconds after which the child is stopped and the test fails: a guard against a walk that
#: never ends (an exponential one), far above any machine's time; speed is not asserted here.
HANG_SECONDS = 120
PEAK_MB = 300

CHILD = """
import json, sys, time
import toolwire as tw
from toolwire import headers
from toolwire.mediatypes import sniff
kind = sys.argv[1]
if kind == "jpeg-fill":
    data = b"\\xff\\xd8" + b"\\xff" * 40_000_000
elif kind == "json-like":
    data = b"[" + b"[]," * 13_000_000 + b"[]]"
else:  # a zip whose central directory lists a million entries
    name = b"word/document.xml"
    entry = b"PK\\x01\\x02" + bytes(24) + len(name).to_bytes(2, "little") + bytes(16) + name
    count = 1_000_000
    directory = entry * count
    local = b"PK\\x03\\x04" + bytes(26)  # a zip opens with a local file header
    end = (b"PK\\x05\\x06" + bytes(4) + (0xFFFF).to_bytes(2, "little") * 2
           + len(directory).to_bytes(4, "little") + len(local).to_bytes(4, "little") + bytes(2))
    data = local + directory + end
start = time.perf_counter()
if kind == "jpeg-fill":
    file = tw.File.from_bytes(data, "image/jpeg", name="fill.jpg")
    request = tw.encode([tw.User(["Look.", file])], "anthropic:claude-sonnet-4-5",
                        on_unsupported="text")
    answer = [headers.image_size(data), request.decisions[0].mode]
else:
    answer = sniff(data)
status = open("/proc/self/status").read().splitlines()
peak = max(int(line.split()[1]) for line in status if line.startswith("VmHWM")) / 1024
print(json.dumps({"answer": answer, "seconds": time.perf_counter() - start, "peak_mb": peak}))
"""


@pytest.mark.parametrize(
    ("kind", "answer"),
    [
        ("jpeg-fill", [None, "text"]),  # no size: not decoded here, too large for Claude: text
        ("json-like", "text/plain"),  # too large to parse here: no guess from its brackets
        ("zip-directory", DOCX),
    ],
)
def test_hostile_bytes_the_host_reads_cost_a_bounded_walk(kind: str, answer: object) -> None:
    done = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(CHILD), kind],
        capture_output=True,
        text=True,
        timeout=HANG_SECONDS,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    found = json.loads(done.stdout.strip().splitlines()[-1])
    assert found["answer"] == answer
    assert found["peak_mb"] < PEAK_MB


def test_real_headers_are_read_as_before() -> None:
    from PIL import Image

    buffer = io.BytesIO()
    Image.new("RGB", (640, 480)).save(buffer, "JPEG", exif=b"Exif\x00\x00" + bytes(60_000))
    assert image_size(buffer.getvalue()) == (640, 480)
    padded = buffer.getvalue()[:2] + b"\xff" * 5000 + buffer.getvalue()[2:]  # fill before a marker
    assert image_size(padded) == (640, 480)
    for names, expected in ((["word/document.xml"], DOCX), (["a/b", "xl/workbook.xml"], XLSX)):
        archive = io.BytesIO()
        with zipfile.ZipFile(archive, "w") as made:
            for name in names:
                made.writestr(name, "x")
        assert sniff(archive.getvalue()) == expected
    assert sniff(b'{"a": [1, 2]}') == "application/json"
    assert sniff(b"{not json}") == "text/plain"
    assert tw.File.from_bytes(b'{"a": 1}').media_type == "application/json"
