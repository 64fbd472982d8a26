from __future__ import annotations

from collections import Counter
from datetime import date
from typing import Any, cast

import pytest
from hypothesis import given
from hypothesis import strategies as st

from asat_corpus.corpus_build import CorpusBuild
from asat_corpus.provision import Bound, BoundMethod, ProvisionTimeline, ProvisionVersion
from asat_research.premise.id_statements import (
    AUXILIARIES,
    Label,
    decision_label,
    issue_statement,
    statement_of,
    version_for,
)
from asat_research.relevance.aid_record import AidRecord
from asat_research.relevance.leakage import LeakageGuard
from asat_research.relevance.legislative_refs import LegislativeRef
from asat_research.relevance.training_data import provision_split


@pytest.mark.parametrize(
    ("decision", "label"),
    [
        ("Yes. The cost is deductible.", Label.SUPPORTED),
        ("Yes, the entity is making a GST-free supply.", Label.SUPPORTED),
        ("No. The taxpayer is not entitled to a deduction.", Label.CONTRADICTED),
        ("No, the entity's net amount cannot be decreased.", Label.CONTRADICTED),
        ("None of the payment is assessable.", None),
        ("(a)Yes. The issue of a single unit ...", None),
        ("The annual deductible amount is ascertained by formula.", None),
        ("", None),
    ],
)
def test_the_label_is_the_decisions_first_word(decision: str, label: Label | None) -> None:
    assert decision_label(decision) is label


@pytest.mark.parametrize(
    ("issue", "statement"),
    [
        (
            "Whether a taxpayer is entitled to a deduction under section 8-1 of the ITAA 1997 for speeding fines?",
            "a taxpayer is entitled to a deduction under section 8-1 of the ITAA 1997 for speeding fines",
        ),
        (
            "Is the entity, a food supplier, making a GST-free supply under section 38-2 of the GST Act, "
            "when it sells soy-based cheese?",
            "the entity, a food supplier, is making a GST-free supply under section 38-2 of the GST Act, "
            "when it sells soy-based cheese",
        ),
        (
            "Can a taxpayer claim a deduction under section 8-1 for the cost of bulky tools?",
            "a taxpayer can claim a deduction under section 8-1 for the cost of bulky tools",
        ),
        (
            "Does the cost of 24-hour home care incurred by a person qualify as a medical expense under section 159P?",
            "the cost of 24-hour home care incurred by a person does qualify as a medical expense under section 159P",
        ),
        (
            "Is a lump sum payment received by a taxpayer for the removal of a motor vehicle assessable income?",
            "a lump sum payment received by a taxpayer for the removal of a motor vehicle is assessable income",
        ),
        (
            "Is the taxpayer, a professional golf caddy, a 'special professional' as defined in section 405-25?",
            "the taxpayer, a professional golf caddy, is a 'special professional' as defined in section 405-25",
        ),
        (
            "Has any CGT event in Division 104 happened to the right to sue?",
            "any CGT event in Division 104 has happened to the right to sue",
        ),
        (
            "Under subsection 138-15(1) of the GST Act, does the entity attribute GST payable to that period?",
            "Under subsection 138-15(1) of the GST Act, the entity does attribute GST payable to that period",
        ),
        (
            "Is there more than one event as described in subsection 707-325(4)?",
            "there is more than one event as described in subsection 707-325(4)",
        ),
        (
            "The fund pays a pension. Is the pension assessable under section 27H?",
            "The fund pays a pension. the pension is assessable under section 27H",
        ),
    ],
)
def test_an_issue_becomes_a_statement(issue: str, statement: str) -> None:
    assert issue_statement(issue) == statement


def test_where_the_subject_cannot_be_told_the_auxiliary_is_dropped() -> None:
    issue = "Are payments for the exclusive right to use a licence 'royalties' under subsection 6(1)?"
    assert (
        issue_statement(issue) == "payments for the exclusive right to use a licence 'royalties' under subsection 6(1)"
    )


VOCABULARY = (
    "the entity taxpayer a an of for under section 8-1 deduction entitled making supply GST-free income "
    "assessable claim apply, when it sells food, trust company loan is can does has"
)
_WORDS = st.sampled_from(VOCABULARY.split())


@given(
    aux=st.sampled_from(sorted(AUXILIARIES)),
    words=st.lists(_WORDS, min_size=1, max_size=25),
    whether=st.booleans(),
)
def test_a_statement_only_moves_the_issues_words(aux: str, words: list[str], whether: bool) -> None:
    """Every word of the Issue stays, in the same case, but "Whether" and (where the subject cannot
    be told from the predicate) the leading auxiliary."""
    issue = ("Whether " if whether else f"{aux.capitalize()} ") + " ".join(words) + "?"
    statement = issue_statement(issue)
    assert "?" not in statement
    issue_words = Counter(issue.rstrip("?").split()[1:])
    kept = Counter(statement.split())
    if whether:
        assert kept == issue_words
    else:
        assert kept in (issue_words, issue_words + Counter([aux]))


def _version(number: str, start: date, end: date | None, text: str = "(1) You cannot deduct a penalty.") -> Any:
    return ProvisionVersion(
        id=f"itaa1997:{number}@{start.year}",
        act="itaa1997",
        number=number,
        heading="Heading",
        hierarchy=(),
        text=text,
        subsections=(),
        register_ids=("C2015C00285",),
        authorised=True,
        valid_from=start,
        valid_to=end,
        from_bound=Bound(start, BoundMethod.AMENDMENT_COMMENCEMENT),
        to_bound=Bound(end, BoundMethod.AMENDMENT_COMMENCEMENT),
        income_years=(start.year,),
        content_hash="x",
    )


def _timeline(number: str, *versions: ProvisionVersion) -> ProvisionTimeline:
    return ProvisionTimeline(act="itaa1997", number=number, versions=versions, gaps=())


def test_the_version_in_force_on_the_decision_date_else_the_nearest_held_one() -> None:
    early = _version("26-5", date(2006, 6, 22), date(2025, 4, 1))
    late = _version("26-5", date(2025, 4, 1), None)
    timeline = _timeline("26-5", late, early)
    assert version_for(timeline, date(2010, 1, 1)) == (early, True)
    assert version_for(timeline, date(2025, 5, 1)) == (late, True)
    assert version_for(timeline, date(2001, 1, 1)) == (early, False)  # before any held text: the first after
    assert version_for(timeline, None) == (early, False)
    assert version_for(_timeline("26-5"), date(2010, 1, 1)) is None


class _Corpus:
    """What ``statement_of`` reads of a corpus: its timelines."""

    def __init__(self, numbers: list[str]) -> None:
        self.timelines = {
            ("itaa1997", n): _timeline(n, _version(n, date(2006, 1, 1), None, f"({n}) text")) for n in numbers
        }

    def timeline(self, act: str, number: str) -> ProvisionTimeline | None:
        return self.timelines.get((act, number))


def _record(issue: str, decision: str, numbers: list[str]) -> AidRecord:
    refs = tuple(LegislativeRef("Income Tax Assessment Act 1997", "itaa1997", n) for n in numbers)
    return AidRecord("ATO ID 2010/1", issue, decision, date(2010, 3, 1), refs)


SECTIONS = [f"{d}-{n}" for d in range(20, 40) for n in (5, 10, 15)]


def test_a_statement_takes_its_slice_from_the_section_its_issue_names_and_evidence_only_from_that_slice() -> None:
    named = SECTIONS[0]
    record = _record(f"Is the cost deductible under section {named}?", "No. It is not.", SECTIONS)
    counts: Counter[str] = Counter()
    s = statement_of(record, cast(CorpusBuild, _Corpus(SECTIONS)), counts, LeakageGuard.of([]))
    assert s is not None
    assert s.about == (("itaa1997", named),) and s.split == provision_split("itaa1997", named)
    assert s.label is Label.CONTRADICTED and s.contradicted and s.in_force
    assert {provision_split(e.act, e.number) for e in s.evidence} == {s.split}
    others = sum(1 for n in SECTIONS if provision_split("itaa1997", n) != s.split)
    assert others > 0 and counts["evidence: a cited section in another slice left out"] == others


@given(st.lists(st.sampled_from(SECTIONS), min_size=1, max_size=12, unique=True))
def test_no_statement_draws_evidence_from_another_slice(numbers: list[str]) -> None:
    record = _record("Is the cost deductible?", "Yes.", numbers)
    s = statement_of(record, cast(CorpusBuild, _Corpus(numbers)), Counter(), LeakageGuard.of([]))
    if s is not None:
        assert all(provision_split(e.act, e.number) == s.split for e in s.evidence)
        assert all(provision_split(*k) == s.split for k in s.about)


def test_the_leakage_guard_drops_a_decision_that_resembles_a_suite_question() -> None:
    question = "My client's speeding fines were incurred while driving for work, so they're deductible, right?"
    record = _record(
        "Are my client's speeding fines incurred while driving for work deductible under section 20-5?",
        "No. Penalties are not deductible.",
        ["20-5"],
    )
    counts: Counter[str] = Counter()
    corpus = cast(CorpusBuild, _Corpus(["20-5"]))
    assert statement_of(record, corpus, counts, LeakageGuard.of([question])) is None
    assert counts["aid: dropped by the leakage guard"] == 1
    assert statement_of(record, corpus, Counter(), LeakageGuard.of(["What is the GST rate?"])) is not None


def test_a_decision_neither_yes_nor_no_or_citing_nothing_held_gives_no_statement() -> None:
    counts: Counter[str] = Counter()
    corpus = cast(CorpusBuild, _Corpus(["20-5"]))
    guard = LeakageGuard.of([])
    assert statement_of(_record("How is it worked out?", "By formula.", ["20-5"]), corpus, counts, guard) is None
    assert statement_of(_record("Is it deductible?", "Yes.", ["99-99"]), corpus, counts, guard) is None
    assert counts["aid: Decision neither Yes nor No"] == 1 and counts["aid: cites no section the corpus holds"] == 1
