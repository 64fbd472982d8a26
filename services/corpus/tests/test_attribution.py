"""The Register attribution is dated from the snapshot, never hard-coded."""

from __future__ import annotations

from datetime import date

import pytest

from asat_corpus.act import Compilation, SourceFormat
from asat_corpus.attribution import AttributionError, register_attribution, snapshot_date


def _compilation(day: date | None) -> Compilation:
    return Compilation(
        act="itaa1997",
        title="Income Tax Assessment Act 1997",
        register_id=f"C{day}",
        number=None,
        compilation_date=day,
        amendments_up_to=None,
        amendments_up_to_text=None,
        format=SourceFormat.GITLAW_MARKDOWN,
        files=(),
        partial=None,
        has_endnotes=False,
    )


def test_newest_compilation_date_when_the_manifest_states_no_download_date() -> None:
    held = (_compilation(date(2015, 2, 25)), _compilation(None), _compilation(date(2026, 4, 1)))
    assert snapshot_date(held, {}) == date(2026, 4, 1)


def test_a_stated_download_date_wins() -> None:
    held = (_compilation(date(2026, 4, 1)),)
    assert snapshot_date(held, {"downloaded_on": "2026-05-14"}) == date(2026, 5, 14)


def test_a_bad_or_missing_date_is_a_clear_error() -> None:
    with pytest.raises(AttributionError, match="downloaded_on"):
        snapshot_date((_compilation(date(2026, 4, 1)),), {"downloaded_on": "14 May"})
    with pytest.raises(AttributionError, match="needs a date"):
        snapshot_date((_compilation(None),), {})


def test_wording_follows_the_licence() -> None:
    assert register_attribution(date(2026, 4, 1)) == (
        "Based on content from the Federal Register of Legislation at 1 April 2026. For the latest "
        "information on Australian Government legislation please go to https://www.legislation.gov.au."
    )
