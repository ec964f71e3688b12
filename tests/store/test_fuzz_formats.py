"""Stored rows and session exports are data from elsewhere (issue 33): whatever JSON a row or
an export holds, ``load`` and ``import_`` return messages or raise a StoreError — never
another exception. Hypothesis writes message-shaped JSON with every field possibly wrong."""

from __future__ import annotations

import json
import sqlite3
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import toolwire as tw
from toolwire.store import SessionStore

SCALARS = st.one_of(
    st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False), st.text(max_size=20)
)
JSON = st.recursive(
    SCALARS,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=20,
)
SOURCE = st.one_of(
    JSON,
    st.fixed_dictionaries(
        {"type": st.sampled_from(["bytes", "path", "url", "provider_file", "blob", "x"])},
        optional={
            "data": st.one_of(JSON, st.just("aGk=")),
            "path": st.one_of(JSON, st.just("/etc/passwd")),
            "url": st.one_of(
                JSON, st.sampled_from(["s3://b/k", "file:///etc/passwd", "https://x"])
            ),
            "sha256": st.one_of(JSON, st.just("0" * 64)),
            "provider": JSON,
            "file_id": JSON,
        },
    ),
)
PART = st.one_of(
    JSON,
    st.fixed_dictionaries(
        {"type": st.sampled_from(["text", "json", "file", "thinking", "tool_call", "?"])},
        optional={
            "text": JSON, "value": JSON, "source": SOURCE, "media_type": st.one_of(
                JSON, st.sampled_from(["image/png", "text/plain", "application/pdf"])
            ),
            "name": JSON, "id": JSON, "arguments": JSON, "signature": JSON,
        },
    ),
)  # fmt: skip
OUTPUT = st.one_of(
    JSON,
    st.fixed_dictionaries(
        {"type": st.sampled_from(["text", "json", "content", "error-text", "execution-denied"])},
        optional={"value": st.one_of(SCALARS, st.lists(PART, max_size=3), JSON), "reason": JSON},
    ),
)
MESSAGE = st.one_of(
    st.fixed_dictionaries(
        {"role": st.sampled_from(["system", "user", "assistant", "tool", "robot"])},
        optional={
            "content": st.one_of(SCALARS, st.lists(PART, max_size=3), JSON),
            "text": JSON, "call_id": JSON, "name": JSON, "output": OUTPUT,
        },
    ),
    JSON,
)  # fmt: skip
FUZZ = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def store_with_a_row(tmp_path: Path) -> SessionStore:
    store = SessionStore(tmp_path / "store")
    if "s1" not in store:
        store.append("s1", tw.User("hi"))
    return store


@FUZZ
@given(body=MESSAGE)
@pytest.mark.slow
def test_a_stored_row_loads_or_is_a_store_error(tmp_path_factory: Any, body: Any) -> None:
    store = store_with_a_row(tmp_path_factory.mktemp("row"))
    with closing(sqlite3.connect(store.path / "sessions.db")) as conn, conn:
        conn.execute("UPDATE messages SET body = ? WHERE position = 0", (json.dumps(body),))
    try:
        loaded = store.load("s1")
    except tw.StoreError:
        return
    assert len(loaded) == 1


@FUZZ
@given(messages=st.one_of(JSON, st.lists(MESSAGE, max_size=3)), version=st.one_of(JSON, st.just(1)))
@pytest.mark.slow
def test_an_export_imports_or_is_a_store_error(
    tmp_path_factory: Any, messages: Any, version: Any
) -> None:
    store = SessionStore(tmp_path_factory.mktemp("import") / "store")
    document = {"format": "toolwire.session", "version": version, "id": "s", "messages": messages}
    try:
        store.import_(json.dumps(document))
    except tw.StoreError:
        return
    assert isinstance(store.load("s"), list)
