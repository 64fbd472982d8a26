"""Aggregation: the schema's formulas on a hand-made run, and invariants on any run."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from asat_research.evaluation.metrics import METRIC_NAMES, Tally, aggregate, by_tag, count, gate
from asat_research.evaluation.scoring import Verdict
from asat_research.gold import Expect

A, H, M, E = Verdict.ACCURATE, Verdict.HALLUCINATED, Verdict.MISSING, Verdict.ERROR


def tally(expect: Expect, verdict: Verdict, **kw: object) -> Tally:
    decision = {A: "answer", H: "answer", M: "abstain_low_relevance", E: "error"}[verdict]
    gold = 0 if expect is Expect.ABSTAIN else 1
    return Tally(expect, verdict, decision, gold_total=gold, gold_resolved=gold, **kw)  # type: ignore[arg-type]


def test_the_schema_formulas_on_a_hand_made_run() -> None:
    run = [
        tally(Expect.ANSWER, A),
        tally(Expect.ANSWER, A),
        tally(Expect.ANSWER, M),
        tally(Expect.ANSWER, E),
        tally(Expect.REJECT_PREMISE, A),
        tally(Expect.REJECT_PREMISE, H, temporal_violations=2),
        tally(Expect.ABSTAIN, M),
        tally(Expect.ABSTAIN, H),
    ]
    m = aggregate(run)
    assert m.crag_truthfulness == (3 - 2) / 8
    assert m.hallucination_rate == 2 / 8
    assert m.abstention_rate_on_answerable == 1 / 6  # the error is not an abstention
    assert m.false_premise_rejection_rate == 1 / 2
    assert m.correct_abstention_rate == 1 / 2
    assert m.temporal_violation_count == 2
    assert m.referential_integrity_rate == 1.0
    assert list(m.as_dict()) == list(METRIC_NAMES)


def test_rates_over_nothing_are_not_measured() -> None:
    m = aggregate([tally(Expect.ABSTAIN, M)])
    assert m.abstention_rate_on_answerable is None
    assert m.false_premise_rejection_rate is None
    assert m.referential_integrity_rate is None
    assert m.correct_abstention_rate == 1.0
    assert aggregate([]).crag_truthfulness is None


def test_referential_integrity_counts_authorities_of_answerable_cases_only() -> None:
    run = [
        Tally(Expect.ANSWER, A, "answer", gold_total=2, gold_resolved=1),
        Tally(Expect.REJECT_PREMISE, A, "answer", gold_total=2, gold_resolved=2),
        Tally(Expect.ABSTAIN, M, "abstain_text_not_held", gold_total=5, gold_resolved=0),
    ]
    assert aggregate(run).referential_integrity_rate == 3 / 4


def test_gate_passes_only_on_exact_integrity_and_no_violation() -> None:
    good = aggregate([tally(Expect.ANSWER, A)])
    assert gate(good).passed
    unresolved = aggregate([Tally(Expect.ANSWER, A, "answer", gold_total=3, gold_resolved=2)])
    assert not gate(unresolved).passed
    assert "referential_integrity_rate is 0.6667" in gate(unresolved).reasons[0]
    unmeasured = aggregate([tally(Expect.ABSTAIN, M)])
    assert not gate(unmeasured).passed
    assert "could not be measured" in gate(unmeasured).reasons[0]
    violated = aggregate([tally(Expect.ANSWER, H, temporal_violations=1)])
    assert not gate(violated).passed
    assert "temporal_violation_count is 1" in gate(violated).reasons[0]


tallies = st.lists(
    st.builds(
        Tally,
        expect=st.sampled_from(list(Expect)),
        verdict=st.sampled_from(list(Verdict)),
        decision=st.sampled_from(["answer", "abstain_low_relevance", "error"]),
        temporal_violations=st.integers(0, 3),
        gold_total=st.integers(0, 3),
        gold_resolved=st.integers(0, 3),
        tags=st.lists(st.sampled_from(["a", "b", "c"]), max_size=3, unique=True).map(tuple),
    ).filter(lambda t: t.gold_resolved <= t.gold_total),
    max_size=40,
)


@given(tallies)
def test_rates_lie_in_the_unit_interval_and_counts_add_up(run: list[Tally]) -> None:
    m = aggregate(run)
    for name in METRIC_NAMES:
        value = m.as_dict()[name]
        if name == "temporal_violation_count":
            assert value == sum(t.temporal_violations for t in run)
        elif name == "crag_truthfulness":
            assert value is None if not run else -1.0 <= value <= 1.0  # type: ignore[operator]
        else:
            assert value is None or 0.0 <= value <= 1.0
    c = count(run)
    assert c.accurate + c.hallucinated + c.missing + c.error == c.n == len(run)
    assert sum(c.decisions.values()) == c.n
    if run:
        assert m.hallucination_rate == c.hallucinated / c.n
        assert m.crag_truthfulness == (c.accurate - c.hallucinated) / c.n


@given(tallies)
def test_each_tag_counts_exactly_its_cases(run: list[Tally]) -> None:
    groups = by_tag(run)
    assert sorted(groups) == sorted({tag for t in run for tag in t.tags})
    for tag, (metrics, counts) in groups.items():
        tagged = [t for t in run if tag in t.tags]
        assert counts.n == len(tagged)
        assert metrics == aggregate(tagged)
    assert sum(c.n for _, c in groups.values()) == sum(len(t.tags) for t in run)
