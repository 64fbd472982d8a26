from __future__ import annotations

from datetime import date

from hypothesis import given
from hypothesis import strategies as st

from asat_research.relevance.aid_record import mask_provision, names_provision, read_aid
from asat_research.relevance.legislative_refs import ActNames

ACTS = ActNames.from_titles({"Income Tax Assessment Act 1936": "itaa1936"})

# The shape of ATO ID 2001/19 (rulings/AID/AID_2001_19.txt), cut to the lines read here.
TEXT = """CAUTION:
This is an edited and summarised record of a Tax Office decision.
Issue
Whether the severance payments made at the end of a completed employment contract are bona fide redundancy payments for the purposes of section 27F of the Income Tax Assessment Act 1936
Decision
The severance payments made at the end of a completed employment contract are not bona fide redundancy payments for the purposes of section 27F of the Income Tax Assessment Act 1936.
Facts
The employees were engaged on fixed-term contracts.
Reasons For Decision
For an amount to be a bona fide redundancy payment it must meet section 27F.
Date of decision:
16 September 1998
Legislative References:
Income Tax Assessment Act 1936 section 27F
Related Public Rulings (including Determinations)
TR 94/12
"""


def test_a_decision_is_read_into_issue_decision_date_and_references() -> None:
    record = read_aid("ATO ID 2001/19", TEXT, ACTS)
    assert record is not None
    assert record.issue.startswith("Whether the severance payments")
    assert record.issue.endswith("Income Tax Assessment Act 1936")
    assert record.decision.startswith("The severance payments")
    assert "fixed-term" not in record.decision
    assert record.decided == date(1998, 9, 16)
    assert [(r.act, r.number) for r in record.held_references] == [("itaa1936", "27F")]


def test_a_decision_without_an_issue_is_not_a_question() -> None:
    assert read_aid("ATO ID 2001/1", "Decision\nYes.\n", ACTS) is None


def test_the_cited_number_is_masked_with_its_labels_and_other_numbers_stay() -> None:
    question = "Is it assessable under subsection 70-45(1A) of the ITAA 1997, or section 6-5?"
    assert mask_provision(question, "70-45") == "Is it assessable under the law of the ITAA 1997, or section 6-5?"
    assert names_provision(question, "70-45") and names_provision(question, "6-5")
    assert not names_provision(question, "70-4") and not names_provision(question, "45")
    assert mask_provision("under Schedule 1 section 12-35", "sch1-12-35") == "under Schedule 1 the law"


@given(st.text(max_size=200), st.from_regex(r"\d{1,3}(-\d{1,3})?[A-Z]?", fullmatch=True))
def test_after_masking_the_number_is_no_longer_named(text: str, number: str) -> None:
    assert not names_provision(mask_provision(text, number), number)
