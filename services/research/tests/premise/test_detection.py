from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from asat_research.premise.detection import PremiseForm, detect_premise

TAG, OPENER, CONFIRM, CITATION = PremiseForm.TAG, PremiseForm.OPENER, PremiseForm.CONFIRM, PremiseForm.CITATION

# question -> the statements it asserts, and its form
ASSERTING: list[tuple[str, tuple[str, ...], PremiseForm]] = [
    (
        "Since the small business entity turnover threshold was $10 million in 2014-15, my client with $6 million "
        "turnover qualifies, right?",
        (
            "the small business entity turnover threshold was $10 million in 2014-15",
            "my client with $6 million turnover qualifies",
        ),
        TAG,
    ),
    (
        "My client's speeding fines were incurred while driving for work, so they're deductible, right?",
        ("My client's speeding fines were incurred while driving for work", "they're deductible"),
        TAG,
    ),
    (
        "The CGT discount applies once an asset's been held for 6 months, doesn't it?",
        ("The CGT discount applies once an asset's been held for 6 months",),
        TAG,
    ),
    ("Now that GST is 15%, how much GST is in a $1,150 sale in 2025-26?", ("GST is 15%",), OPENER),
    (
        "Given that the Div 293 threshold is $250,000, does my client pay it?",
        ("the Div 293 threshold is $250,000",),
        OPENER,
    ),
    ("Given the discount is 50%, what is taxable?", ("the discount is 50%",), OPENER),
    ("As my client is a base rate entity, what rate applies?", ("my client is a base rate entity",), OPENER),
    ("Because the cap is $30,000, can she contribute more?", ("the cap is $30,000",), OPENER),
    ("Seeing that the offset is 18% how much does she get?", ("the offset is 18%",), OPENER),
    (
        "The Div 293 threshold is still $300,000 in 2025-26, so my client on $270,000 is fine, isn't she?",
        ("The Div 293 threshold is still $300,000 in 2025-26", "my client on $270,000 is fine"),
        TAG,
    ),
    (
        "Client entertainment is fully deductible under s 8-1 as a business expense, yes?",
        ("Client entertainment is fully deductible under s 8-1 as a business expense",),
        TAG,
    ),
    ("GST is 10% isn't it?", ("GST is 10%",), TAG),
    (
        "An SMSF could have up to 10 members in 2014-15, couldn't it?",
        ("An SMSF could have up to 10 members in 2014-15",),
        TAG,
    ),
    ("The FBT rate is 47% \u2014 correct?", ("The FBT rate is 47%",), TAG),
    ("Super is tax-free from age 60, am I right?", ("Super is tax-free from age 60",), TAG),
    ("The tax-free threshold is $18,200, is that right?", ("The tax-free threshold is $18,200",), TAG),
    (
        "Hot takeaway chicken is GST-free because it's food, right?",
        ("Hot takeaway chicken is GST-free", "it's food"),
        TAG,
    ),
    (
        "My client\u2019s company owns the house she lives in \u2014 the company can use the main residence exemption "
        "when it sells, correct?",
        (
            "My client's company owns the house she lives in",
            "the company can use the main residence exemption when it sells",
        ),
        TAG,
    ),
    (
        "Under the spouse contribution offset in 2025-26, the offset cuts out once the spouse earns $13,800, correct?",
        ("Under the spouse contribution offset in 2025-26, the offset cuts out once the spouse earns $13,800",),
        TAG,
    ),
    ("Is it true that the CGT discount is 50% for individuals?", ("the CGT discount is 50% for individuals",), CONFIRM),
    ("Can you confirm that an SMSF can have 6 members?", ("an SMSF can have 6 members",), CONFIRM),
    ("Speeding fines are deductible. Which section says that?", ("Speeding fines are deductible",), CITATION),
    ("Speeding fines are deductible \u2014 where does the law say so?", ("Speeding fines are deductible",), CITATION),
    ("Which section says that speeding fines are deductible?", ("speeding fines are deductible",), CITATION),
]


@pytest.mark.parametrize(("question", "statements", "form"), ASSERTING, ids=[q for q, _, _ in ASSERTING])
def test_an_asserting_question_yields_its_statements(
    question: str, statements: tuple[str, ...], form: PremiseForm
) -> None:
    premise = detect_premise(question)
    assert premise is not None
    assert premise.statements == statements
    assert premise.form is form
    assert premise.asks_confirmation is (form is not OPENER)


PLAIN = [
    "Can my client deduct speeding fines in 2024-25?",
    "What is the CGT discount for an individual?",
    "Is the GST rate 10%?",
    "My client turned over $6 million; what was the threshold in 2014-15?",
    "As a sole trader, can I deduct my home office?",
    "As at 30 June 2020, what was the concessional cap?",
    "Since 1 July 2017, what is the concessional contributions cap?",
    "Since when has the small business threshold been $10 million?",
    "Given my client's age, can she access her super?",
    "Because of the 2017 changes, can my client still claim?",
    "Which section covers car expenses?",
    "What is the law on speeding fines?",
    "How long must an asset be held for the CGT discount, right?",
    "What was the small business entity turnover threshold in 2014-15?",
    "Can I deduct my phone bill, do you think?",
    "Is my client a small business entity, right?",
    "Does the company get the CGT discount, correct?",
    "Should the trust withhold PAYG from these payments, don't you agree?",
]


@pytest.mark.parametrize("question", PLAIN)
def test_a_plain_question_asserts_nothing(question: str) -> None:
    assert detect_premise(question) is None


SUBJECTS = ["the threshold", "the CGT discount", "an SMSF", "the offset", "GST"]
PREDICATES = ["is $2 million", "applies after 12 months", "can have 6 members", "was 15%", "has been abolished"]
TAGS = [", right?", ", correct?", ", isn't it?", ", doesn't it?", ", yes?", ", true?", " \u2014 couldn't it?"]
OPENERS = ["Since", "Given that", "Now that", "Because", "As"]
ASKS = ["how much is payable?", "what does my client pay?", "can my client claim it?", "which rate applies?"]


@given(st.sampled_from(SUBJECTS), st.sampled_from(PREDICATES), st.sampled_from(TAGS))
def test_a_tagged_statement_is_found_whole(subject: str, predicate: str, tag: str) -> None:
    premise = detect_premise(f"{subject} {predicate}{tag}")
    assert premise is not None and premise.statements == (f"{subject} {predicate}",)
    assert premise.asks_confirmation


@given(st.sampled_from(OPENERS), st.sampled_from(SUBJECTS), st.sampled_from(PREDICATES), st.sampled_from(ASKS))
def test_an_opener_clause_is_the_statement_and_the_question_after_it_is_not(
    opener: str, subject: str, predicate: str, ask: str
) -> None:
    premise = detect_premise(f"{opener} {subject} {predicate}, {ask}")
    assert premise is not None and premise.statements == (f"{subject} {predicate}",)
    assert premise.form is OPENER and not premise.asks_confirmation


@given(
    st.sampled_from(["What", "How much", "When", "Can my client claim", "Is", "Does"]),
    st.sampled_from(SUBJECTS),
    st.sampled_from(["in 2014-15", "for an individual", "on a $1,150 sale", ""]),
)
def test_a_plain_question_over_the_same_words_asserts_nothing(lead: str, subject: str, rest: str) -> None:
    assert detect_premise(f"{lead} {subject} {rest}?".replace(" ?", "?")) is None


@given(st.text(max_size=300))
def test_never_raises_and_every_statement_is_nonempty(text: str) -> None:
    premise = detect_premise(text)
    assert premise is None or (premise.statements and all(s.strip() for s in premise.statements))
