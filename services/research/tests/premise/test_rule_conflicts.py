"""Rules that exclude or limit, read against lines of the law.

The law's lines are a few lines each from the corpus's compilations (named beside each), as a
parser fixture; the questions are phrasings of our own, most not in the project's suite.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from asat_research.premise.detection import detect_premise
from asat_research.premise.rule_conflicts import rule_conflict, rule_conflict_note, rule_readings

# ITAA 1997 s 8-1(1)-(2), C2015C00285
S8_1 = (
    "(1) You can deduct from your assessable income any loss or outgoing to the extent that:\n"
    "(a) it is incurred in gaining or producing your assessable income; or\n"
    "(b) it is necessarily incurred in carrying on a *business for the purpose of gaining or producing your "
    "assessable income.\n"
    "(2) However, you cannot deduct a loss or outgoing under this section to the extent that:\n"
    "(a) it is a loss or outgoing of capital, or of a capital nature; or\n"
    "(b) it is a loss or outgoing of a private or domestic nature; or\n"
    "(c) it is incurred in relation to gaining or producing your *exempt income or your *non-assessable "
    "non-exempt income; or\n"
    "(d) a provision of this Act prevents you from deducting it."
)
# ITAA 1997 s 26-5(1), C2026C00122
S26_5 = (
    "(1) You cannot deduct under this Act:\n"
    "(a) an amount (however described) payable, by way of penalty, under an *Australian law or a *foreign law; or\n"
    "(b) an amount ordered by a court to be paid on the conviction of an entity for an offence against an "
    "*Australian law or a *foreign law."
)
# ITAA 1997 s 32-5, C2015C00285
S32_5 = (
    "To the extent that you incur a loss or outgoing in respect of providing *entertainment, you cannot deduct "
    "it under section 8-1.\n"
    "Note 1: Under section 8-1 you can deduct a loss or outgoing that you incur for the purpose of producing "
    "assessable income."
)
# GST Act s 38-2, C2015C00284
S38_2 = "A supply of *food is GST-free."
# GST Act s 38-3(1), C2015C00284
S38_3 = (
    "(1) A supply is not GST-free under section 38-2 if it is a supply of:\n"
    "(a) *food for consumption on the *premises from which it is supplied; or\n"
    "(b) hot food for consumption away from those premises; or\n"
    "(c) food of a kind specified in the third column of the table in clause 1 of Schedule 1, or food that is "
    "a combination of one or more foods at least one of which is food of such a kind; or\n"
    "(e) food of a kind specified in regulations made for the purposes of this subsection."
)
# ITAA 1997 s 115-10, C2024C00046
S115_10 = (
    "To be a *discount capital gain, the *capital gain must be made by:\n"
    "(a) an individual; or\n"
    "(b) a *complying superannuation entity; or\n"
    "(c) a trust; or\n"
    "(d) a *life insurance company in relation to a *discount capital gain from a *CGT event in respect of a "
    "*CGT asset that is a *complying superannuation asset."
)
# ITAA 1997 s 118-110(1), C2024C00046
S118_110 = (
    "(1) A *capital gain or *capital loss you make from a *CGT event that happens in relation to a *CGT asset "
    "that is a *dwelling or your *ownership interest in it is disregarded if:\n"
    "(a) you are an individual; and\n"
    "(b) the dwelling was your main residence throughout your *ownership period; and\n"
    "(c) the interest did not *pass to you as a beneficiary in, and you did not *acquire it as a trustee of, "
    "the estate of a deceased person."
)
# SIS Act s 65(1), C2015C00230
S65 = (
    "(1) A trustee or an investment manager of a regulated superannuation fund must not:\n"
    "(a) lend money of the fund to:\n"
    "(i) a member of the fund; or\n"
    "(ii) a relative of a member of the fund; or\n"
    "(b) give any other financial assistance using the resources of the fund to:\n"
    "(i) a member of the fund; or\n"
    "(ii) a relative of a member of the fund."
)
# TAA 1953 Sch 1 s 12-35, C2015C00245
S12_35 = (
    "An entity must withhold an amount from salary, wages, commission, bonuses or allowances it pays to an "
    "individual as an employee (whether of that or another entity)."
)
# ITAA 1936 s 109D(1), C2015C00300
S109D = (
    "(1) A private company is taken to pay a dividend to an entity at the end of one of the private company's "
    "years of income (the current year) if:\n"
    "(a) the private company makes a loan to the entity during the current year; and\n"
    "(b) the loan is not fully repaid before the lodgment day for the current year; and\n"
    "(c) Subdivision D does not prevent the private company from being taken to pay a dividend because of the "
    "loan at the end of the current year; and"
)
# ITAA 1997 s 302-60, C2015C00285
S302_60 = (
    "A *superannuation lump sum that you receive because of the death of a person of whom you are a *death "
    "benefits dependant is not assessable income and is not *exempt income."
)
# ITAA 1997 s 26-31(1), C2024C00046
S26_31 = (
    "(1) You cannot deduct under this Act a loss or outgoing you incur, insofar as it is related to travel, if:\n"
    "(a) it is incurred in gaining or producing your assessable income from the use of *residential premises as "
    "residential accommodation; and\n"
    "(b) it is not necessarily incurred in carrying on a *business for the purpose of gaining or producing your "
    "assessable income."
)
# ITAA 1997 s 26-45(1), C2015C00285
S26_45 = (
    "(1) You cannot deduct under this Act a loss or outgoing to the extent you incur it to obtain or maintain:\n"
    "(a) membership of a *recreational club; or\n"
    "(b) rights to enjoy (otherwise than as a *member) facilities provided by a *recreational club for the use "
    "or benefit of its *members;\n"
    "whether for yourself or someone else."
)
# ITAA 1997 s 26-52(1), C2026C00122
S26_52 = (
    "(1) You cannot deduct under this Act a loss or outgoing you incur that is a *bribe to a foreign public official."
)
LAW = [S8_1, S26_5, S32_5, S38_2, S38_3, S115_10, S118_110, S65, S12_35, S109D, S302_60, S26_31, S26_45, S26_52]


def _statements(question: str) -> tuple[str, ...]:
    premise = detect_premise(question)
    assert premise is not None, question
    return premise.statements


# A false premise, the provision that shows it, its kind, and words of the line shown.
FALSE = [
    (
        "Private expenses are deductible under s 8-1 as long as they're paid in the year, aren't they?",
        S8_1,
        "exclusion",
        "private or domestic",
    ),
    (
        "My client's parking fines were incurred at work, so they're deductible, right?",
        S26_5,
        "exclusion",
        "by way of penalty",
    ),
    ("Speeding fines are tax deductible for a courier, aren't they?", S26_5, "exclusion", "by way of penalty"),
    ("Client entertainment is fully deductible as a business expense, yes?", S32_5, "exclusion", "entertainment"),
    ("Hot takeaway chicken is GST-free because it's food, right?", S38_3, "exclusion", "hot food"),
    (
        "A company gets the 50% CGT discount on shares held over a year, doesn't it?",
        S115_10,
        "eligibility",
        "an individual",
    ),
    ("A partnership gets the CGT discount on a block of land, right?", S115_10, "eligibility", "an individual"),
    (
        "The company can use the main residence exemption when it sells the house, correct?",
        S118_110,
        "eligibility",
        "you are an individual",
    ),
    (
        "An SMSF can lend money to a relative of a member at market interest, can't it?",
        S65,
        "exclusion",
        "a relative of a member",
    ),
    (
        "Employers only have to withhold from wages if the employee asks them to, right?",
        S12_35,
        "limitation",
        "must withhold",
    ),
    (
        "A loan from a private company to a shareholder can't be a deemed dividend, can it?",
        S109D,
        "deeming",
        "makes a loan",
    ),
    ("My client can deduct her speeding fines, right?", S26_5, "exclusion", "by way of penalty"),
    (
        "A superannuation lump sum a death benefits dependant receives is assessable income, isn't it?",
        S302_60,
        "exclusion",
        "is not assessable income",
    ),
    # the head before a participle ("penalties imposed under ..."), not the participle
    (
        "Penalties imposed under an Australian law are deductible if incurred in running a business, right?",
        S26_5,
        "exclusion",
        "by way of penalty",
    ),
    # the core named by a paragraph read with its lead-in: "travel" in (1), "residential" in (a)
    (
        "My client's travel to inspect her residential rental property is deductible, right?",
        S26_31,
        "exclusion",
        "residential premises",
    ),
    # a core of several words named by two paragraphs of one list: the first denies it
    (
        "Golf club membership fees paid by a business are deductible, aren't they?",
        S26_45,
        "exclusion",
        "(a) membership of a *recreational club",
    ),
    # "bribes" is the law's "bribe"
    ("Bribes are deductible as a business cost, aren't they?", S26_52, "exclusion", "*bribe to a foreign"),
]


@pytest.mark.parametrize(("question", "law", "kind", "shown"), FALSE)
def test_a_rule_that_denies_the_premise_is_found_and_quoted(question: str, law: str, kind: str, shown: str) -> None:
    conflict = rule_conflict(_statements(question), LAW)
    assert conflict is not None, question
    assert LAW[conflict.passage] == law and conflict.kind == kind
    assert shown in conflict.line and conflict.line in law  # verbatim, with its lead-in
    assert conflict.statement in rule_conflict_note(conflict)


# True premises and statements the law does not deny: never a conflict.
NOT_DENIED = [
    "An individual gets the 50% CGT discount on shares held over 12 months, right?",
    "A trust can get the CGT discount, can't it?",
    "A complying super fund gets the CGT discount, correct?",
    "Individuals can use the main residence exemption for the home they live in, correct?",
    "Food is GST-free, right?",
    "Bread is GST-free because it's food, right?",
    "Cold takeaway sandwiches are GST-free because they're food, right?",
    "Penalty interest on a late-paid business loan is deductible, right?",
    "Work-related car expenses are deductible under section 8-1, right?",
    "An SMSF could lend money to an unrelated business at market interest, couldn't it?",
    "The general interest charge isn't deductible, is it?",
    "Entertainment is not deductible under s 8-1, is it?",
    "Employers must withhold from wages they pay to employees, right?",
    "Employers only have to withhold from wages they pay to an individual as an employee, right?",
    "A loan repaid before the lodgment day can't be a deemed dividend, right?",
    "A loan from a private company is a deemed dividend in some cases, isn't it?",
    "Salary and wages are assessable income, aren't they?",
    # s 26-31 denies travel for residential premises only; s 26-45 club membership, not club fees' GST
    "Travel to a client's office is deductible, right?",
    "Travel expenses for a work conference are deductible, aren't they?",
    "My client's residential rental property's repairs are deductible, right?",
    "Fees paid to a tax agent are deductible, aren't they?",
]


@pytest.mark.parametrize("question", NOT_DENIED)
def test_a_statement_the_law_does_not_deny_is_never_a_conflict(question: str) -> None:
    assert rule_conflict(_statements(question), LAW) is None


@pytest.mark.parametrize(
    ("question", "kind"),
    [
        ("An individual gets the 50% CGT discount, right?", "eligibility"),
        ("A complying super fund gets the CGT discount, correct?", "eligibility"),
        ("Food is GST-free, right?", "exclusion"),
    ],
)
def test_a_line_granting_what_the_statement_asserts_agrees(question: str, kind: str) -> None:
    _, agreements = rule_readings(_statements(question), LAW)
    assert any(a.kind == kind for a in agreements)


@pytest.mark.parametrize(
    "question",
    [
        "Bribes to foreign public officials are not deductible, are they?",
        "Bribes to foreign public officials aren't tax deductible, right?",
        "Speeding fines aren't deductible, are they?",
        "Hot food isn't GST-free, is it?",
        "Golf club membership fees are not deductible, correct?",
    ],
)
def test_a_statement_denying_what_the_law_denies_agrees_and_is_never_rejected(question: str) -> None:
    statements = _statements(question)
    conflicts, agreements = rule_readings(statements, LAW)
    assert conflicts == ()
    assert [a.predicate.startswith("not ") for a in agreements if a.kind == "exclusion"][:1] == [True]


@pytest.mark.parametrize(
    "question",
    [
        "Expenses not related to work are deductible, right?",  # the negation qualifies the subject
        "Bribes are only not deductible if paid overseas, right?",  # limited: asserts an absence
        "Private expenses are not deductible unless they are not paid, right?",  # negates something else too
    ],
)
def test_a_negation_that_is_not_the_predicate_s_own_agrees_with_nothing(question: str) -> None:
    _, agreements = rule_readings(_statements(question), LAW)
    assert not [a for a in agreements if a.predicate.startswith("not ")]


def test_a_statement_denying_what_the_law_grants_is_not_agreed() -> None:
    granted = "(1) You can deduct from your assessable income any loss or outgoing incurred in gaining it."
    _, agreements = rule_readings(
        _statements("Losses incurred in gaining income are not deductible, right?"), [granted]
    )
    assert agreements == ()


def test_a_line_that_both_grants_and_denies_the_same_statement_shows_nothing() -> None:
    # "Food" is granted by s 38-2 and named by one line of a list that denies it: read both ways.
    only_one_line = (
        "(1) A supply is not GST-free if it is a supply of:\n(b) food for consumption away from those premises."
    )
    statements = _statements("Food is GST-free, right?")
    assert rule_conflict(statements, [only_one_line]) is not None
    assert rule_conflict(statements, [only_one_line, S38_2]) is None


def test_a_note_is_not_a_rule() -> None:
    note = "Note: You cannot deduct entertainment under section 8-1."
    assert rule_conflict(_statements("Client entertainment is deductible, right?"), [note]) is None


@given(st.lists(st.text(max_size=120), max_size=4), st.lists(st.text(max_size=300), max_size=4))
def test_any_text_is_read_without_error_and_a_line_is_verbatim(statements: list[str], passages: list[str]) -> None:
    conflicts, agreements = rule_readings(statements, passages)
    for reading in (*conflicts, *agreements):
        assert reading.line in passages[reading.passage]


def test_a_statement_that_gives_no_benefit_is_not_read_against_a_list_of_who_may_have_one() -> None:
    taxed = _statements("A trust is taxed at the top marginal rate on a main residence, right?")
    assert rule_conflict(taxed, [S118_110]) is None


def test_a_negation_of_another_verb_is_not_a_denial() -> None:
    line = "(2) This subsection does not reduce the deduction for a penalty imposed under an Australian law."
    assert rule_conflict(_statements("Speeding fines are deductible, right?"), [line]) is None
    plural = "(2) You cannot claim deductions for a penalty imposed under an Australian law."
    assert rule_conflict(_statements("Speeding fines are deductible, right?"), [plural]) is not None
