from __future__ import annotations

import pytest

from asat_research.scope import out_of_scope


@pytest.mark.parametrize(
    "question",
    [
        "What's the NSW payroll tax threshold?",
        "How much stamp duty is payable on a house in Queensland?",
        "What's the rate of GST in New Zealand?",
        "What's Singapore's corporate income tax rate?",
        "Does UK inheritance tax apply to her London flat?",
        "Does she need to file a US federal return?",
        "What's the capital gains inclusion rate in Canada?",
    ],
)
def test_state_and_foreign_tax_questions_are_out_of_scope(question: str) -> None:
    reason = out_of_scope(question)
    assert reason is not None and reason.startswith("out of scope:")


@pytest.mark.parametrize(
    "question",
    [
        "Can my client claim a foreign income tax offset for tax she paid in the UK?",
        "Is a New Zealand pension assessable in Australia for a resident?",
        "Tell us the small business turnover threshold rate for 2015",
        "Can my client claim the cost of fixing the roof on her rental?",
        "What is the GST rate?",
        "How is taxable income worked out?",
        "How much tax does a company pay on its taxable income at the base rate entity rate?",
        "Can the ATO audit a return after four years?",
        "What interest rate applies to a Division 7A loan?",
        "Who is exempt from the Medicare levy?",
    ],
)
def test_australian_treatment_and_ordinary_questions_are_in_scope(question: str) -> None:
    assert out_of_scope(question) is None


@pytest.mark.parametrize(
    "question",
    [
        "My client earned $85,000 salary and $3,000 interest and has $2,000 of deductions. What's her taxable income?",
        "The company made $250,000 profit. Exactly how much tax will it pay?",
        "Will the ATO audit my client's cafe this year?",
        "What's the RBA cash rate right now?",
        "What's the Medicare levy rate for 2025-26?",
        "What were the thresholds for the Medicare levy surcharge?",
        "How much should I charge a client for preparing a trust tax return?",
    ],
)
def test_facts_and_figures_of_acts_not_held_are_out_of_scope(question: str) -> None:
    reason = out_of_scope(question)
    assert reason is not None and reason.startswith("out of scope:")
