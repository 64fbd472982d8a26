from __future__ import annotations

from datetime import date

from hypothesis import given
from hypothesis import strategies as st

from asat_corpus.act import ActRef
from asat_corpus.provision import (
    Bound,
    BoundMethod,
    ProvisionTimeline,
    ProvisionVersion,
    VersionGap,
)
from asat_corpus.resolution import Status
from asat_research.named_provisions import named_provisions, unheld_named_provision


def test_explicit_references_are_read_in_order_without_repeats() -> None:
    question = "Which edition did s 815-135 refer to, and does section 8-1 or subsection 290-230(2) or s 815-135 apply?"
    assert named_provisions(question) == ("815-135", "8-1", "290-230")
    assert named_provisions("Does Division 7A catch a loan under ss 109D?") == ("109D",)
    assert named_provisions("What's a reimbursement agreement under s100A?") == ()


@given(st.integers(min_value=0, max_value=10**7), st.integers(min_value=1990, max_value=2030))
def test_amounts_and_years_are_never_provisions(amount: int, year: int) -> None:
    assert named_provisions(f"Was ${amount:,} the threshold in {year - 1}-{str(year)[2:]} or FY{year}?") == ()


def _version(start: date, end: date | None, years: tuple[int, ...]) -> ProvisionVersion:
    return ProvisionVersion(
        id=f"itaa1997:815-135@{start.year}",
        act="itaa1997",
        number="815-135",
        heading="Guidance",
        hierarchy=(),
        text="(2) The documents are the OECD guidelines.",
        subsections=(),
        register_ids=("C2015C00285",),
        authorised=True,
        valid_from=start,
        valid_to=end,
        from_bound=Bound(start, BoundMethod.AMENDMENT_COMMENCEMENT),
        to_bound=Bound(end, BoundMethod.AMENDMENT_COMMENCEMENT),
        income_years=years,
        content_hash="x",
    )


ACT = ActRef(number=23, year=2019)
TIMELINE = ProvisionTimeline(
    act="itaa1997",
    number="815-135",
    versions=(
        _version(date(2013, 6, 29), date(2016, 7, 1), (2013, 2014, 2015, 2016)),
        _version(date(2024, 1, 1), None, (2024, 2025, 2026)),
    ),
    gaps=(
        VersionGap("itaa1997", "815-135", date(2016, 7, 1), date(2024, 1, 1), (ACT,), "amended between compilations"),
    ),
)


def test_a_named_provision_whose_text_for_the_year_is_a_gap_is_reported_with_its_acts() -> None:
    unheld = unheld_named_provision([TIMELINE], 2019)
    assert unheld is not None and unheld.status is Status.GAP and unheld.label == "itaa1997 815-135"
    assert "text not held" in unheld.message and "2019" in unheld.message


def test_a_named_provision_held_for_the_year_is_not_reported() -> None:
    assert unheld_named_provision([TIMELINE], 2015) is None
    assert unheld_named_provision([TIMELINE], 2026) is None
    assert unheld_named_provision([], 2019) is None


def test_a_named_provision_not_yet_enacted_is_reported_as_such() -> None:
    later = ProvisionTimeline(
        "itaa1997", "815-135", (_version(date(2024, 1, 1), None, (2024, 2025, 2026)),), (), added_by=ACT
    )
    unheld = unheld_named_provision([later], 2015)
    assert unheld is not None and unheld.status is Status.NOT_YET_ENACTED
