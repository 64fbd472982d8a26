"""Sign-in in a real browser: Playwright drives Debian's Chromium (headless) against the running
research and web services over the Division 328 slice (``live_stack``).

Without a session the research page sends the browser to the sign-in page; signing in brings it
back; the owner adds a client in Settings, asks a question for that client, and the question's
audit row says who asked it, for which practice and client; signing out ends the session, and the
research page sends the browser to sign in again. axe-core finds no serious or critical
violation on the sign-in page or the settings pages. Saves ``docs/screenshots/sign-in.png`` and
``docs/screenshots/settings.png``.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import unquote

import pytest

from .axe import assert_accessible, axe_source
from .live_stack import live_services
from .signing_in import OWNER_EMAIL, PASSWORD

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
    """(web URL, a page not signed in) over the real research service."""
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
        yield web_url, page
        chromium.close()


def test_sign_in_ask_for_a_client_see_who_asked_and_sign_out(stack: tuple[str, playwright_sync.Page]) -> None:
    web_url, page = stack
    expect = playwright_sync.expect

    # No session: the workspace sends the browser to sign in, remembering where it was going.
    page.goto(f"{web_url}/research")
    assert unquote(page.url) == f"{web_url}/sign-in?next=/research"
    expect(page.get_by_role("heading", name="Sign in")).to_be_visible()
    expect(page.get_by_role("navigation", name="Main")).to_have_count(0)
    page.get_by_label("Email").fill(OWNER_EMAIL)
    assert_accessible(page, "sign-in")
    page.screenshot(path=str(SHOTS / "sign-in.png"), full_page=True)
    page.get_by_label("Password").fill("not the password at all")
    page.get_by_role("button", name="Sign in").click()
    expect(page.locator(".problem")).to_have_text("Email or password is wrong.")
    assert_accessible(page, "sign-in, a wrong password")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    page.wait_for_url(f"{web_url}/research")
    expect(page.locator("header .who")).to_contain_text(f"{OWNER_EMAIL} · Test Practice (owner)")

    # Settings: a client, a member, the provider.
    page.goto(f"{web_url}/settings/clients")
    page.get_by_label("Name").fill("Acme Pty Ltd")
    page.get_by_label("ABN").fill("51 824 753 556")
    page.get_by_role("button", name="Add client").click()
    expect(page.locator(".done")).to_have_text("Client Acme Pty Ltd added.")
    assert_accessible(page, "settings: clients")
    page.goto(f"{web_url}/settings/provider")
    assert_accessible(page, "settings: provider")
    page.goto(f"{web_url}/settings/members")
    page.get_by_label("Email").fill("agent@practice.test")
    page.get_by_label("Role", exact=True).select_option("agent")
    page.get_by_role("button", name="Invite").click()
    expect(page.locator(".one-time-password")).to_be_visible()
    expect(page.locator(".settings-table")).to_contain_text("agent@practice.test")
    assert_accessible(page, "settings: members, one invited")
    page.screenshot(path=str(SHOTS / "settings.png"), full_page=True)

    # Ask for the client: the audit row says who asked, for which practice and client.
    page.goto(f"{web_url}/research")
    page.get_by_label("Question", exact=True).fill(QUESTION)
    page.get_by_label("Income year", exact=True).check()
    page.get_by_label("Income year (1 July to 30 June, ending in this year)").fill("2015")
    page.get_by_label("For client").select_option(label="Acme Pty Ltd")
    page.get_by_role("button", name="Ask").click()
    turn = page.locator("#transcript > li.turn[data-finished]").last
    turn.wait_for(timeout=TIMEOUT_MS)
    expect(turn.locator(".claims")).to_contain_text("$2 million")
    hrefs = turn.locator(".answer-footer a[href^='/audit/']").evaluate_all("as => as.map(a => a.pathname)")
    (row,) = [h for h in hrefs if re.fullmatch(r"/audit/\d+", h)]
    page.goto(f"{web_url}{row}")
    expect(page.locator("dd.asked-by")).to_have_text(f"asked by {OWNER_EMAIL} (Test Practice), for client Acme Pty Ltd")
    page.goto(f"{web_url}/audit")
    expect(page.locator(".audit-table")).to_contain_text(f"asked by {OWNER_EMAIL} (Test Practice)")

    # Sign out: the session ends, and the workspace sends the browser to sign in again.
    page.get_by_role("button", name="Sign out").click()
    page.wait_for_url(f"{web_url}/sign-in")
    page.goto(f"{web_url}{row}")
    assert unquote(page.url) == f"{web_url}/sign-in?next={row}"
    expect(page.get_by_role("heading", name="Sign in")).to_be_visible()
