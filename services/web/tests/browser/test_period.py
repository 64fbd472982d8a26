"""The period is never silently chosen, in a real browser: Playwright drives Debian's Chromium
(headless) against the web app over the stub research service (no corpus or index needed).
Typing a question naming FY2024 shows, live, that it will be answered for income year 2024, and it
is asked without an income year; with a conflicting income year chosen, the reply names both
periods and one click asks again for the question's year. Saves ``docs/screenshots/period-*.png``."""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest
from fastapi import FastAPI

from asat_web.settings import WebSettings

from ..stub_research import create_stub
from .signing_in import browser_web_app, sign_in
from .test_timeline_chart import serve

pytestmark = [pytest.mark.browser, pytest.mark.slow]

try:
    import playwright.sync_api as playwright_sync
except ImportError:  # pragma: no cover - the message is the point
    pytest.fail(
        "the browser tests need the playwright package: .venv/bin/pip install playwright "
        "(the Python package only; the browser is Debian's /usr/bin/chromium, never `playwright install`)",
        pytrace=False,
    )

CHROMIUM = os.environ.get("ASAT_CHROMIUM", "/usr/bin/chromium")
SHOTS = Path(__file__).resolve().parents[4] / "docs" / "screenshots"
RESEARCH = "http://research.test"
HOME_OFFICE = "Can I claim home office running expenses at a fixed rate per hour in FY2024?"
YEAR_LABEL = "Income year (1 July to 30 June, ending in this year)"
TIMEOUT_MS = 20_000


@dataclass
class Session:
    web_url: str
    tab: playwright_sync.Page
    stub: FastAPI
    console: list[str]

    def shot(self, name: str) -> None:
        path = SHOTS / f"{name}.png"
        self.tab.screenshot(path=str(path), full_page=True)
        print(f"screenshot: {path}")


@pytest.fixture(scope="module")
def session() -> Iterator[Session]:
    if not Path(CHROMIUM).exists():
        pytest.fail(f"no Chromium at {CHROMIUM}: apt-get install chromium (or set ASAT_CHROMIUM)", pytrace=False)
    SHOTS.mkdir(parents=True, exist_ok=True)
    stub = create_stub(periods=True)
    research = httpx.AsyncClient(transport=httpx.ASGITransport(app=stub), base_url=RESEARCH)
    app = browser_web_app(research, WebSettings(research_url=RESEARCH))
    with serve(app) as web_url, playwright_sync.sync_playwright() as p:
        chromium = p.chromium.launch(
            executable_path=CHROMIUM,
            headless=True,
            args=["--no-sandbox", "--disable-gpu", "--disable-background-networking"],
        )
        tab = chromium.new_page(viewport={"width": 1280, "height": 900})
        tab.set_default_timeout(TIMEOUT_MS)
        sign_in(tab, web_url)
        console: list[str] = []
        tab.on("console", lambda message: console.append(message.text))
        yield Session(web_url, tab, stub, console)
        chromium.close()


def _finished(tab: playwright_sync.Page) -> playwright_sync.Locator:
    turn = tab.locator("#transcript > li.turn[data-finished]").last
    turn.wait_for()
    return turn


def test_chat_reads_fy2024_from_the_question_live_and_asks_without_an_income_year(session: Session) -> None:
    tab, expect = session.tab, playwright_sync.expect
    tab.goto(f"{session.web_url}/chat")
    expect(tab.get_by_label("From the question")).to_be_checked()
    expect(tab.get_by_label(YEAR_LABEL)).to_have_value("")
    read = tab.locator("[data-slot=period-read]")
    expect(read).to_contain_text("no period in the question \u2192 the current income year")
    tab.get_by_label("Message").press_sequentially(HOME_OFFICE, delay=5)
    expect(read).to_have_text("FY2024 \u2192 income year 2024, 1 July 2023 to 30 June 2024")
    session.shot("period-preview")
    requests: list[dict[str, object]] = session.stub.state.requests
    before = len(requests)
    tab.get_by_role("button", name="Send").click()
    turn = _finished(tab)
    expect(turn.locator(".outcome")).to_have_attribute("data-decision", "answer")
    expect(turn.locator(".scope")).to_contain_text("income year 2024")
    assert requests[before:] == [{"question": HOME_OFFICE}]  # no income_year: read from the question


def test_a_conflicting_year_shows_both_periods_and_one_click_asks_for_the_questions(session: Session) -> None:
    tab, expect = session.tab, playwright_sync.expect
    tab.goto(f"{session.web_url}/research")
    tab.get_by_label("Question", exact=True).fill(HOME_OFFICE)
    tab.get_by_label(YEAR_LABEL).fill("2027")  # selects "Income year"
    expect(tab.get_by_label("Income year", exact=True)).to_be_checked()
    read = tab.locator("[data-slot=period-read]")
    expect(read).to_contain_text("FY2024 \u2192 income year 2024")
    expect(read).to_contain_text("the income year chosen (2027) \u2192 income year 2027")
    expect(read).to_have_attribute("data-state", "conflict")
    requests: list[dict[str, object]] = session.stub.state.requests
    before = len(requests)
    tab.get_by_role("button", name="Ask", exact=True).click()
    turn = _finished(tab)
    outcome = turn.locator(".outcome")
    expect(outcome).to_have_attribute("data-decision", "period_conflict")
    expect(outcome).to_contain_text("\u201cFY2024\u201d (income year 2024, 1 July 2023 to 30 June 2024)")
    expect(outcome).to_contain_text("the period chosen in the form is income year 2027, 1 July 2026 to 30 June 2027")
    ours = outcome.get_by_role("button", name="Ask for income year 2024, as the question says")
    theirs = outcome.get_by_role("button", name="Ask for income year 2027, as chosen")
    expect(ours).to_be_visible()
    expect(theirs).to_be_visible()
    session.shot("period-conflict")
    assert requests[before:] == [{"question": HOME_OFFICE, "income_year": 2027}]
    ours.click()
    expect(tab.locator("#transcript > li.turn[data-finished]")).to_have_count(2)
    answered = tab.locator("#transcript > li.turn[data-finished]").last
    expect(answered.locator(".outcome")).to_have_attribute("data-decision", "answer")
    expect(answered.locator(".scope")).to_have_text("Income year 2024")
    assert requests[before + 1 :] == [{"question": HOME_OFFICE, "income_year": 2024}]
    expect(tab.get_by_label(YEAR_LABEL)).to_have_value("2024")
    expect(read).to_contain_text("income year 2024")
    assert not [m for m in session.console if "Content Security Policy" in m], session.console
