"""What a thread or a timer hands to the screen while the screen changes under it: a poll's
answer while a key rebuilds the screen or while the app closes, polls that would overlap, a
PDF page read after the next one was asked for, a scroll to the end waiting for the layout
when ``g`` was pressed. Each race is made to happen, not waited for: a gate (a
threading.Event, or an asyncio.Event around a real call) holds one side until the other is
where the race is, and is opened in a ``finally`` so a failing test cannot hang.
"""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path
from typing import Any

import pytest
from textual.containers import VerticalScroll

from toolwire import SessionStore, User
from toolwire.errors import StoreError
from toolwire.tui import SessionApp, StoredSession, pixels
from toolwire.tui.app import FileView, TurnView
from toolwire.tui.halfblocks import HalfBlocks

from .screens import ANTHROPIC, GROQ, opened, screen_text, session

pytestmark = pytest.mark.anyio  # the async tests run on asyncio (anyio_backend)

#: A follow interval no test waits for: each test polls when it chooses (``app._poll()``,
#: what the timer calls).
NEVER = 3600.0


class GatedStore:
    """A real SessionStore whose next ``load``, once ``arm`` is called, reads the session and
    then waits until the test calls ``release``: the follow thread's answer comes back when
    the test chooses. It also counts the store calls in flight at once (``most``)."""

    def __init__(self, store: SessionStore) -> None:
        self.store = store
        self.armed, self.reached, self.go = threading.Event(), threading.Event(), threading.Event()
        self.lock = threading.Lock()
        self.running = self.most = 0
        self.unreachable = False  # count fails as a store that cannot be reached does

    def arm(self) -> None:
        self.go.clear()
        self.reached.clear()
        self.armed.set()

    def release(self) -> None:
        self.go.set()

    def _enter(self) -> None:
        with self.lock:
            self.running += 1
            self.most = max(self.most, self.running)

    def _leave(self) -> None:
        with self.lock:
            self.running -= 1

    def count(self, session_id: str) -> int:
        self._enter()
        try:
            if self.unreachable:
                raise StoreError("the store cannot be reached (test)")
            return self.store.count(session_id)
        finally:
            self._leave()

    def load(self, session_id: str, **options: Any) -> Any:
        self._enter()
        try:
            loaded = self.store.load(session_id, **options)
            if self.armed.is_set():
                self.armed.clear()
                self.reached.set()
                assert self.go.wait(30), "the test never released the gate"
            return loaded
        finally:
            self._leave()

    def __getattr__(self, name: str) -> Any:
        return getattr(self.store, name)


async def until(pilot: Any, done: Any, what: str) -> None:
    """Let the app run until ``done()`` (at most 10 s)."""
    for _ in range(500):
        if done():
            return
        await pilot.pause(0.02)
    raise AssertionError(f"never happened: {what}")


async def meanwhile(done: Any, what: str) -> None:
    """Wait until ``done()`` (at most 10 s) while the app may be held (a pilot's pause would
    wait for the app)."""
    for _ in range(1000):
        if done():
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"never happened: {what}")


class HeldMount:
    """The conversation's next ``mount_all`` waits until ``resume``: a rebuild of the screen
    held halfway (its old turns removed, its new ones not yet mounted)."""

    def __init__(self, conversation: VerticalScroll) -> None:
        self.original = conversation.mount_all
        self.held, self.resume = asyncio.Event(), asyncio.Event()
        self.calls = 0
        conversation.mount_all = self.mount_all  # type: ignore[method-assign]

    async def holding(self) -> None:
        await asyncio.wait_for(self.held.wait(), 10)

    async def mount_all(self, *args: Any, **kwargs: Any) -> Any:
        self.calls += 1
        if self.calls == 1:
            self.held.set()
            await self.resume.wait()
        return await self.original(*args, **kwargs)


def stored(tmp_path: Path, messages: list[Any]) -> tuple[SessionStore, GatedStore]:
    store = SessionStore(tmp_path / "store")
    store.extend("s1", messages)
    return store, GatedStore(store)


def shown_turns(app: SessionApp) -> list[tuple[str, int]]:
    return [(v.shown.model, v.index) for v in app.query(TurnView)]


async def test_a_poll_answered_while_a_key_rebuilds_the_screen_waits_for_it(
    tmp_path: Path,
) -> None:
    messages = session()
    store, gated = stored(tmp_path, messages[:6])
    app = SessionApp(StoredSession(gated, "s1"), [ANTHROPIC, GROQ], follow=True, interval=NEVER)
    async with app.run_test(size=(120, 40)) as pilot:
        store.extend("s1", [*messages[6:], User("Anything new?")])
        gated.arm()
        app._poll()  # the timer's call: the thread reads the grown session and waits
        held = HeldMount(app.query_one("#conversation", VerticalScroll))
        try:
            await meanwhile(gated.reached.is_set, "the poll thread at its gate")
            switching = asyncio.create_task(pilot.press("t"))  # the switch held halfway...
            await held.holding()
            gated.release()  # ...when the poll's answer comes back
            await meanwhile(lambda: gated.running == 0, "the poll thread finished")
            await asyncio.sleep(0.1)  # (the answer, if it does not wait, is being shown)
        finally:
            held.resume.set()
            gated.release()
        await switching
        await until(pilot, lambda: len(app.messages) == len(messages) + 1, "the poll shown")
        await pilot.pause(0.1)
        turns = shown_turns(app)
        assert len(turns) == len(set(turns)), f"turns mounted twice: {turns}"
        assert {model for model, _ in turns} == {GROQ}
        assert [index for _, index in turns] == list(range(len(app.target.turns)))
        await pilot.press("G")
        await until(pilot, lambda: "Anything new?" in screen_text(app), "the new message shown")
    store.close()


async def test_polls_never_overlap_and_the_screen_never_goes_back(tmp_path: Path) -> None:
    store, gated = stored(tmp_path, [User("first")])
    app = SessionApp(StoredSession(gated, "s1"), [ANTHROPIC], follow=True, interval=NEVER)
    async with app.run_test(size=(120, 40)) as pilot:
        totals = [app.window.total]
        store.append("s1", User("second"))
        gated.arm()
        app._poll()  # reads two messages and waits at the gate
        try:
            await meanwhile(gated.reached.is_set, "the poll thread at its gate")
            store.append("s1", User("third"))
            app._poll()  # the next tick while the first poll is out
            await pilot.pause(0.3)
            totals.append(app.window.total)
        finally:
            gated.release()
        await until(pilot, lambda: gated.running == 0, "the first poll finished")
        await pilot.pause(0.3)
        totals.append(app.window.total)
        app._poll()
        await until(pilot, lambda: "third" in screen_text(app), "the third message shown")
        totals.append(app.window.total)
        assert gated.most == 1, "two polls asked the store at once"
        assert totals == sorted(totals), f"the screen went back to an older session: {totals}"
        assert totals[-1] == 3
    store.close()


async def test_a_page_read_after_the_next_page_was_asked_for_is_dropped(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    slow_page, go, at_gate = 1, threading.Event(), threading.Event()
    real_shot = pixels.shot

    def shot(file: Any, page: int = 0, edge: int = pixels.EDGE) -> pixels.Shot:
        found = real_shot(file, page, edge)
        if page == slow_page:  # page 2 is read slowly: it comes back after page 3
            at_gate.set()
            assert go.wait(30)
        return found

    monkeypatch.setattr(pixels, "shot", shot)
    app = SessionApp.for_messages(session(), [ANTHROPIC], images="halfblock")
    async with app.run_test(size=(160, 48)) as pilot:
        view = next(v for v in app.query(FileView) if v.file.identifier == "report.pdf")
        await opened(pilot, view)
        view.turn_page(1)  # page 2, held at the gate
        try:
            await meanwhile(at_gate.is_set, "page 2 at its gate")
            view.turn_page(1)  # page 3, read at once
            third = real_shot(view.file, 2).pixels
            await until(
                pilot,
                lambda: str(view.query_one(".picture-note").render()).startswith("page 3 of 3"),
                "page 3 shown",
            )
        finally:
            go.set()
        await until(pilot, lambda: not any(w.is_running for w in app.workers), "readers done")
        await pilot.pause(0.1)
        assert view.page == 2
        assert str(view.query_one(".picture-note").render()).startswith("page 3 of 3")
        assert view.query_one(HalfBlocks).pixels == third, "page 2's picture under page 3's note"


async def test_g_before_the_followed_end_is_laid_out_stays_at_the_first_turn(
    tmp_path: Path,
) -> None:
    store = SessionStore(tmp_path / "store")
    store.extend("s1", [User(f"message {n}\n" * 5) for n in range(20)])
    app = SessionApp(StoredSession(store, "s1"), [ANTHROPIC], follow=True, interval=NEVER)
    async with app.run_test(size=(100, 30)) as pilot:
        conversation = app.query_one("#conversation", VerticalScroll)
        await until(pilot, lambda: conversation.max_scroll_y > 0, "a column taller than the screen")
        await until(pilot, lambda: conversation.scroll_y == conversation.max_scroll_y, "at end")
        # The screen is laid out after the key is pressed (a busy machine): what waits for
        # the layout is held here, and run once g has been handled.
        waiting: list[Any] = []
        conversation.call_after_refresh = (  # type: ignore[method-assign]
            lambda callback, *args, **kwargs: waiting.append((callback, args, kwargs)) or True
        )
        try:
            store.append("s1", User("one more"))
            app._poll()  # the new turn is mounted and asks for the end, once laid out...
            await until(pilot, lambda: app.window.total == 21, "the new turn mounted")
            await pilot.press("g")  # ...and g comes first
        finally:
            del conversation.call_after_refresh
        for callback, args, kwargs in waiting:
            callback(*args, **kwargs)
        await pilot.pause(0.3)
        assert conversation.scroll_y == 0
        assert "turn 1 · message 0" in screen_text(app)
    store.close()


async def test_a_poll_being_shown_as_the_app_closes_stops_there(tmp_path: Path) -> None:
    messages = session()
    store, gated = stored(tmp_path, messages[:6])
    app = SessionApp(StoredSession(gated, "s1"), [ANTHROPIC], follow=True, interval=NEVER)
    async with app.run_test(size=(120, 40)):
        store.extend("s1", [*messages[6:], User("Anything new?")])
        held = HeldMount(app.query_one("#conversation", VerticalScroll))
        app._poll()
        try:
            await held.holding()  # the poll's turns are being mounted...
        finally:  # ...when the app is closed (leaving run_test), and they come in after
            asyncio.get_running_loop().call_later(0.3, held.resume.set)
    # (run_test raises what failed in the app: a NoMatches for a screen that was gone)
    assert held.resume.is_set(), "the app closed while a poll was still being shown"
    store.close()


async def test_a_store_that_answers_again_is_followed_again(tmp_path: Path) -> None:
    store, gated = stored(tmp_path, [User("hello")])
    app = SessionApp(StoredSession(gated, "s1"), [ANTHROPIC], follow=True, interval=NEVER)
    async with app.run_test(size=(120, 30)) as pilot:
        gated.unreachable = True
        app._poll()
        failed = "follow: the store cannot be reached (test) (retrying)"
        await until(pilot, lambda: failed in screen_text(app), "the failure said")
        gated.unreachable = False
        app._poll()  # nothing new, but the store answered
        await until(pilot, lambda: failed not in screen_text(app), "the note taken back")
        assert "following session s1" in screen_text(app)
    store.close()
