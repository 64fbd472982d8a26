"""The source endpoint's timeline JSON, from small hand-made timelines (no corpus needed)."""

from __future__ import annotations

import json
from datetime import date

from asat_corpus.act import ActRef, Compilation, SourceFormat
from asat_corpus.amendment import AmendingAct, Commencement
from asat_corpus.corpus_build import CompilationResult
from asat_corpus.endnotes import Endnotes
from asat_corpus.parse_report import ParseReport
from asat_corpus.provision import Bound, BoundMethod, ProvisionTimeline, ProvisionVersion, VersionGap
from asat_research.timeline_view import act_assents, timeline_json

ORIGINAL = ActRef(38, 1997)
LATE = ActRef(12, 2004)  # added the provision; the text in between is not held
RETRO = ActRef(41, 2017)  # commenced in parts, one part before its assent
RETRO_ASSENT = date(2017, 5, 20)
V1 = "itaa1997:1-1@C2005C00001"
V2 = "itaa1997:1-1@C2018C00001"
RETRO_CANDIDATES = (date(2016, 7, 1), date(2017, 7, 1))


def _version(
    vid: str,
    valid: tuple[Bound, Bound],
    known: tuple[Bound, Bound],
    compiled: tuple[date, ...],
) -> ProvisionVersion:
    assert valid[0].day is not None
    return ProvisionVersion(
        id=vid,
        act="itaa1997",
        number="1-1",
        heading="Test",
        hierarchy=(),
        text="text",
        subsections=(),
        register_ids=(vid.split("@")[1],),
        authorised=True,
        valid_from=valid[0].day,
        valid_to=valid[1].day,
        from_bound=valid[0],
        to_bound=valid[1],
        income_years=(),
        content_hash="h",
        known_from=known[0].day,
        known_to=known[1].day,
        known_from_bound=known[0],
        known_to_bound=known[1],
        compilation_dates=compiled,
    )


def _uncertain(day: date, widest: date) -> Bound:
    """An end set by RETRO: certain on ``day``, possibly as far as ``widest``."""
    return Bound(day, BoundMethod.COMMENCEMENT_SHRUNK, (RETRO,), "several", widest, RETRO_CANDIDATES, True)


def timeline() -> ProvisionTimeline:
    added = Bound(date(2005, 1, 1), BoundMethod.COMPILATION_DATE, (LATE,), "earliest held")
    first = _version(
        V1,
        (added, _uncertain(date(2016, 7, 1), date(2017, 7, 1))),
        (Bound(date(2005, 3, 1), BoundMethod.COMPILATION_DATE), _uncertain(date(2017, 5, 20), date(2017, 7, 1))),
        (date(2005, 3, 1), date(2015, 3, 1)),
    )
    second = _version(
        V2,
        (_uncertain(date(2017, 7, 1), date(2016, 7, 1)), Bound(None, BoundMethod.OPEN)),
        (Bound(date(2018, 1, 1), BoundMethod.COMPILATION_DATE), Bound(None, BoundMethod.OPEN)),
        (date(2018, 1, 1),),
    )
    gaps = (
        VersionGap("itaa1997", "1-1", date(2003, 7, 1), date(2005, 1, 1), (LATE,), "not held"),
        VersionGap(
            "itaa1997",
            "1-1",
            date(2016, 7, 1),
            date(2017, 7, 1),
            (RETRO,),
            "uncertain",
            (V1, V2),
            RETRO_CANDIDATES,
            True,
        ),
    )
    return ProvisionTimeline("itaa1997", "1-1", (second, first), gaps)


def test_the_fields_existing_consumers_read_are_kept_and_items_sorted_by_start() -> None:
    items = timeline_json(timeline(), {RETRO: RETRO_ASSENT})
    assert [(i["type"], i["valid_from"]) for i in items] == [
        ("gap", "2003-07-01"),
        ("version", "2005-01-01"),
        ("gap", "2016-07-01"),
        ("retrospective", "2016-07-01"),
        ("version", "2017-07-01"),
    ]
    first = items[1]
    assert {k: first[k] for k in ("type", "id", "valid_from", "valid_to", "register_ids")} == {
        "type": "version",
        "id": V1,
        "valid_from": "2005-01-01",
        "valid_to": "2016-07-01",
        "register_ids": ["C2005C00001"],
    }
    assert items[4]["valid_to"] is None
    gap = items[0]
    assert {k: gap[k] for k in ("type", "valid_from", "valid_to", "acts", "reason")} == {
        "type": "gap",
        "valid_from": "2003-07-01",
        "valid_to": "2005-01-01",
        "acts": ["Act No. 12, 2004"],
        "reason": "not held",
    }
    assert json.loads(json.dumps(items)) == items  # JSON-ready as it is


def test_a_version_carries_its_uncertain_valid_ends_and_its_known_interval() -> None:
    first, second = (i for i in timeline_json(timeline(), {}) if i["type"] == "version")
    end = first["valid_to_bound"]
    assert end["day"] == "2016-07-01" and end["widest"] == "2017-07-01" and end["uncertain"] is True
    assert end["candidates"] == ["2016-07-01", "2017-07-01"] and end["acts"] == ["Act No. 41, 2017"]
    assert end["method"] == "commencement_uncertain_shrunk" and end["retrospective"] is True
    assert first["valid_from_bound"]["uncertain"] is False and first["valid_from_bound"]["widest"] is None
    assert second["valid_from_bound"]["widest"] == "2016-07-01"
    assert second["valid_to_bound"]["day"] is None and second["valid_to_bound"]["method"] == "open"
    assert (first["known_from"], first["known_to"]) == ("2005-03-01", "2017-05-20")
    assert first["known_to_bound"]["widest"] == "2017-07-01"
    assert first["compilation_dates"] == ["2005-03-01", "2015-03-01"]
    assert (second["known_from"], second["known_to"], second["known_to_bound"]["day"]) == ("2018-01-01", None, None)


def test_gaps_say_whether_the_text_is_one_of_two_held_texts_or_not_held() -> None:
    not_held, uncertain = (i for i in timeline_json(timeline(), {}) if i["type"] == "gap")
    assert not_held["held"] == "not_held" and not_held["between"] is None and not_held["candidates"] == []
    assert not_held["retrospective"] is False
    assert uncertain["held"] == "one_of_two" and uncertain["between"] == [V1, V2]
    assert uncertain["candidates"] == ["2016-07-01", "2017-07-01"] and uncertain["retrospective"] is True


def test_a_retrospective_act_is_one_arrow_from_its_assent_back_to_its_commencement() -> None:
    retro = [i for i in timeline_json(timeline(), {RETRO: RETRO_ASSENT}) if i["type"] == "retrospective"]
    assert retro == [
        {
            "type": "retrospective",
            "act": "Act No. 41, 2017",
            "assent": "2017-05-20",
            "commencement": "2016-07-01",
            "candidates": ["2016-07-01"],  # 2017-07-01 is after the assent: not reaching back
            "valid_from": "2016-07-01",
            "valid_to": "2017-05-20",
        }
    ]


def test_no_arrow_without_an_assent_or_with_every_candidate_after_it() -> None:
    assert not [i for i in timeline_json(timeline(), {}) if i["type"] == "retrospective"]
    late_assent = {RETRO: date(2016, 1, 1)}
    assert not [i for i in timeline_json(timeline(), late_assent) if i["type"] == "retrospective"]


def _compilation(act: str, register_id: str, rows: tuple[AmendingAct, ...] | None) -> CompilationResult:
    compilation = Compilation(
        act, act, register_id, 1, date(2018, 1, 1), None, None, SourceFormat.REGISTER_PDF_LAYOUT_TEXT, (), None, True
    )
    endnotes = Endnotes(register_id, rows[0], rows[1:], ()) if rows else None
    return CompilationResult(compilation, (), ParseReport(register_id), endnotes, None)


def _row(ref: ActRef, assent: date | None) -> AmendingAct:
    return AmendingAct("itaa1997", ref, "t", assent, Commencement("", (), True), "f", 1)


def test_assents_are_read_from_the_acts_own_endnotes() -> None:
    results = [
        _compilation(
            "itaa1997", "C1", (_row(ORIGINAL, date(1997, 4, 17)), _row(RETRO, RETRO_ASSENT), _row(LATE, None))
        ),
        _compilation("itaa1936", "C2", (_row(ActRef(1, 1936), date(1936, 1, 1)),)),
        _compilation("itaa1997", "C3", None),
    ]
    assert act_assents(results, "itaa1997") == {ORIGINAL: date(1997, 4, 17), RETRO: RETRO_ASSENT}


def test_a_gap_naming_several_acts_does_not_lend_its_candidates_to_each() -> None:
    other = ActRef(92, 2020)
    base = timeline()
    several = VersionGap(
        "itaa1997", "1-1", date(2016, 7, 1), date(2017, 7, 1), (RETRO, other), "twice", None, RETRO_CANDIDATES, True
    )
    assents = {RETRO: RETRO_ASSENT, other: date(2020, 10, 14)}
    items = timeline_json(ProvisionTimeline("itaa1997", "1-1", base.versions, (several,)), assents)
    assert [i["act"] for i in items if i["type"] == "retrospective"] == ["Act No. 41, 2017"]
