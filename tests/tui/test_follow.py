"""``--follow``: messages appended to a real store while the app runs appear on screen; the
turns already shown stay the same widgets. SQLite (a directory) and PostgreSQL (a private
cluster, blobs in a directory)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from toolwire import SessionStore, User
from toolwire.errors import StoreError
from toolwire.tui import SessionApp, StoredSession
from toolwire.tui.app import TurnView

from .screens import ANTHROPIC, screen_text, session

pytestmark = pytest.mark.anyio  # the async tests run on asyncio (anyio_backend)


async def follow_sees_appends(store: SessionStore) -> None:
    messages = session()
    for message in messages[:4]:  # system, user, assistant with a call, its result
        store.append("s1", message)
    app = SessionApp(StoredSession(store, "s1"), [ANTHROPIC], follow=True, interval=0.05)
    async with app.run_test(size=(120, 40)) as pilot:
        shown = list(app.query(TurnView))
        assert len(shown) == 4
        assert "following session s1" in screen_text(app)
        store.append("s1", messages[4])
        store.append("s1", messages[5])
        store.append("s1", User("Anything new on the dashboard?"))
        for _ in range(100):
            await pilot.pause(0.05)
            if len(app.query(TurnView)) == 6:
                break
        views = list(app.query(TurnView))
        assert len(views) == 6, "the appended messages never appeared"
        assert views[:4] == shown  # the turns already shown were not built again
        for _ in range(40):  # it was at the end, so it follows the end (as tail -f does)
            await pilot.pause(0.05)
            if "Anything new on the dashboard?" in screen_text(app):
                break
        assert "Anything new on the dashboard?" in screen_text(app)
        assert "7 turns" not in screen_text(app) and "6 turns" in screen_text(app)


async def test_follow_a_sqlite_store(tmp_path: Path) -> None:
    store = SessionStore(tmp_path / "store")
    try:
        await follow_sees_appends(store)
    finally:
        store.close()


async def test_follow_a_postgresql_store(pg_url: str, tmp_path: Path) -> None:
    store = SessionStore(pg_url, blobs=tmp_path / "blobs")
    try:
        await follow_sees_appends(store)
    finally:
        store.close()


def test_a_session_the_store_does_not_hold_is_a_store_error(tmp_path: Path) -> None:
    store = SessionStore(tmp_path / "store")
    store.append("s1", User("hello"))
    with pytest.raises(StoreError, match="no session 'nope' in this store"):
        SessionApp(StoredSession(store, "nope"), [ANTHROPIC])
    store.close()


class OneSessionOnly:
    """A real store that fails any question about every session: following one session
    must ask about that session alone, however many others the store holds."""

    def __init__(self, store: SessionStore) -> None:
        self.store = store

    def __getattr__(self, name: str) -> Any:
        if name in ("list_sessions", "ids"):
            raise AssertionError(f"following one session called store.{name}()")
        return getattr(self.store, name)


async def test_follow_asks_the_store_about_the_followed_session_only(tmp_path: Path) -> None:
    store = SessionStore(tmp_path / "store")
    for other in range(50):
        store.append(f"other-{other}", User("elsewhere"))
    store.append("s1", User("hello"))
    feed = StoredSession(OneSessionOnly(store), "s1")
    app = SessionApp(feed, [ANTHROPIC], follow=True, interval=0.05)
    async with app.run_test(size=(120, 30)) as pilot:
        store.append("s1", User("Anything new?"))
        for _ in range(100):
            await pilot.pause(0.05)
            if "Anything new?" in screen_text(app):
                break
        assert "Anything new?" in screen_text(app)
        assert "follow:" not in screen_text(app)
    store.close()


async def test_a_session_deleted_while_followed_is_said_and_kept_on_screen(tmp_path: Path) -> None:
    store = SessionStore(tmp_path / "store")
    store.append("s1", User("hello"))
    app = SessionApp(StoredSession(store, "s1"), [ANTHROPIC], follow=True, interval=0.05)
    async with app.run_test(size=(120, 30)) as pilot:
        store.delete("s1")
        for _ in range(100):
            await pilot.pause(0.05)
            if "no session 's1'" in screen_text(app):
                break
        text = screen_text(app)
        assert "follow: no session 's1' in this store. (retrying)" in text
        assert "hello" in text
    store.close()


async def test_a_long_followed_session_opens_on_its_last_page_and_keeps_one_page(
    tmp_path: Path,
) -> None:
    from toolwire.tui.window import PAGE, Window

    store = SessionStore(tmp_path / "store")
    store.extend("s1", [User(f"message {n}") for n in range(PAGE + 10)])
    app = SessionApp(StoredSession(store, "s1"), [ANTHROPIC], follow=True, interval=0.05)
    async with app.run_test(size=(100, 30)) as pilot:
        assert app.window == Window(10, PAGE + 10, PAGE + 10)
        store.extend("s1", [User("one more"), User("and the last")])
        for _ in range(100):
            await pilot.pause(0.05)
            if app.window.total == PAGE + 12:
                break
        assert app.window == Window(12, PAGE + 12, PAGE + 12)
        assert [v.index for v in app.query(TurnView)] == list(range(12, PAGE + 12))
        for _ in range(200):  # scrolled to the end once the new turns are laid out
            await pilot.pause(0.05)
            if "and the last" in screen_text(app):
                break
        assert "and the last" in screen_text(app)
        earlier = app.query_one("#earlier")
        assert earlier.display and str(earlier.render()) == (
            "▲ turns 1–12 not shown · [ earlier · g first"
        )
    store.close()
