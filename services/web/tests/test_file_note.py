"""The file note built from an audit row and the outcome it records as shown (pure)."""

from __future__ import annotations

from datetime import date

import pytest

from asat_corpus.contracts.audit_log import AuditEntryOut, outcome_as_given
from asat_web.file_note import (
    AUTHORISED,
    FileNoteError,
    PredatesFileNotes,
    build_file_note,
    note_from_row,
    period_words,
)
from asat_web.labels import NOT_AUTHORISED

from .file_note_samples import (
    GENERATED,
    QUOTE_2026,
    QUOTE_NOTE,
    QUOTE_RULE,
    V2015,
    audit_row,
    entry_and_outcome,
    outcome_body,
)
from .stub_research import ATTRIBUTION


def test_an_answer_holds_question_period_decision_claims_quotes_versions_and_the_record() -> None:
    entry, outcome = entry_and_outcome(outcome_body())
    note = build_file_note(entry, outcome, GENERATED)
    assert note.question == "What turnover made a business a small business entity in FY2015?"
    assert note.period == "Income year 2015, 1 July 2014 to 30 June 2015; read from the question (\u201cFY2015\u201d)"
    assert (note.decision, note.decision_words, note.answered) == ("answer", "Answer", True)
    assert [c.text for c in note.claims] == [
        "A business with turnover under $2 million was a small business entity.",
        "Aggregated turnover is defined in s 328-115.",
    ]
    assert [q.text for q in note.quotes] == [QUOTE_RULE, QUOTE_NOTE, QUOTE_2026]
    rule = note.claims[0].quotes[0]
    assert rule.version.details == (
        "Act itaa1997; section 328-110; register C2015C00285; in force from 2014-07-01 to 2016-06-30; "
        "authorised version"
    )
    assert rule.where == f"characters [{rule.start}, {rule.end}) of {V2015}"
    assert note.claims[1].quotes[1].version.authority == NOT_AUTHORISED
    assert rule.version.authority == AUTHORISED
    assert (note.reasons_heading, note.reasons) == (
        "Caveats",
        ("The text quoted was in force for the whole income year.",),
    )
    assert note.notices == ("Read s 328-115 for how aggregated turnover is worked out.",)
    assert note.reading_list is None  # an answer shows its claims, not the reading list
    assert note.dropped == "1 further claim failed verification and is not shown."
    assert note.audit.row_id == 42 and note.audit.hash == entry.hash and note.audit.prev_hash == "3f" * 32
    assert note.audit.request_id == "req-7f3a"
    assert note.corpus_generation == outcome.corpus_generation and note.attribution == ATTRIBUTION
    assert note.model == "extractive · extractive-v1" and note.generated_at == GENERATED


def test_an_abstention_holds_its_reasons_and_its_reading_list_with_the_verified_quotes() -> None:
    entry, outcome = entry_and_outcome(outcome_body(answered=False))
    note = build_file_note(entry, outcome, GENERATED)
    assert not note.answered and note.claims == ()
    assert note.decision_words == "No answer: the corpus does not appear to address this question"
    assert note.reasons_heading == "Why there is no answer"
    assert note.reasons == ("the best passage scored 0.120 on the cosine scale, below the threshold of 0.300",)
    assert note.reading_list is not None
    assert [len(item.quotes) for item in note.reading_list] == [2, 1]
    assert note.reading_list[1].in_force == "in force from 2017-07-01, still in force"
    assert [q.text for q in note.quotes] == [QUOTE_RULE, QUOTE_NOTE, QUOTE_2026]
    assert note.notices == ()  # an abstention shows no note


def test_a_period_conflict_says_why_it_was_not_asked_and_has_no_reading_list() -> None:
    conflict = {
        "question": {"income_year": 2024, "matched": "FY2024", "start": "2023-07-01", "end": "2024-06-30"},
        "parameter": {"income_year": 2027, "name": "income_year=2027", "start": "2026-07-01", "end": "2027-06-30"},
        "reason": "the question names income year 2024 but income_year=2027 was given",
    }
    body = outcome_body(
        answered=False,
        decision="period_conflict",
        reasons=[conflict["reason"]],
        reading_list=[],
        period_conflict=conflict,
        scope={"income_year": 2027, "as_of": None, "source": "parameter", "matched": "income_year=2027"},
    )
    note = build_file_note(*entry_and_outcome(body), GENERATED)
    assert note.reasons_heading == "Why it was not asked" and note.reading_list is None
    assert note.period.endswith("chosen in the request (income_year=2027)")


@pytest.mark.parametrize(
    ("scope", "words"),
    [
        (
            {
                "income_year": 2016,
                "as_of": None,
                "as_known_on": date(2015, 10, 31),
                "source": "parameter",
                "matched": "as_known_on=2015-10-31",
            },
            "As known on 2015-10-31: the law as it then stood that day (income year 2016, 1 July 2015 to 30 June "
            "2016); chosen in the request (as_known_on=2015-10-31)",
        ),
        (
            {"income_year": 2015, "as_of": date(2015, 3, 1), "source": "parameter", "matched": "as_of=2015-03-01"},
            "As at 2015-03-01 (income year 2015, 1 July 2014 to 30 June 2015); chosen in the request (as_of=2015-03-01)",
        ),
        (
            {"income_year": 2027, "as_of": None, "source": "default (current income year)", "matched": "today"},
            "Income year 2027, 1 July 2026 to 30 June 2027; the current income year: the question names no period",
        ),
    ],
)
def test_the_period_says_when_and_where_it_came_from(scope: dict[str, object], words: str) -> None:
    outcome = entry_and_outcome(outcome_body(scope=scope))[1]
    assert period_words(outcome.scope) == words


def test_a_row_recording_what_was_shown_makes_the_same_note_as_its_outcome() -> None:
    entry = AuditEntryOut.model_validate(audit_row(outcome_body()))
    assert note_from_row(entry, GENERATED) == build_file_note(entry, outcome_as_given(entry), GENERATED)


def test_a_row_without_shown_predates_file_notes_and_makes_none() -> None:
    entry = AuditEntryOut.model_validate(audit_row(outcome_body(), shown=False))
    with pytest.raises(PredatesFileNotes, match=r"audit row 42 predates file notes.*Ask the question again"):
        note_from_row(entry, GENERATED)


def test_a_row_whose_shown_is_not_an_outcome_makes_none() -> None:
    row = audit_row(outcome_body())
    row["record"]["shown"] = {"decision": "answer"}
    with pytest.raises(FileNoteError, match="not a research outcome"):
        note_from_row(AuditEntryOut.model_validate(row), GENERATED)


@pytest.mark.parametrize(
    ("field", "value"),
    [("decision", "abstain_low_relevance"), ("request_id", "another"), ("corpus_generation", "feedface")],
)
def test_a_row_that_disagrees_with_its_outcome_makes_no_note(field: str, value: str) -> None:
    row = audit_row(outcome_body())
    row["record"][field] = value
    entry = AuditEntryOut.model_validate(row)
    outcome = entry_and_outcome(outcome_body())[1]
    with pytest.raises(FileNoteError, match="disagrees with itself"):
        build_file_note(entry, outcome, GENERATED)


def test_a_quote_the_row_does_not_record_makes_no_note() -> None:
    row = audit_row(outcome_body())
    row["record"]["citations"] = row["record"]["citations"][1:]  # the first claim's quote is not recorded
    row["record"]["verified_quotes"] = []
    with pytest.raises(FileNoteError, match="does not attest"):
        build_file_note(AuditEntryOut.model_validate(row), entry_and_outcome(outcome_body())[1], GENERATED)
