"""The terminal view driven headless (Textual's pilot): what is on screen for each target."""

from __future__ import annotations

import re
from typing import Any

import pytest
from textual.binding import Binding
from textual.widgets import Collapsible

from toolwire.tui import SessionApp, keys
from toolwire.tui.app import FileView, PictureView, TurnView
from toolwire.tui.halfblocks import HalfBlocks
from toolwire.tui.keys import KeysScreen
from toolwire.tui.widgets import Column
from toolwire.tui.window import PAGE, Window

from .screens import ANTHROPIC, GROQ, opened, screen_text, session

pytestmark = pytest.mark.anyio  # the async tests run on asyncio (anyio_backend)

GEMINI = "google:gemini-2.5-pro"


expand = opened


def file_view(app: SessionApp, identifier: str) -> FileView:
    return next(v for v in app.query(FileView) if v.file.identifier == identifier)


async def test_each_file_has_its_preview_and_decision_on_the_first_target() -> None:
    app = SessionApp.for_messages(session(), [ANTHROPIC, GROQ], images="halfblock")
    async with app.run_test(size=(160, 48)) as pilot:
        titles = [str(v.title) for v in app.query(FileView)]
        assert "[Image: photo.png, 640x480, 245 KB]  · native" in titles
        assert "[PDF: report.pdf, 3 pages, 35 KB]  · native" in titles
        assert sum("shot-" in t and t.endswith("· native") for t in titles) == 6
        await app.action_top()
        await pilot.pause()
        text = screen_text(app)
        assert "target 1/2 anthropic:claude-sonnet-4-5 (anthropic)" in text
        assert "turn 1 · message 0" in text
        assert "You are a careful analyst." in text
        # the WAV travels as its text fallback for Anthropic, which takes no audio
        assert "(text fallback of tone.wav (audio/wav) · as text)" in text


async def test_thinking_is_folded_and_opens_where_the_target_receives_it() -> None:
    app = SessionApp.for_messages(session(), [ANTHROPIC, GROQ])
    async with app.run_test(size=(160, 48)) as pilot:
        text = screen_text(app)
        assert "thinking (36 characters, signed by anthropic)" in text
        assert "Read both files first" not in text
        await pilot.press("e")
        await pilot.pause()
        await app.action_top()
        await pilot.pause()
        assert "Read both files first, then compare." in screen_text(app)
        await pilot.press("t")
        await pilot.pause()
        text = screen_text(app)  # Groq is not sent Anthropic's signed thinking
        assert "target 2/2 groq:" in text
        assert "thinking (" not in text


async def test_the_second_target_names_the_budget_that_evicted_files() -> None:
    app = SessionApp.for_messages(session(), [ANTHROPIC, GROQ])
    async with app.run_test(size=(160, 48)) as pilot:
        await pilot.press("t")
        await pilot.pause()
        assert app.target.model == GROQ
        text = screen_text(app)
        evicted = "(text fallback of photo.png (image/png) · evicted by max_count = 5)"
        assert evicted in text
        assert "budgets bound: max_count = 5" in text  # the status bar: Groq's 5 images
        assert "[Image: photo.png, 640x480, 245 KB — left out of this request for size]" in text
        await app.action_bottom()
        await pilot.pause()
        text = screen_text(app)
        assert "in a user message of its own" in text  # shot-3..5 travel after the results
        assert "added by toolwire" in text
        await pilot.press("T")
        await pilot.pause()
        assert app.target.model == ANTHROPIC


async def test_a_reading_that_ends_after_its_section_was_removed_is_dropped() -> None:
    # Switching targets rebuilds the screen while a file's text or picture is still being
    # read in a thread: the late result has nowhere to go and must not fail the app.
    app = SessionApp.for_messages(session(), [ANTHROPIC, GROQ], images="halfblock")
    async with app.run_test(size=(160, 48)) as pilot:
        view = file_view(app, "report.pdf")
        view.collapsed = False
        await pilot.pause()
        await app.workers.wait_for_complete()
        await view.remove()
        view._set_text("late text")
        view._set_picture(None, "late picture")
        await pilot.pause()
        assert not view.is_attached


async def test_an_image_is_drawn_from_the_workers_pixels() -> None:
    app = SessionApp.for_messages(session(), [ANTHROPIC], images="halfblock")
    async with app.run_test(size=(160, 48)) as pilot:
        view = file_view(app, "photo.png")
        await expand(pilot, view)
        picture = view.query_one(PictureView).query_one(HalfBlocks)
        assert (picture.pixels.width, picture.pixels.height) == (320, 240)
        assert (picture.columns, picture.rows) == (43, 16)  # 320x240 in 64x16 cells
        text = screen_text(app)
        assert "▄" in text or "▀" in text  # half blocks
        assert "decision: inside the tool result" in text
        assert "≈ 410 tokens" in text


async def test_a_pdf_pages_through_its_rendered_pages_and_shows_its_text() -> None:
    app = SessionApp.for_messages(session(), [ANTHROPIC], images="halfblock")
    async with app.run_test(size=(160, 48)) as pilot:
        view = file_view(app, "report.pdf")
        await expand(pilot, view)
        view.query_one(".picture", HalfBlocks).focus()
        note = view.query_one(".picture-note")
        assert str(note.render()) == "page 1 of 3 · n/p turn the page"
        first = view.query_one(HalfBlocks).pixels
        await pilot.press("n")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert str(note.render()) == "page 2 of 3 · n/p turn the page"
        assert view.query_one(HalfBlocks).pixels.rgb != first.rgb
        await pilot.press("n", "n")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert str(note.render()) == "page 3 of 3 · n/p turn the page"
        await pilot.press("p", "p")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert str(note.render()) == "page 1 of 3 · n/p turn the page"
        body = str(view.query_one(".file-text").render())
        assert "Page 2 of 3" in body or "2" in body


async def test_without_images_nothing_is_decoded_and_the_note_says_so() -> None:
    app = SessionApp.for_messages(session(), [ANTHROPIC], images="off")
    async with app.run_test(size=(80, 24)) as pilot:
        view = file_view(app, "photo.png")
        await expand(pilot, view)
        assert not view.query(HalfBlocks)
        assert str(view.query_one(".picture-note").render()) == "images off (--no-images)"


async def test_audio_a_target_takes_shows_its_duration() -> None:
    app = SessionApp.for_messages(session(), [GEMINI], images="off")
    async with app.run_test(size=(160, 48)) as pilot:
        view = file_view(app, "tone.wav")
        assert (
            str(view.title)
            == "[Audio: tone.wav, 1.0 s, 31 KB]  · in a user message of its own, → user message"
        )
        await expand(pilot, view)
        assert "duration 1.0 s" in screen_text(app)


async def test_a_conversion_names_what_the_file_became() -> None:
    app = SessionApp.for_messages(session(), [GROQ], on_unsupported="convert")
    async with app.run_test(size=(160, 48)) as pilot:
        await pilot.pause()
        converted = "(report.pdf converted to text (application/pdf) · converted to text, max_images_per_request = 5 binds)"
        assert converted in screen_text(app)


async def test_a_long_text_shows_its_head_and_folds_the_rest() -> None:
    from toolwire import User

    long = "\n".join(f"line {n}" for n in range(100))
    app = SessionApp.for_messages([User(long)], [ANTHROPIC])
    async with app.run_test(size=(80, 48)) as pilot:
        text = screen_text(app)
        assert "line 23" in text and "line 24" not in text
        assert "… 76 more lines" in text
        await pilot.press("e")
        await pilot.pause()
        assert "line 24" in screen_text(app)


async def test_d_switches_light_and_dark() -> None:
    app = SessionApp.for_messages(session(), [ANTHROPIC])
    async with app.run_test(size=(80, 24)) as pilot:
        dark = app.current_theme.dark
        await pilot.press("d")
        assert app.current_theme.dark != dark
        await pilot.press("d")
        assert app.current_theme.dark == dark


async def test_q_quits() -> None:
    app = SessionApp.for_messages(session(), [ANTHROPIC])
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("q")
        await pilot.pause()
    assert app.return_code == 0


def test_no_model_is_a_clear_error() -> None:
    from toolwire.errors import ToolwireError

    with pytest.raises(ToolwireError, match="at least one model"):
        SessionApp.for_messages(session(), [])


def long_session(turns: int) -> list[Any]:
    """``turns`` turns: a tool call and its result each."""
    from toolwire import Assistant, ToolCall, ToolResult

    messages: list[Any] = []
    for index in range(turns // 2):
        call = ToolCall(id=f"c{index}", name="look", arguments={"n": index})
        messages += [Assistant([call]), ToolResult.of(call.id, call.name, [f"result {index}"])]
    return messages


@pytest.mark.slow
async def test_a_thousand_turns_mount_one_page_and_the_keys_reach_every_turn() -> None:
    app = SessionApp.for_messages(long_session(1000), [ANTHROPIC])
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        assert [v.index for v in app.query(TurnView)] == list(range(PAGE))
        assert len(app.query("*")) < 4 * PAGE  # widgets per page, not per session
        text = screen_text(app)
        assert "turn 1 · message 0" in text and "▲" not in text
        await pilot.press("G")
        await pilot.pause()
        assert [v.index for v in app.query(TurnView)] == list(range(1000 - PAGE, 1000))
        assert '"result 499"' in screen_text(app)
        await pilot.press("[")
        await pilot.pause()
        assert app.window == Window(900, 950, 1000)
        text = screen_text(app)  # read backwards: the page opens at its end
        assert "turn 950 · message 949" in text
        await pilot.press("home")
        await pilot.pause()
        assert "▲ turns 1–900 not shown · [ earlier · g first" in screen_text(app)
        await pilot.press("end")
        await pilot.pause()
        assert "▼ turns 951–1,000 not shown · ] later · G last" in screen_text(app)
        await pilot.press("]")
        await pilot.pause()
        assert app.window == Window(950, 1000, 1000)
        await pilot.press("g")
        await pilot.pause()
        assert app.window == Window(0, PAGE, 1000)
        assert "turn 1 · message 0" in screen_text(app)
        assert len(app.query(TurnView)) == PAGE


def fetched(*outputs: Any) -> list[Any]:
    """One tool turn per file, oldest first."""
    from toolwire import Assistant, ToolCall, ToolResult, User

    messages: list[Any] = [User("Go.")]
    for n, file in enumerate(outputs):
        call = ToolCall(id=f"c{n}", name="fetch", arguments={"n": n})
        messages += [Assistant([call]), ToolResult.of(call.id, call.name, [file])]
    return messages


async def test_each_converted_page_has_a_verdict_line_naming_its_pdf() -> None:
    from convert import files

    from toolwire import File

    pages = files.pdf([f"page {n} of the report" for n in range(1, 8)])
    messages = fetched(File.from_bytes(pages, "application/pdf", name="long.pdf"))
    app = SessionApp.for_messages(messages, [GROQ], on_unsupported="convert")
    async with app.run_test(size=(160, 48)) as pilot:
        title = str(file_view(app, "long-p2.png").title)
        assert title.startswith("[Image: long-p2.png, 1037x1344, ")
        assert title.endswith(
            "]  · page 2 of the 5 rendered from long.pdf (pages 6–7 of 7 not rendered), → user message"
        )
        view = file_view(app, "long-p2.png")
        await expand(pilot, view)
        detail = str(view.query_one(".detail").render())
        made = "page 2 of the 5 rendered from long.pdf (pages 6–7 of 7 not rendered)"
        assert f"{made} · application/pdf" in detail
        assert "decision: converted: rendered pages 1-5 of 7" in detail
        assert "tokens" not in detail  # the tokens are the PDF's, not each page's


async def test_frames_a_budget_shrank_name_the_budget() -> None:
    from convert import files

    from toolwire import File

    clip = files.video(2)
    messages = fetched(*(File.from_bytes(clip, "video/mp4", name=f"{n}.mp4") for n in "abc"))
    bedrock = "bedrock:us.anthropic.claude-sonnet-4-5-20250929-v1:0"  # 20 images a request
    app = SessionApp.for_messages(messages, [bedrock], on_unsupported="convert")
    async with app.run_test(size=(160, 48)):
        titles = [str(v.title).split("]  ", 1)[1] for v in app.query(FileView)]
        assert titles[0] == "· frame 1 of 2 taken from b.mp4, max_count = 20 binds, repeats a.mp4"
        assert titles[-1] == "· frame 8 of 8 taken from c.mp4, repeats a.mp4"


async def test_switching_targets_keeps_the_page_of_turns_shown() -> None:
    app = SessionApp.for_messages(long_session(120), [ANTHROPIC, GROQ])
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("G")
        await pilot.pause()
        assert app.window == Window(70, 120, 120)
        await pilot.press("t")
        await pilot.pause()
        assert app.target.model == GROQ and app.window == Window(70, 120, 120)
        assert [v.index for v in app.query(TurnView)] == list(range(70, 120))


async def test_the_footer_lists_every_key_within_80_columns() -> None:
    app = SessionApp.for_messages(session(), [ANTHROPIC, GROQ])
    async with app.run_test(size=(80, 24)) as pilot:
        footer = screen_text(app).splitlines()[-1]
        expected = "q Quit  t T Target  o e c Fold  n p Page  [ ] Turns  g G Ends  d Theme  ? Help"
        assert footer.strip() == expected
        await pilot.press("tab")  # a section's title has the focus: the footer stays
        await pilot.pause()
        assert screen_text(app).splitlines()[-1].strip() == expected
    assert all(binding.show for binding in SessionApp.BINDINGS)  # type: ignore[union-attr]


async def test_o_opens_and_closes_the_focused_section() -> None:
    app = SessionApp.for_messages(session(), [ANTHROPIC])
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("o")  # nothing focused but the conversation: it says what to do
        await pilot.pause()
        said = [n.message for n in app._notifications]  # the toast's text
        assert said == ["Tab to a file or a folded section, then o (or Enter) opens it"]
        await pilot.press("tab")
        section = app.focused.parent if app.focused else None
        assert isinstance(section, Collapsible) and section.collapsed
        await pilot.press("o")
        assert not section.collapsed
        await pilot.press("o")
        assert section.collapsed


def panel_rows(app: SessionApp) -> dict[str, str]:
    """The ``?`` panel's rows as on screen: each key shown, and the words on its row."""
    found = {}
    for line in str(app.screen.query_one("#keys").render()).splitlines():
        shown, words = re.split(r"\s{3,}", line.strip(), maxsplit=1)
        found.update((key, words) for key in shown.split())
    return found


async def test_question_mark_lists_every_key_from_the_bindings_and_esc_closes_it() -> None:
    app = SessionApp.for_messages(session(), [ANTHROPIC, GROQ])
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("question_mark")
        assert isinstance(app.screen, KeysScreen)
        listed = panel_rows(app)
        expected = {}
        for binding in [*keys.bindings(SessionApp), *keys.bindings(Column)]:
            expected[app.get_key_display(binding)] = binding.tooltip or binding.description
        for _widget, bound, words in keys.TEXTUAL_KEYS:
            for key in bound:
                expected[app.get_key_display(Binding(key, ""))] = words
        assert listed.keys() == expected.keys()  # every key, and only keys that are bound
        for key, words in expected.items():
            assert words in listed[key], key
        assert listed["j"] == "down, as ↓ · up, as ↑"
        text = screen_text(app)  # the whole panel fits 80x24, with how to close it
        assert "? or esc closes" in text and "open or close that section (as o)" in text
        await pilot.press("t")  # the panel takes the keys: no target switched unseen
        assert app.position == 0 and isinstance(app.screen, KeysScreen)
        await pilot.press("escape")
        assert not isinstance(app.screen, KeysScreen)
        await pilot.press("question_mark")
        assert isinstance(app.screen, KeysScreen)
        await pilot.press("question_mark")  # ? toggles it
        assert not isinstance(app.screen, KeysScreen)
        await pilot.press("question_mark", "q")  # and q quits from it
        await pilot.pause()
    assert app.return_code == 0


def test_a_textual_key_the_panel_lists_must_be_bound() -> None:
    from textual.containers import VerticalScroll

    assert keys._bound(VerticalScroll, "pagedown").action == "page_down"
    with pytest.raises(LookupError, match="VerticalScroll binds no 'f13'"):
        keys._bound(VerticalScroll, "f13")


async def test_j_and_k_scroll_as_the_arrow_keys_do() -> None:
    app = SessionApp.for_messages(session(), [ANTHROPIC])
    async with app.run_test(size=(80, 24)) as pilot:
        column = app.query_one("#conversation", Column)

        async def after(*pressed: str) -> float:
            await pilot.press(*pressed)
            await pilot.wait_for_scheduled_animations()
            await pilot.pause()
            return column.scroll_y

        by_arrows = await after("down", "down", "down")
        assert by_arrows > 0
        assert await after("up", "up", "up") == 0
        assert await after("j", "j", "j") == by_arrows
        assert await after("k") == by_arrows - 1
        await after("tab")  # from a section's title too (the key reaches the column)
        assert isinstance(app.focused.parent, Collapsible)  # type: ignore[union-attr]
        before = column.scroll_y
        assert await after("j") == before + 1
