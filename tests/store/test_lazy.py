"""``load(verify=False)`` reads no blob: each File's bytes are read (object storage: fetched)
and checked on first use, on every backend, and a failure names session, file and hash."""

from __future__ import annotations

from pathlib import Path

import pytest

import toolwire as tw
from toolwire.request import encode

from .conftest import Backend
from .test_conformance import _overwrite_blob

PHOTO = Path(__file__).parents[2] / "examples" / "photo.png"
MODEL = "anthropic:claude-sonnet-4-5"


def _store_photo(store: tw.SessionStore) -> str:
    photo = tw.File.from_path(PHOTO, name="photo.png")
    store.extend("s1", [tw.User("look"), tw.User([photo, "and again", photo])])
    return photo.source.sha256()


def test_load_without_verify_fetches_no_blob_until_a_file_is_read(backend: Backend) -> None:
    with backend.open() as store:
        digest = _store_photo(store)
        assert store.blobs.remove({digest}) == 1  # gone: only a read could notice
        messages = store.load("s1", verify=False)
        file = messages[1].content[0]
        with pytest.raises(
            tw.StoreError, match=rf"session 's1', message 1, file photo\.png.*{digest[:12]}"
        ):
            file.read()
        with pytest.raises(tw.StoreError, match=r"session 's1', message 1, file photo\.png"):
            store.load("s1")


def test_a_lazily_loaded_session_encodes_exactly_like_a_verified_one(backend: Backend) -> None:
    with backend.open() as store:
        _store_photo(store)
        lazy, verified = store.load("s1", verify=False), store.load("s1")
        assert encode(lazy, MODEL).to_json() == encode(verified, MODEL).to_json()
        assert lazy[1].content[0].read() == PHOTO.read_bytes()


def test_a_blob_tampered_with_before_the_first_read_is_refused_then(backend: Backend) -> None:
    with backend.open() as store:
        digest = _store_photo(store)
        messages = store.load("s1", verify=False)
        flipped = bytearray(PHOTO.read_bytes())
        flipped[100] ^= 1
        _overwrite_blob(backend, store, digest, bytes(flipped))
        with pytest.raises(tw.StoreError, match=rf"file photo\.png.*{digest[:12]}"):
            messages[1].content[2].read()


def test_files_of_one_lazy_load_holding_the_same_blob_read_it_once(backend: Backend) -> None:
    with backend.open() as store:
        digest = _store_photo(store)
        messages = store.load("s1", verify=False)
        first, again = messages[1].content[0], messages[1].content[2]
        assert first.read() == PHOTO.read_bytes()
        store.blobs.remove({digest})
        assert again.read() == PHOTO.read_bytes()  # served from the load's first read
