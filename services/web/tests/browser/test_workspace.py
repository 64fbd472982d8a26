"""The workspace in a real browser: Playwright drives Debian's Chromium (headless) against the
running research and web services (see ``live_stack``). Screenshots of each step are saved
under ``var/screenshots/`` at the repository root (the path is printed)."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from .live_stack import live_services
from .signing_in import sign_in

pytestmark = [pytest.mark.browser, pytest.mark.corpus, pytest.mark.slow]

try:
    import playwright.sync_api as playwright_sync
except ImportError:  # pragma: no cover - the message is the point
    pytest.fail(
        "the browser tests need the playwright package: .venv/bin/pip install playwright "
        "(the Python package only; the browser is Debian's /usr/bin/chromium, never `playwright install`)",
        pytrace=False,
    )

CHROMIUM = os.environ.get("ASAT_CHROMIUM", "/usr/bin/chromium")
REPO = Path(__file__).resolve().parents[4]
SHOTS = REPO / "var" / "screenshots"
QUESTION = "What aggregated turnover made a business a small business entity?"
OUT_OF_SCOPE = "What is the speed limit on a Victorian freeway?"
TIMEOUT_MS = 60_000


@dataclass
class Browser:
    web_url: str
    page: playwright_sync.Page
    requests: list[str] = field(default_factory=list)

    def shot(self, name: str, full_page: bool = True) -> None:
        path = SHOTS / f"{name}.png"
        self.page.screenshot(path=str(path), full_page=full_page)
        print(f"screenshot: {path}")

    def ask(self, question: str, year: int) -> playwright_sync.Locator:
        page = self.page
        page.goto(f"{self.web_url}/research")
        page.get_by_label("Question", exact=True).fill(question)
        page.get_by_label("Income year (1 July to 30 June, ending in this year)").fill(str(year))
        page.get_by_role("button", name="Ask").click()
        turn = page.locator("#transcript > li.turn[data-finished]").last
        turn.wait_for(timeout=TIMEOUT_MS)
        return turn


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Browser]:
    if not Path(CHROMIUM).exists():
        pytest.fail(f"no Chromium at {CHROMIUM}: apt-get install chromium (or set ASAT_CHROMIUM)", pytrace=False)
    SHOTS.mkdir(parents=True, exist_ok=True)
    print(f"screenshots in {SHOTS}")
    with live_services(tmp_path_factory.mktemp("stack")) as (_, web_url), playwright_sync.sync_playwright() as p:
        chromium = p.chromium.launch(
            executable_path=CHROMIUM,
            headless=True,
            args=["--no-sandbox", "--disable-gpu", "--disable-background-networking"],
        )
        page = chromium.new_page(viewport={"width": 1280, "height": 900})
        page.set_default_timeout(TIMEOUT_MS)
        sign_in(page, web_url)
        session = Browser(web_url, page)
        page.on("request", lambda request: session.requests.append(request.url))
        yield session
        chromium.close()


def _open_citation(b: Browser, turn: playwright_sync.Locator, words: str) -> str:
    """Open the citation whose quote holds ``words``; returns the quote shown in the answer."""
    figure = turn.locator("figure.quote", has_text=words).first
    quote = figure.locator("blockquote").inner_text()
    figure.locator("a.cite-link").click()
    b.page.wait_for_selector("mark#quote")
    return quote


def test_income_year_2015_answers_from_the_2015_text_highlighted_with_its_interval(browser: Browser) -> None:
    turn = browser.ask(QUESTION, 2015)
    expect = playwright_sync.expect
    expect(turn.locator(".outcome-answer")).to_be_visible()
    for stage in ("resolve", "retrieve", "rerank", "generate", "verify", "gate"):
        expect(turn.locator(f'.stage[data-stage="{stage}"]')).to_have_attribute("data-state", "done")
    expect(turn.locator(".claims")).to_contain_text("$2 million")
    expect(turn.locator(".claims")).not_to_contain_text("$10 million")
    expect(turn.locator(".answer-footer")).to_contain_text("Federal Register of Legislation")
    browser.shot("01-research-2015-answer")
    quote = _open_citation(browser, turn, "$2 million")
    page = browser.page
    expect(page.locator("mark#quote")).to_have_text(quote)
    expect(page.locator("mark#quote")).to_contain_text("$2 million")
    expect(page.locator(".source-register")).to_contain_text("C2015C00285")
    expect(page.locator(".source-interval")).to_have_text(
        re.compile(r"in force from \d{4}-\d\d-\d\d to \d{4}-\d\d-\d\d")
    )
    expect(page.locator(".timeline")).to_contain_text("C2026C00122")
    browser.shot("02-source-2015-highlighted")


def test_income_year_2026_answers_from_the_2026_text(browser: Browser) -> None:
    turn = browser.ask(QUESTION, 2026)
    expect = playwright_sync.expect
    expect(turn.locator(".claims")).to_contain_text("$10 million")
    expect(turn.locator(".claims")).not_to_contain_text("$2 million")
    browser.shot("03-research-2026-answer")
    quote = _open_citation(browser, turn, "$10 million")
    page = browser.page
    expect(page.locator("mark#quote")).to_have_text(quote)
    expect(page.locator(".source-register")).to_contain_text("C2026C00122")
    expect(page.locator(".source-interval")).to_contain_text("in force from")
    expect(page.locator(".diff-section")).to_contain_text("Changes from the previous version")
    browser.shot("04-source-2026-highlighted-with-diff")


def test_an_as_at_date_picks_the_version_in_force_that_day(browser: Browser) -> None:
    page = browser.page
    page.goto(f"{browser.web_url}/research")
    page.get_by_label("Question", exact=True).fill(QUESTION)
    page.get_by_label("As at date", exact=True).last.fill("2015-01-01")
    expect = playwright_sync.expect
    expect(page.locator("#period-day")).to_be_checked()
    page.get_by_role("button", name="Ask").click()
    turn = page.locator("#transcript > li.turn[data-finished]").last
    turn.wait_for(timeout=TIMEOUT_MS)
    expect(turn.locator(".turn-period")).to_have_text("(as at 2015-01-01)")
    expect(turn.locator(".scope")).to_have_text("As at 2015-01-01")
    expect(turn.locator(".claims")).to_contain_text("$2 million")


def test_an_out_of_scope_question_abstains_with_its_reason(browser: Browser) -> None:
    turn = browser.ask(OUT_OF_SCOPE, 2026)
    expect = playwright_sync.expect
    expect(turn.locator(".outcome-abstain")).to_be_visible()
    expect(turn.locator(".decision")).to_contain_text("No answer")
    expect(turn.locator(".reasons")).to_contain_text("does not appear to address this question")
    expect(turn.locator(".claims")).to_have_count(0)
    browser.shot("05-research-abstention")


def test_the_audit_page_lists_the_questions_and_the_chain_is_intact(browser: Browser) -> None:
    page = browser.page
    page.goto(f"{browser.web_url}/audit")
    expect = playwright_sync.expect
    expect(page.locator(".chain")).to_contain_text("Hash chain consistent")
    rows = page.locator(".audit-table tbody tr")
    seen = [(row.locator("td").nth(2).inner_text(), row.locator("td").nth(3).inner_text()) for row in rows.all()]
    for asked in ((QUESTION, "income year 2015"), (QUESTION, "income year 2026"), (OUT_OF_SCOPE, "income year 2026")):
        assert asked in seen, seen
    browser.shot("06-audit")
    rows.last.locator("a").click()
    expect(page.locator("h1")).to_have_text("Audit row 1")
    expect(page.locator(".record")).to_contain_text(QUESTION)
    browser.shot("07-audit-row")


def test_chat_answers_each_message_with_a_numbered_sources_rail_by_keyboard(browser: Browser) -> None:
    page = browser.page
    page.goto(f"{browser.web_url}/chat")
    expect = playwright_sync.expect
    expect(page.locator("#independence")).to_contain_text("answered on its own")
    page.keyboard.press("Tab")  # skip link
    expect(page.locator("a.skip")).to_be_focused()
    page.get_by_label("Message").focus()
    page.keyboard.type(QUESTION)
    page.keyboard.press("Tab")
    expect(page.get_by_label("From the question")).to_be_focused()  # the default: the period it names
    page.keyboard.press("ArrowDown")
    expect(page.get_by_label("Income year", exact=True)).to_be_focused()
    expect(page.get_by_label("Income year", exact=True)).to_be_checked()
    page.keyboard.press("Tab")
    page.keyboard.press("Control+A")
    page.keyboard.type("2015")
    page.get_by_label("Message").focus()
    page.keyboard.press("Control+Enter")
    page.locator("#transcript > li.turn[data-finished]").wait_for(timeout=TIMEOUT_MS)
    expect(page.locator("#rail > li").first).to_have_attribute("id", "source-1")
    expect(page.locator("#rail")).to_contain_text("$2 million")
    expect(page.locator(".turn .ref").first).to_have_text("[1]")
    browser.shot("08-chat")


def test_a_narrow_viewport_stacks_the_layout(browser: Browser) -> None:
    page = browser.page
    page.set_viewport_size({"width": 390, "height": 844})
    browser.ask(QUESTION, 2015)
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the page scrolls sideways on a phone: {width}px wide"
    browser.shot("09-narrow-research")
    page.set_viewport_size({"width": 1280, "height": 900})


def test_no_page_requested_any_host_but_its_own(browser: Browser) -> None:
    own = urlsplit(browser.web_url).netloc
    assert browser.requests, "no requests were recorded"
    foreign = [url for url in browser.requests if urlsplit(url).netloc != own]
    assert foreign == []
