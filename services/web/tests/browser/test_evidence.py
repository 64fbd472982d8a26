"""Evidence grouped by provision in a real browser: Playwright drives Debian's Chromium (headless)
against the running research and web services over the Division 328 slice (``live_stack``).

Income year 2015 answers from ITAA 1997 s 328-110 (a third-party conversion, C2015C00285), one
claim quoting seven of its subsections. Each claim shows each version once with its quotes beneath
in document order, the question's words marked; "Show whole section" fetches the whole text, which
holds every quote at its range; the chat rail has one entry per version; nothing scrolls sideways
at 390px. Saves ``docs/screenshots/evidence-grouped.png`` and ``evidence-390px.png``.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

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
SHOTS = Path(__file__).resolve().parents[4] / "docs" / "screenshots"
QUESTION = "What aggregated turnover made a business a small business entity?"
QUESTION_WORDS = {"aggregated", "turnover", "made", "business", "small", "entity"}
S_328_110 = "itaa1997:328-110@C2015C00285"
TIMEOUT_MS = 60_000


@pytest.fixture(scope="module")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, playwright_sync.Page]]:
    """(web URL, page) over the real research service."""
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


def _ask(page: playwright_sync.Page, web_url: str, where: str) -> playwright_sync.Locator:
    page.goto(f"{web_url}/{where}")
    page.get_by_label("Question" if where == "research" else "Message", exact=True).fill(QUESTION)
    page.get_by_label("Income year", exact=True).check()
    page.get_by_label("Income year (1 July to 30 June, ending in this year)").fill("2015")
    page.get_by_role("button", name="Ask" if where == "research" else "Send").click()
    turn = page.locator("#transcript > li.turn[data-finished]").last
    turn.wait_for(timeout=TIMEOUT_MS)
    return turn


def _shot(page: playwright_sync.Page, name: str, target: playwright_sync.Locator | None = None) -> None:
    path = SHOTS / f"{name}.png"
    if target is None:
        page.screenshot(path=str(path))
    else:
        target.screenshot(path=str(path))
    print(f"screenshot: {path}")


def _starts(section: playwright_sync.Locator) -> list[int]:
    return [int(s) for s in section.locator("figure.quote").evaluate_all("fs => fs.map(f => f.dataset.start)")]


def test_each_version_once_with_its_quotes_in_order_marked_and_the_whole_section(
    stack: tuple[str, playwright_sync.Page],
) -> None:
    web_url, page = stack
    expect = playwright_sync.expect
    turn = _ask(page, web_url, "research")
    expect(turn.locator(".outcome-answer")).to_be_visible()
    claims = turn.locator("li.claim")
    assert claims.count() >= 2
    for claim in claims.all():  # under each claim, each cited version is shown once
        ids = claim.locator("section.provision").evaluate_all("ss => ss.map(s => s.dataset.sourceId)")
        assert ids and len(ids) == len(set(ids)), ids
        for section in claim.locator("section.provision").all():
            expect(section.locator(".provision-title")).to_have_count(1)
            expect(section.locator(".provision-meta .cite-register")).to_have_count(1)
            starts = _starts(section)
            assert starts == sorted(starts) and len(starts) == len(set(starts)), starts

    # The claim quoting most of s 328-110: one heading, its subsections beneath.
    sections = turn.locator(f'section.provision[data-source-id="{S_328_110}"]')
    section = max(sections.all(), key=lambda s: s.locator("figure.quote").count())
    assert section.locator("figure.quote").count() >= 3
    expect(section.locator(".provision-title")).to_contain_text("s 328-110")
    expect(section.locator(".provision-meta")).to_contain_text("C2015C00285")
    expect(section.locator(".provision-meta")).to_contain_text("in force from")
    expect(section.locator(".provision-meta .badge-warn")).to_have_text(
        "third-party conversion, not an authorised version"
    )
    marks = [m.lower() for m in turn.locator("blockquote mark").all_inner_texts()]
    assert marks and set(marks) <= QUESTION_WORDS, marks
    expect(section.locator("blockquote mark").first).to_be_visible()
    first_link = section.locator("a.cite-link").first.get_attribute("href") or ""
    assert first_link.startswith(f"/source/{S_328_110}?audit=") and first_link.endswith("#quote")

    # "Show whole section": the whole text, in which each quote stands at its range, unaltered.
    details = section.locator("details.whole-section")
    details.locator("summary").click()
    expect(details).to_have_attribute("data-state", "loaded")
    whole = details.locator("pre.whole-text")
    expect(whole).to_be_visible()
    expect(whole).to_contain_text("small business entity")
    text = whole.text_content() or ""
    for figure in section.locator("figure.quote").all():
        start, end = int(figure.get_attribute("data-start") or -1), int(figure.get_attribute("data-end") or -1)
        assert figure.locator("blockquote").text_content() == text[start:end]
    section.scroll_into_view_if_needed()
    _shot(page, "evidence-grouped", section)

    # At 390px wide nothing scrolls sideways, the whole section open.
    page.set_viewport_size({"width": 390, "height": 844})
    section.locator(".provision-title").evaluate("title => title.scrollIntoView({block: 'start'})")
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the page scrolls sideways on a phone: {width}px wide"
    _shot(page, "evidence-390px")
    page.set_viewport_size({"width": 1280, "height": 900})


def test_the_chat_rail_has_one_entry_per_version_and_fits_390px(stack: tuple[str, playwright_sync.Page]) -> None:
    web_url, page = stack
    expect = playwright_sync.expect
    _ask(page, web_url, "chat")
    entries = page.locator("#rail > li.rail-entry")
    ids = entries.evaluate_all("es => es.map(e => e.querySelector('section.provision').dataset.sourceId)")
    assert S_328_110 in ids and len(ids) == len(set(ids)), ids
    number = ids.index(S_328_110) + 1
    entry = page.locator(f"#source-{number}")
    expect(entry.locator(".provision-title")).to_have_count(1)
    starts = _starts(entry)
    assert len(starts) >= 3 and starts == sorted(starts)
    expect(page.locator(f'.turn a.ref[href="#source-{number}"]').first).to_be_visible()  # claims cite it
    page.set_viewport_size({"width": 390, "height": 844})
    width = page.evaluate("document.documentElement.scrollWidth")
    page.set_viewport_size({"width": 1280, "height": 900})
    assert width <= 390, f"the chat page scrolls sideways on a phone: {width}px wide"
