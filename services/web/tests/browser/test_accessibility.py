"""Every page of the web app checked by axe-core (``axe.py``) in a real browser: no serious or
critical WCAG 2.x A/AA violation, with the page in the state a person sees (an answer, an
abstention, a period conflict, a highlighted quote, a field's line shown).

The research, chat, source, audit and error pages run against the real stack (``live_stack``:
research over the Division 328 slice, MiniLM, the real ingest and verifier apps); the Documents
pages against the real extraction app (deterministic extractor, in-memory store) with research
stubbed, as in ``test_documents``. Each page keeps its Content-Security-Policy: axe-core is
evaluated through the DevTools protocol, and the test checks no policy was broken. Saves
``docs/screenshots/research.png``, ``chat.png`` and ``source.png``."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from uuid import UUID

import httpx
import pytest

from asat_extraction.api import build_app
from asat_extraction.extractor.deterministic import DeterministicExtractor
from asat_extraction.inputs.limits import InputLimits
from asat_extraction.inputs.ocr import TesseractOcr
from asat_extraction.pipeline import Pipeline
from asat_extraction.store.memory import MemoryStore
from asat_extraction.testing.samples import invoice_pdf
from asat_web.settings import WebSettings

from ..stub_research import RETRO_ACT, V2015, create_stub
from .axe import assert_accessible, axe_source, check_page
from .live_stack import live_services
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
QUESTION = "What aggregated turnover made a business a small business entity?"
OUT_OF_SCOPE = "What is the speed limit on a Victorian freeway?"
NAMES_FY2024 = "What aggregated turnover made a business a small business entity in FY2024?"
RESEARCH = "http://research.test"
TIMEOUT_MS = 60_000
FINISHED = "#transcript > li.turn[data-finished]"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking"]
BREAK = """() => {
  const main = document.querySelector("main");
  main.insertAdjacentHTML("beforeend", '<img id="unlabelled-img" src="/static/none.png"><input id="unlabelled-input">');
}"""


class Tab:
    """A Chromium page on the web app, with the console kept (to see a broken policy)."""

    def __init__(self, web_url: str, page: playwright_sync.Page) -> None:
        self.web_url = web_url
        self.page = page
        self.console: list[str] = []
        page.on("console", lambda message: self.console.append(message.text))

    def open(self, path: str) -> playwright_sync.Page:
        self.page.goto(f"{self.web_url}{path}")
        return self.page

    def shot(self, name: str) -> None:
        path = SHOTS / f"{name}.png"
        self.page.screenshot(path=str(path), full_page=True)
        print(f"screenshot: {path}")

    def ask(self, path: str, question: str, year: int) -> playwright_sync.Locator:
        """Ask on /research or /chat (the page's script streams the answer); the finished turn."""
        page = self.open(path)
        page.locator("#question").fill(question)
        page.locator("#period-year").check()
        page.locator("#income-year").fill(str(year))
        page.locator("#ask button[type=submit]").click()
        turn = page.locator(FINISHED).last
        turn.wait_for(timeout=TIMEOUT_MS)
        return turn

    def policy_kept(self) -> None:
        broken = [m for m in self.console if "Content Security Policy" in m]
        assert broken == [], broken


@pytest.fixture(scope="module", autouse=True)
def axe_installed() -> None:
    """Fail at once, before any service starts, when axe-core is not installed (never skip)."""
    axe_source()


@pytest.fixture(scope="module")
def chromium() -> Iterator[playwright_sync.Browser]:
    """One Chromium for the module (Playwright's sync API runs one instance at a time)."""
    if not Path(CHROMIUM).exists():
        pytest.fail(f"no Chromium at {CHROMIUM}: apt-get install chromium (or set ASAT_CHROMIUM)", pytrace=False)
    with playwright_sync.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        yield browser
        browser.close()


def _tab(chromium: playwright_sync.Browser, web_url: str) -> Tab:
    page = chromium.new_page(viewport={"width": 1280, "height": 900})
    page.set_default_timeout(TIMEOUT_MS)
    sign_in(page, web_url)
    return Tab(web_url, page)


@pytest.fixture(scope="module")
def workspace(chromium: playwright_sync.Browser, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Tab]:
    """The research, chat, source and audit pages over the real research stack."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    with live_services(tmp_path_factory.mktemp("stack")) as (_, web_url):
        tab = _tab(chromium, web_url)
        yield tab
        tab.page.close()


@pytest.fixture(scope="module")
def offline(chromium: playwright_sync.Browser) -> Iterator[Tab]:
    """No corpus: the Documents pages over the real extraction app, and research stubbed (its
    source has the timeline's every mark: an uncertain stretch, text not held, a retrospective Act)."""
    pipeline = Pipeline(DeterministicExtractor(), TesseractOcr(), InputLimits())
    extraction_app = build_app(pipeline, MemoryStore(), max_files=20)
    research = httpx.AsyncClient(transport=httpx.ASGITransport(app=create_stub()), base_url=RESEARCH)
    with serve(extraction_app) as extraction_url:
        settings = WebSettings(research_url=RESEARCH, extraction_url=extraction_url)
        with serve(browser_web_app(research, settings)) as web_url:
            tab = _tab(chromium, web_url)
            yield tab
            tab.page.close()


@pytest.mark.corpus
def test_research_page_with_an_answer_and_its_highlighted_source(workspace: Tab) -> None:
    expect = playwright_sync.expect
    assert_accessible(workspace.open("/research"), "research (empty)")
    turn = workspace.ask("/research", QUESTION, 2015)
    expect(turn.locator(".claims")).to_contain_text("$2 million")
    assert_accessible(workspace.page, "research with an answer")
    workspace.shot("research")
    whole = turn.locator("details.whole-section").first
    whole.locator("summary").click()
    expect(whole).to_have_attribute("data-state", "loaded")
    assert_accessible(workspace.page, "research with an answer and a whole section shown")
    turn.locator("figure.quote", has_text="$2 million").first.locator("a.cite-link").click()
    page = workspace.page
    page.wait_for_selector("mark#quote")
    expect(page.locator(".diff-section")).to_be_visible()
    assert_accessible(page, "source with a highlighted quote, timeline and diff")
    workspace.shot("source")
    workspace.policy_kept()


@pytest.mark.corpus
def test_research_page_with_an_abstention(workspace: Tab) -> None:
    turn = workspace.ask("/research", OUT_OF_SCOPE, 2026)
    playwright_sync.expect(turn.locator(".outcome-abstain")).to_be_visible()
    assert_accessible(workspace.page, "research with an abstention")
    workspace.policy_kept()


@pytest.mark.corpus
def test_research_page_with_a_period_conflict(workspace: Tab) -> None:
    turn = workspace.ask("/research", NAMES_FY2024, 2027)
    playwright_sync.expect(turn.locator(".period-conflict")).to_be_visible()
    assert_accessible(workspace.page, "research with a period conflict")
    workspace.policy_kept()


@pytest.mark.corpus
def test_chat_page_with_an_answer(workspace: Tab) -> None:
    assert_accessible(workspace.open("/chat"), "chat (empty)")
    workspace.ask("/chat", QUESTION, 2015)
    playwright_sync.expect(workspace.page.locator("#rail")).to_contain_text("$2 million")
    assert_accessible(workspace.page, "chat with an answer")
    workspace.shot("chat")
    workspace.policy_kept()


@pytest.mark.corpus
def test_audit_pages(workspace: Tab) -> None:
    page = workspace.open("/audit")
    playwright_sync.expect(page.locator(".chain")).to_contain_text("Hash chain consistent")
    assert_accessible(page, "audit")
    page.locator(".audit-table tbody tr").first.locator("a").click()
    playwright_sync.expect(page.locator("h1")).to_contain_text("Audit row")
    playwright_sync.expect(page.locator(".record")).to_be_visible()
    assert_accessible(page, "audit row")
    workspace.policy_kept()


@pytest.mark.corpus
def test_error_page(workspace: Tab) -> None:
    page = workspace.open("/audit/999999")
    playwright_sync.expect(page.locator("h1")).to_have_text("Audit row not found")
    assert_accessible(page, "error page")
    workspace.policy_kept()


def test_the_check_reports_what_it_finds(offline: Tab) -> None:
    """The helper is not vacuous: an image without alt text and an unlabelled input fail it."""
    page = offline.open("/research")
    page.evaluate(BREAK)
    found = {v.rule: v for v in check_page(page)}
    assert {"image-alt", "label"} <= found.keys(), found
    assert found["image-alt"].impact == "critical" and found["image-alt"].targets == ("#unlabelled-img",)
    with pytest.raises(AssertionError) as failure:
        assert_accessible(page, "research, broken on purpose")
    message = str(failure.value)
    assert (
        "research, broken on purpose" in message
        and "image-alt (critical): Images must have alternative text" in message
    )
    assert "#unlabelled-input" in message


def test_source_timeline_with_every_mark(offline: Tab) -> None:
    page = offline.open(f"/source/{V2015}")
    playwright_sync.expect(page.locator(f'g.tl-arrow[data-act="{RETRO_ACT}"]')).to_be_visible()
    playwright_sync.expect(page.locator("rect.tl-uncertain").first).to_be_visible()
    assert_accessible(page, "source with the two-axis timeline")
    offline.policy_kept()


def test_documents_pages(offline: Tab) -> None:
    expect = playwright_sync.expect
    page = offline.open("/documents")
    assert_accessible(page, "documents (none yet)")
    pdf = playwright_sync.FilePayload(name="harbourside.pdf", mimeType="application/pdf", buffer=invoice_pdf())
    page.locator("#files").set_input_files([pdf])
    page.get_by_role("button", name="Upload").click()
    expect(page.locator('.results > li[data-status="created"]')).to_have_count(1)
    expect(page.locator(".transactions tbody tr")).to_have_count(1)
    assert_accessible(page, "documents with an upload and a transaction")
    page.get_by_role("link", name="review it").click()
    expect(page.locator("h1")).to_have_text("harbourside.pdf")
    page.locator("#field-total_amount").get_by_role("link", name="Show line").click()
    expect(page.locator(".source-line.highlighted")).to_have_count(1)
    assert_accessible(page, "document review with a line shown")
    page.get_by_label("Field", exact=True).select_option("total_amount")
    page.get_by_label("Corrected value").fill("1,137.50")
    page.get_by_label("Reviewer").fill("Ada Reviewer")
    page.get_by_role("button", name="Save correction").click()
    expect(page.locator(".saved")).to_be_visible()
    assert_accessible(page, "document review with a correction saved")
    page = offline.open(f"/documents/{UUID(int=1)}")
    expect(page.locator("h1")).to_have_text("Document not found")
    assert_accessible(page, "documents error page")
    offline.policy_kept()
