"""Item 3: the known-time axis, resolve_as_known and the caveat, on synthetic timelines."""

from __future__ import annotations

from dataclasses import replace
from datetime import date

from asat_corpus.act import ActRef
from asat_corpus.provision import Bound, BoundMethod, ProvisionTimeline, ProvisionVersion, VersionGap
from asat_corpus.resolution import Status, resolve, resolve_as_known, texts_between, then_stood_caveat

ACT_126 = ActRef(126, 2015)


def _version(
    vid: str,
    valid: tuple[date, date | None],
    known: tuple[date, date | None],
    to_bound: Bound,
    compiled: date,
) -> ProvisionVersion:
    return ProvisionVersion(
        id=vid,
        act="gst1999",
        number="177-10",
        heading="Heading",
        hierarchy=(),
        text=vid,
        subsections=(),
        register_ids=(vid.split("@")[1],),
        authorised=False,
        valid_from=valid[0],
        valid_to=valid[1],
        from_bound=Bound(valid[0], BoundMethod.AMENDMENT_COMMENCEMENT),
        to_bound=to_bound,
        income_years=(),
        content_hash="x",
        known_from=known[0],
        known_to=known[1],
        compilation_dates=(compiled,),
    )


RETRO = Bound(date(2015, 3, 5), BoundMethod.AMENDMENT_COMMENCEMENT, (ACT_126,), "", None, (date(2015, 3, 5),), True)
OLD = _version(
    "gst1999:177-10@C2015C00284",
    (date(2013, 6, 29), date(2015, 3, 5)),
    (date(2013, 6, 29), date(2015, 9, 10)),
    RETRO,
    date(2015, 6, 25),
)
NEW = _version(
    "gst1999:177-10@C2026C00081",
    (date(2018, 7, 2), None),
    (date(2026, 1, 1), None),
    Bound(None, BoundMethod.OPEN),
    date(2026, 1, 1),
)
TIMELINE = ProvisionTimeline("gst1999", "177-10", (OLD, NEW), ())


def test_a_retrospectively_amended_text_is_served_as_it_then_stood() -> None:
    result = resolve_as_known(TIMELINE, date(2015, 5, 1))
    assert result.status is Status.AS_THEN_STOOD and result.version == OLD
    assert "Act No. 126, 2015 with effect from 2015-03-05" in result.message
    assert "retrospective" in result.message and "not held" in result.message
    assert resolve(TIMELINE, date(2015, 5, 1)).status is not Status.IN_FORCE


def test_where_both_axes_agree_it_is_in_force() -> None:
    result = resolve_as_known(TIMELINE, date(2014, 1, 1))
    assert result.status is Status.IN_FORCE and result.version == OLD


def test_after_an_amending_act_changed_the_text_before_the_next_compilation_the_text_is_not_held() -> None:
    result = resolve_as_known(TIMELINE, date(2020, 1, 1))
    assert result.status is Status.GAP and result.version is None
    assert NEW.id in result.message


def test_before_the_earliest_known_text_nothing_is_served() -> None:
    result = resolve_as_known(TIMELINE, date(2010, 1, 1))
    assert result.status is Status.NOT_HELD and "resolve()" in result.message


def test_the_caveat_names_the_act_the_day_and_the_candidates_when_uncertain() -> None:
    assert then_stood_caveat(OLD).startswith("as it then stood (C2015C00284; 2015-06-25); amended by Act No. 126, 2015")
    uncertain = Bound(
        date(2013, 6, 29),
        BoundMethod.COMMENCEMENT_SHRUNK,
        (ActRef(70, 2015),),
        "",
        date(2015, 7, 1),
        (date(2013, 6, 29), date(2015, 7, 1)),
        True,
    )
    version = _version(
        "a@C1",
        (date(2010, 1, 1), date(2013, 6, 29)),
        (date(2010, 1, 1), date(2015, 6, 25)),
        uncertain,
        date(2015, 6, 22),
    )
    assert "one of 2013-06-29, 2015-07-01" in then_stood_caveat(version)
    assert then_stood_caveat(NEW) == "as it then stood (C2026C00081; 2026-01-01)"


def test_texts_between_gives_the_two_held_texts_of_an_uncertain_gap_only() -> None:
    uncertain = VersionGap("gst1999", "177-10", date(2015, 3, 5), date(2018, 7, 2), (ACT_126,), "r", (OLD.id, NEW.id))
    not_held = VersionGap("gst1999", "177-10", date(2015, 3, 5), date(2018, 7, 2), (ACT_126,), "r")
    assert texts_between(TIMELINE, uncertain) == (OLD, NEW)
    assert texts_between(TIMELINE, not_held) is None
    assert texts_between(TIMELINE, replace(uncertain, between=(OLD.id, "missing"))) is None
