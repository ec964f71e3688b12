"""Uploads.async_sync through the official async SDK clients: the same outcomes as sync."""

from __future__ import annotations

import asyncio

import pytest

import toolwire as tw
from toolwire.uploads import mistral
from toolwire.uploads.transfer import Body, Settings

from .conftest import ANTHROPIC, FLAVOURS, GEMINI, OPENAI, history, pdf


@pytest.mark.parametrize("model", [ANTHROPIC, OPENAI, GEMINI])
def test_async_sync_uploads_once_and_reuses_the_id(serve, model):
    client, state = serve(FLAVOURS[model], asynchronous=True)
    state.processing_polls = 2 if model == GEMINI else 0
    uploads = tw.Uploads()
    turn = history(pdf(seed=1), pdf(seed=2))
    first = asyncio.run(uploads.async_sync(turn, model, client))
    again = asyncio.run(uploads.async_sync([*turn, tw.User("more?")], model, client))
    assert [o.uploaded for o in first] == [True, True]
    assert [o.uploaded for o in again] == [False, False]
    assert [o.file_id for o in first] == [o.file_id for o in again]
    assert len(state.uploads) == 2
    resolved = uploads.resolve(turn, model)
    ids = {m.output.value[0].source.file_id for m in resolved[2::2]}
    assert ids == {o.file_id for o in first}


def test_async_uploads_are_bounded_by_max_workers(serve):
    client, state = serve("openai", asynchronous=True)
    state.delay = 0.2
    uploads = tw.Uploads(max_workers=2)
    turn = history(*(pdf(seed=10 + i) for i in range(5)))
    outcomes = asyncio.run(uploads.async_sync(turn, OPENAI, client))
    assert len(outcomes) == 5 and state.max_in_flight == 2


def test_an_async_failure_is_an_upload_error_and_caches_nothing(serve):
    client, state = serve("anthropic", asynchronous=True)
    state.failures.append((400, {"type": "error", "error": {"message": "bad pdf"}}))
    uploads = tw.Uploads()
    turn = history(pdf(seed=20, name="x.pdf"))
    with pytest.raises(tw.UploadError, match=r"x\.pdf.*anthropic.*bad pdf"):
        asyncio.run(uploads.async_sync(turn, ANTHROPIC, client))
    assert uploads.resolve(turn, ANTHROPIC) == turn


def test_async_sync_with_a_sync_client_points_to_sync(serve):
    client, _ = serve("anthropic")
    with pytest.raises(tw.ToolwireError, match=r"uploads\.sync"):
        asyncio.run(tw.Uploads().async_sync(history(pdf()), ANTHROPIC, client))


def test_mistral_uploads_through_upload_and_upload_async(serve):
    # The table lists no file_id source for Mistral yet, so Uploads.sync sends nothing there;
    # the Files API module itself works with the official client, both ways.
    client, state = serve("mistral")
    settings = Settings(expires_after=None, processing_timeout=1)
    data = pdf(seed=30).read()

    def body() -> Body:
        return Body(data, "doc.pdf", "application/pdf", "doc.pdf", None)

    first = mistral.upload(client, body(), settings)
    second = asyncio.run(mistral.aupload(client, body(), settings))
    assert (first.file_id, second.file_id) == ("mf-0001", "mf-0002")
    assert [u.fields["purpose"] for u in state.uploads] == ["ocr", "ocr"]
    assert state.uploads[0].size == len(data)
