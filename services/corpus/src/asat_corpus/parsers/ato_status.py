"""A ruling's status and withdrawal date as its page states them.

Status, lower-cased, is taken from ``.meta.json`` when that gives one. Otherwise from the text,
first sign that applies:

1. a withdrawal: the citation is a withdrawal notice (``GSTR 2000/1W``, ``MT 2008/3W -
   Withdrawal``) or is marked ``(Withdrawn)``; the page title says ``(Withdrawn)``; the opening of
   the body says ``This document has been Withdrawn``, ``This ATO ID is withdrawn ...``,
   ``Notice of Withdrawal``; or the history row marked ``You are here`` is a withdrawal;
2. ``archived`` when the page title or the current history row says ``Archived``;
3. the ``Status:`` line of a PDF rendition's running head (``legally binding``);
4. ``current`` when the current history row is any other version (``Consolidated ruling``,
   ``Updated statement`` ...), or when the page title (``IT 2650 | Legal database``) carries no
   status mark: the Legal database marks withdrawn and archived documents in that title;
5. otherwise ``unknown``: nothing was assumed.

The withdrawal date comes from the first withdrawal row of the history table, else from the
sign-off of a withdrawal notice, else from ``withdrawn (with effect) from <date>`` in the
opening of the body, else (for a withdrawn document whose current history row is ``Archived``,
as the Legal database archives withdrawn ATO IDs) the date of that row.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import date

from asat_corpus.parsers.ato_dates import parse_date, sign_off_dates
from asat_corpus.parsers.ato_history import History
from asat_corpus.parsers.ato_page import CITATION, Page

WITHDRAWN = "withdrawn"
ARCHIVED = "archived"
CURRENT = "current"
UNKNOWN = "unknown"
OPENING_LINES = 25
_WITHDRAWAL_VERSIONS = ("withdrawn", "withdrawal", "updated withdrawal")
_WITHDRAWN_TEXT = re.compile(
    r"^(This document has been withdrawn"
    r"|Notice of Withdrawal$"
    r"|(This|The) (GST )?(ATO ?ID|ATO Interpretative Decision|alert|Taxpayer Alert|Ruling|"
    r"Determination|Practice Statement|Guideline) (is|has been) withdrawn"
    r"|ATO ID \d+/\d+ (is|has been) withdrawn"
    r"|Withdrawn\b)",
    re.IGNORECASE,
)
_WITHDRAWN_FROM = re.compile(r"withdrawn (?:with effect )?(?:from|on|as at|as of) (\d{1,2} \w+ \d{4})", re.I)


def is_withdrawal_notice(page: Page) -> bool:
    match = CITATION.match(page.citation)
    if match is None:
        return False
    note = (match.group("note") or "").lower()
    return "W" in match.group("suffix") or "withdrawal" in note


def _opening(page: Page) -> Sequence[str]:
    return page.body[:OPENING_LINES]


def _text_says_withdrawn(page: Page, history: History | None) -> bool:
    match = CITATION.match(page.citation)
    note = (match.group("note") or "") if match else ""
    if is_withdrawal_notice(page) or "withdrawn" in note.lower():
        return True
    if page.page_title is not None and "(withdrawn)" in page.page_title.lower():
        return True
    if any(_WITHDRAWN_TEXT.match(line) for line in _opening(page)):
        return True
    current = history.current if history is not None else None
    return current is not None and current.version.lower().startswith(_WITHDRAWAL_VERSIONS)


def status_from_text(page: Page, history: History | None) -> str:
    """The status the page itself gives (see the module docstring); ``unknown`` if none."""
    if _text_says_withdrawn(page, history):
        return WITHDRAWN
    current = history.current if history is not None else None
    title_mark = (page.page_title or "").lower()
    if "(archived)" in title_mark or (current is not None and current.version.lower() == ARCHIVED):
        return ARCHIVED
    if page.pdf_status:
        return page.pdf_status.lower()
    if current is not None or page.page_title is not None:
        return CURRENT
    return UNKNOWN


def decide_status(meta_status: object, page: Page, history: History | None) -> str:
    if isinstance(meta_status, str) and meta_status.strip():
        return meta_status.strip().lower()
    return status_from_text(page, history)


def withdrawn_date(page: Page, history: History | None, status: str) -> date | None:
    """When the document was withdrawn, where its page says so."""
    if history is not None:
        row = next((r for r in history.rows if r.version.lower().startswith(_WITHDRAWAL_VERSIONS)), None)
        if row is not None:
            return row.when
    if is_withdrawal_notice(page):
        signed = sign_off_dates(page.body)
        if signed:
            return signed[0][1]
    for line in _opening(page):
        match = _WITHDRAWN_FROM.search(line)
        if match is not None and parse_date(match.group(1)) is not None:
            return parse_date(match.group(1))
    current = history.current if history is not None else None
    if status == WITHDRAWN and current is not None and current.version.lower() == ARCHIVED:
        return current.when
    return None
