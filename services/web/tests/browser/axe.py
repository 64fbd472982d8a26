"""axe-core in the browser tests: check a Playwright page for accessibility violations.

``assert_accessible(page, "name")`` fails with a readable list when axe-core finds a violation of
impact serious or critical under the WCAG 2.0/2.1/2.2 A and AA rules; ``check_page(page)`` returns
them. Any browser test can call it on the page it has open, at any point (after a click, with a
result shown)::

    from .axe import assert_accessible

    assert_accessible(page, "history")

axe-core is the npm package pinned in ``axe/package-lock.json``; ``make axe`` (a step of
``make test``) installs it under ``axe/node_modules``. When it is missing the test fails and
says so, never skips.

The script is evaluated in the page through the DevTools protocol (``page.evaluate``), which the
page's Content-Security-Policy does not govern: ``page.add_script_tag`` would add an inline
``<script>``, which the web app's ``script-src 'self'`` rightly blocks. So the pages are checked
with their real policy in force, and no context needs ``bypass_csp``.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from playwright.sync_api import Page

AXE_DIR = Path(__file__).resolve().parent / "axe"
AXE_JS = AXE_DIR / "node_modules" / "axe-core" / "axe.min.js"
WCAG_TAGS = ("wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa")
BLOCKING = ("serious", "critical")

# Runs axe over the whole document for the WCAG A/AA rules; returns the violations only.
RUN = """async (tags) => {
  const results = await window.axe.run(document, {
    runOnly: { type: "tag", values: tags },
    resultTypes: ["violations"],
  });
  return results.violations.map((v) => ({
    id: v.id,
    impact: v.impact,
    help: v.help,
    helpUrl: v.helpUrl,
    nodes: v.nodes.map((n) => ({
      target: n.target.map((t) => (Array.isArray(t) ? t.join(" >>> ") : String(t))),
      html: n.html,
    })),
  }));
}"""


@dataclass(frozen=True)
class Node:
    """One element that fails a rule: its CSS selector(s) and the start of its markup."""

    target: tuple[str, ...]
    html: str


@dataclass(frozen=True)
class Violation:
    rule: str
    impact: str
    help: str
    help_url: str
    nodes: tuple[Node, ...]

    @property
    def targets(self) -> tuple[str, ...]:
        return tuple(" ".join(node.target) for node in self.nodes)

    def describe(self) -> str:
        lines = [f"{self.rule} ({self.impact}): {self.help} [{self.help_url}]"]
        lines += [f"    {' '.join(node.target)}    {_short(node.html)}" for node in self.nodes]
        return "\n".join(lines)


def _short(html: str, limit: int = 160) -> str:
    flat = " ".join(html.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "\u2026"


def axe_source() -> str:
    """axe.min.js as installed by ``make axe``; fails the test (never skips) when it is missing."""
    if not AXE_JS.is_file():
        pytest.fail(
            f"axe-core is not installed ({AXE_JS} is missing): run `make axe` "
            f"(npm ci --prefix {AXE_DIR.relative_to(AXE_DIR.parents[4])} --no-audit --no-fund; `make test` runs it)",
            pytrace=False,
        )
    return AXE_JS.read_text(encoding="utf-8")


def _inject(page: Page) -> None:
    if page.evaluate("typeof window.axe === 'object'"):
        return
    page.evaluate(axe_source() + "\n;undefined\n//# sourceURL=axe.min.js")
    if not page.evaluate("typeof window.axe === 'object'"):
        raise AssertionError(f"axe-core did not load into {page.url}")


def check_page(page: Page, impacts: tuple[str, ...] = BLOCKING) -> list[Violation]:
    """The page's WCAG 2.x A/AA violations whose impact is in ``impacts`` (serious or critical),
    as axe-core finds them in the page's current state."""
    _inject(page)
    found: list[dict[str, Any]] = page.evaluate(RUN, list(WCAG_TAGS))
    return [
        Violation(
            rule=v["id"],
            impact=v["impact"],
            help=v["help"],
            help_url=v["helpUrl"],
            nodes=tuple(Node(tuple(n["target"]), n["html"]) for n in v["nodes"]),
        )
        for v in found
        if v["impact"] in impacts
    ]


def assert_accessible(page: Page, name: str) -> None:
    """Fail, listing each rule, its impact, its help and the elements, when axe-core finds a
    serious or critical WCAG 2.x A/AA violation on ``page`` (``name`` says which page it is)."""
    violations = check_page(page)
    if violations:
        listed = "\n".join(v.describe() for v in violations)
        raise AssertionError(
            f"{name} ({page.url}): {len(violations)} serious or critical accessibility violation(s) by axe-core:\n"
            f"{listed}"
        )
