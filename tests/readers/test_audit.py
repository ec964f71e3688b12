"""Audit of the read worker's replies: a worker that parsed hostile bytes may be taken over,
so what it sends is validated again in the caller (unpickling skips pydantic's validation).

The readers below are module-level functions of this module, sent to the worker by name."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator

import pytest

from toolwire.content import File, Text
from toolwire.errors import InvalidFileError
from toolwire.messages import ContentOutput
from toolwire.readers import isolation
from toolwire.readers.common import Job, Options
from toolwire.sources import BytesSource


@pytest.fixture(autouse=True)
def in_a_worker() -> Iterator[None]:
    saved = isolation.settings()
    isolation.configure(enabled=True)  # even under TOOLWIRE_READ_ISOLATION=0
    yield
    isolation.configure(**dataclasses.asdict(saved))
    isolation.shutdown()


def not_a_list(job: Job) -> ContentOutput:
    return ContentOutput.model_construct(value="not a list of parts")


def a_file_the_bytes_contradict(job: Job) -> ContentOutput:
    source = BytesSource.model_construct(data=b"%PDF-1.7\n...")
    file = File.model_construct(source=source, media_type="image/png", name="x.png")
    return ContentOutput.model_construct(value=[Text(text="header"), file])


def honest(job: Job) -> ContentOutput:
    return ContentOutput(value=[Text(text="header")])


def job() -> Job:
    return Job("evil.bin", "application/octet-stream", Options(), b"x", 1)


@pytest.mark.parametrize("reader", [not_a_list, a_file_the_bytes_contradict])
def test_a_reply_of_an_unvalidated_model_is_refused_as_an_invalid_reply(reader):
    with pytest.raises(InvalidFileError, match="evil.bin: the read worker sent an invalid reply"):
        isolation.run(reader, job())


def test_a_valid_reply_still_arrives_as_sent():
    assert isolation.run(honest, job()) == ContentOutput(value=[Text(text="header")])
