"""The research history in a real browser: Playwright drives Debian's Chromium (headless) against
the running research and web services over the Division 328 slice (``live_stack``).

Two questions are asked on the research page; ``/history`` lists both, newest first; searching
keeps the one asked about turnover; re-opened, it shows the same quotes as were first shown (the
answer rebuilt from its audit row); "Ask again" asks it again against the same index and says
"Nothing changed". axe-core finds no serious or critical violation on either page. Saves
``docs/screenshots/history.png``.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from .axe import assert_accessible, axe_source
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
SHOTS = Path(__file__).resolve().parents[4] / "docs" / "screenshots"
QUESTION = "What aggregated turnover made a business a small business entity?"
OUT_OF_SCOPE = "What is the speed limit on a Victorian freeway?"
TIMEOUT_MS = 60_000
# Each verified quote shown: its version, its range and its words.
QUOTES = """fs => fs.map(f => [
  f.closest("section.provision").dataset.sourceId, f.dataset.start, f.dataset.end,
  f.querySelector("blockquote").textContent,
])"""


@pytest.fixture(scope="module")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, playwright_sync.Page]]:
    """(web URL, page) over the real research service."""
    axe_source()  # fails at once, before the stack starts, when axe-core is not installed
    if not Path(CHROMIUM).exists():
        pytest.fail(f"no Chromium at {CHROMIUM}: apt-get install chromium (or set ASAT_CHROMIUM)", pytrace=False)
    SHOTS.mkdir(parents=True, exist_ok=True)
    with live_services(tmp_path_factory.mktemp("stack")) as (_, web_url), playwright_sync.sync_playwright() as p:
        chromium = p.chromium.launch(
            executable_path=CHROMIUM,
            headless=True,
            args=["--no-sandbox", "--disable-gpu", "--disable-background-networking"],
        )
        page = chromium.new_page(viewport={"width": 1280, "height": 900})
        page.set_default_timeout(TIMEOUT_MS)
        sign_in(page, web_url)
        yield web_url, page
        chromium.close()


def _ask(page: playwright_sync.Page, web_url: str, question: str, year: int) -> playwright_sync.Locator:
    page.goto(f"{web_url}/research")
    page.get_by_label("Question", exact=True).fill(question)
    page.get_by_label("Income year", exact=True).check()
    page.get_by_label("Income year (1 July to 30 June, ending in this year)").fill(str(year))
    page.get_by_role("button", name="Ask").click()
    turn = page.locator("#transcript > li.turn[data-finished]").last
    turn.wait_for(timeout=TIMEOUT_MS)
    return turn


def _audit_id(turn: playwright_sync.Locator) -> int:
    hrefs = turn.locator(".answer-footer a[href^='/audit/']").evaluate_all("as => as.map(a => a.pathname)")
    (row,) = [h.removeprefix("/audit/") for h in hrefs if h.removeprefix("/audit/").isdigit()]
    return int(row)


def _fits_390px(page: playwright_sync.Page) -> None:
    page.set_viewport_size({"width": 390, "height": 844})
    width = page.evaluate("document.documentElement.scrollWidth")
    page.set_viewport_size({"width": 1280, "height": 900})
    assert width <= 390, f"{page.url} scrolls sideways on a phone: {width}px wide"


def test_two_questions_listed_searched_reopened_as_given_and_asked_again_unchanged(
    stack: tuple[str, playwright_sync.Page],
) -> None:
    web_url, page = stack
    expect = playwright_sync.expect

    turn = _ask(page, web_url, QUESTION, 2015)
    expect(turn.locator(".outcome-answer")).to_be_visible()
    first_shown = turn.locator("figure.quote").evaluate_all(QUOTES)
    assert first_shown and any("$2 million" in q[3] for q in first_shown), first_shown
    answered_row = _audit_id(turn)
    other = _ask(page, web_url, OUT_OF_SCOPE, 2026)
    expect(other.locator(".outcome-abstain")).to_be_visible()
    abstained_row = _audit_id(other)
    assert abstained_row > answered_row

    # The history: both, newest first, from the site's navigation.
    page.get_by_role("navigation", name="Main").get_by_role("link", name="History").click()
    expect(page.locator("h1")).to_have_text("Research history")
    rows = page.locator(".history-table tbody tr")
    ids = rows.evaluate_all("rs => rs.map(r => Number(r.dataset.auditId))")
    assert ids[:2] == [abstained_row, answered_row], ids
    expect(rows.first).to_contain_text(OUT_OF_SCOPE)
    expect(rows.first).to_contain_text("No answer")
    expect(rows.nth(1)).to_contain_text("income year 2015")
    assert_accessible(page, "history")
    _fits_390px(page)

    # Search (a GET form: the address says what was searched), case as typed does not matter.
    page.get_by_label("Questions containing").fill("TURNOVER")
    page.get_by_role("button", name="Search").click()
    page.wait_for_url("**/history?q=TURNOVER")
    found = page.locator(".history-table tbody tr")
    expect(found).to_have_count(1)
    expect(found).to_contain_text(QUESTION)

    # Re-opened: the answer exactly as given, the same quotes at the same ranges.
    found.get_by_role("link", name=QUESTION).click()
    page.wait_for_url(f"**/history/{answered_row}")
    expect(page.locator(".as-given").first).to_contain_text("As given on")
    expect(page.locator(".as-given").first).to_contain_text("against corpus")
    given = page.locator(".history-given")
    expect(given.locator(".outcome-answer")).to_be_visible()
    assert given.locator("figure.quote").evaluate_all(QUOTES) == first_shown
    assert_accessible(page, "history row")

    # Ask again: the same index, so nothing changed; the new answer beside the old.
    page.get_by_role("button", name="Ask again").click()
    changes = page.locator(".answer-changes")
    expect(changes).to_contain_text("Nothing changed")
    again = page.locator(".history-again")
    expect(again.locator(".outcome-answer")).to_be_visible()
    # The same versions, ranges and words (their links name the new audit row).
    assert again.locator("figure.quote").evaluate_all(QUOTES) == first_shown
    new_row = int((again.locator(".as-given a").get_attribute("href") or "").removeprefix("/history/"))
    assert new_row > abstained_row
    assert_accessible(page, "history row asked again")
    path = SHOTS / "history.png"
    page.screenshot(path=str(path))
    print(f"screenshot: {path}")
    _fits_390px(page)
