"""What changed between an answer as given and the same question asked again (pure)."""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from asat_corpus.contracts.research import ResearchOutcome
from asat_web.answer_changes import Change, compare_outcomes, quote_refs
from asat_web.diff import DiffOp, DiffSegment

from .stub_research import QUOTE, TEXT_2026, V2015, V2026, citation, outcome

QUOTE_2026 = "your aggregated turnover is less than $10 million"
START_2026 = TEXT_2026.index(QUOTE_2026)
SCOPE = {"income_year": 2015, "as_of": None, "source": "parameter", "matched": "income_year=2015"}


def answer(**extra: Any) -> ResearchOutcome:
    return ResearchOutcome.model_validate(outcome(**extra))


def reading(source_id: str, *quotes: dict[str, Any]) -> dict[str, Any]:
    return {
        "source_id": source_id,
        "title": f"ITAA 1997 s 328-110 ({source_id})",
        "register_ids": [source_id.split("@")[1]],
        "valid_from": None,
        "valid_to": None,
        "quotes": list(quotes),
    }


def claim(text: str, *cited: dict[str, Any]) -> dict[str, Any]:
    return {"id": "c1", "text": text, "citations": list(cited or (citation(),)), "groundedness": 1.0}


def test_the_same_answer_asked_again_changes_nothing() -> None:
    given_then = answer(audit_id=3)
    now = answer(audit_id=9, request_id="r9", latencies_ms={"resolve": 7.0, "retrieve": 30.0})
    changes = compare_outcomes(given_then, now)
    assert changes.nothing_changed and not changes.answer_changed
    assert changes.decision is None and changes.generation is None and changes.period is None


def test_a_new_corpus_generation_alone_is_not_a_changed_answer() -> None:
    changes = compare_outcomes(answer(), answer(corpus_generation="f" * 32))
    assert changes.generation == Change("0123456789abcdef0123456789abcdef", "f" * 32)
    assert not changes.answer_changed and not changes.nothing_changed


def test_an_answer_that_now_abstains_loses_its_claims_and_gives_its_reasons() -> None:
    changes = compare_outcomes(answer(), answer(answered=False))
    assert changes.decision == Change("answer", "abstain_low_relevance")
    assert changes.claims_removed == ("Turnover under $2 million.",) and changes.claims_added == ()
    assert changes.reasons_added == ("the best passage scored 0.120 on the cosine scale, below the threshold",)
    # The quote is still in the reading list: not a changed quote.
    assert changes.quotes_added == changes.quotes_removed == () and changes.quotes_changed == ()
    assert changes.answer_changed


def test_a_new_version_of_the_same_provision_is_a_changed_quote_with_a_word_diff() -> None:
    new_cite = citation(V2026, QUOTE_2026, START_2026)
    now = answer(
        claims=[claim("Turnover under $10 million.", new_cite)],
        reading_list=[reading(V2026, new_cite)],
        corpus_generation="f" * 32,
    )
    changes = compare_outcomes(answer(reading_list=[reading(V2015, citation())]), now)
    assert changes.decision is None and changes.generation is not None
    assert changes.claims_added == ("Turnover under $10 million.",)
    assert changes.claims_removed == ("Turnover under $2 million.",)
    assert changes.quotes_added == changes.quotes_removed == ()
    (changed,) = changes.quotes_changed
    assert (changed.old.source_id, changed.old.quote) == (V2015, QUOTE)
    assert (changed.new.source_id, changed.new.quote) == (V2026, QUOTE_2026)
    assert DiffSegment(DiffOp.DELETE, "$2") in changed.segments
    assert DiffSegment(DiffOp.INSERT, "$10") in changed.segments
    assert [r.source_id for r in changes.reading_added] == [V2026]
    assert [r.source_id for r in changes.reading_removed] == [V2015]


def test_quotes_of_other_provisions_or_other_words_are_added_and_removed_not_changed() -> None:
    other = citation("itaa1997:328-115@C2015C00285", QUOTE, 0, provision="328-115")
    unlike = citation(V2026, "(1) You are a small business entity", 0)
    now = answer(claims=[claim("Turnover under $2 million.", other, unlike)])
    changes = compare_outcomes(answer(), now)
    assert changes.quotes_changed == () and changes.claims_added == changes.claims_removed == ()
    assert {(q.source_id, q.quote) for q in changes.quotes_added} == {
        ("itaa1997:328-115@C2015C00285", QUOTE),
        (V2026, "(1) You are a small business entity"),
    }
    # The old quote stays in the reading list, so nothing is removed.
    assert changes.quotes_removed == ()


def test_a_quote_moved_to_another_range_of_the_same_version_is_the_same_quote() -> None:
    moved = citation(start=0, quote=QUOTE)
    changes = compare_outcomes(answer(), answer(claims=[claim("Turnover under $2 million.", moved)]))
    assert changes.nothing_changed  # compared by source id and quote text


def test_the_period_answered_for_is_compared_not_where_it_came_from() -> None:
    from_question = SCOPE | {"source": "question", "matched": "FY2015"}
    assert compare_outcomes(answer(scope=SCOPE), answer(scope=from_question)).nothing_changed
    as_at = SCOPE | {"as_of": "2015-03-01"}
    changes = compare_outcomes(answer(scope=SCOPE), answer(scope=as_at))
    assert changes.period == Change("income year 2015", "as at 2015-03-01 (income year 2015)")


def test_each_quote_is_counted_once_claims_first() -> None:
    body = answer(reading_list=[reading(V2015, citation(), citation(start=0, quote="(1) You"))])
    assert [(q.source_id, q.quote) for q in quote_refs(body)] == [(V2015, QUOTE), (V2015, "(1) You")]


# Outcomes built from a few words, so that quotes and claims of two outcomes often coincide.
WORDS = st.sampled_from(["your", "turnover", "is", "less", "than", "$2", "$10", "million", "small", "entity"])
TEXTS = st.lists(WORDS, min_size=1, max_size=6).map(" ".join)
SOURCES = st.sampled_from([V2015, V2026, "itaa1997:328-115@C2015C00285", "tr2019/1@tr2019/1"])


@st.composite
def citations(draw: st.DrawFn) -> dict[str, Any]:
    source_id = draw(SOURCES)
    named = {} if draw(st.booleans()) else {"act": None, "provision": None}
    return citation(source_id, draw(TEXTS), draw(st.integers(0, 400)), **named)


@st.composite
def outcomes(draw: st.DrawFn) -> ResearchOutcome:
    answered = draw(st.booleans())
    claims = [
        {
            "id": f"c{i}",
            "text": draw(TEXTS),
            "citations": draw(st.lists(citations(), min_size=1, max_size=3)),
            "groundedness": 1.0,
        }
        for i in range(draw(st.integers(1, 3)) if answered else 0)
    ]
    sources = draw(st.lists(SOURCES, max_size=3, unique=True))
    body = outcome(
        answered,
        decision="answer" if answered else draw(st.sampled_from(["abstain_low_relevance", "abstain_text_not_held"])),
        reasons=draw(st.lists(TEXTS, max_size=2)),
        claims=claims,
        reading_list=[reading(s, *draw(st.lists(citations(), max_size=3))) for s in sources],
        scope=SCOPE | {"income_year": draw(st.integers(2014, 2027))},
        corpus_generation=draw(st.sampled_from(["a" * 32, "b" * 32])),
        audit_id=draw(st.integers(1, 10_000)),
    )
    return ResearchOutcome.model_validate(body)


@given(outcomes(), st.integers(1, 10_000))
def test_an_outcome_compared_with_itself_reports_no_change(one: ResearchOutcome, audit_id: int) -> None:
    assert compare_outcomes(one, one).nothing_changed
    again = one.model_copy(update={"audit_id": audit_id, "request_id": "again", "latencies_ms": {"gate": 1.0}})
    assert compare_outcomes(one, again).nothing_changed


@given(outcomes(), outcomes())
def test_every_quote_now_is_kept_added_or_a_changed_one_exactly_once(
    old: ResearchOutcome, new: ResearchOutcome
) -> None:
    changes = compare_outcomes(old, new)
    kept = {(q.source_id, q.quote) for q in quote_refs(old)}
    for ref in quote_refs(new):
        key = (ref.source_id, ref.quote)
        places = [
            key in kept,
            ref in changes.quotes_added,
            any(c.new == ref for c in changes.quotes_changed),
        ]
        assert places.count(True) == 1, (ref, places)


@given(outcomes(), outcomes())
def test_claims_and_reading_changes_read_the_same_backwards(old: ResearchOutcome, new: ResearchOutcome) -> None:
    forth, back = compare_outcomes(old, new), compare_outcomes(new, old)
    assert forth.claims_added == back.claims_removed and forth.claims_removed == back.claims_added
    assert forth.reading_added == back.reading_removed and forth.reading_removed == back.reading_added
    assert (forth.decision is None) == (back.decision is None) and forth.answer_changed == back.answer_changed
    assert forth.nothing_changed == back.nothing_changed
