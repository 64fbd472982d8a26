"""A rejected premise is said above the answer, in both modes, with the note naming what was wrong."""

from __future__ import annotations

import pytest

from asat_corpus.contracts.research import ResearchOutcome
from asat_web.file_note import PREMISE_REJECTED
from asat_web.rendering import Renderer
from asat_web.turn import Mode, TurnRequest, render_outcome

from .stub_research import outcome

QUESTION = "Since the small business turnover threshold was $10 million in 2014-15, my client qualifies, right?"
NOTE = "The question says the turnover threshold was $10 million; the law in force says $2 million."


@pytest.mark.parametrize("mode", [Mode.RESEARCH, Mode.CHAT])
def test_a_rejected_premise_is_said_before_the_claims(mode: Mode) -> None:
    reply = ResearchOutcome.model_validate(outcome(premise_rejected=True, note=NOTE))
    html = render_outcome(Renderer(), reply, TurnRequest(QUESTION, None, None, mode=mode))["html"]
    assert PREMISE_REJECTED == "The premise is not right."
    assert html.index(PREMISE_REJECTED) < html.index(NOTE) < html.index("Turnover under $2 million.")


@pytest.mark.parametrize("mode", [Mode.RESEARCH, Mode.CHAT])
def test_an_accepted_premise_says_nothing_about_it(mode: Mode) -> None:
    reply = ResearchOutcome.model_validate(outcome())
    html = render_outcome(Renderer(), reply, TurnRequest(QUESTION, None, None, mode=mode))["html"]
    assert PREMISE_REJECTED not in html
