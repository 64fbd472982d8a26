"""The source viewer's two-axis timeline in a real browser: Playwright drives Debian's Chromium
(headless) against the web app served by uvicorn over the stub research service (no corpus or
index needed). Saves ``docs/screenshots/timeline-two-axes.png`` (the path is printed)."""

from __future__ import annotations

import os
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest
import uvicorn
from fastapi import FastAPI

from asat_web.settings import WebSettings

from ..stub_research import CANDIDATES, RETRO_ACT, RETRO_ASSENT, V2015, create_stub
from .signing_in import browser_web_app, sign_in

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
SCREENSHOT = Path(__file__).resolve().parents[4] / "docs" / "screenshots" / "timeline-two-axes.png"
RESEARCH = "http://research.test"


@contextmanager
def serve(app: FastAPI) -> Iterator[str]:
    """``app`` under uvicorn on a free 127.0.0.1 port in a thread; yields its URL. (Not
    ``live_stack.serve``: importing that module loads the whole research stack, not needed here.)"""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    for _ in range(200):
        if server.started:
            break
        time.sleep(0.05)
    else:
        raise RuntimeError(f"uvicorn did not start on port {port}")
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)


@pytest.fixture(scope="module")
def page() -> Iterator[tuple[str, playwright_sync.Page, list[str]]]:
    """(web URL, page, console messages) for the web app over the stub research service."""
    if not Path(CHROMIUM).exists():
        pytest.fail(f"no Chromium at {CHROMIUM}: apt-get install chromium (or set ASAT_CHROMIUM)", pytrace=False)
    research = httpx.AsyncClient(transport=httpx.ASGITransport(app=create_stub()), base_url=RESEARCH)
    app = browser_web_app(research, WebSettings(research_url=RESEARCH))
    with serve(app) as web_url, playwright_sync.sync_playwright() as p:
        chromium = p.chromium.launch(
            executable_path=CHROMIUM,
            headless=True,
            args=["--no-sandbox", "--disable-gpu", "--disable-background-networking"],
        )
        tab = chromium.new_page(viewport={"width": 1280, "height": 900})
        sign_in(tab, web_url)
        console: list[str] = []
        tab.on("console", lambda message: console.append(message.text))
        yield web_url, tab, console
        chromium.close()


def test_the_timeline_draws_both_axes_an_uncertain_stretch_and_a_retrospective_arrow(
    page: tuple[str, playwright_sync.Page, list[str]],
) -> None:
    web_url, tab, console = page
    tab.goto(f"{web_url}/source/{V2015}")
    expect = playwright_sync.expect
    chart = tab.locator("section.timeline-chart svg.tl")
    expect(chart).to_be_visible()
    for row, title in (
        ("in-force", "In force (law as it now stands)"),
        ("on-the-books", "On the books (as it then stood)"),
    ):
        expect(chart.locator(f'g.tl-row[data-row="{row}"] .tl-row-title')).to_have_text(title)
        expect(chart.locator(f'g.tl-row[data-row="{row}"] rect.tl-certain').first).to_be_visible()

    hatched = chart.locator(
        f'g.tl-row[data-row="in-force"] rect.tl-uncertain[data-candidates="{" ".join(CANDIDATES)}"]'
    )
    expect(hatched).to_be_visible()
    assert hatched.evaluate("e => getComputedStyle(e).fill") == 'url("#tl-hatch")'  # CSS did not paint over it
    expect(hatched.locator("title")).to_contain_text("one of 2016-07-01, 2017-07-01")
    expect(chart.locator("text.tl-caption", has_text="one of 2016-07-01, 2017-07-01").first).to_be_visible()
    expect(chart.locator("rect.tl-not-held").first).to_be_visible()

    arrow = chart.locator(f'g.tl-arrow[data-act="{RETRO_ACT}"]')
    expect(arrow).to_be_visible()
    expect(arrow).to_have_attribute("data-assent", RETRO_ASSENT)
    expect(arrow).to_contain_text(f"{RETRO_ACT}: assent {RETRO_ASSENT}, reaches back to 2016-07-01")
    head = arrow.locator("polygon.tl-arrowhead").bounding_box()
    assent = arrow.locator("circle.tl-assent").bounding_box()
    start = hatched.bounding_box()
    assert head is not None and assent is not None and start is not None
    assert head["x"] < assent["x"], "the arrow points back from the assent to the commencement"
    assert abs(head["x"] - start["x"]) < 2, "the arrowhead is on the commencement, the hatched stretch's start"

    SCREENSHOT.parent.mkdir(parents=True, exist_ok=True)
    tab.locator("section.timeline-chart").screenshot(path=str(SCREENSHOT))
    print(f"screenshot: {SCREENSHOT}")
    assert not [m for m in console if "Content Security Policy" in m], console
