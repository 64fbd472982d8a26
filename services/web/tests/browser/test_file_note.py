"""The file note downloaded in a real browser: Playwright drives Debian's Chromium (headless)
against the running research and web services over the Division 328 slice (``live_stack``).

A question is asked on the research page; the answer's footer links "File note: PDF" and
"Markdown"; both download. Every verified quote the page showed is in the PDF's extracted text
byte for byte (read back with ``recover_verbatim``) and in the Markdown's blockquotes, with the
question, the audit row and its hash. The PDF's first page is rendered to
``docs/screenshots/file-note-pdf.png`` (the screenshot set of docs/web.md).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from asat_web.file_note_markdown import recover_blockquotes
from asat_web.pdf_text import recover_verbatim

from ..pdf_pages import extracted_text, save_first_page_png
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
TIMEOUT_MS = 60_000


@pytest.fixture(scope="module")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, playwright_sync.Page]]:
    if not Path(CHROMIUM).exists():
        pytest.fail(f"no Chromium at {CHROMIUM}: apt-get install chromium (or set ASAT_CHROMIUM)", pytrace=False)
    with live_services(tmp_path_factory.mktemp("stack")) as (_, web_url), playwright_sync.sync_playwright() as p:
        chromium = p.chromium.launch(
            executable_path=CHROMIUM,
            headless=True,
            args=["--no-sandbox", "--disable-gpu", "--disable-background-networking"],
        )
        page = chromium.new_page(viewport={"width": 1280, "height": 900}, accept_downloads=True)
        page.set_default_timeout(TIMEOUT_MS)
        sign_in(page, web_url)
        yield web_url, page
        chromium.close()


def _download(page: playwright_sync.Page, link: playwright_sync.Locator) -> bytes:
    with page.expect_download() as info:
        link.click()
    path = info.value.path()
    return Path(path).read_bytes()


def test_the_file_note_downloads_with_every_quote_the_page_showed(stack: tuple[str, playwright_sync.Page]) -> None:
    web_url, page = stack
    page.goto(f"{web_url}/research")
    page.get_by_label("Question", exact=True).fill(QUESTION)
    page.get_by_label("Income year", exact=True).check()
    page.get_by_label("Income year (1 July to 30 June, ending in this year)").fill("2015")
    page.get_by_role("button", name="Ask").click()
    turn = page.locator("#transcript > li.turn[data-finished]").last
    turn.wait_for(timeout=TIMEOUT_MS)
    shown = turn.locator("figure.quote blockquote").evaluate_all("bs => bs.map(b => b.textContent)")
    assert shown, "the answer showed no quote"
    footer = turn.locator(".answer-footer")
    audit_id = footer.locator("a[href$='/file-note.pdf']").get_attribute("href")
    assert audit_id is not None

    pdf = _download(page, footer.get_by_role("link", name="PDF"))
    assert pdf.startswith(b"%PDF")
    text = extracted_text(pdf)
    verbatim = recover_verbatim(text)
    assert verbatim[0] == QUESTION
    for quote in shown:
        assert quote in verbatim, f"quote not in the PDF byte for byte: {quote[:80]!r}"
    row = audit_id.split("/")[2]
    assert f"Audit row {row}" in text
    save_first_page_png(pdf, SHOTS / "file-note-pdf.png")

    markdown = _download(page, footer.get_by_role("link", name="Markdown")).decode("utf-8")
    quotes_md = recover_blockquotes(markdown)
    for quote in shown:
        assert quote in quotes_md
    assert QUESTION in markdown
