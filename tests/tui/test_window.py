"""The page of turns a long session mounts, as arithmetic."""

from __future__ import annotations

from toolwire.tui.window import PAGE, Window


def test_a_session_opens_on_its_first_page_or_when_followed_its_last() -> None:
    assert Window.first(1000) == Window(0, PAGE, 1000)
    assert Window.last(1000) == Window(1000 - PAGE, 1000, 1000)
    assert Window.first(7) == Window.last(7) == Window(0, 7, 7)


def test_pages_turn_without_gaps_and_stop_at_either_end() -> None:
    window, seen = Window.first(120), set()
    while True:
        seen |= set(range(window.start, window.stop))
        assert window.stop - window.start <= PAGE
        if window.later() == window:
            break
        window = window.later()
    assert seen == set(range(120)) and window == Window(70, 120, 120)
    assert window.earlier() == Window(20, 70, 120)
    assert window.earlier().earlier() == Window(0, 50, 120) == Window(0, 50, 120).earlier()


def test_the_notes_count_the_turns_not_mounted() -> None:
    window = Window(950, 1000, 1010)
    assert window.earlier_note() == "▲ turns 1–950 not shown · [ earlier · g first"
    assert window.later_note() == "▼ turns 1,001–1,010 not shown · ] later · G last"
    assert Window.first(10).earlier_note() == Window.first(10).later_note() == ""


def test_the_last_page_takes_new_turns_and_an_earlier_page_stays() -> None:
    assert Window(0, 3, 3).grown(5) == Window(0, 5, 5)
    assert Window(10, 60, 60).grown(62) == Window(12, 62, 62)  # at most PAGE turns
    assert Window(0, 50, 60).grown(62) == Window(0, 50, 62)
