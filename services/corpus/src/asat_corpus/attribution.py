"""The Federal Register of Legislation attribution, dated from the corpus snapshot itself.

CC BY 4.0 asks for "Based on content from the Federal Register of Legislation at [date of
download]". ``SOURCES.json`` records no download date, so the date used is the one the snapshot
itself proves: a manifest's own ``downloaded_on`` when it has one, otherwise the newest
compilation date it holds (the snapshot cannot have been taken before the newest compilation in
it was registered). The date is never hard-coded.
"""

from __future__ import annotations

from datetime import date
from typing import Any

from asat_corpus.act import Compilation

REGISTER_URL = "https://www.legislation.gov.au"


class AttributionError(Exception):
    """The corpus manifest gives no date to attribute the legislation to."""


def snapshot_date(compilations: tuple[Compilation, ...], raw: dict[str, Any]) -> date:
    """The manifest's ``downloaded_on`` if present, else its newest compilation date."""
    stated = raw.get("downloaded_on")
    if isinstance(stated, str) and stated:
        try:
            return date.fromisoformat(stated)
        except ValueError as exc:
            raise AttributionError(f"SOURCES.json downloaded_on {stated!r} is not an ISO date (YYYY-MM-DD)") from exc
    dated = [c.compilation_date for c in compilations if c.compilation_date is not None]
    if not dated:
        raise AttributionError(
            "SOURCES.json has no downloaded_on and no compilation_date: the Register attribution "
            "needs a date; add downloaded_on (YYYY-MM-DD) to the manifest"
        )
    return max(dated)


def register_attribution(on: date) -> str:
    """The attribution wording the Register's licence asks for, dated ``on``."""
    return (
        f"Based on content from the Federal Register of Legislation at {on.day} {on:%B %Y}. "
        f"For the latest information on Australian Government legislation please go to {REGISTER_URL}."
    )
