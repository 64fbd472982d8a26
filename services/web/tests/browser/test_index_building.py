"""While the index is being built, in a real browser: Playwright drives Debian's Chromium (headless)
against the web app over the stub research service, which says the index is 12% built. The research
page shows a labelled progress bar at 12% with the rate and the time left, the question form
disabled, and passes axe-core; as the build moves on (the stub says 57%) the page follows it
without a reload (it polls ``GET /index-status``); once the index is ready it reloads itself with
the form usable and asks as usual. A question sent from chat while it builds gets the "index
building, n% done" notice. Saves ``docs/screenshots/index-building.png``."""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest
from fastapi import FastAPI

from asat_web.settings import WebSettings

from ..stub_research import READY, building, create_stub
from .axe import assert_accessible
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
QUESTION = "What aggregated turnover made a business a small business entity?"
TIMEOUT_MS = 20_000


@dataclass
class Session:
    web_url: str
    tab: playwright_sync.Page
    stub: FastAPI
    console: list[str]


@pytest.fixture(scope="module")
def session() -> Iterator[Session]:
    if not Path(CHROMIUM).exists():
        pytest.fail(f"no Chromium at {CHROMIUM}: apt-get install chromium (or set ASAT_CHROMIUM)", pytrace=False)
    SHOTS.mkdir(parents=True, exist_ok=True)
    stub = create_stub(index=building(12.0))
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
        console: list[str] = []
        tab.on("console", lambda message: console.append(message.text))
        stub.state.index = READY  # the sign-in lands on /research: signed in with the index ready
        sign_in(tab, web_url)
        yield Session(web_url, tab, stub, console)
        chromium.close()


def test_the_research_page_shows_the_builds_progress_and_follows_it_until_asking_is_back(session: Session) -> None:
    tab, expect, stub = session.tab, playwright_sync.expect, session.stub
    stub.state.index = building(12.0)
    tab.goto(f"{session.web_url}/research")
    status = tab.get_by_role("region", name="The index is being built")
    expect(status).to_be_visible()
    bar = tab.get_by_label("Index build progress")
    expect(bar).to_have_attribute("value", "12")
    expect(tab.get_by_role("progressbar", name="Index build progress")).to_be_visible()
    expect(status.get_by_role("status")).to_have_text("12% done")
    expect(status).to_contain_text("8.1 texts/s")
    expect(status).to_contain_text("min left")
    expect(tab.get_by_label("Question", exact=True)).to_be_disabled()
    expect(tab.get_by_role("button", name="Ask", exact=True)).to_be_disabled()
    assert_accessible(tab, "research while the index is being built")
    tab.screenshot(path=str(SHOTS / "index-building.png"), full_page=True)

    stub.state.index = building(57.0)  # the page polls GET /index-status: no reload needed
    expect(bar).to_have_attribute("value", "57")
    expect(status.get_by_role("status")).to_have_text("57% done")
    expect(tab.get_by_label("Question", exact=True)).to_be_disabled()

    stub.state.index = READY  # built: the page reloads itself with the form usable
    expect(tab.locator("#index-status")).to_have_count(0)
    question = tab.get_by_label("Question", exact=True)
    expect(question).to_be_enabled()
    question.fill(QUESTION)
    tab.get_by_role("button", name="Ask", exact=True).click()
    turn = tab.locator("#transcript > li.turn[data-finished]").last
    turn.wait_for()
    expect(turn.locator(".outcome")).to_have_attribute("data-decision", "answer")
    assert not [m for m in session.console if "Content Security Policy" in m], session.console


def test_a_question_sent_while_it_builds_gets_the_index_building_notice(session: Session) -> None:
    tab, expect, stub = session.tab, playwright_sync.expect, session.stub
    stub.state.index = READY
    tab.goto(f"{session.web_url}/chat")  # the page was loaded with the index ready ...
    stub.state.index = building(42.0)  # ... and a rebuild began before the question was sent
    tab.get_by_label("Message").fill(QUESTION)
    tab.get_by_role("button", name="Send").click()
    turn = tab.locator("#transcript > li.turn[data-finished]").last
    turn.wait_for()
    notice = turn.get_by_role("status")
    expect(notice).to_contain_text("Not asked: the index is being built")
    expect(notice).to_contain_text("index building, 42% done")
    expect(turn.locator(".outcome-error")).to_have_count(0)
    assert_accessible(tab, "chat with a question refused while the index is being built")
