"""The page in a real browser: Debian's chromium, driven by Playwright's Python API.

Never skipped: if chromium cannot start, the test fails and says why (CI installs it in
.ci/run; locally ``apt-get install chromium``). ``playwright install`` is never needed: the
system browser is used. Screenshots are kept in the test's tmp dir (the path is printed);
with TOOLWIRE_SCREENSHOT=1 the tour is also saved as docs/view.png for the README.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Error, Page, sync_playwright

import toolwire as tw

from .conversations import hostile, long_session, tour

CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
]
DOCS = Path(__file__).resolve().parents[2] / "docs"
MODELS = ["anthropic:claude-sonnet-4-5", "mistral:mistral-large-latest", "google:gemini-2.5-flash"]
#: Five models, the issue's example of a page too wide (1,760 px) for any screen (issue 35).
FIVE = [*MODELS, "openai:gpt-5", "groq:meta-llama/llama-4-scout-17b-16e-instruct"]
#: A phone and a laptop, the widths the page must fit (CSS px).
PHONE, LAPTOP = 390, 1440

#: Every element that reaches past the viewport's right edge (or starts left of it), unless
#: an ancestor scrolls or clips it; and the page's own horizontal overflow.
CUT_OFF = """() => {
    const width = document.documentElement.clientWidth;
    const clipped = el => {
        for (let a = el.parentElement; a && a !== document.body; a = a.parentElement) {
            const x = getComputedStyle(a).overflowX;
            if (x === "auto" || x === "scroll" || x === "hidden") return true;
        }
        return false;
    };
    const out = [];
    for (const el of document.body.querySelectorAll("*")) {
        const box = el.getBoundingClientRect();
        if (box.width === 0 || box.height === 0) continue;
        if ((box.right > width + 0.5 || box.left < -0.5) && !clipped(el))
            out.push(`${el.tagName.toLowerCase()}.${el.className} ${box.left}..${box.right}`);
    }
    return {width, scroll: document.documentElement.scrollWidth, out: out.slice(0, 10)};
}"""


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with sync_playwright() as playwright:
        try:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        except Error as exc:
            pytest.fail(f"chromium cannot start from {CHROMIUM} ({exc}); install Debian's chromium")
        yield browser
        browser.close()


class Watched:
    """A page with everything it requests, every dialog and every console message."""

    def __init__(self, browser: Browser, path: Path, width: int = 1400) -> None:
        self.page: Page = browser.new_page(viewport={"width": width, "height": 900})
        self.requests: list[str] = []
        self.dialogs: list[str] = []
        self.console: list[str] = []
        self.page.on("request", lambda r: self.requests.append(r.url))
        self.page.on("dialog", lambda d: (self.dialogs.append(d.message), d.dismiss()))
        self.page.on("console", lambda m: self.console.append(f"{m.type}: {m.text}"))
        self.url = path.as_uri()
        self.page.goto(self.url, wait_until="load")

    def decode_all_images(self) -> list[int]:
        """Load every lazy image now, wait for it to decode, and give each naturalWidth."""
        widths: list[int] = self.page.evaluate(
            """async () => {
                const images = [...document.images];
                images.forEach(i => { i.loading = "eager"; });
                await Promise.all(images.map(i => i.decode().catch(() => null)));
                return images.map(i => i.naturalWidth);
            }"""
        )
        return widths

    def left_the_page(self) -> list[str]:
        return [u for u in self.requests if u != self.url and not u.startswith("data:")]


def written(tmp_path: Path, name: str, messages: list[Any], models: Any) -> Path:
    path = tmp_path / name
    path.write_text(tw.view(messages, models), encoding="utf-8")
    return path


def test_hostile_outputs_run_no_script_open_no_dialog_and_request_nothing(
    browser: Browser, tmp_path: Path
) -> None:
    watched = Watched(browser, written(tmp_path, "hostile.html", hostile(), MODELS[:2]))
    page = watched.page
    page.mouse.wheel(0, 20000)
    for link_like in page.get_by_text("click me").all()[:2]:
        link_like.click()  # a javascript: URL in an output is text: clicking does nothing
    widths = watched.decode_all_images()
    assert widths and all(w > 0 for w in widths), widths
    assert page.evaluate("typeof window.pwned") == "undefined"
    assert page.evaluate("document.scripts.length") == 0
    assert watched.dialogs == [] and watched.left_the_page() == []
    assert page.url == watched.url
    assert watched.console == []  # no CSP violation either: nothing tried to load or run
    page.screenshot(path=tmp_path / "hostile.png", full_page=True)
    print(f"screenshot: {tmp_path / 'hostile.png'}")


def test_the_tour_shows_every_image_a_pdf_page_and_a_playable_audio_file(
    browser: Browser, tmp_path: Path
) -> None:
    path = written(tmp_path, "tour.html", tour(), MODELS)
    watched = Watched(browser, path)
    page = watched.page
    widths = watched.decode_all_images()
    assert len(widths) == path.read_text("utf-8").count("<img ") == 6, widths
    assert all(w > 0 for w in widths), widths  # a photo and a PDF page for each model
    duration = page.evaluate(
        """() => new Promise(done => {
            const audio = document.querySelector("audio");
            if (audio.readyState >= 1) done(audio.duration);
            audio.addEventListener("loadedmetadata", () => done(audio.duration));
            audio.addEventListener("error", () => done(-1));
        })"""
    )
    assert duration == pytest.approx(1.0, 0.05)  # the player loaded the data: URL
    styled = page.evaluate("getComputedStyle(document.querySelector('header')).backgroundColor")
    assert styled == "rgb(21, 26, 36)"  # the hashed style sheet applies under the policy
    assert page.evaluate("document.querySelectorAll('details[open]').length") == 0
    assert watched.left_the_page() == [] and watched.console == []
    shot = tmp_path / "tour.png"
    page.screenshot(path=shot, full_page=True)
    print(f"screenshot: {shot}")
    if os.environ.get("TOOLWIRE_SCREENSHOT") == "1":
        page.screenshot(path=DOCS / "view.png", full_page=True)


@pytest.mark.slow
def test_a_200_turn_session_with_100_images_loads_lazily_and_scrolls_to_its_end(
    browser: Browser, tmp_path: Path
) -> None:
    path = written(tmp_path, "long.html", long_session(), MODELS[:2])
    watched = Watched(browser, path)
    page = watched.page
    eager = page.evaluate("[...document.images].filter(i => i.complete && i.naturalWidth).length")
    assert eager < 200  # lazy: images far below the fold are not decoded yet
    page.keyboard.press("End")
    last = page.evaluate(
        """() => Promise.all([...document.images].slice(-2).map(i => i.decode()))
            .then(() => [...document.images].slice(-2).map(i => i.naturalWidth))"""
    )
    assert all(w > 0 for w in last), last
    assert watched.left_the_page() == [] and watched.console == []


def shown_columns(page: Page) -> list[str]:
    """The classes of the model cards the page shows (``model c0`` …), left to right."""
    found: list[str] = page.evaluate(
        """() => [...document.querySelectorAll('.summary .model')]
            .filter(m => m.getBoundingClientRect().width > 0)
            .sort((a, b) => a.getBoundingClientRect().left - b.getBoundingClientRect().left)
            .map(m => m.className)"""
    )
    return found


@pytest.mark.parametrize("width", [PHONE, LAPTOP])
@pytest.mark.parametrize("models", [MODELS[:1], MODELS, FIVE], ids=["one", "three", "five"])
def test_nothing_is_cut_off_and_the_header_spans_the_page(
    browser: Browser, tmp_path: Path, width: int, models: list[str]
) -> None:
    path = written(tmp_path, f"fit-{width}-{len(models)}.html", tour(), models)
    page = Watched(browser, path, width).page
    fit = page.evaluate(CUT_OFF)
    assert fit["scroll"] <= fit["width"] and fit["out"] == [], fit  # issue 35: 1,760 px wide
    header = page.evaluate("document.querySelector('header').getBoundingClientRect().width")
    assert header >= fit["scroll"]  # the header band spans the content (issue 35)
    first = page.evaluate(
        """() => { const b = document.querySelector('.summary .model.c0').getBoundingClientRect();
            return [b.left, b.right]; }"""
    )
    assert first[0] >= 0 and first[1] <= fit["width"], first  # the first column fully visible
    shot = tmp_path / f"fit-{width}-{len(models)}.png"
    page.screenshot(path=shot, full_page=True)
    print(f"screenshot: {shot}")


def test_a_narrow_screen_shows_one_model_at_a_time_and_the_switcher_picks_it(
    browser: Browser, tmp_path: Path
) -> None:
    watched = Watched(browser, written(tmp_path, "switch.html", tour(), FIVE), PHONE)
    page = watched.page
    assert shown_columns(page) == ["model c0"]
    page.locator("nav.switch").get_by_text(FIVE[3], exact=True).click()  # CSS :checked only
    assert shown_columns(page) == ["model c3"]
    cells = page.evaluate(
        "[...document.querySelectorAll('.turn .cell')].filter(c => c.offsetParent).map(c => c.className)"
    )
    assert cells and set(cells) == {"cell c3"}  # every turn follows the switch
    assert page.evaluate(CUT_OFF)["out"] == []
    assert watched.console == [] and page.evaluate("document.scripts.length") == 0


def test_a_laptop_shows_three_models_side_by_side_without_a_switcher(
    browser: Browser, tmp_path: Path
) -> None:
    page = Watched(browser, written(tmp_path, "wide.html", tour(), MODELS), LAPTOP).page
    assert shown_columns(page) == ["model c0", "model c1", "model c2"]
    assert not page.locator("nav.switch").is_visible()
