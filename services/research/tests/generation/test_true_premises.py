"""Twenty asserting questions whose premise is true are answered by the extractive generator,
never rejected (issue 23): confident phrasing is not a reason to reject.

Each comes with lines of the law a search would offer for it, a few lines each from the corpus's
compilations (named beside each) as a fixture. A question asking to confirm a statement is
answered when the quoted law states it (the same figure for the concept, or a line granting it);
one built on a premise ("Since ..., how ...?") is answered as any question.
"""

from __future__ import annotations

import pytest

from asat_research.generation.extractive import ExtractiveGenerator
from asat_research.generation.port import NumberedSpan
from asat_research.premise.detection import detect_premise

LAW: dict[str, tuple[str, ...]] = {
    # ITAA 1997 s 328-110(1), C2015C00285
    "328-110": (
        "(1) You are a small business entity for an income year (the current year) if:",
        "(a) you carry on a *business in the current year; and",
        "(i) you carried on a business in the income year (the previous year) before the current year and your "
        "*aggregated turnover for the previous year was less than $2 million;",
    ),
    # GST Act s 9-70, C2015C00284
    "9-70": ("The amount of GST on a *taxable supply is 10% of the *value of the taxable supply.",),
    # ITAA 1997 s 115-25(1), C2015C00285
    "115-25": (
        "(1) To be a *discount capital gain, the *capital gain must result from a *CGT event happening to a *CGT "
        "asset that was *acquired by the entity making the capital gain at least 12 months before the CGT event.",
    ),
    # ITAA 1997 s 293-20(1), C2026C00122
    "293-20": (
        "(1) If the sum of:",
        "(a) your *income for surcharge purposes for an income year (disregarding your *reportable "
        "superannuation contributions); and",
        "exceeds $250,000, you have taxable contributions for the income year equal to the lesser of the low tax "
        "contributions and the amount of the excess.",
    ),
    # SIS Act s 17A(1), C2015C00230
    "17A": (
        "(1) Subject to this section, a superannuation fund, other than a fund with only one member, is a self "
        "managed superannuation fund if and only if it satisfies the following conditions:",
        "(a) it has fewer than 5 members;",
    ),
    # ITAA 1997 s 115-10, C2024C00046; a list item too short to quote alone comes joined to the
    # span before it, as the pipeline offers it
    "115-10": (
        "To be a *discount capital gain, the *capital gain must be made by:\n(a) an individual; or",
        "(b) a *complying superannuation entity; or\n(c) a trust; or",
        "(d) a *life insurance company in relation to a *discount capital gain from a *CGT event in respect of a "
        "*CGT asset that is a *complying superannuation asset.",
    ),
    # ITAA 1997 s 118-110(1), C2024C00046
    "118-110": (
        "(1) A *capital gain or *capital loss you make from a *CGT event that happens in relation to a *CGT asset "
        "that is a *dwelling or your *ownership interest in it is disregarded if:",
        "(a) you are an individual; and",
        "(b) the dwelling was your main residence throughout your *ownership period; and",
    ),
    # GST Act ss 38-2 and 38-3(1), C2015C00284
    "38-2": ("A supply of *food is GST-free.",),
    "38-3": (
        "(1) A supply is not GST-free under section 38-2 if it is a supply of:",
        "(a) *food for consumption on the *premises from which it is supplied; or",
        "(b) hot food for consumption away from those premises; or",
    ),
    # ITAA 1997 s 8-1(2), C2015C00285
    "8-1": (
        "(2) However, you cannot deduct a loss or outgoing under this section to the extent that:",
        "(b) it is a loss or outgoing of a private or domestic nature; or",
    ),
    # ITAA 1997 s 26-5(1), C2026C00122
    "26-5": (
        "(1) You cannot deduct under this Act:",
        "(a) an amount (however described) payable, by way of penalty, under an *Australian law or a *foreign law; or",
    ),
    # ITAA 1997 s 32-5, C2015C00285
    "32-5": (
        "To the extent that you incur a loss or outgoing in respect of providing *entertainment, you cannot deduct "
        "it under section 8-1.",
    ),
    # SIS Act s 65(1), C2015C00230
    "65": (
        "(1) A trustee or an investment manager of a regulated superannuation fund must not:",
        "(a) lend money of the fund to:",
        "(i) a member of the fund; or",
    ),
    # ITAA 1997 s 290-230(2), C2026C00122 (the figure's line)
    "290-230": (
        "(2) You are entitled to the *tax offset only if:",
        "(c) the total of your spouse's assessable income, reportable fringe benefits total and reportable "
        "employer superannuation contributions for the income year is less than $40,000.",
    ),
}

TRUE_PREMISES: list[tuple[str, tuple[str, ...]]] = [
    # asked to confirm, and the quoted law states the same figure for the concept
    ("The small business turnover threshold was $2 million in 2014-15, wasn't it?", ("328-110",)),
    ("The GST on a taxable supply is 10% of its value, isn't it?", ("9-70",)),
    ("The CGT discount needs the asset acquired at least 12 months before the CGT event, right?", ("115-25",)),
    ("Division 293 applies once income and low tax contributions exceed $250,000, correct?", ("293-20",)),
    ("An SMSF could have up to 4 members in 2014-15, couldn't it?", ("17A",)),
    ("The spouse contribution offset needs the spouse's income under $40,000, correct?", ("290-230",)),
    # asked to confirm, and a line of the quoted law grants it
    ("An individual gets the 50% CGT discount on shares, right?", ("115-10",)),
    ("A trust can get the CGT discount, can't it?", ("115-10",)),
    ("A complying super fund gets the CGT discount, correct?", ("115-10",)),
    ("Individuals can use the main residence exemption for the home they live in, correct?", ("118-110",)),
    ("Food is GST-free, right?", ("38-2", "38-3")),
    # built on a premise: answered as any question
    ("Since private expenses are not deductible under s 8-1, how do I apportion a phone bill?", ("8-1",)),
    ("Since a company cannot get the CGT discount, what rate applies to its capital gain?", ("115-10",)),
    ("Given that hot food is not GST-free, what about a cold sandwich?", ("38-3",)),
    ("As the GST rate is 10%, how much GST is in a $1,100 sale?", ("9-70",)),
    ("Because penalties are not deductible, what about the legal costs of defending a charge?", ("26-5",)),
    ("Since the asset must be held for 12 months for the CGT discount, when does the period start?", ("115-25",)),
    ("Now that the Division 293 threshold is $250,000, how is the excess worked out?", ("293-20",)),
    ("Given that an SMSF must not lend money to members, can it lend to an unrelated company?", ("65",)),
    ("Since entertainment is not deductible under s 8-1, what exceptions apply?", ("32-5",)),
]


def _spans(sections: tuple[str, ...]) -> list[NumberedSpan]:
    spans: list[NumberedSpan] = []
    for section in sections:
        for text in LAW[section]:
            i = len(spans) + 1
            spans.append(NumberedSpan(f"S{i}", f"{section}-c1#s{i}", section, f"s {section}", text))
    return spans


def test_the_table_holds_twenty_asserting_questions() -> None:
    assert len(TRUE_PREMISES) == 20 and len({q for q, _ in TRUE_PREMISES}) == 20


def _assert_answered(question: str, sections: tuple[str, ...]) -> None:
    """The generator selects from the sections' spans and writes: answered, not rejected or declined."""
    generator = ExtractiveGenerator()
    spans = _spans(sections)
    selected = set(generator.select(question, spans).keys)
    generation = generator.write(question, [s for s in spans if s.key in selected])
    assert not generation.premise_rejected
    assert generation.declined is None
    assert generation.claims


@pytest.mark.parametrize(("question", "sections"), TRUE_PREMISES)
def test_a_true_premise_is_answered_not_rejected(question: str, sections: tuple[str, ...]) -> None:
    assert detect_premise(question) is not None, "the table is of questions that assert something"
    _assert_answered(question, sections)


# Asked to confirm a statement that denies what a line of the quoted law denies, in its words.
DENIED_AS_THE_LAW_DENIES: list[tuple[str, tuple[str, ...]]] = [
    ("Private expenses aren't deductible under s 8-1, are they?", ("8-1",)),
    ("Penalties payable under an Australian law are not deductible, right?", ("26-5",)),
    ("Hot food for consumption away from the premises isn't GST-free, is it?", ("38-2", "38-3")),
    ("Entertainment is not deductible under section 8-1, correct?", ("32-5",)),
]


@pytest.mark.parametrize(("question", "sections"), DENIED_AS_THE_LAW_DENIES)
def test_a_denial_the_law_states_is_answered_not_declined(question: str, sections: tuple[str, ...]) -> None:
    premise = detect_premise(question)
    assert premise is not None and premise.asks_confirmation
    _assert_answered(question, sections)


def test_a_denial_the_quoted_law_does_not_state_is_still_declined() -> None:
    # s 9-70 gives the rate; it denies nothing of exports: quoting is not confirming
    question = "Exports are not subject to GST, are they?"
    generator = ExtractiveGenerator()
    generation = generator.write(question, _spans(("9-70",)))
    assert generation.declined is not None and not generation.premise_rejected
