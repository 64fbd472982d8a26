"""The Documents pages in a real browser: Playwright drives Debian's Chromium (headless) against
the web app and the REAL extraction app (deterministic extractor, Tesseract, the in-memory store),
each under uvicorn on its own free port; the web talks to extraction over HTTP only. Two
generated documents (a text PDF and a PNG scan of the same invoice, from the synthetic
generator) are dropped on the upload box, listed, reviewed (the PDF's page is shown as a picture
rendered by extraction; clicking the total highlights the line it was read from and marks its
page), and a correction is saved and shown. Saves ``docs/screenshots/documents-*.png``."""

from __future__ import annotations

import base64
import os
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest

from asat_extraction.api import build_app
from asat_extraction.extractor.deterministic import DeterministicExtractor
from asat_extraction.inputs.limits import InputLimits
from asat_extraction.inputs.ocr import TesseractOcr
from asat_extraction.pipeline import Pipeline
from asat_extraction.store.memory import MemoryStore
from asat_extraction.synthetic.render_image import draw_page, encode
from asat_extraction.testing.samples import INVOICE_ROWS, invoice_pdf
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
TIMEOUT_MS = 60_000
LOADED = "(selector) => { const img = document.querySelector(selector); return img && img.complete && img.naturalWidth > 0; }"
NATURAL_WIDTH = "(selector) => document.querySelector(selector).naturalWidth"
DROP = """(zone, files) => {
  const transfer = new DataTransfer();
  for (const f of files) {
    const bytes = Uint8Array.from(atob(f.data), (c) => c.charCodeAt(0));
    transfer.items.add(new File([bytes], f.name, { type: f.type }));
  }
  for (const type of ["dragenter", "dragover", "drop"]) {
    zone.dispatchEvent(new DragEvent(type, { dataTransfer: transfer, bubbles: true, cancelable: true }));
  }
}"""


@dataclass
class Session:
    web_url: str
    tab: playwright_sync.Page
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
    pipeline = Pipeline(DeterministicExtractor(), TesseractOcr(), InputLimits())
    extraction_app = build_app(pipeline, MemoryStore(), max_files=20)
    research = httpx.AsyncClient(transport=httpx.ASGITransport(app=create_stub()), base_url=RESEARCH)
    with serve(extraction_app) as extraction_url:
        settings = WebSettings(research_url=RESEARCH, extraction_url=extraction_url)
        with serve(browser_web_app(research, settings)) as web_url, playwright_sync.sync_playwright() as p:
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
            yield Session(web_url, tab, console)
            chromium.close()


def _file(name: str, media_type: str, data: bytes) -> dict[str, str]:
    return {"name": name, "type": media_type, "data": base64.b64encode(data).decode("ascii")}


def test_drop_two_documents_see_them_listed_review_highlight_and_correct(session: Session) -> None:
    tab, expect = session.tab, playwright_sync.expect
    scan = encode(draw_page(INVOICE_ROWS, width=1100), "PNG")
    tab.goto(f"{session.web_url}/documents")
    expect(tab.get_by_role("link", name="Documents")).to_have_attribute("aria-current", "page")
    zone = tab.locator("#drop-zone")
    files = [
        _file("harbourside.pdf", "application/pdf", invoice_pdf()),
        _file("harbourside-scan.png", "image/png", scan),
    ]
    zone.evaluate(DROP, files)
    expect(tab.locator("#chosen")).to_have_text("2 files: harbourside.pdf, harbourside-scan.png")
    tab.get_by_role("button", name="Upload").click()
    results = tab.locator(".results > li")
    expect(results).to_have_count(2)
    expect(tab.locator('.results > li[data-status="created"]')).to_have_count(2)
    rows = tab.locator(".transactions tbody tr")
    expect(rows).to_have_count(2)
    expect(tab.locator(".transactions")).to_contain_text("Harbourside Plumbing Pty Ltd")
    expect(tab.locator(".transactions")).to_contain_text("37.50")
    expect(tab.locator(".transactions")).to_contain_text("pending")
    session.shot("documents-list")

    tab.locator(".results > li", has_text="harbourside.pdf").get_by_role("link", name="review it").click()
    expect(tab.locator("h1")).to_have_text("harbourside.pdf")
    page = tab.locator("#page-1")
    expect(page.get_by_role("img", name="Page 1 of 1 of the uploaded document harbourside.pdf")).to_be_visible()
    tab.wait_for_function(LOADED, arg="#page-1 img.page-image")
    assert tab.evaluate(NATURAL_WIDTH, "#page-1 img.page-image") > 500  # rendered by extraction at ~130 dpi
    expect(page).not_to_have_class(re.compile(r"\bmarked\b"))
    total = tab.locator("#field-total_amount")
    expect(total.locator(".field-value")).to_have_text("37.50")
    line_id = total.locator("a.source-link").get_attribute("data-line")
    assert line_id is not None
    line = tab.locator(f"#{line_id}")
    expect(line).not_to_have_class(re.compile(r"\bhighlighted\b"))
    total.get_by_role("link", name="Show line").click()
    expect(line).to_have_class(re.compile(r"\bhighlighted\b"))
    expect(line).to_contain_text("$37.50")
    expect(tab.locator(".source-line.highlighted")).to_have_count(1)
    expect(page).to_have_class(re.compile(r"\bmarked\b"))
    expect(page).to_have_attribute("aria-current", "true")
    expect(page.locator(".page-read")).to_have_text("Total was read here: \u201cTotal (inc GST) $37.50\u201d")
    expect(tab.locator(".page.marked")).to_have_count(1)
    # another field moves the highlight to its own line
    tab.locator("#field-supplier_abn").get_by_role("link", name="Show line").click()
    expect(tab.locator(".source-line.highlighted")).to_contain_text("51 824 753 556")
    expect(page.locator(".page-read")).to_contain_text("Supplier ABN was read here")
    total.get_by_role("link", name="Show line").click()
    session.shot("documents-review")

    tab.get_by_label("Field", exact=True).select_option("total_amount")
    tab.get_by_label("Corrected value").fill("1,137.50")
    tab.get_by_label("Reviewer").fill("Ada Reviewer")
    tab.get_by_label("Note").fill("the scan dropped a digit")
    tab.get_by_role("button", name="Save correction").click()
    expect(tab.locator(".saved")).to_have_text("Correction to Total saved.")
    expect(tab.locator("#review-status")).to_have_text("corrected")
    expect(total.locator(".field-value")).to_have_text("1137.50")
    expect(total.locator(".field-original")).to_have_text("(extracted: 37.50)")
    entry = tab.locator(".correction-entry")
    expect(entry).to_have_count(1)
    expect(entry).to_contain_text("Ada Reviewer")
    expect(entry).to_contain_text("Total 37.50 → 1137.50")
    expect(entry).to_contain_text("the scan dropped a digit")
    session.shot("documents-corrected")

    tab.goto(f"{session.web_url}/documents")
    expect(tab.locator(".transactions")).to_contain_text("corrected")
    expect(tab.locator(".transactions")).to_contain_text("1137.50")


def test_an_image_is_shown_beside_its_fields_and_the_page_fits_a_phone(session: Session) -> None:
    tab, expect = session.tab, playwright_sync.expect
    tab.goto(f"{session.web_url}/documents")
    reviews = [link.get_attribute("href") for link in tab.get_by_role("link", name="Review", exact=True).all()]
    for href in reviews:
        tab.goto(f"{session.web_url}{href}")
        if tab.locator("h1").inner_text() == "harbourside-scan.png":
            break
    expect(tab.locator("h1")).to_have_text("harbourside-scan.png")
    image = tab.locator("#page-1 img.page-image")
    expect(image).to_be_visible()
    expect(image).to_have_attribute("alt", "Page 1 of 1 of the uploaded document harbourside-scan.png")
    tab.wait_for_function(LOADED, arg="#page-1 img.page-image")
    assert tab.evaluate(NATURAL_WIDTH, "#page-1 img.page-image") == 1100  # the scan itself, as PNG
    session.shot("documents-review-image")
    tab.set_viewport_size({"width": 390, "height": 844})
    try:
        for path in ("/documents", tab.url.removeprefix(session.web_url)):
            tab.goto(f"{session.web_url}{path}")
            width = tab.evaluate("document.documentElement.scrollWidth")
            assert width <= 390, f"{path} scrolls sideways on a phone: {width}px wide"
        # on a phone the fields are below the page: a field's link scrolls back up to the page it marks
        tab.locator("#field-total_amount").get_by_role("link", name="Show line").click()
        expect(tab.locator("#page-1")).to_have_class(re.compile(r"\bmarked\b"))
        expect(tab.locator("#page-1")).to_be_in_viewport()
        session.shot("documents-review-narrow")
    finally:
        tab.set_viewport_size({"width": 1280, "height": 900})
    assert [m for m in session.console if "Content Security Policy" in m] == []
